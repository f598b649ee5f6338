-- Twin benchmark: sorting an array of records {key, weight, name} with table.sort and a
-- table of three-way comparison functions (the C version uses qsort and function pointers).
-- The LCG is reduced modulo 2^32 without Lua 5.3+ integer operators so LuaJIT runs it too.
local N = 20000
local seed = 2024

local function next_u()
  seed = (seed * 1664525 + 1013904223) % 4294967296
  return math.floor(seed / 256)
end

local function generate(a, n)
  for i = 1, n do
    local key = next_u() % 10000
    local weight = next_u() / 16777216.0 * 100.0
    local len = 3 + next_u() % 8
    local chars = {}
    for j = 1, len do chars[j] = string.char(97 + next_u() % 26) end
    a[i] = { key = key, weight = weight, name = table.concat(chars) }
  end
end

local function cmp_num(a, b)
  if a > b then return 1 elseif a < b then return -1 else return 0 end
end

local function by_key(a, b)
  local c = cmp_num(a.key, b.key)
  if c == 0 then c = cmp_num(a.name, b.name) end
  if c == 0 then c = cmp_num(a.weight, b.weight) end
  return c
end

local function by_weight_desc(a, b)
  local c = cmp_num(b.weight, a.weight)
  if c == 0 then c = cmp_num(a.key, b.key) end
  if c == 0 then c = cmp_num(a.name, b.name) end
  return c
end

local function by_name(a, b)
  local c = cmp_num(a.name, b.name)
  if c == 0 then c = cmp_num(b.key, a.key) end
  if c == 0 then c = cmp_num(a.weight, b.weight) end
  return c
end

local function by_bucket(a, b)
  local c = cmp_num(a.key % 100, b.key % 100)
  if c == 0 then c = cmp_num(a.weight, b.weight) end
  if c == 0 then c = cmp_num(a.name, b.name) end
  if c == 0 then c = cmp_num(a.key, b.key) end
  return c
end

local comparators = { by_key, by_weight_desc, by_name, by_bucket }
local cmp_names = { "key", "weight_desc", "name", "bucket" }

local function key_hash(a, n)
  local h = 0
  for i = 1, n do h = (h * 31 + a[i].key) % 1000003 end
  return h
end

local function name_hash(a, n)
  local h = 0
  for i = 1, n do
    local s = a[i].name
    for j = 1, #s do h = (h * 131 + string.byte(s, j)) % 1000003 end
  end
  return h
end

local function verify(a, n, cmp)
  for i = 2, n do
    if cmp(a[i - 1], a[i]) > 0 then return 0 end
  end
  return 1
end

local function count_found(a, n, probes)
  local found = 0
  for _ = 1, probes do
    local want = next_u() % 10000
    local lo, hi = 1, n + 1
    while lo < hi do
      local mid = lo + math.floor((hi - lo) / 2)
      if a[mid].key < want then lo = mid + 1 else hi = mid end
    end
    if lo <= n and a[lo].key == want then found = found + 1 end
  end
  return found
end

local items = {}
local grand = 0.0
local all_ok = 1
for pass = 0, 2 do
  generate(items, N)
  for c = 1, 4 do
    local cmp = comparators[c]
    table.sort(items, function(a, b) return cmp(a, b) < 0 end)
    local ok = verify(items, N, cmp)
    if ok == 0 then all_ok = 0 end
    local ws = 0.0
    for i = 1, N do ws = ws + items[i].weight * ((i - 1) % 7) end
    grand = grand + ws
    io.write(string.format("pass %d %-11s ok %d keys %7d names %7d ws %.6f first %s/%d last %s/%d\n",
      pass, cmp_names[c], ok, key_hash(items, N), name_hash(items, N), ws,
      items[1].name, items[1].key, items[N].name, items[N].key))
    if c == 1 then
      io.write(string.format("pass %d found %d of 5000\n", pass, count_found(items, N, 5000)))
    end
  end
end
io.write(string.format("grand %.6f seed %d\n", grand, seed))
if all_ok ~= 1 then os.exit(1) end
