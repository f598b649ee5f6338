/* Multi-level pointers: int **, int ***, char ** argv-like tables, pointers to array rows int (*)[N], malloc'd row tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COLS 4

static void set_via_pp(int **pp, int v) { **pp = v; }

static void retarget(int **pp, int *target) { *pp = target; }

static void bump3(int ***ppp) { ***ppp += 1000; }

static int fake_main(int argc, char **argv) {
    int total = 0;
    for (int i = 0; i < argc; i++) {
        printf("argv[%d]=\"%s\" len %zu first '%c'\n", i, argv[i], strlen(argv[i]), *argv[i]);
        total += (int)strlen(argv[i]);
    }
    char **pp = argv;
    while (*pp != NULL) pp++;
    printf("counted %ld args, argv[argc] is null=%d\n", (long)(pp - argv), argv[argc] == NULL);
    return total;
}

static int row_sum(const int (*row)[COLS], int nrows) {
    int s = 0;
    for (int r = 0; r < nrows; r++)
        for (int c = 0; c < COLS; c++) s += row[r][c] * (c + 1);
    return s;
}

static void scale_rows(int (*m)[COLS], int nrows, int k) {
    for (int (*r)[COLS] = m; r < m + nrows; r++)
        for (int *e = *r; e < *r + COLS; e++) *e *= k;
}

static int **make_matrix(int rows, int cols) {
    int **m = malloc(sizeof(int *) * (size_t)rows);
    for (int r = 0; r < rows; r++) {
        m[r] = malloc(sizeof(int) * (size_t)cols);
        for (int c = 0; c < cols; c++) m[r][c] = r * cols + c;
    }
    return m;
}

static void free_matrix(int **m, int rows) {
    for (int r = 0; r < rows; r++) free(m[r]);
    free(m);
}

int main(void) {
    int a = 1, b = 2;
    int *p = &a;
    int **pp = &p;
    int ***ppp = &pp;
    set_via_pp(pp, 11);
    printf("a=%d *p=%d **pp=%d ***ppp=%d\n", a, *p, **pp, ***ppp);
    retarget(pp, &b);
    **pp = 22;
    bump3(ppp);
    printf("a=%d b=%d p==&b:%d\n", a, b, p == &b);

    char arg0[] = "prog";
    char arg1[] = "--verbose";
    char arg2[] = "input.txt";
    char *args[] = {arg0, arg1, arg2, NULL};
    int tl = fake_main(3, args);
    args[1][2] = 'V';
    char **second = &args[1];
    (*second)++;
    printf("total len %d, modified \"%s\" and arg1 now \"%s\"\n", tl, args[1], arg1);

    int m[3][COLS] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}};
    int (*row)[COLS] = m;
    printf("row_sum=%d (*(row+1))[2]=%d row[2][3]=%d *(*(m+2)+1)=%d sizeof *row=%zu\n",
           row_sum((const int (*)[COLS])m, 3), (*(row + 1))[2], row[2][3], *(*(m + 2) + 1), sizeof *row);
    scale_rows(m + 1, 2, -1);
    printf("after scale: %d %d %d sum %d\n", m[0][3], m[1][0], m[2][3], row_sum((const int (*)[COLS])m, 3));

    int **dm = make_matrix(5, 3);
    int *tmp = dm[0];
    dm[0] = dm[4];
    dm[4] = tmp;
    int diag = 0;
    for (int i = 0; i < 3; i++) diag += dm[i][i];
    printf("dm[0][2]=%d dm[4][1]=%d diag=%d\n", dm[0][2], dm[4][1], diag);
    int **walker = dm;
    int col0 = 0;
    while (walker < dm + 5) col0 = col0 * 2 + **walker++;
    printf("col0 code=%d\n", col0);
    free_matrix(dm, 5);

    const char *colors[] = {"red", "green", "blue", "cyan"};
    const char **cp = colors + 3;
    const char *const *ccp = colors;
    printf("%s %s %c %c\n", *cp, ccp[1], **ccp, *(*(cp - 1) + 2));
    return b % 256 == 254 ? 6 : 1;
}
