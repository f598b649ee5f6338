#include <stdio.h>

/* goto in the ways C programs use it, including jumps into loops that make the control-flow
   graph irreducible (a loop with two entries). */

int state_machine(int input) {
    int state = 0, steps = 0;
start:
    steps++;
    if (input & 1) goto odd;
    input >>= 1;
    state += 2;
    if (input == 0) goto done;
    goto start;
odd:
    input = 3 * input + 1;
    state += 1;
    if (steps > 1000) goto done;
    goto start;
done:
    return state * 1000 + steps;
}

/* Two entries into one loop: irreducible. */
int two_entries(int n, int first_half) {
    int i = 0, sum = 0;
    if (first_half) goto left;
    goto right;
    while (i < n) {
    left:
        sum += i;
        i++;
    right:
        sum += 2 * i;
        i++;
    }
    return sum;
}

/* A loop entered in its middle, and left from a nested loop. */
int search(int limit) {
    int found = -1;
    int a = 1;
    goto inside;
    for (a = 1; a < limit; a++) {
        for (int b = a; b < limit; b++) {
            if (a * a + b * b == 25 * 25 && a > 5) {
                found = a * 100 + b;
                goto out;
            }
        }
    inside:
        if (a % 7 == 0) continue;
    }
out:
    return found;
}

/* Error-handling style: one exit label. */
int checked_sum(int n) {
    int total = 0;
    for (int i = 0; i < n; i++) {
        if (i > 50) goto fail;
        total += i;
    }
    return total;
fail:
    return -1;
}

int main(void) {
    long acc = 0;
    for (int k = 1; k < 300; k++) {
        acc += state_machine(k);
        acc += two_entries(k % 17, k % 2);
    }
    printf("%ld\n", acc);
    printf("%d %d\n", search(30), search(10));
    printf("%d %d\n", checked_sum(10), checked_sum(60));
    return 0;
}
