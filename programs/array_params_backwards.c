/* Array parameters given interior pointers index backwards (a[-1], v[-j]), as C allows: the element is still inside the caller's object (an array, a heap block, a string). */
#include <stdio.h>
#include <stdlib.h>
static int smooth(int a[], int n) { int i, s = 0; for (i = 0; i < n; i++) s += a[i - 1] + a[i] + a[i + 1]; return s; }
static double prev_sum(double v[], int k) { double s = 0; int j; for (j = 1; j <= k; j++) s += v[-j]; return s; }
static void shift_back(char s[]) { s[-1] = s[0]; }
int main(void) {
    int data[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    double *heap = malloc(6 * sizeof(double));
    char word[] = "xpath";
    int i;
    for (i = 0; i < 6; i++) heap[i] = i * 1.5;
    printf("%d\n", smooth(data + 1, 8));
    printf("%g\n", prev_sum(heap + 5, 5));
    shift_back(word + 1);
    printf("%s\n", word);
    free(heap);
    return 0;
}
