-- Twin benchmark: singly linked lists of nodes (tables): build, traverse, reverse, delete,
-- merge sort, dedup, sorted insert. The LCG is reduced modulo 2^32 without Lua 5.3+ integer
-- operators so LuaJIT runs it too (every intermediate is an integer below 2^53).
local seed = 7

local function rnd(m)
  seed = (seed * 1664525 + 1013904223) % 4294967296
  return math.floor(seed / 256) % m
end

local function new_node(val, nxt)
  return { val = val, next = nxt }
end

local function length(p)
  local n = 0
  while p ~= nil do n = n + 1; p = p.next end
  return n
end

local function checksum(p)
  local h = 0
  while p ~= nil do
    h = (h * 31 + p.val) % 1000003
    p = p.next
  end
  return h
end

local function reverse(head)
  local prev = nil
  while head ~= nil do
    local nx = head.next
    head.next = prev
    prev = head
    head = nx
  end
  return prev
end

-- Unlinks every node whose value is a multiple of d; returns the new head and the count.
local function delete_multiples(head, d)
  local removed = 0
  while head ~= nil and head.val % d == 0 do
    head = head.next
    removed = removed + 1
  end
  local prev = head
  while prev ~= nil and prev.next ~= nil do
    local cur = prev.next
    if cur.val % d == 0 then
      prev.next = cur.next
      removed = removed + 1
    else
      prev = cur
    end
  end
  return head, removed
end

local function merge(a, b)
  local dummy = { val = 0, next = nil }
  local t = dummy
  while a ~= nil and b ~= nil do
    if a.val <= b.val then
      t.next = a
      a = a.next
    else
      t.next = b
      b = b.next
    end
    t = t.next
  end
  if a ~= nil then t.next = a else t.next = b end
  return dummy.next
end

local function merge_sort(h)
  if h == nil or h.next == nil then return h end
  local slow, fast = h, h.next
  while fast ~= nil and fast.next ~= nil do
    slow = slow.next
    fast = fast.next.next
  end
  local second = slow.next
  slow.next = nil
  local a = merge_sort(h)
  local b = merge_sort(second)
  return merge(a, b)
end

local function is_sorted(p)
  while p ~= nil and p.next ~= nil do
    if p.val > p.next.val then return 0 end
    p = p.next
  end
  return 1
end

local function dedup(h)
  local removed = 0
  while h ~= nil and h.next ~= nil do
    if h.next.val == h.val then
      h.next = h.next.next
      removed = removed + 1
    else
      h = h.next
    end
  end
  return removed
end

local function insert_sorted(head, v)
  if head == nil or head.val >= v then return new_node(v, head) end
  local p = head
  while p.next ~= nil and p.next.val < v do p = p.next end
  p.next = new_node(v, p.next)
  return head
end

local function nth(p, k)
  while k > 0 do p = p.next; k = k - 1 end
  return p
end

local rounds = 40
local total_len, total_sum, total_removed, total_dups = 0, 0, 0, 0
for r = 0, rounds - 1 do
  local head = nil
  local n = 2000 + rnd(1000)
  for _ = 1, n do head = new_node(rnd(100000), head) end
  local tail = head
  while tail.next ~= nil do tail = tail.next end
  for _ = 1, math.floor(n / 2) do
    tail.next = new_node(rnd(50000), nil)
    tail = tail.next
  end
  local len = length(head)
  local c1 = checksum(head)
  head = reverse(head)
  local c2 = checksum(head)
  local removed
  head, removed = delete_multiples(head, 3 + r % 5)
  head = merge_sort(head)
  local ok = is_sorted(head)
  local dups = dedup(head)
  for _ = 1, 300 do head = insert_sorted(head, rnd(100000)) end
  if ok == 1 then ok = is_sorted(head) end
  local len2 = length(head)
  local c3 = checksum(head)
  local mid = nth(head, math.floor(len2 / 2)).val
  local sum = 0
  local p = head
  while p ~= nil do sum = sum + p.val; p = p.next end
  head = nil
  total_len = total_len + len2
  total_sum = total_sum + sum
  total_removed = total_removed + removed
  total_dups = total_dups + dups
  if r % 8 == 0 then
    io.write(string.format("round %d: len %d c1 %d c2 %d removed %d dups %d len2 %d c3 %d mid %d sorted %d\n",
      r, len, c1, c2, removed, dups, len2, c3, mid, ok))
  end
end
io.write(string.format("total len %d sum %d removed %d dups %d seed %d\n",
  total_len, total_sum, total_removed, total_dups, seed))
