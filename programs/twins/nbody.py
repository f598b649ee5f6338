# Twin benchmark: n-body simulation of the Jovian planets (one list per
# coordinate, like the C version).
import sys
from math import sqrt

x = [0.0] * 5
y = [0.0] * 5
z = [0.0] * 5
vx = [0.0] * 5
vy = [0.0] * 5
vz = [0.0] * 5
mass = [0.0] * 5


def init():
    pi = 3.141592653589793
    solar_mass = 4 * pi * pi
    dpy = 365.24
    mass[0] = solar_mass
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
    px = py = pz = 0.0
    for i in range(5):
        px += vx[i] * mass[i]
        py += vy[i] * mass[i]
        pz += vz[i] * mass[i]
    vx[0] = -px / solar_mass
    vy[0] = -py / solar_mass
    vz[0] = -pz / solar_mass


def energy():
    e = 0.0
    for i in range(5):
        e += 0.5 * mass[i] * (vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i])
        for j in range(i + 1, 5):
            dx, dy, dz = x[i] - x[j], y[i] - y[j], z[i] - z[j]
            e -= mass[i] * mass[j] / sqrt(dx * dx + dy * dy + dz * dz)
    return e


def advance(dt):
    for i in range(5):
        for j in range(i + 1, 5):
            dx, dy, dz = x[i] - x[j], y[i] - y[j], z[i] - z[j]
            d2 = dx * dx + dy * dy + dz * dz
            mag = dt / (d2 * sqrt(d2))
            vx[i] -= dx * mass[j] * mag
            vy[i] -= dy * mass[j] * mag
            vz[i] -= dz * mass[j] * mag
            vx[j] += dx * mass[i] * mag
            vy[j] += dy * mass[i] * mag
            vz[j] += dz * mass[i] * mag
    for i in range(5):
        x[i] += dt * vx[i]
        y[i] += dt * vy[i]
        z[i] += dt * vz[i]


def main():
    init()
    out = ["%.9f\n" % energy()]
    for step in range(1, 250001):
        advance(0.01)
        if step % 50000 == 0:
            out.append("%.9f\n" % energy())
    sys.stdout.write("".join(out))


main()
