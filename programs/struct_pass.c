/* Structs by value and by pointer: passing copies, returning structs (with arrays inside), f().member, compound literals, -> chains. */
#include <stdio.h>

typedef struct {
    double re, im;
} Complex;

typedef struct {
    int v[4];
    int n;
} Vec4;

typedef struct {
    char tag;
    long big;
    short small;
} Mixed;

struct node {
    int value;
    struct node *next;
};

static Complex cmul(Complex a, Complex b) {
    Complex r;
    r.re = a.re * b.re - a.im * b.im;
    r.im = a.re * b.im + a.im * b.re;
    return r;
}

static Complex cadd(Complex a, Complex b) {
    return (Complex){a.re + b.re, a.im + b.im};
}

static int clobber(Vec4 v) {
    for (int i = 0; i < 4; i++) v.v[i] = -1;
    v.n = -1;
    return v.v[3] + v.n;
}

static void fill(Vec4 *v, int base) {
    for (int i = 0; i < 4; i++) v->v[i] = base + i;
    v->n = 4;
}

static Vec4 make_vec(int base) {
    Vec4 v;
    fill(&v, base * 10);
    return v;
}

static Vec4 vadd(Vec4 a, Vec4 b) {
    Vec4 r = a;
    for (int i = 0; i < 4; i++) r.v[i] += b.v[i];
    return r;
}

static Mixed bump(Mixed m) {
    m.tag++;
    m.big *= 1000000;
    m.small = (short)(m.small - 1);
    return m;
}

static int sum_list(const struct node *n) {
    int s = 0;
    for (; n; n = n->next) s += n->value;
    return s;
}

static Complex cipow(Complex z, int n) {
    Complex r = {1.0, 0.0};
    while (n-- > 0) r = cmul(r, z);
    return r;
}

int main(void) {
    Complex a = {1.0, 2.0}, b = {3.0, -1.0};
    Complex c = cmul(a, b);
    Complex d = cadd(c, (Complex){0.5, 0.25});
    printf("c=%.2f%+.2fi d=%.2f%+.2fi\n", c.re, c.im, d.re, d.im);
    printf("cmul(a,a).im=%.2f cipow(i,3)=%.1f%+.1fi\n", cmul(a, a).im, cipow((Complex){0, 1}, 3).re,
           cipow((Complex){0, 1}, 3).im);

    Vec4 v = make_vec(2);
    int cl = clobber(v);
    printf("clobber saw %d; v after: %d %d %d %d n=%d\n", cl, v.v[0], v.v[1], v.v[2], v.v[3], v.n);
    Vec4 w = vadd(v, make_vec(5));
    printf("w = %d %d %d %d, make_vec(7).v[3]=%d\n", w.v[0], w.v[1], w.v[2], w.v[3], make_vec(7).v[3]);
    Vec4 arr[3];
    for (int i = 0; i < 3; i++) arr[i] = make_vec(i);
    arr[0] = vadd(arr[1], arr[2]);
    printf("arr[0] = %d %d %d %d\n", arr[0].v[0], arr[0].v[1], arr[0].v[2], arr[0].v[3]);

    Mixed m = {'a', 7, 3};
    Mixed m2 = bump(bump(m));
    printf("m=%c %ld %d m2=%c %ld %d sizeof=%zu\n", m.tag, m.big, m.small, m2.tag, m2.big, m2.small,
           sizeof(Mixed));

    struct node n3 = {3, NULL};
    struct node n2 = {20, &n3};
    struct node n1 = {100, &n2};
    struct node *head = &n1;
    printf("sum=%d head->next->next->value=%d\n", sum_list(head), head->next->next->value);
    head->next->value += 5;
    (*head->next).next->value *= 2;
    struct node copy = *head->next;
    copy.value = 0;
    printf("after edits sum=%d copy.next->value=%d\n", sum_list(head), copy.next->value);

    Complex *pc = &c;
    pc->re = -pc->re;
    (*pc).im += 1;
    Complex e = *pc;
    printf("e=%.2f%+.2fi\n", e.re, e.im);

    struct {
        Vec4 a, b;
    } pair = {make_vec(1), make_vec(3)};
    pair.b = pair.a;
    pair.a.v[0] = 99;
    printf("pair a0=%d b0=%d\n", pair.a.v[0], pair.b.v[0]);
    return m2.small + w.n;
}
