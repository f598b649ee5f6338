# Twin benchmark: dense double matrix multiplication, then a checksum.
import sys


def main():
    n = 180
    a = [[(i * n + j) / (n * n) for j in range(n)] for i in range(n)]
    b = [[(j - i) / n + 0.5 for j in range(n)] for i in range(n)]
    c = [[0.0] * n for _ in range(n)]
    out = []
    for rep in range(3):
        for i in range(n):
            ai = a[i]
            ci = c[i]
            for j in range(n):
                s = 0.0
                for k in range(n):
                    s += ai[k] * b[k][j]
                ci[j] = s
        total = 0.0
        for i in range(n):
            for j in range(n):
                total += c[i][j]
        out.append("rep %d: sum %.9f c[0][0] %.9f c[90][60] %.9f c[179][179] %.9f\n"
                   % (rep, total, c[0][0], c[90][60], c[179][179]))
        for i in range(n):
            for j in range(n):
                a[i][j] = c[i][j] / n
    sys.stdout.write("".join(out))


main()
