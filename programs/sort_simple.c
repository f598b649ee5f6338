/* Simple sorts on char and int arrays: insertion, selection, bubble with
   early exit, shell sort and counting sort; inversions counted. */
#include <stdio.h>

void insertion_char(char a[], int n) {
    for (int i = 1; i < n; i++) {
        char v = a[i];
        int j = i;
        while (j > 0 && a[j - 1] > v) {
            a[j] = a[j - 1];
            --j;
        }
        a[j] = v;
    }
}

void selection(int a[], int n) {
    for (int i = 0; i < n - 1; i++) {
        int m = i;
        for (int j = i + 1; j < n; j++) if (a[j] < a[m]) m = j;
        if (m != i) {
            int t = a[i];
            a[i] = a[m];
            a[m] = t;
        }
    }
}

int bubble(int a[], int n) {
    int passes = 0, swapped = 1;
    while (swapped) {
        swapped = 0;
        passes++;
        for (int i = 1; i < n; i++) {
            if (a[i - 1] > a[i]) {
                int t = a[i];
                a[i] = a[i - 1];
                a[i - 1] = t;
                swapped = 1;
            }
        }
        n--;
    }
    return passes;
}

void shell(double a[], int n) {
    int gaps[4] = {10, 4, 1, 0};
    for (int g = 0; gaps[g] > 0; g++) {
        int gap = gaps[g];
        for (int i = gap; i < n; i++) {
            double v = a[i];
            int j = i;
            for (; j >= gap && a[j - gap] > v; j -= gap) a[j] = a[j - gap];
            a[j] = v;
        }
    }
}

void counting(int a[], int n, int maxv) {
    int count[64] = {0};
    for (int i = 0; i < n; i++) count[a[i]]++;
    int k = 0;
    for (int v = 0; v <= maxv; v++)
        while (count[v]-- > 0) a[k++] = v;
}

int inversions(int a[], int n) {
    int inv = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) inv += a[i] > a[j];
    return inv;
}

int main(void) {
    char letters[26];
    for (int i = 0; i < 26; i++) letters[i] = (char)('a' + (i * 7 + 3) % 26);
    for (int i = 0; i < 26; i++) putchar(letters[i]);
    putchar('\n');
    insertion_char(letters, 26);
    for (int i = 0; i < 26; i++) putchar(letters[i]);
    putchar('\n');
    char negs[8] = {5, -3, 127, -128, 0, 64, -64, 1};
    insertion_char(negs, 8);
    for (int i = 0; i < 8; i++) printf("%d ", negs[i]);
    printf("\n");

    int a[40], b[40], c[40];
    unsigned x = 7;
    for (int i = 0; i < 40; i++) {
        x = x * 69069u + 1;
        a[i] = (int)(x >> 26);
        b[i] = a[i];
        c[i] = a[i];
    }
    printf("inversions before: %d\n", inversions(a, 40));
    selection(a, 40);
    int passes = bubble(b, 40);
    counting(c, 40, 63);
    int same = 1;
    for (int i = 0; i < 40; i++) if (a[i] != b[i] || a[i] != c[i]) same = 0;
    printf("bubble passes=%d same=%d inversions after=%d\n", passes, same, inversions(a, 40));
    for (int i = 0; i < 40; i++) printf("%d%c", a[i], i % 20 == 19 ? '\n' : ' ');

    double d[37];
    for (int i = 0; i < 37; i++) d[i] = (i * 17 % 37) * 0.25 - 4.0;
    shell(d, 37);
    for (int i = 0; i < 37; i += 4) printf("%.2f ", d[i]);
    printf("\n");
    return 0;
}
