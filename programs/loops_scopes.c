/* Loops (for with declarations, while, do-while, for(;;)), break and continue
   in nested loops, block scoping and shadowing of locals and globals. */
#include <stdio.h>

int x = 1000; // a global shadowed below
int /* comments may sit anywhere */ total = 0;

void bump(void) { x++; }

int get_x(void) { return x; }

int main(void) {
    printf("global x = %d\n", x);
    int x = 1;
    printf("local x = %d\n", x);
    {
        int x = 2;
        printf("inner x = %d\n", x);
        {
            double x = 3.5;
            printf("innermost x = %.1f\n", x);
        }
        x += 10;
        printf("inner x again = %d\n", x);
    }
    printf("local x again = %d\n", x);
    bump();
    bump();
    printf("local x after bump = %d, global x = %d\n", x, get_x());
    for (int x = 0; x < 3; x++) {
        int y = x * x;
        printf("for x=%d y=%d\n", x, y);
    }
    for (int i = 0, j = 10; i < j; i += 3, j -= 2) printf("i=%d j=%d\n", i, j);

    /* break and continue in nested loops */
    int pairs = 0;
    for (int i = 0; i < 10; i++) {
        if (i % 2) continue;
        for (int j = 0; j < 10; j++) {
            if (j > i) break;
            if ((i + j) % 3 == 0) continue;
            pairs += i * 10 + j;
        }
        if (i == 8) break;
    }
    printf("pairs = %d\n", pairs);

    int n = 0;
    while (1) {
        n++;
        if (n % 7 == 0) continue;
        if (n > 30) break;
        total += n;
    }
    printf("while(1): n=%d total=%d\n", n, total);

    int k = 100;
    do {
        k -= 7;
        if (k % 2 == 0) continue;
        total -= k;
    } while (k > 50);
    printf("do-while: k=%d total=%d\n", k, total);

    int m = 0; // C99 line comment
    // a whole-line comment with "quotes" and /* a block opener
    for (;;) {
        if (++m >= 5) break;
    }
    printf("for(;;): m=%d\n", m);

    /* do-while body runs once even when the condition is false */
    int once = 0;
    do once++; while (0);
    printf("once = %d\n", once);

    /* a while loop that never runs */
    while (0) printf("never\n");
    for (int z = 0; z > 0; z++) printf("never\n");

    /* triple nesting with labels-free early exit via a flag */
    int found = 0, fi = -1, fj = -1, fk = -1;
    for (int i = 1; i < 20 && !found; i++)
        for (int j = i; j < 20 && !found; j++)
            for (int kk = j; kk < 30; kk++)
                if (i * i + j * j == kk * kk && i > 4) {
                    found = 1; fi = i; fj = j; fk = kk;
                    break;
                }
    printf("triple: %d %d %d\n", fi, fj, fk);

    /* continue in a do-while jumps to the condition */
    int cnt = 0, it = 0;
    do {
        it++;
        if (it % 3 == 0) continue;
        cnt++;
    } while (it < 10);
    printf("do continue: it=%d cnt=%d\n", it, cnt);

    /* shadowing in nested loops with the same name */
    int s = 0;
    for (int i = 0; i < 3; i++) {
        for (int i = 10; i < 12; i++) s += i;
        s += i;
    }
    printf("shadowed loop vars: s=%d\n", s);
    /* a declaration inside a loop body is fresh each iteration */
    for (int i = 0; i < 3; i++) {
        int fresh = 5;
        fresh += i;
        printf("fresh=%d ", fresh);
    }
    printf("\n");
    /* uninitialized-then-assigned pattern */
    int later;
    later = x + total;
    printf("later = %d\n", later);
    return 0;
}
