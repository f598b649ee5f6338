/* Circular structures in arrays: the Josephus problem by simulation with a
   next[] ring and by recurrence, a ring buffer queue with wrap-around, and
   a sliding-window maximum with a deque. */
#include <stdio.h>

int nxt[100];

int josephus_sim(int n, int k) {
    for (int i = 0; i < n; i++) nxt[i] = (i + 1) % n;
    int prev = n - 1, cur = 0;
    while (nxt[cur] != cur) {
        for (int s = 1; s < k; s++) {
            prev = cur;
            cur = nxt[cur];
        }
        nxt[prev] = nxt[cur];
        cur = nxt[cur];
    }
    return cur;
}

int josephus_rec(int n, int k) { return n == 1 ? 0 : (josephus_rec(n - 1, k) + k) % n; }

int buf[8];
int head = 0, count = 0;

int push(int v) {
    if (count == 8) return 0;
    buf[(head + count) % 8] = v;
    count++;
    return 1;
}

int pop(void) {
    int v = buf[head];
    head = (head + 1) % 8;
    count--;
    return v;
}

int main(void) {
    int mism = 0;
    for (int n = 1; n <= 40; n++)
        for (int k = 1; k <= 7; k++)
            if (josephus_sim(n, k) != josephus_rec(n, k)) mism++;
    printf("josephus mismatches: %d\n", mism);
    for (int n = 5; n <= 40; n += 7) printf("J(%d,3) = %d\n", n, josephus_rec(n, 3));

    int dropped = 0, popped_sum = 0;
    for (int i = 0; i < 50; i++) {
        if (!push(i * i % 17)) dropped++;
        if (i % 3 == 2) popped_sum += pop();
        if (i % 5 == 4 && count > 0) popped_sum += pop();
    }
    printf("ring: dropped=%d popped_sum=%d count=%d head=%d\n", dropped, popped_sum, count, head);
    while (count > 0) printf("%d ", pop());
    printf("\n");

    int a[30], dq[30], front = 0, back = 0, w = 5;
    for (int i = 0; i < 30; i++) a[i] = (i * 47 + 13) % 31;
    for (int i = 0; i < 30; i++) {
        while (back > front && a[dq[back - 1]] <= a[i]) back--;
        dq[back++] = i;
        if (dq[front] <= i - w) front++;
        if (i >= w - 1) printf("%d ", a[dq[front]]);
    }
    printf("\n");
    return 0;
}
