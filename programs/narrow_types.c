/* The integer types narrower than int, _Bool, signed/unsigned spellings and long long:
   conversions on assignment, argument, return and cast, the integer promotions, the usual
   arithmetic conversions, increments, compound assignments, arrays and printf's h/hh. */
#include <stdio.h>

short gs = -2;
unsigned short gus = 65535;
unsigned char guc = 200;
signed char gsc = -100;
_Bool gb = 42;
long long gll = -5000000000LL;
unsigned long long gull = 18446744073709551615ULL;
short garr[4] = {1, -1, 32767, -32768};
unsigned char gbytes[3] = {255, 256, -1};
_Bool gflags[3] = {0, 2, -1};
short int gsi = 70000;
signed sig = -7;
signed int sigi = 9;
signed long sigl = -11;
long int li = 12;
unsigned short int usi = -3;
long long int lli = 13;
signed long long slli = -14;
unsigned long long int ulli = 15;

short add_short(short a, short b) { return a + b; }
unsigned char to_uchar(int x) { return x; }
_Bool to_bool(long x) { return x; }
unsigned short twice(unsigned short x) { return x * 2; }
long long mul_ll(long long a, long long b) { return a * b; }
int sum_bytes(unsigned char a[], int n) {
    int s = 0;
    int i;
    for (i = 0; i < n; i++) s += a[i];
    return s;
}
void fill_shorts(short a[], int n, int start) {
    int i;
    for (i = 0; i < n; i++) a[i] = start + i * 20000;
}

