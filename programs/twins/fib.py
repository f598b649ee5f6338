# Twin benchmark: naive recursive Fibonacci.
import sys


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


out = []
for n in range(25, 36, 5):
    out.append("fib(%d) = %d\n" % (n, fib(n)))
sys.stdout.write("".join(out))
