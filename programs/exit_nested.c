/* exit() called from deep inside nested calls and loops: output printed so
   far is kept, the rest of the program does not run, the status is 7. */
#include <stdio.h>
#include <stdlib.h>

int steps = 0;

void level3(int n) {
    printf("level3(%d)\n", n);
    if (n == 2) {
        printf("exiting from level3 after %d steps\n", steps);
        exit(7);
    }
}

void level2(int n) {
    for (int i = 0; i < 3; i++) {
        steps++;
        printf("level2(%d) i=%d\n", n, i);
        if (i == 1) level3(n);
    }
}

int level1(int n) {
    while (1) {
        level2(n);
        n++;
    }
    return n;
}

int main(void) {
    printf("start\n");
    int r = level1(0);
    printf("never printed %d\n", r);
    return 0;
}
