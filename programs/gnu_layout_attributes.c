/* GNU C's layout attributes: `aligned` on variables, members and structures, `packed` on
   enumerations and on structures that have no padding to leave out. Checked against gcc:
   sizes, alignments, offsets, and the addresses' alignment. */
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#define HEAP_SIZE 256
static char heap[HEAP_SIZE] __attribute__((aligned));
char table[3] __attribute__((__aligned__(64))) = {1, 2, 3};
__attribute__((unused)) static int __attribute__((aligned(32))) counters[5];

struct vec {
    char tag;
    double x __attribute__((aligned(16)));
} __attribute__((aligned(32)));

struct __attribute__((packed)) header {
    uint32_t magic;
    uint16_t kind;
    uint16_t length;
    unsigned char bytes[4];
};

struct wrapper {
    uint32_t before;
    struct header h;
};

typedef enum __attribute__((__packed__)) { RED, GREEN, BLUE = 200 } colour;
enum __attribute__((packed)) small_signed { LOW = -5, HIGH = 100 };
enum wide { W0, W1 = 70000 } __attribute__((packed));
enum plain { P0, P1 };

struct pixel {
    colour c;
    unsigned char level;
};

static int aligned_to(const void *p, uintptr_t a) { return (uintptr_t)p % a == 0; }

int main(void) {
    static struct vec vs[3]; /* aligned to 32: locals are limited to 8 in the VM */
    static struct vec keep __attribute__((aligned(64)));
    char local[12] __attribute__((aligned(8)));
    struct wrapper w;
    colour c = BLUE;
    int i;
    printf("heap aligned to 16: %d\n", aligned_to(heap, 16));
    printf("table aligned to 64: %d\n", aligned_to(table, 64));
    printf("counters aligned to 32: %d\n", aligned_to(counters, 32));
    printf("keep aligned to 64: %d\n", aligned_to(&keep, 64));
    printf("local aligned to 8: %d\n", aligned_to(local, 8));
    printf("sizeof(struct vec) %u align %u offsetof x %u\n", (unsigned)sizeof(struct vec),
           (unsigned)__alignof__(struct vec), (unsigned)offsetof(struct vec, x));
    printf("vs[1] - vs[0] = %d bytes\n", (int)((char *)&vs[1] - (char *)&vs[0]));
    printf("sizeof(struct header) %u align %u\n", (unsigned)sizeof(struct header),
           (unsigned)__alignof__(struct header));
    printf("sizeof(struct wrapper) %u offsetof h %u\n", (unsigned)sizeof(struct wrapper),
           (unsigned)offsetof(struct wrapper, h));
    printf("sizeof(colour) %u, small_signed %u, wide %u, plain %u\n", (unsigned)sizeof(colour),
           (unsigned)sizeof(enum small_signed), (unsigned)sizeof(enum wide),
           (unsigned)sizeof(enum plain));
    printf("sizeof(struct pixel) %u\n", (unsigned)sizeof(struct pixel));
    w.before = 7;
    w.h.magic = 0xfeedu;
    w.h.kind = 3;
    w.h.length = 9;
    for (i = 0; i < 4; i++) w.h.bytes[i] = (unsigned char)(i * 11);
    printf("%u %x %u %u %u\n", w.before, w.h.magic, w.h.kind, w.h.length, w.h.bytes[3]);
    c = (colour)(c + 60);
    printf("colour wraps: %d\n", (int)c);
    {
        enum small_signed s = LOW;
        printf("signed packed: %d\n", (int)s);
    }
    for (i = 0; i < HEAP_SIZE; i++) heap[i] = (char)i;
    vs[2].x = 2.5;
    keep.x = vs[2].x * 2;
    printf("%d %g\n", heap[200], keep.x);
    return 0;
}
