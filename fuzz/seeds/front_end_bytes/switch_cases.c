/* switch: fallthrough, default in the middle, nested switches, switch on
   char/long/unsigned values, negative and sparse case labels, no match. */
#include <stdio.h>

int classify(int x) {
    int r = 0;
    switch (x) {
    case 0:
        r += 1;
        /* fall through */
    case 1:
        r += 10;
        break;
    default:
        r += 1000;
        /* fall through */
    case 5:
        r += 100;
        break;
    case -3:
        r = -3;
        break;
    case 100000:
        r = 7;
    }
    return r;
}

int nested(int a, int b) {
    int r = 0;
    switch (a) {
    case 1:
        switch (b) {
        case 1:
            r = 11;
            break;
        case 2:
            r = 12;
            /* fall through */
        default:
            r += 100;
        }
        break; /* leaves the outer switch */
    case 2:
        for (int k = 0; k < 10; k++) {
            switch (k % 3) {
            case 0:
                continue; /* continues the loop */
            case 1:
                r += k;
                break;
            }
            if (k > 6) break; /* leaves the loop */
            r += 1;
        }
        /* fall through */
    case 3:
        r += 1000 * b;
        break;
    }
    return r;
}


int main(void) {
    for (int x = -4; x <= 7; x++) printf("classify(%d) = %d\n", x, classify(x));
    printf("classify(100000) = %d\n", classify(100000));
    for (int a = 0; a <= 3; a++)
        for (int b = 0; b <= 2; b++) printf("nested(%d,%d) = %d\n", a, b, nested(a, b));

    /* switch on a char */
    int vowels = 0, digits = 0, other = 0;
    for (char ch = '0'; ch <= 'z'; ch += 3) {
        switch (ch) {
        case 'a': case 'e': case 'i': case 'o': case 'u':
            vowels++;
            break;
        case '0': case '1': case '2': case '3': case '4':
        case '5': case '6': case '7': case '8': case '9':
            digits++;
            break;
        default:
            other++;
        }
    }
    printf("vowels=%d digits=%d other=%d\n", vowels, digits, other);

    /* switch on long and unsigned values with large labels */
    long big[4] = {5000000000L, -5000000000L, 1L, 0L};
    for (int k = 0; k < 4; k++) {
        switch (big[k]) {
        case 5000000000L: printf("five billion\n"); break;
        case -5000000000L: printf("minus five billion\n"); break;
        case 1: printf("one\n"); break;
        default: printf("long default\n");
        }
    }
    unsigned uv[3] = {4294967295u, 2147483648u, 3u};
    for (int k = 0; k < 3; k++) {
        switch (uv[k]) {
        case 4294967295u: printf("umax\n"); break;
        case 2147483648u: printf("2^31\n"); break;
        default: printf("unsigned default %u\n", uv[k]);
        }
    }
    /* a char value switched against negative value */
    char neg = -1;
    switch (neg) {
    case 127: printf("127 (wrong)\n"); break;
    case -1: printf("minus one\n"); break;
    }
    /* no case matches and there is no default: nothing happens */
    int hit = 0;
    switch (42) {
    case 1: hit = 1; break;
    case 2: hit = 2; break;
    }
    printf("hit = %d\n", hit);
    /* case labels are constant expressions */
    for (int k = 0; k < 8; k++) {
        switch (k) {
        case 1 + 1: printf("two "); break;
        case 3 * 2: printf("six "); break;
        case (1 << 2) | 1: printf("five "); break;
        case 'A' - 65: printf("zero "); break;
        default: printf("%d ", k);
        }
    }
    printf("\n");
    /* duff-like: switch jumping into the middle of a loop body is not used;
       instead count with fallthrough */
    for (int n = 0; n < 5; n++) {
        int steps = 0;
        switch (n) {
        case 4: steps++; /* fall through */
        case 3: steps++; /* fall through */
        case 2: steps++; /* fall through */
        case 1: steps++; /* fall through */
        default: steps *= 10;
        }
        printf("steps(%d) = %d\n", n, steps);
    }
    return 0;
}
