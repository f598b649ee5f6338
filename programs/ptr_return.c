/* Functions returning pointers: into caller arrays, to static storage, to heap blocks, NULL for not found; pointers to static locals kept across calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int *max_elem(int *a, int n) {
    int *best = a;
    for (int *p = a + 1; p < a + n; p++)
        if (*p > *best) best = p;
    return best;
}

static const char *find_word(const char *s, const char *w) {
    size_t n = strlen(w);
    for (; *s; s++)
        if (strncmp(s, w, n) == 0) return s;
    return NULL;
}

static int *counter(void) {
    static int count = 0;
    count++;
    return &count;
}

static char *number_name(int n) {
    static char buf[32];
    static const char *const small[] = {"zero", "one", "two", "three", "four", "five"};
    if (n >= 0 && n <= 5) strcpy(buf, small[n]);
    else sprintf(buf, "<%d>", n);
    return buf;
}

static int *make_range(int lo, int hi) {
    int *r = malloc(sizeof(int) * (size_t)(hi - lo));
    for (int i = lo; i < hi; i++) r[i - lo] = i;
    return r;
}

static double *pick(double *a, double *b, int first) { return first ? a : b; }

int main(void) {
    int v[7] = {4, 9, -2, 9, 11, 0, 3};
    int *m = max_elem(v, 7);
    printf("max %d at %ld\n", *m, (long)(m - v));
    *m = -100;
    m = max_elem(v, 7);
    printf("next max %d at %ld\n", *m, (long)(m - v));
    *max_elem(v + 2, 3) = 50;
    printf("v: %d %d %d %d %d %d %d\n", v[0], v[1], v[2], v[3], v[4], v[5], v[6]);

    const char *text = "one fish two fish red fish blue fish";
    const char *hit = find_word(text, "red");
    const char *miss = find_word(text, "green");
    printf("red at %ld rest \"%s\", green %s\n", (long)(hit - text), hit, miss ? miss : "(null)");
    int fish = 0;
    for (const char *p = find_word(text, "fish"); p; p = find_word(p + 1, "fish")) fish++;
    printf("fish %d\n", fish);

    int *c = counter();
    counter();
    counter();
    printf("counter via pointer %d\n", *c);
    *c = 100;
    printf("after reset %d\n", *counter());

    char *n1 = number_name(3);
    printf("name %s, ", n1);
    char *n2 = number_name(42);
    printf("name %s, same buffer %d, first now %s\n", n2, n1 == n2, n1);

    int *r = make_range(10, 20);
    int total = 0;
    for (int i = 0; i < 10; i++) total += r[i];
    printf("range total %d\n", total);
    free(r);

    double x = 1.5, y = 2.5;
    *pick(&x, &y, 0) *= 4;
    *pick(&x, &y, 1) += *pick(&x, &y, 0);
    printf("x %.1f y %.1f\n", x, y);
    return *counter() - 90;
}
