/* Pointers to scalars and array elements: &, *, p[i] and i[p], pointer arithmetic and
   differences, comparisons, pointers to pointers, pointer parameters, string literals walked
   through char pointers, printf("%s") of char pointers. */
#include <stdio.h>

int table[8] = {5, 3, 9, 1, 7, 2, 8, 6};
long counter;
const char *words[4];

void swap(int *a, int *b) {
    int t = *a;
    *a = *b;
    *b = t;
}

void reverse(int *first, int *last) {
    while (first < last) {
        swap(first, last);
        first++;
        last--;
    }
}

int length(const char *s) {
    const char *p = s;
    while (*p != '\0')
        p++;
    return (int)(p - s);
}

void bubble(int *v, int n) {
    for (int *end = v + n - 1; end > v; end--)
        for (int *p = v; p < end; p++)
            if (p[0] > p[1])
                swap(p, p + 1);
}

int *largest(int *v, int n) {
    int *best = v;
    for (int i = 1; i < n; i++)
        if (v[i] > *best)
            best = &v[i];
    return best;
}

void count_into(long *c, int times) {
    while (times-- > 0)
        (*c)++;
}

int sum_rows(int (*rows)[3], int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 3; j++)
            s += rows[i][j] * (j + 1);
    return s;
}

int main(void) {
    int local[6] = {4, 8, 15, 16, 23, 42};
    int x = 10, y = 20;
    int *px = &x, *py = &y;
    int **ppx = &px;
    swap(px, py);
    printf("x=%d y=%d\n", x, y);
    **ppx += 5;
    *ppx = py;
    **ppx *= 2;
    printf("x=%d y=%d same=%d\n", x, y, px == py);

    reverse(local, local + 5);
    for (int i = 0; i < 6; i++)
        printf("%d%c", i[local], i == 5 ? '\n' : ' ');

    bubble(table, 8);
    for (int *p = table; p != table + 8; p++)
        printf("%d ", *p);
    printf("\n");
    int *big = largest(local, 6);
    printf("largest %d at %ld\n", *big, (long)(big - local));

    count_into(&counter, 7);
    count_into(&counter, 3);
    printf("counter %ld\n", counter);

    words[0] = "alpha";
    words[1] = "beta";
    words[2] = "gamma";
    words[3] = "";
    int total = 0;
    for (int i = 0; i < 4; i++) {
        total += length(words[i]);
        printf("[%s] %d %.2s|\n", words[i], length(words[i]), words[i]);
    }
    const char *msg = "pointer walk";
    for (const char *p = msg + 8; *p; p++)
        putchar(*p);
    putchar('\n');
    char buf[6] = {'h', 'e', 'l', 'l', 'o', 0};
    char *b = buf;
    b[0] = 'j';
    *(b + 4) = 'y';
    printf("%s %c %d\n", buf, *msg, total);

    int grid[2][3] = {{1, 2, 3}, {4, 5, 6}};
    int *cell = &grid[1][1];
    *cell = 50;
    printf("grid %d %d\n", sum_rows(grid, 2), grid[1][1]);
    double d[3] = {1.5, 2.5, 3.5};
    double *pd = &d[2];
    *pd /= 2;
    unsigned char bytes[4] = {1, 2, 3, 250};
    unsigned char *pb = bytes + 3;
    (*pb)++;
    printf("%.2f %d %d\n", d[2], *pb, pd > d);
    return (int)(pd - d) + x % 7;
}
