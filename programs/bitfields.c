/* Bit-fields: unsigned and signed fields, packing into storage units, sizeof, wrap-around of unsigned fields, _Bool fields, zero-width fields, byte view. */
#include <stdio.h>
#include <string.h>

struct flags {
    unsigned int ready : 1;
    unsigned int mode : 3;
    unsigned int count : 12;
    signed int delta : 5;
    unsigned int : 0;        /* force the next field into a new unit */
    unsigned int big : 20;
    _Bool on : 1;
};

struct rgb565 {
    unsigned short b : 5;
    unsigned short g : 6;
    unsigned short r : 5;
};

struct small {
    unsigned char lo : 4;
    unsigned char hi : 4;
};

struct date {
    unsigned int day : 5;
    unsigned int month : 4;
    unsigned int year : 12;
    signed int tz : 6;
};

static unsigned pack565(struct rgb565 c) {
    unsigned char bytes[2];
    memcpy(bytes, &c, 2);
    return bytes[0] | (unsigned)bytes[1] << 8;
}

static struct date next_day(struct date d) {
    static const unsigned char len[13] = {0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (d.day < len[d.month]) {
        d.day++;
    } else {
        d.day = 1;
        if (d.month == 12) {
            d.month = 1;
            d.year++;
        } else {
            d.month++;
        }
    }
    return d;
}

int main(void) {
    printf("sizeof flags %zu rgb565 %zu small %zu date %zu\n", sizeof(struct flags), sizeof(struct rgb565),
           sizeof(struct small), sizeof(struct date));

    struct flags f;
    memset(&f, 0, sizeof f);
    f.ready = 1;
    f.mode = 5;
    f.count = 4095;
    f.delta = -16;
    f.big = 1000000;
    f.on = 1;
    printf("ready %u mode %u count %u delta %d big %u on %d\n", f.ready, f.mode, f.count, f.delta, f.big, f.on);

    f.count++;          /* unsigned field wraps modulo 2^12 */
    f.mode += 6;        /* 11 mod 8 */
    f.delta = f.delta + 31;
    f.big = f.big * 3u; /* 3000000 mod 2^20 */
    unsigned two = 2;
    f.ready = two;      /* 2 mod 2 */
    printf("ready %u mode %u count %u delta %d big %u\n", f.ready, f.mode, f.count, f.delta, f.big);

    int neg = 0;
    for (int v = -16; v <= 15; v += 5) {
        f.delta = v;
        neg += f.delta < 0;
        printf("%d%s", f.delta, v + 5 <= 15 ? "," : "\n");
    }
    printf("negatives %d\n", neg);

    struct rgb565 c = {31, 0, 0};
    printf("blue 0x%04x\n", pack565(c));
    c.b = 0;
    c.g = 63;
    printf("green 0x%04x\n", pack565(c));
    c.g = 0;
    c.r = 31;
    printf("red 0x%04x\n", pack565(c));
    c.b = 10;
    c.g = 20;
    c.r = 30;
    printf("mixed 0x%04x fields %u %u %u\n", pack565(c), c.r, c.g, c.b);

    struct small s = {0xA, 0x5};
    unsigned char byte;
    memcpy(&byte, &s, 1);
    printf("small byte 0x%02x\n", byte);
    s.lo = (unsigned char)(s.lo + s.hi); /* 15 */
    s.hi = (unsigned char)(s.hi * 4);   /* 20 mod 16 = 4 */
    memcpy(&byte, &s, 1);
    printf("small byte 0x%02x lo %u hi %u\n", byte, s.lo, s.hi);

    struct date d = {27, 12, 2023, -5};
    for (int i = 0; i < 40; i++) d = next_day(d);
    printf("date %04u-%02u-%02u tz %d\n", d.year, d.month, d.day, d.tz);
    d.tz = d.tz - 27;
    printf("tz %d\n", d.tz);

    struct flags arr[3] = {{.mode = 1}, {.mode = 2, .count = 7}, {.mode = 3, .delta = -1}};
    int acc = 0;
    for (int i = 0; i < 3; i++) acc += (int)arr[i].mode * 100 + (int)arr[i].count + arr[i].delta;
    printf("acc %d\n", acc);
    return (int)f.mode + (int)d.month;
}
