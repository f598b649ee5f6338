/* Structure and union values where C allows any value: the right operand of `,`, the arms
   of `?:`, the value of an assignment, a discarded call, a cast to void (as Csmith's random
   programs write them). */
#include <stdio.h>

struct pair {
    int a;
    long b;
    unsigned char tag[3];
};

union word {
    unsigned u;
    short s[2];
};

static struct pair g = {1, 2, {3, 4, 5}};
static struct pair h = {-7, 8000000000L, {9, 10, 11}};
static struct pair table[3][2];
static struct pair *gp = &h;
static union word w1 = {0x12345678u}, w2;
static int calls;

static struct pair make(int a) {
    struct pair r = {a, a * 10L, {1, 2, 3}};
    calls++;
    return r;
}

static void show(const char *what, struct pair p) {
    printf("%s: %d %ld %d %d %d\n", what, p.a, p.b, p.tag[0], p.tag[1], p.tag[2]);
}

int main(void) {
    int k = 0;
    struct pair local;
    make(1);
    (void)make(2);
    (k, g);
    g = (k++, *gp);
    show("comma", g);
    local = k ? make(3) : h;
    show("cond true", local);
    local = !k ? make(4) : g;
    show("cond false", local);
    table[1][1] = (g = make(5));
    show("chain", table[1][1]);
    show("chain source", g);
    local = (table[0][1] = (table[2][0] = h));
    show("triple", local);
    show("triple middle", table[0][1]);
    *gp = (k > 5 ? g : (k, table[1][1]));
    show("through pointer", h);
    w2 = (k, w1);
    printf("union %x %d\n", w2.u, w2.s[0]);
    w1 = k ? w2 : w1;
    printf("union %x\n", w1.u);
    show("call in comma", (k = 9, make(k)));
    printf("calls %d k %d\n", calls, k);
    return 0;
}
