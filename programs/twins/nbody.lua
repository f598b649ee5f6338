-- Twin benchmark: n-body simulation of the Jovian planets (one array per
-- coordinate, like the C version).
local sqrt = math.sqrt
local x, y, z, vx, vy, vz, mass = {}, {}, {}, {}, {}, {}, {}

local function init()
  local pi = 3.141592653589793
  local solar_mass = 4 * pi * pi
  local dpy = 365.24
  x[0] = 0.0; y[0] = 0.0; z[0] = 0.0; vx[0] = 0.0; vy[0] = 0.0; vz[0] = 0.0; mass[0] = solar_mass
  x[1] = 4.84143144246472090e+00
  y[1] = -1.16032004402742839e+00
  z[1] = -1.03622044471123109e-01
  vx[1] = 1.66007664274403694e-03 * dpy
  vy[1] = 7.69901118419740425e-03 * dpy
  vz[1] = -6.90460016972063023e-05 * dpy
  mass[1] = 9.54791938424326609e-04 * solar_mass
  x[2] = 8.34336671824457987e+00
  y[2] = 4.12479856412430479e+00
  z[2] = -4.03523417114321381e-01
  vx[2] = -2.76742510726862411e-03 * dpy
  vy[2] = 4.99852801234917238e-03 * dpy
  vz[2] = 2.30417297573763929e-05 * dpy
  mass[2] = 2.85885980666130812e-04 * solar_mass
  x[3] = 1.28943695621391310e+01
  y[3] = -1.51111514016986312e+01
  z[3] = -2.23307578892655734e-01
  vx[3] = 2.96460137564761618e-03 * dpy
  vy[3] = 2.37847173959480950e-03 * dpy
  vz[3] = -2.96589568540237556e-05 * dpy
  mass[3] = 4.36624404335156298e-05 * solar_mass
  x[4] = 1.53796971148509165e+01
  y[4] = -2.59193146099879641e+01
  z[4] = 1.79258772950371181e-01
  vx[4] = 2.68067772490389322e-03 * dpy
  vy[4] = 1.62824170038242295e-03 * dpy
  vz[4] = -9.51592254519715870e-05 * dpy
  mass[4] = 5.15138902046611451e-05 * solar_mass
  local px, py, pz = 0.0, 0.0, 0.0
  for i = 0, 4 do
    px = px + vx[i] * mass[i]
    py = py + vy[i] * mass[i]
    pz = pz + vz[i] * mass[i]
  end
  vx[0] = -px / solar_mass
  vy[0] = -py / solar_mass
  vz[0] = -pz / solar_mass
end

local function energy()
  local e = 0.0
  for i = 0, 4 do
    e = e + 0.5 * mass[i] * (vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i])
    for j = i + 1, 4 do
      local dx, dy, dz = x[i] - x[j], y[i] - y[j], z[i] - z[j]
      e = e - mass[i] * mass[j] / sqrt(dx * dx + dy * dy + dz * dz)
    end
  end
  return e
end

local function advance(dt)
  for i = 0, 4 do
    for j = i + 1, 4 do
      local dx, dy, dz = x[i] - x[j], y[i] - y[j], z[i] - z[j]
      local d2 = dx * dx + dy * dy + dz * dz
      local mag = dt / (d2 * sqrt(d2))
      vx[i] = vx[i] - dx * mass[j] * mag
      vy[i] = vy[i] - dy * mass[j] * mag
      vz[i] = vz[i] - dz * mass[j] * mag
      vx[j] = vx[j] + dx * mass[i] * mag
      vy[j] = vy[j] + dy * mass[i] * mag
      vz[j] = vz[j] + dz * mass[i] * mag
    end
  end
  for i = 0, 4 do
    x[i] = x[i] + dt * vx[i]
    y[i] = y[i] + dt * vy[i]
    z[i] = z[i] + dt * vz[i]
  end
end

init()
io.write(string.format("%.9f\n", energy()))
for step = 1, 250000 do
  advance(0.01)
  if step % 50000 == 0 then io.write(string.format("%.9f\n", energy())) end
end
