# Twin benchmark: sieve of Eratosthenes, repeated.
import sys


def main():
    n = 1000000
    composite = [False] * (n + 1)
    out = []
    for round_ in range(12):
        for i in range(n + 1):
            composite[i] = False
        count = 0
        total = 0
        for i in range(2, n + 1):
            if not composite[i]:
                count += 1
                total += i
                for j in range(i * 2, n + 1, i):
                    composite[j] = True
        out.append("round %d: %d primes up to %d, sum %d\n" % (round_, count, n, total))
        n -= 50000
    sys.stdout.write("".join(out))


main()