int main(void) {
    short s = 32767;
    unsigned short us = 0;
    unsigned char uc = 255;
    signed char sc = 127;
    char c = -1;
    _Bool b = 0;
    int i;
    long l;
    unsigned u;
    short sarr[5];
    unsigned char bytes[6];
    _Bool flags[4];
    unsigned short usarr[3][2];

    printf("globals %d %u %u %d %d %lld %llu\n", gs, gus, guc, gsc, gb, gll, gull);
    printf("garr %d %d %d %d\n", garr[0], garr[1], garr[2], garr[3]);
    printf("gbytes %d %d %d flags %d %d %d\n", gbytes[0], gbytes[1], gbytes[2], gflags[0], gflags[1], gflags[2]);
    printf("spellings %d %d %d %ld %ld %u %lld %lld %llu\n", gsi, sig, sigi, sigl, li, usi, lli, slli, ulli);

    /* wrap on assignment */
    s = s + 1;
    us = us - 1;
    uc = uc + 1;
    sc = sc + 1;
    printf("wrap %d %u %u %d\n", s, us, uc, sc);
    s++;
    us++;
    uc--;
    sc--;
    printf("incdec %hd %hu %hhu %hhd\n", s, us, uc, sc);
    printf("post %d %d %d %d\n", s++, us--, uc++, sc--);
    printf("now %d %d %d %d\n", s, us, uc, sc);
    ++s; --us; ++uc; --sc;
    printf("pre %d %d %d %d\n", ++s, --us, ++uc, --sc);

    /* _Bool */
    b = 5;
    printf("bool %d", b);
    b = 0.25;
    printf(" %d", b);
    b = -0.0;
    printf(" %d", b);
    b = 256;
    printf(" %d", b);
    b = 0;
    b++;
    printf(" %d", b);
    b++;
    printf(" %d", b);
    b--;
    printf(" %d", b);
    b--;
    printf(" %d", b);
    b += 7;
    printf(" %d", b);
    b *= 0;
    printf(" %d", b);
    b = 4294967296L;
    printf(" %d %d %d\n", b, to_bool(1L << 40), to_bool(0));
    printf("bool arith %d %d %d\n", b + b, -b, ~b);

    /* promotions: narrow operands become int */
    uc = 200;
    us = 60000;
    s = -30000;
    printf("promote %d %d %d %d\n", uc * uc, us * 2, s * 2, uc + us);
    printf("promote2 %d %d %d\n", -uc, ~uc, ~us);
    printf("cmp %d %d %d\n", uc > -1, us > -1, s < 0);
    printf("mixed %u %ld %lu\n", us + 1u, s + 1L, s + 1UL);
    printf("shifts %d %d %d\n", uc << 20, s >> 3, us >> 15);
    printf("div %d %d %d %d\n", s / 7, s % 7, us / -7, uc % -7);

    /* compound assignment in the narrow type */
    s = 30000;
    s += 10000;
    printf("compound %d", s);
    s *= 3;
    printf(" %d", s);
    us = 10;
    us -= 20;
    printf(" %u", us);
    uc = 17;
    uc <<= 4;
    printf(" %u", uc);
    uc |= 0x3ff;
    printf(" %u", uc);
    sc = -128;
    sc /= -1;
    printf(" %d", sc);
    sc = 100;
    sc *= 3;
    printf(" %d", sc);
    us = 65535;
    us >>= 4;
    printf(" %u\n", us);

    /* casts */
    i = 100000;
    printf("casts %d %u %d %u %d %d\n", (short)i, (unsigned short)i, (char)i, (unsigned char)i,
           (signed char)-129, (_Bool)i);
    l = -1;
    printf("casts2 %d %u %u %llu %lld\n", (short)l, (unsigned short)l, (unsigned char)l,
           (unsigned long long)l, (long long)(unsigned short)l);
    u = 4294967295u;
    printf("casts3 %d %d %u\n", (short)u, (signed char)u, (unsigned short)u);
    printf("fromdouble %d %u %d %u %d %d\n", (short)-1234.9, (unsigned short)65535.5,
           (signed char)-128.7, (unsigned char)255.9, (_Bool)0.0, (_Bool)-0.001);

    /* calls: conversion of arguments and results */
    printf("calls %d %u %d %u %lld\n", add_short(30000, 30000), to_uchar(-1), to_bool(-8),
           twice(40000), mul_ll(3000000000LL, 3));

    /* arrays */
    fill_shorts(sarr, 5, -30000);
    for (i = 0; i < 5; i++) printf("%d ", sarr[i]);
    printf("\n");
    for (i = 0; i < 6; i++) bytes[i] = i * 100;
    printf("bytes %d\n", sum_bytes(bytes, 6));
    for (i = 0; i < 4; i++) flags[i] = i - 1;
    printf("flags %d %d %d %d\n", flags[0], flags[1], flags[2], flags[3]);
    for (i = 0; i < 3; i++) {
        usarr[i][0] = -i;
        usarr[i][1] = i * 30000;
    }
    printf("usarr %u %u %u %u %u %u\n", usarr[0][0], usarr[0][1], usarr[1][0], usarr[1][1],
           usarr[2][0], usarr[2][1]);
    bytes[0] = 250;
    bytes[0] += 10;
    bytes[1] = 0;
    bytes[1]--;
    sarr[0] = 32767;
    sarr[0]++;
    printf("elems %u %u %d\n", bytes[0], bytes[1], sarr[0]);

    /* printf length modifiers truncate the promoted value */
    i = 70000;
    printf("hh %hhd %hhu %hd %hu %hhx %hx\n", i, i, i, i, i, i);
    printf("ll %lld %llu %llx %lli\n", gll, gull, gull, 7LL);

    /* char is signed; conditions on narrow values */
    c = 200;
    if (c < 0) printf("char signed %d\n", c);
    uc = 0;
    while (--uc > 250) { }
    printf("loop %u\n", uc);
    s = 0;
    for (us = 65530; us != 4; us++) s++;
    printf("loop2 %d %u\n", s, us);
    switch (gsc) {
    case -100: printf("switch narrow\n"); break;
    default: printf("no\n");
    }
    b = 1;
    printf("ternary %d %d\n", b ? s : uc, c ? uc : us);
    return 0;
}
