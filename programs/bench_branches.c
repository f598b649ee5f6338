/* Benchmark: a branch-heavy state machine driven by a switch inside a loop,
   plus an if/else ladder, for path profiling. */
#include <stdio.h>

int main(void) {
    unsigned seed = 2024;
    int state = 0;
    int counts[6] = {0};
    long acc = 0;
    for (int step = 0; step < 60000; step++) {
        seed = seed * 1664525u + 1013904223u;
        int input = (int)(seed >> 29);
        switch (state) {
        case 0:
            state = input < 4 ? 1 : 2;
            break;
        case 1:
            if (input == 0) state = 0;
            else if (input < 5) state = 3;
            else state = 4;
            break;
        case 2:
            acc += input;
            state = input & 1 ? 5 : 1;
            break;
        case 3:
            acc -= input;
            /* fall through */
        case 4:
            state = (state + input) % 6;
            break;
        default:
            acc ^= input;
            state = 0;
        }
        counts[state]++;
    }
    for (int s = 0; s < 6; s++) printf("state %d: %d\n", s, counts[s]);
    printf("acc=%ld\n", acc);
    int ladder[5] = {0};
    for (int i = 0; i < 20000; i++) {
        int v = (i * 7919) % 1000;
        if (v < 100) ladder[0]++;
        else if (v < 300) ladder[1]++;
        else if (v < 600) ladder[2]++;
        else if (v < 900) ladder[3]++;
        else ladder[4]++;
    }
    printf("ladder: %d %d %d %d %d\n", ladder[0], ladder[1], ladder[2], ladder[3], ladder[4]);
    return 0;
}
