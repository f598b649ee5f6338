# Twin benchmark: sorting a list of records {key, weight, name} with list.sort and a table of
# three-way comparison functions (the C version uses qsort and function pointers).
import sys
from functools import cmp_to_key

N = 20000
seed = 2024


class Item(object):
    __slots__ = ("key", "weight", "name")

    def __init__(self, key, weight, name):
        self.key = key
        self.weight = weight
        self.name = name


def next_u():
    global seed
    seed = (seed * 1664525 + 1013904223) & 0xffffffff
    return seed >> 8


def generate(a, n):
    for i in range(n):
        key = next_u() % 10000
        weight = next_u() / 16777216.0 * 100.0
        ln = 3 + next_u() % 8
        chars = []
        for _ in range(ln):
            chars.append(chr(97 + next_u() % 26))
        a[i] = Item(key, weight, "".join(chars))


def cmp_num(a, b):
    return (a > b) - (a < b)


def by_key(a, b):
    c = cmp_num(a.key, b.key)
    if c == 0:
        c = cmp_num(a.name, b.name)
    if c == 0:
        c = cmp_num(a.weight, b.weight)
    return c


def by_weight_desc(a, b):
    c = cmp_num(b.weight, a.weight)
    if c == 0:
        c = cmp_num(a.key, b.key)
    if c == 0:
        c = cmp_num(a.name, b.name)
    return c


def by_name(a, b):
    c = cmp_num(a.name, b.name)
    if c == 0:
        c = cmp_num(b.key, a.key)
    if c == 0:
        c = cmp_num(a.weight, b.weight)
    return c


def by_bucket(a, b):
    c = cmp_num(a.key % 100, b.key % 100)
    if c == 0:
        c = cmp_num(a.weight, b.weight)
    if c == 0:
        c = cmp_num(a.name, b.name)
    if c == 0:
        c = cmp_num(a.key, b.key)
    return c


comparators = [by_key, by_weight_desc, by_name, by_bucket]
cmp_names = ["key", "weight_desc", "name", "bucket"]


def key_hash(a, n):
    h = 0
    for i in range(n):
        h = (h * 31 + a[i].key) % 1000003
    return h


def name_hash(a, n):
    h = 0
    for i in range(n):
        for ch in a[i].name:
            h = (h * 131 + ord(ch)) % 1000003
    return h


def verify(a, n, cmp):
    for i in range(1, n):
        if cmp(a[i - 1], a[i]) > 0:
            return 0
    return 1


def count_found(a, n, probes):
    found = 0
    for _ in range(probes):
        want = next_u() % 10000
        lo = 0
        hi = n
        while lo < hi:
            mid = lo + (hi - lo) // 2
            if a[mid].key < want:
                lo = mid + 1
            else:
                hi = mid
        if lo < n and a[lo].key == want:
            found += 1
    return found


def main():
    out = []
    items = [None] * N
    grand = 0.0
    all_ok = 1
    for p in range(3):
        generate(items, N)
        for c in range(4):
            cmp = comparators[c]
            items.sort(key=cmp_to_key(cmp))
            ok = verify(items, N, cmp)
            all_ok = all_ok and ok
            ws = 0.0
            for i in range(N):
                ws += items[i].weight * (i % 7)
            grand += ws
            out.append("pass %d %-11s ok %d keys %7d names %7d ws %.6f first %s/%d last %s/%d\n"
                       % (p, cmp_names[c], ok, key_hash(items, N), name_hash(items, N), ws,
                          items[0].name, items[0].key, items[N - 1].name, items[N - 1].key))
            if c == 0:
                out.append("pass %d found %d of 5000\n" % (p, count_found(items, N, 5000)))
    out.append("grand %.6f seed %d\n" % (grand, seed))
    sys.stdout.write("".join(out))
    return 0 if all_ok else 1


sys.exit(main())
