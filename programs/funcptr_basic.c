/* Function pointers: declaration, (*fp)() and fp() calls, tables, struct members, parameters (callbacks), return values, typedefs, comparison and NULL. */
#include <stdio.h>
#include <string.h>

typedef int (*binop)(int, int);
typedef void (*visitor)(int *elem, void *ctx);

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }
static int maxi(int a, int b) { return a > b ? a : b; }

static int fold(const int *a, int n, int init, binop f) {
    int acc = init;
    for (int i = 0; i < n; i++) acc = f(acc, a[i]);
    return acc;
}

static void for_each(int *a, int n, visitor v, void *ctx) {
    for (int i = 0; i < n; i++) v(&a[i], ctx);
}

static void square_it(int *e, void *ctx) {
    (void)ctx;
    *e = *e * *e;
}

static void add_ctx(int *e, void *ctx) { *e += *(int *)ctx; }

static void count_odd(int *e, void *ctx) {
    if (*e % 2 != 0) ++*(int *)ctx;
}

static binop pick(char op) {
    switch (op) {
    case '+': return add;
    case '-': return sub;
    case '*': return &mul;
    case 'M': return maxi;
    default: return NULL;
    }
}

/* a function returning a pointer to a function, written without a typedef */
static int (*pick_raw(int which))(int, int) {
    return which ? sub : add;
}

struct command {
    const char *name;
    binop fn;
    int unit;
};

static double twice(double x) { return 2 * x; }
static double halve(double x) { return x / 2; }

static double apply_n(double (*f)(double), double x, int n) {
    while (n-- > 0) x = (*f)(x);
    return x;
}

int main(void) {
    int data[6] = {3, -1, 4, 1, -5, 9};
    binop ops[4] = {add, sub, mul, maxi};
    const char *names[4] = {"add", "sub", "mul", "max"};
    for (int i = 0; i < 4; i++)
        printf("%s: fold=%d f(7,3)=%d\n", names[i], fold(data, 6, i == 2 ? 1 : 0, ops[i]), (*ops[i])(7, 3));

    int (*fp)(int, int) = add;
    printf("fp==add %d fp==sub %d fp!=NULL %d\n", fp == add, fp == sub, fp != NULL);
    fp = ops[2];
    printf("via copy: %d\n", fp(6, 7));

    const char *expr = "+3*4-5M20*2x";
    int acc = 0;
    for (const char *p = expr; *p; p += 2) {
        char op = p[0];
        binop f = pick(op);
        if (f == NULL) {
            printf("unknown op '%c' stops\n", p[0]);
            break;
        }
        int arg = 0;
        if (p[1] >= '0' && p[1] <= '9') arg = p[1] - '0';
        if (op == 'M') { /* the only two-digit operand */
            arg = 20;
            p++;
        }
        acc = f(acc, arg);
        printf("%c%d -> %d\n", op, arg, acc);
    }

    printf("pick_raw: %d %d\n", pick_raw(0)(10, 4), pick_raw(1)(10, 4));

    struct command cmds[] = {{"plus", add, 0}, {"times", mul, 1}, {"minus", sub, 0}};
    int total = 0;
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        struct command *c = &cmds[i];
        int r = c->fn(c->unit, (int)i + 5);
        printf("%s(%d,%zu)=%d\n", c->name, c->unit, i + 5, r);
        total += r;
    }
    cmds[1].fn = cmds[0].fn;
    printf("swapped fn: %d\n", cmds[1].fn(2, 3));

    int v[5] = {1, 2, 3, 4, 5};
    int delta = 10, odd = 0;
    for_each(v, 5, square_it, NULL);
    for_each(v, 5, count_odd, &odd);
    for_each(v, 5, add_ctx, &delta);
    printf("v: %d %d %d %d %d odd=%d\n", v[0], v[1], v[2], v[3], v[4], odd);

    double (*dfs[2])(double) = {twice, halve};
    printf("apply_n: %.3f %.5f\n", apply_n(dfs[0], 1.5, 5), apply_n(dfs[1], 1.5, 5));
    void (*vis)(int *, void *) = strcmp(names[0], "add") == 0 ? square_it : add_ctx;
    int z = 7;
    vis(&z, NULL);
    printf("z=%d total=%d\n", z, total);
    return total % 50;
}
