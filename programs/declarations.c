#include <stdio.h>

typedef int Int;
typedef unsigned int Count;
typedef int Row[3];
typedef const double CD;
enum Color { RED, GREEN = 5, BLUE, };
typedef enum { LOW = -1, MID, HIGH } Level;
static int calls;
static int table[2][3] = { [1] = { 7, 8 }, [0][2] = 3 };
int sparse[10] = { [2] = 20, [7] = 70, 71 };
int auto_size[] = { [4] = 1 };

static int counter(void) {
    static int n = 100;
    static int hist[3];
    volatile int step = 1;
    hist[n % 3] += 1;
    n += step;
    calls++;
    return n + hist[0];
}

int find(int v[], int n, int x) {
    int i = 0;
    for (;;) {
        if (i >= n) goto not_found;
        if (v[i] == x) goto found;
        i++;
    }
found:
    return i;
not_found:
    return -1;
}

int main(void) {
    Int a = 3;
    Count c = 4u;
    Row r = { 1, 2, 3 };
    Row m[2] = { { 1 }, { 4, 5, 6 } };
    CD pi = 3.25;
    enum Color col = BLUE;
    Level lv = LOW;
    int Int2 = 0;
    {
        int Int = 7;   /* hides the typedef */
        Int2 = Int * 2;
    }
    printf("%d %u %d %d %f %d %d %d\n", a, c, r[2], m[1][2], pi, col, (int)lv, Int2);
    printf("%lu %lu %lu %lu %lu %lu\n", sizeof(int), sizeof a, sizeof r, sizeof m, sizeof(Row), sizeof(double[4]));
    printf("%lu %d\n", sizeof(sparse) / sizeof(sparse[0]), (int)(sizeof auto_size / sizeof auto_size[0]));
    for (int i = 0; i < 3; i++) printf("%d ", counter());
    printf("calls=%d\n", calls);
    for (int i = 0; i < 10; i++) printf("%d ", sparse[i]);
    printf("\n%d %d %d %d %d %d\n", table[0][0], table[0][2], table[1][0], table[1][1], table[1][2], GREEN);
    printf("%d %d\n", find(sparse, 10, 70), find(sparse, 10, 5));
    int x = 0, k = 0;
    goto middle;
    while (k < 5) {
        x += 10;
    middle:
        x += 1;
        k++;
    }
    printf("x=%d k=%d lv<0:%d col<0:%d\n", x, k, lv < 0, col - 10 < 0);
    enum { A, B } e = B;
    switch (e) { case A: puts("A"); break; case B: puts("B"); break; }
    int d[3][2] = { [2] = 5, 6, [0][1] = 9 };
    for (int i = 0; i < 6; i++) printf("%d ", d[i / 2][i % 2]);
    printf("\n");
    return 0;
}
