#include <stdio.h>

/* goto with switch: a jump into a case of a switch inside a loop (a second entry into the
   loop), jumps between cases, and a backward goto that runs the switch again. */

int machine(int seed, int steps) {
    int state = seed % 4, acc = seed, n = 0;
    if (seed & 4)
        goto resume;
    while (n < steps) {
        switch (state) {
        case 0:
            acc += 1;
            state = (acc * 7 + n) % 4;
            break;
        case 1:
            acc *= 3;
            acc %= 1000;
        resume:
            state = 2;
            break;
        case 2:
            if (acc & 1)
                goto odd;
            acc /= 2;
            state = 3;
            break;
        default:
        odd:
            acc += n;
            state = 0;
            break;
        }
        n++;
    }
    return acc;
}

int classify(int x) {
    int tries = 0, r = 0;
retry:
    switch (x % 5) {
    case 0:
        r += 1;
        x = x / 5 + 1;
        tries++;
        if (tries < 4)
            goto retry;
        break;
    case 1:
    case 2:
        r += 10;
        break;
    case 3:
        x += 2;
        goto retry;
    default:
        r += 100;
        x += 1;
        if (x % 3)
            goto retry;
        break;
    }
    return r * 10 + tries;
}

int main(void) {
    long acc = 0;
    for (int k = 0; k < 300; k++) {
        acc += machine(k, k % 23);
        acc += classify(k * 11 + 1);
    }
    printf("%ld\n", acc);
    printf("%d %d %d\n", machine(4, 2000), machine(3, 50), classify(3));
    return 0;
}
