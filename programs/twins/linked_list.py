# Twin benchmark: singly linked lists of node objects: build, traverse, reverse, delete,
# merge sort, dedup, sorted insert (LCG masked to mimic C's unsigned wrap-around).
import sys


class Node(object):
    __slots__ = ("val", "next")

    def __init__(self, val, nxt):
        self.val = val
        self.next = nxt


seed = 7


def rnd(m):
    global seed
    seed = (seed * 1664525 + 1013904223) & 0xffffffff
    return (seed >> 8) % m


def length(p):
    n = 0
    while p is not None:
        n += 1
        p = p.next
    return n


def checksum(p):
    h = 0
    while p is not None:
        h = (h * 31 + p.val) % 1000003
        p = p.next
    return h


def reverse(head):
    prev = None
    while head is not None:
        nx = head.next
        head.next = prev
        prev = head
        head = nx
    return prev


def delete_multiples(head, d):
    removed = 0
    while head is not None and head.val % d == 0:
        head = head.next
        removed += 1
    prev = head
    while prev is not None and prev.next is not None:
        cur = prev.next
        if cur.val % d == 0:
            prev.next = cur.next
            removed += 1
        else:
            prev = cur
    return head, removed


def merge(a, b):
    dummy = Node(0, None)
    t = dummy
    while a is not None and b is not None:
        if a.val <= b.val:
            t.next = a
            a = a.next
        else:
            t.next = b
            b = b.next
        t = t.next
    t.next = a if a is not None else b
    return dummy.next


def merge_sort(h):
    if h is None or h.next is None:
        return h
    slow = h
    fast = h.next
    while fast is not None and fast.next is not None:
        slow = slow.next
        fast = fast.next.next
    second = slow.next
    slow.next = None
    a = merge_sort(h)
    b = merge_sort(second)
    return merge(a, b)


def is_sorted(p):
    while p is not None and p.next is not None:
        if p.val > p.next.val:
            return 0
        p = p.next
    return 1


def dedup(h):
    removed = 0
    while h is not None and h.next is not None:
        if h.next.val == h.val:
            h.next = h.next.next
            removed += 1
        else:
            h = h.next
    return removed


def insert_sorted(head, v):
    if head is None or head.val >= v:
        return Node(v, head)
    p = head
    while p.next is not None and p.next.val < v:
        p = p.next
    p.next = Node(v, p.next)
    return head


def nth(p, k):
    while k > 0:
        p = p.next
        k -= 1
    return p


def main():
    out = []
    rounds = 40
    total_len = total_sum = total_removed = total_dups = 0
    for r in range(rounds):
        head = None
        n = 2000 + rnd(1000)
        for _ in range(n):
            head = Node(rnd(100000), head)
        tail = head
        while tail.next is not None:
            tail = tail.next
        for _ in range(n // 2):
            tail.next = Node(rnd(50000), None)
            tail = tail.next
        ln = length(head)
        c1 = checksum(head)
        head = reverse(head)
        c2 = checksum(head)
        head, removed = delete_multiples(head, 3 + r % 5)
        head = merge_sort(head)
        ok = is_sorted(head)
        dups = dedup(head)
        for _ in range(300):
            head = insert_sorted(head, rnd(100000))
        if ok == 1:
            ok = is_sorted(head)
        len2 = length(head)
        c3 = checksum(head)
        mid = nth(head, len2 // 2).val
        total = 0
        p = head
        while p is not None:
            total += p.val
            p = p.next
        head = None
        total_len += len2
        total_sum += total
        total_removed += removed
        total_dups += dups
        if r % 8 == 0:
            out.append("round %d: len %d c1 %d c2 %d removed %d dups %d len2 %d c3 %d mid %d sorted %d\n"
                       % (r, ln, c1, c2, removed, dups, len2, c3, mid, ok))
    out.append("total len %d sum %d removed %d dups %d seed %d\n"
               % (total_len, total_sum, total_removed, total_dups, seed))
    sys.stdout.write("".join(out))


main()
