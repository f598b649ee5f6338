/* Dynamic programming: 0/1 knapsack (2-D table and 1-D rolling array),
   longest common subsequence over char arrays, coin change counts with
   unsigned long, edit distance and longest increasing subsequence. */
#include <stdio.h>

int best[21][101];

int max(int a, int b) { return a > b ? a : b; }

int min3(int a, int b, int c) {
    int m = a < b ? a : b;
    return m < c ? m : c;
}

int main(void) {
    int weight[20], value[20];
    unsigned s = 99;
    for (int i = 0; i < 20; i++) {
        s = s * 1664525u + 1013904223u;
        weight[i] = (int)(s >> 28) + 3;
        value[i] = (int)((s >> 20) % 50) + 1;
        printf("item %2d: w=%2d v=%2d\n", i, weight[i], value[i]);
    }
    int cap = 100;
    for (int i = 1; i <= 20; i++)
        for (int w = 0; w <= cap; w++) {
            best[i][w] = best[i - 1][w];
            if (weight[i - 1] <= w) best[i][w] = max(best[i][w], best[i - 1][w - weight[i - 1]] + value[i - 1]);
        }
    printf("knapsack best = %d\n", best[20][cap]);
    /* reconstruct */
    int w = cap;
    printf("chosen:");
    for (int i = 20; i >= 1; i--)
        if (best[i][w] != best[i - 1][w]) {
            printf(" %d", i - 1);
            w -= weight[i - 1];
        }
    printf(" (remaining capacity %d)\n", w);
    int roll[101] = {0};
    for (int i = 0; i < 20; i++)
        for (int c = cap; c >= weight[i]; c--) roll[c] = max(roll[c], roll[c - weight[i]] + value[i]);
    printf("rolling array agrees: %d\n", roll[cap] == best[20][cap]);

    /* LCS of two char sequences */
    char a[12] = {'A', 'G', 'G', 'T', 'A', 'B', 'Q', 'X', 'T', 'Y', 'A', 'B'};
    char b[9] = {'G', 'X', 'T', 'X', 'A', 'Y', 'B', 'Q', 'A'};
    int lcs[13][10];
    for (int i = 0; i <= 12; i++)
        for (int j = 0; j <= 9; j++) {
            if (i == 0 || j == 0) lcs[i][j] = 0;
            else if (a[i - 1] == b[j - 1]) lcs[i][j] = lcs[i - 1][j - 1] + 1;
            else lcs[i][j] = max(lcs[i - 1][j], lcs[i][j - 1]);
        }
    printf("lcs length = %d: ", lcs[12][9]);
    char out[12];
    int k = lcs[12][9], i = 12, j = 9;
    while (i > 0 && j > 0) {
        if (a[i - 1] == b[j - 1]) {
            out[--k] = a[i - 1];
            i--;
            j--;
        } else if (lcs[i - 1][j] >= lcs[i][j - 1]) i--;
        else j--;
    }
    for (k = 0; k < lcs[12][9]; k++) putchar(out[k]);
    putchar('\n');

    /* edit distance between the same sequences */
    int ed[13][10];
    for (i = 0; i <= 12; i++)
        for (j = 0; j <= 9; j++) {
            if (i == 0) ed[i][j] = j;
            else if (j == 0) ed[i][j] = i;
            else ed[i][j] = min3(ed[i - 1][j] + 1, ed[i][j - 1] + 1, ed[i - 1][j - 1] + (a[i - 1] != b[j - 1]));
        }
    printf("edit distance = %d\n", ed[12][9]);

    /* number of ways to make change, grows past 32 bits */
    int coins[6] = {1, 2, 5, 10, 20, 50};
    unsigned long ways[1001] = {1};
    for (int c = 0; c < 6; c++)
        for (int v = coins[c]; v <= 1000; v++) ways[v] += ways[v - coins[c]];
    for (int v = 0; v <= 1000; v += 125) printf("ways(%d) = %lu\n", v, ways[v]);

    /* longest increasing subsequence, O(n^2) */
    int seq[30], lis[30], bestlen = 0;
    for (int t = 0; t < 30; t++) {
        seq[t] = (t * 37 + 11) % 29 - (t % 4) * 3;
        lis[t] = 1;
        for (int u = 0; u < t; u++)
            if (seq[u] < seq[t] && lis[u] + 1 > lis[t]) lis[t] = lis[u] + 1;
        if (lis[t] > bestlen) bestlen = lis[t];
    }
    printf("lis = %d\n", bestlen);
    return 0;
}
