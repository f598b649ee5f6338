# Twin benchmark: spectral norm of the infinite matrix A(i,j) =
# 1/((i+j)(i+j+1)/2+i+1), by power iteration on A^T A.
import sys
from math import sqrt


def a(i, j):
    return 1.0 / ((i + j) * (i + j + 1) // 2 + i + 1)


def mul_av(n, inp, out):
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += a(i, j) * inp[j]
        out[i] = s


def mul_atv(n, inp, out):
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += a(j, i) * inp[j]
        out[i] = s


def mul_atav(n, inp, out, tmp):
    mul_av(n, inp, tmp)
    mul_atv(n, tmp, out)


def main():
    n = 500
    u = [1.0] * n
    v = [0.0] * n
    tmp = [0.0] * n
    out = []
    for it in range(10):
        mul_atav(n, u, v, tmp)
        mul_atav(n, v, u, tmp)
        vbv = 0.0
        vv = 0.0
        for i in range(n):
            vbv += u[i] * v[i]
            vv += v[i] * v[i]
        out.append("iteration %d: %.9f\n" % (it, sqrt(vbv / vv)))
    sys.stdout.write("".join(out))


main()
