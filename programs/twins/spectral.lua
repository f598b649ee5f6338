-- Twin benchmark: spectral norm of the infinite matrix A(i,j) =
-- 1/((i+j)(i+j+1)/2+i+1), by power iteration on A^T A.
local sqrt = math.sqrt
local u, v, tmp = {}, {}, {}

-- (i+j)(i+j+1) is even, so halving it in floating point is exact (and works in LuaJIT,
-- which has no integer division operator)
local function a(i, j)
  return 1.0 / ((i + j) * (i + j + 1) * 0.5 + i + 1)
end

local function mul_av(n, inp, out)
  for i = 0, n - 1 do
    local s = 0.0
    for j = 0, n - 1 do s = s + a(i, j) * inp[j] end
    out[i] = s
  end
end

local function mul_atv(n, inp, out)
  for i = 0, n - 1 do
    local s = 0.0
    for j = 0, n - 1 do s = s + a(j, i) * inp[j] end
    out[i] = s
  end
end

local function mul_atav(n, inp, out)
  mul_av(n, inp, tmp)
  mul_atv(n, tmp, out)
end

local n = 500
for i = 0, n - 1 do u[i] = 1.0; v[i] = 0.0; tmp[i] = 0.0 end
for it = 0, 9 do
  mul_atav(n, u, v)
  mul_atav(n, v, u)
  local vbv, vv = 0.0, 0.0
  for i = 0, n - 1 do
    vbv = vbv + u[i] * v[i]
    vv = vv + v[i] * v[i]
  end
  io.write(string.format("iteration %d: %.9f\n", it, sqrt(vbv / vv)))
end
