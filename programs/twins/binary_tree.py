# Twin benchmark: benchmarks-game binary-trees (item-carrying version): build and check
# trees of node objects; dropped trees are freed by reference counting.
import sys


class Tree(object):
    __slots__ = ("left", "right", "item")

    def __init__(self, left, right, item):
        self.left = left
        self.right = right
        self.item = item


def bottom_up(item, depth):
    if depth > 0:
        l = bottom_up(2 * item - 1, depth - 1)
        r = bottom_up(2 * item, depth - 1)
        return Tree(l, r, item)
    return Tree(None, None, item)


def item_check(t):
    if t.left is None:
        return t.item
    l = item_check(t.left)
    r = item_check(t.right)
    return t.item + l - r


def main():
    out = []
    min_depth, max_depth = 4, 14
    stretch_depth = max_depth + 1
    stretch = bottom_up(0, stretch_depth)
    out.append("stretch tree of depth %d\t check: %d\n" % (stretch_depth, item_check(stretch)))
    stretch = None
    long_lived = bottom_up(0, max_depth)
    for d in range(min_depth, max_depth + 1, 2):
        iterations = 1
        for _ in range(max_depth - d + min_depth):
            iterations *= 2
        check = 0
        for i in range(1, iterations + 1):
            a = bottom_up(i, d)
            check += item_check(a)
            b = bottom_up(-i, d)
            check += item_check(b)
        out.append("%d\t trees of depth %d\t check: %d\n" % (iterations * 2, d, check))
    out.append("long lived tree of depth %d\t check: %d\n" % (max_depth, item_check(long_lived)))
    sys.stdout.write("".join(out))


main()
