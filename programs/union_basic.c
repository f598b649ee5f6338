/* Unions: sizeof/alignment, same-type members, byte views through unsigned char arrays, tagged unions with enums, unions in structs and arrays. */
#include <stdio.h>
#include <string.h>
#include <stdint.h>

union bytes4 {
    uint32_t word;
    unsigned char b[4];
};

union bytes8 {
    double d;
    unsigned char b[8];
};

union same {
    int a;
    int b;
};

enum kind { K_INT, K_DBL, K_STR, K_PAIR };

struct value {
    enum kind kind;
    union {
        long i;
        double d;
        const char *s;
        struct {
            short lo, hi;
        } pair;
    } u;
};

static void show(const struct value *v) {
    switch (v->kind) {
    case K_INT: printf("int %ld\n", v->u.i); break;
    case K_DBL: printf("double %.3f\n", v->u.d); break;
    case K_STR: printf("string \"%s\"\n", v->u.s); break;
    case K_PAIR: printf("pair (%d,%d)\n", v->u.pair.lo, v->u.pair.hi); break;
    }
}

static double as_number(struct value v) {
    switch (v.kind) {
    case K_INT: return (double)v.u.i;
    case K_DBL: return v.u.d;
    case K_STR: return (double)strlen(v.u.s);
    case K_PAIR: return v.u.pair.lo + v.u.pair.hi;
    }
    return -1.0;
}

int main(void) {
    printf("sizes: bytes4 %zu bytes8 %zu same %zu value %zu\n", sizeof(union bytes4), sizeof(union bytes8),
           sizeof(union same), sizeof(struct value));

    union bytes4 w;
    w.word = 0x11223344u;
    printf("bytes of 0x11223344:");
    for (int i = 0; i < 4; i++) printf(" %02x", w.b[i]);
    printf("\n");
    w.b[0] = 0xff;
    w.b[3] = 0x00;
    printf("after byte edits word=0x%08x\n", (unsigned)w.word);

    union bytes8 d;
    d.d = 1.0;
    printf("bytes of 1.0:");
    for (int i = 0; i < 8; i++) printf(" %02x", d.b[i]);
    printf("\n");
    d.d = -0.0;
    printf("sign byte of -0.0: %02x\n", d.b[7]);
    uint64_t bits;
    d.d = 0.1;
    memcpy(&bits, &d.d, sizeof bits);
    printf("0.1 bits 0x%08lx%08lx\n", (unsigned long)(bits >> 32), (unsigned long)(bits & 0xffffffffu));

    union same s;
    s.a = 41;
    s.b++;
    printf("same: a=%d b=%d\n", s.a, s.b);

    struct value vals[5];
    vals[0].kind = K_INT;
    vals[0].u.i = -1234567890123L;
    vals[1].kind = K_DBL;
    vals[1].u.d = 2.5;
    vals[2].kind = K_STR;
    vals[2].u.s = "union";
    vals[3].kind = K_PAIR;
    vals[3].u.pair.lo = -7;
    vals[3].u.pair.hi = 300;
    vals[4] = vals[1];
    vals[4].u.d *= 4;
    double total = 0;
    for (int i = 0; i < 5; i++) {
        show(&vals[i]);
        total += as_number(vals[i]);
    }
    printf("total %.1f\n", total);

    /* re-purposing one object: the last member written is the one read */
    struct value v = vals[2];
    v.kind = K_INT;
    v.u.i = 5;
    show(&v);
    union {
        unsigned short h[2];
        unsigned char c[4];
    } mix;
    mix.h[0] = 0x0102;
    mix.h[1] = 0xa0b0;
    int sum = 0;
    for (int i = 0; i < 4; i++) sum = sum * 3 + mix.c[i];
    printf("mix sum %d\n", sum);
    return (int)(sizeof(struct value) / 4);
}
