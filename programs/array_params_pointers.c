/* Array parameters and pointers mixed as C allows: pointers (heap blocks, interior pointers,
   structure members, NULL with no access) passed to array parameters, array parameters used
   as pointers, stepped (a++), passed on to pointer parameters, and 2-D rows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct buffer {
    int len;
    int data[8];
};

static long total(const int a[], int n) {
    long s = 0;
    for (int i = 0; i < n; i++) s += a[i];
    return s;
}

static long total_ptr(const int *p, int n) {
    long s = 0;
    while (n-- > 0) s += *p++;
    return s;
}

/* The parameter is stepped: a pointer variable in the body. */
static void fill(int a[], int n, int start) {
    while (n-- > 0) *a++ = start++;
}

/* The parameter used as a pointer value without being assigned. */
static long via_pointer(int a[], int n) {
    int *end = a + n;
    long s = total_ptr(a, n);
    for (int *p = a; p < end; p += 2) s += *p;
    return s + (end - a);
}

static int rows_sum(int m[][3], int rows) {
    int s = 0;
    for (int r = 0; r < rows; r++) s += (int)total(m[r], 3) * (r + 1);
    return s;
}

static int count_or_zero(const int a[], int n) {
    return a == NULL ? -n : (int)total(a, n);
}

static void reverse(char s[]) {
    char *e = s + strlen(s) - 1;
    while (s < e) {
        char t = *s;
        *s++ = *e;
        *e-- = t;
    }
}

int main(void) {
    int local[10];
    fill(local, 10, 1);
    int *heap = malloc(10 * sizeof(int));
    fill(heap, 10, 100);
    struct buffer b = {8, {0}};
    fill(b.data, b.len, -4);
    struct buffer *pb = &b;
    printf("%ld %ld %ld\n", total(local, 10), total(heap, 10), total(pb->data, 8));
    printf("%ld %ld\n", total(local + 3, 7), total(&heap[5], 5));
    printf("%ld %ld\n", via_pointer(local, 10), via_pointer(heap + 2, 8));
    int grid[4][3];
    for (int r = 0; r < 4; r++) fill(grid[r], 3, r * 10);
    int (*rows)[3] = grid + 1;
    printf("%d %d\n", rows_sum(grid, 4), rows_sum(rows, 3));
    printf("%d %d\n", count_or_zero(NULL, 3), count_or_zero(local, 4));
    char word[] = "pointers";
    reverse(word);
    char *copy = malloc(16);
    strcpy(copy, "array params");
    reverse(copy + 6);
    printf("%s %s\n", word, copy);
    free(copy);
    free(heap);
    return 0;
}
