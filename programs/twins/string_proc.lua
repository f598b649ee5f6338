-- Twin benchmark: string processing with byte loops: text generation with string.format and
-- concatenation, tokenizing, length/compare/search, reversal, rot13, replace, sentences.
-- The LCG is reduced modulo 2^32 without Lua 5.3+ integer operators so LuaJIT runs it too.
local byte, char, sub, find, format = string.byte, string.char, string.sub, string.find, string.format
local concat = table.concat

local WORDS = 3000
local ROUNDS = 80
local seed = 99

local function rnd(m)
  seed = (seed * 1664525 + 1013904223) % 4294967296
  return math.floor(seed / 256) % m
end

local syllables = { "ka", "lo", "mi", "a", "ru", "sa", "ti", "vo", "ba", "de", "o", "gu", "ana", "ja", "pe", "zu" }

local function generate(words)
  local parts = {}
  for _ = 1, words do
    local word = ""
    local nsyl = 1 + rnd(3)
    for _ = 1, nsyl do word = word .. syllables[rnd(16) + 1] end
    if rnd(8) == 0 then word = word .. format("%d", rnd(100)) end
    if rnd(5) == 0 then word = char(byte(word, 1) - 32) .. sub(word, 2) end
    parts[#parts + 1] = word
    local r = rnd(12)
    local sep
    if r == 0 then sep = ", " elseif r == 1 then sep = ". " else sep = " " end
    parts[#parts + 1] = sep
  end
  return concat(parts)
end

local IS_SEP = { [32] = true, [44] = true, [46] = true }
local IS_VOWEL = {}
for i = 1, 10 do IS_VOWEL[byte("aeiouAEIOU", i)] = true end

local function reverse(s)
  local out = {}
  local n = #s
  for k = n, 1, -1 do out[n - k + 1] = sub(s, k, k) end
  return concat(out)
end

local function analyze(s)
  local st = { tokens = 0, letters = 0, vowels = 0, digits = 0, caps = 0, palins = 0, hash = 0,
               first = {}, longest = "", minw = "", maxw = "" }
  for k = 0, 25 do st.first[k] = 0 end
  local i, n = 1, #s
  while i <= n do
    while i <= n and IS_SEP[byte(s, i)] do i = i + 1 end
    if i > n then break end
    local j = i
    while j <= n and not IS_SEP[byte(s, j)] do j = j + 1 end
    local tok = sub(s, i, j - 1)
    i = j
    local len = #tok
    st.tokens = st.tokens + 1
    st.letters = st.letters + len
    for k = 1, len do
      local c = byte(tok, k)
      if IS_VOWEL[c] then st.vowels = st.vowels + 1 end
      if c >= 48 and c <= 57 then st.digits = st.digits + 1 end
    end
    local c0 = byte(tok, 1)
    if c0 >= 65 and c0 <= 90 then
      st.caps = st.caps + 1
      st.first[c0 - 65] = st.first[c0 - 65] + 1
    elseif c0 >= 97 and c0 <= 122 then
      st.first[c0 - 97] = st.first[c0 - 97] + 1
    end
    if len > #st.longest then st.longest = tok end
    if st.tokens == 1 or tok < st.minw then st.minw = tok end
    if st.tokens == 1 or tok > st.maxw then st.maxw = tok end
    local rev = reverse(tok)
    if rev == tok then st.palins = st.palins + 1 end
    local h = st.hash
    for k = 1, len do h = (h * 31 + byte(rev, k)) % 1000003 end
    st.hash = h
  end
  return st
end

local function replace_ka(s)
  local out = {}
  local n, count = #s, 0
  local i = 1
  while i <= n do
    if byte(s, i) == 107 and i < n and byte(s, i + 1) == 97 then
      out[#out + 1] = "KA"
      count = count + 1
      i = i + 2
    else
      out[#out + 1] = sub(s, i, i)
      i = i + 1
    end
  end
  return concat(out), count
end

local function rot13(s)
  local out = {}
  for i = 1, #s do
    local c = byte(s, i)
    if c >= 97 and c <= 122 then c = 97 + (c - 97 + 13) % 26
    elseif c >= 65 and c <= 90 then c = 65 + (c - 65 + 13) % 26 end
    out[i] = char(c)
  end
  return concat(out)
end

local function hash_str(s)
  local h = 0
  for i = 1, #s do h = (h * 31 + byte(s, i)) % 1000003 end
  return h
end

local total_len, total_tokens, total_line = 0, 0, 0
local total_a, total_ka, total_sent, mix = 0, 0, 0, 0
for r = 0, ROUNDS - 1 do
  local text = generate(WORDS)
  local len = #text
  local st = analyze(text)
  local count_a = 0
  local q = find(text, "a", 1, true)
  while q ~= nil do
    count_a = count_a + 1
    q = find(text, "a", q + 1, true)
  end
  local sentences, longest_sentence = 0, 0
  local start = 1
  local dot = find(text, ".", start, true)
  while dot ~= nil do
    local l = dot - start
    if l > longest_sentence then longest_sentence = l end
    sentences = sentences + 1
    start = dot + 1
    dot = find(text, ".", start, true)
  end
  local work, ka = replace_ka(text)
  work = rot13(work)
  local h = hash_str(work)
  local line = format("%d/%d/%s/%s/%s", st.tokens, st.vowels, st.minw, st.maxw, st.longest)
  local n = #line
  total_len = total_len + len
  total_tokens = total_tokens + st.tokens
  total_line = total_line + n
  total_a = total_a + count_a
  total_ka = total_ka + ka
  total_sent = total_sent + sentences
  for k = 0, 25 do mix = (mix * 7 + st.first[k]) % 1000003 end
  if r % 20 == 0 then
    io.write(format("round %d: len %d %s (%d chars)\n", r, len, line, n))
    io.write(format("  letters %d digits %d caps %d palins %d hash %d a %d ka %d sent %d/%d rot %d\n",
      st.letters, st.digits, st.caps, st.palins, st.hash, count_a, ka, sentences, longest_sentence, h))
  end
end
io.write(format("totals len %d tokens %d line %d a %d ka %d sentences %d mix %d seed %d\n",
  total_len, total_tokens, total_line, total_a, total_ka, total_sent, mix, seed))
