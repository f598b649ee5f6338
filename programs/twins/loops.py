# Twin benchmark: nested integer loops with branches.
import sys


def main():
    total = 0
    count = 0
    out = []
    for i in range(3000):
        for j in range(5000):
            v = (i * j + i + j) % 7
            if v == 0:
                total += i
            elif v < 3:
                total -= j
            else:
                count += 1
        if i % 500 == 0:
            out.append("i=%d total=%d count=%d\n" % (i, total, count))
    out.append("total=%d count=%d\n" % (total, count))
    sys.stdout.write("".join(out))


main()
