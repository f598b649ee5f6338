/* The preprocessor: object-like and function-like macros (`#`, `##`, `__VA_ARGS__`,
   nested and spanning lines), conditionals on the configuration of a local header
   (included twice: its guard), `#error` in a group not taken, `__LINE__`. */
#include <stdio.h>
#include "macros_config.h"
#include "macros_config.h"

#define SQUARE(x) ((x) * (x))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define CLAMP(v, lo, hi) MIN(MAX(v, lo), hi)
#define STR(x) #x
#define XSTR(x) STR(x)
#define CAT(a, b) a ## b
#define SHOW(expr) printf("%-30s = %d\n", #expr, (expr))
#define LOG(...) printf(__VA_ARGS__)
#define NEXT(i) (((i) + 1) % RING_SIZE)
#define SWAP(T, a, b) \
    do { \
        T CAT(tmp_, __LINE__) = (a); \
        (a) = (b); \
        (b) = CAT(tmp_, __LINE__); \
    } while (0)

#if RING_SIZE & (RING_SIZE - 1)
#error RING_SIZE must be a power of two
#endif

#if VERSION >= 200 && defined(USE_CHECKSUM)
#define CHECK_MODE "checksum"
#elif VERSION >= 100
#define CHECK_MODE "legacy"
#else
#define CHECK_MODE "none"
#endif

int ring[RING_SIZE];
int head = 0;

int CAT(ring_, push)(int v) {
    ring[head] = v;
    head = NEXT(head);
    return head;
}

long ring_sum(void) {
    long s = 0;
    for (int i = 0; i < RING_SIZE; i++) {
        s += ring[i];
    }
    return s;
}

#ifdef USE_CHECKSUM
unsigned checksum(void) {
    unsigned h = 2166136261u;
    for (int i = 0; i < RING_SIZE; i++) {
        h ^= (unsigned)ring[i];
        h *= 16777619u;
    }
    return h;
}
#endif

int main(void) {
    int a = 7;
    int b = -3;
    int hist[4] = {0, 0, 0, 0};
    LOG("version %d (%s), ring of %d, mode %s\n", VERSION,
        XSTR(VERSION_MAJOR.VERSION_MINOR), RING_SIZE, CHECK_MODE);
    SHOW(SQUARE(a + 1));
    SHOW(MAX(a, b) - MIN(a, b));
    SHOW(CLAMP(42, 0, 10));
    SHOW(CLAMP(-5, 0, 10));
    SHOW(CLAMP(SQUARE(b), 0, 10));
    SWAP(int, a, b);
    LOG("after swap: a=%d b=%d\n", a, b);
    for (int i = 0; i < 40; i++) {
        ring_push(SQUARE(i) % 97 - 20);
    }
    LOG("sum %ld\n", ring_sum());
#if USE_CHECKSUM
    LOG("checksum %08x\n", checksum());
#endif
#ifndef NO_HISTOGRAM
    for (int i = 0; i < RING_SIZE; i++) {
        hist[CLAMP(ring[i] / 25 + 1, 0, 3)]++;
    }
    for (int k = 0; k < 4; k++) {
        LOG("bucket %d: %d\n", k, hist[k]);
    }
#else
    LOG("no histogram\n");
#endif
    LOG("%s at line %d\n", STR(a  "quoted"   string), __LINE__);
    return (int)(ring_sum() & 0x3f);
}
