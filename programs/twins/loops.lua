-- Twin benchmark: nested integer loops with branches.
local total = 0
local count = 0
for i = 0, 2999 do
  for j = 0, 4999 do
    local v = (i * j + i + j) % 7
    if v == 0 then
      total = total + i
    elseif v < 3 then
      total = total - j
    else
      count = count + 1
    end
  end
  if i % 500 == 0 then
    io.write(string.format("i=%d total=%d count=%d\n", i, total, count))
  end
end
io.write(string.format("total=%d count=%d\n", total, count))
