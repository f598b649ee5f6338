-- Twin benchmark: dense double matrix multiplication, then a checksum.
local n = 180
local a, b, c = {}, {}, {}
for i = 0, n - 1 do
  a[i], b[i], c[i] = {}, {}, {}
  for j = 0, n - 1 do
    a[i][j] = (i * n + j) / (n * n)
    b[i][j] = (j - i) / n + 0.5
    c[i][j] = 0.0
  end
end
for rep = 0, 2 do
  for i = 0, n - 1 do
    local ai, ci = a[i], c[i]
    for j = 0, n - 1 do
      local s = 0.0
      for k = 0, n - 1 do s = s + ai[k] * b[k][j] end
      ci[j] = s
    end
  end
  local sum = 0.0
  for i = 0, n - 1 do
    for j = 0, n - 1 do sum = sum + c[i][j] end
  end
  io.write(string.format("rep %d: sum %.9f c[0][0] %.9f c[90][60] %.9f c[179][179] %.9f\n",
    rep, sum, c[0][0], c[90][60], c[179][179]))
  for i = 0, n - 1 do
    for j = 0, n - 1 do a[i][j] = c[i][j] / n end
  end
end
