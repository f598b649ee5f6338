#include <stdio.h>

/* Loops made or entered with goto: loops with two entries (irreducible control flow), nested
   loops entered in the inner loop, loops without any loop statement, and a goto out of
   nested loops. */

/* A do-while loop with three ways in and two ways through its body. */
int two_way_entry(int n, int start) {
    int i = 0, acc = 0;
    if (start % 3 == 0)
        goto mid;
    if (start % 3 == 1)
        goto low;
    do {
        acc += i * 3;
        if (i & 1) {
            acc ^= 5;
        } else {
        mid:
            acc += 7;
        }
    low:
        i++;
    } while (i < n);
    return acc;
}

/* Nested loops entered in the inner loop's body. */
int inner_entry(int rows, int cols) {
    int r = 0, c = 0, sum = 0;
    if (rows > 3)
        goto inside;
    for (r = 0; r < rows; r++) {
        for (c = 0; c < cols; c++) {
            if ((r + c) % 4 == 0)
                continue;
        inside:
            sum += r * 10 + c;
        }
    }
    return sum;
}

/* A loop without a loop statement: a backward goto. */
int gcd_steps(int a, int b) {
    int steps = 0;
again:
    if (b == 0)
        return a * 100 + steps;
    {
        int t = a % b;
        a = b;
        b = t;
    }
    steps++;
    goto again;
}

/* Two blocks that jump to each other, entered at either: a two-entry loop without a loop
   statement. */
int ping_pong(int n) {
    int x = 0, y = 0;
    if (n & 1)
        goto pong;
ping:
    x += n;
    n--;
    if (n <= 0)
        goto done;
pong:
    y += n * 2;
    n--;
    if (n > 0)
        goto ping;
done:
    return x * 1000 + y;
}

/* A goto out of two nested loops. */
int find_pair(int target) {
    int i, j, found = -1;
    for (i = 0; i < 20; i++) {
        for (j = 0; j < 20; j++) {
            if (i * j == target && i < j) {
                found = i * 100 + j;
                goto out;
            }
        }
    }
out:
    return found;
}

int main(void) {
    long acc = 0;
    int i = 0, a = 0, b = 0;
    for (int k = 0; k < 200; k++) {
        acc += two_way_entry(k % 9, k);
        acc += inner_entry(k % 6, k % 5 + 1);
        acc += gcd_steps(k * 7 + 3, k % 13 + 1);
        acc += ping_pong(k % 11);
        acc += find_pair(k % 40);
    }
    printf("%ld\n", acc);
    /* One long activation of a two-entry loop in main: with a late tier-up, main switches to
       instrumented code in the middle of it. */
    if (acc & 1)
        goto second;
first:
    a += i & 7;
    i++;
second:
    if (i % 3 == 0)
        b += i % 5;
    else
        b -= 1;
    i++;
    if (i < 3000)
        goto first;
    printf("%d %d %d\n", i, a, b);
    printf("%d %d %d\n", two_way_entry(10, 0), two_way_entry(10, 1), two_way_entry(10, 2));
    printf("%d %d %d\n", inner_entry(5, 4), ping_pong(7), find_pair(1000));
    return 0;
}
