-- Twin benchmark: benchmarks-game binary-trees (item-carrying version): build and check
-- trees of nodes (tables); dropped trees are left to the garbage collector.
local function bottom_up(item, depth)
  if depth > 0 then
    local l = bottom_up(2 * item - 1, depth - 1)
    local r = bottom_up(2 * item, depth - 1)
    return { left = l, right = r, item = item }
  end
  return { left = nil, right = nil, item = item }
end

local function item_check(t)
  if t.left == nil then return t.item end
  local l = item_check(t.left)
  local r = item_check(t.right)
  return t.item + l - r
end

local min_depth, max_depth = 4, 14
local stretch_depth = max_depth + 1
local stretch = bottom_up(0, stretch_depth)
io.write(string.format("stretch tree of depth %d\t check: %d\n", stretch_depth, item_check(stretch)))
stretch = nil
local long_lived = bottom_up(0, max_depth)
for d = min_depth, max_depth, 2 do
  local iterations = 1
  for _ = 1, max_depth - d + min_depth do iterations = iterations * 2 end
  local check = 0
  for i = 1, iterations do
    local a = bottom_up(i, d)
    check = check + item_check(a)
    local b = bottom_up(-i, d)
    check = check + item_check(b)
  end
  io.write(string.format("%d\t trees of depth %d\t check: %d\n", iterations * 2, d, check))
end
io.write(string.format("long lived tree of depth %d\t check: %d\n", max_depth, item_check(long_lived)))
