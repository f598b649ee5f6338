/* Casts between pointer types: unsigned char * views of int/double/struct objects, struct <-> first member, void * and uintptr_t round trips, const casts, function pointer casts back to the right type. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

struct header {
    int tag;
    short len;
};

struct message {
    struct header hdr;  /* first member: a pointer to the message converts to a pointer to it */
    char body[10];
};

static unsigned checksum_bytes(const void *obj, size_t n) {
    const unsigned char *p = (const unsigned char *)obj;
    unsigned s = 0;
    for (size_t i = 0; i < n; i++) s = s * 31u + p[i];
    return s;
}

static int header_tag(const struct header *h) { return h->tag * 10 + h->len; }

static int twice(int x) { return 2 * x; }

int main(void) {
    int arr[3] = {0x01020304, -1, 258};
    unsigned char *bytes = (unsigned char *)arr;
    printf("int bytes:");
    for (size_t i = 0; i < sizeof arr; i++) printf(" %02x", bytes[i]);
    printf("\n");
    bytes[4] = 0x7f;
    bytes[7] = 0x00;
    bytes[8] = 0;
    printf("after byte writes: %d %d\n", arr[1], arr[2]);

    char *cview = (char *)arr;
    printf("char view of 0xff byte: %d, unsigned: %d\n", cview[5], (unsigned char)cview[5]);

    double d = -2.5;
    const unsigned char *db = (const unsigned char *)&d;
    printf("double -2.5 top bytes %02x %02x, checksum %u\n", db[7], db[6], checksum_bytes(&d, sizeof d));

    struct message msg;
    memset(&msg, 0, sizeof msg);
    msg.hdr.tag = 7;
    msg.hdr.len = 3;
    strcpy(msg.body, "hey");
    struct header *h = (struct header *)&msg;
    struct message *back = (struct message *)h;
    printf("first member view: tag %d len %d -> %d, body via back %s, same %d\n", h->tag, h->len, header_tag(h),
           back->body, back == &msg);
    /* padding bytes are left out: their values are unspecified after member stores */
    printf("message checksum %u %u size %zu\n", checksum_bytes(&msg.hdr.tag, sizeof msg.hdr.tag),
           checksum_bytes(msg.body, sizeof msg.body), sizeof msg);

    void *vp = arr;
    int *ip = (int *)vp;
    uintptr_t u = (uintptr_t)(void *)&arr[1];
    uintptr_t u0 = (uintptr_t)(void *)&arr[0];
    int *round = (int *)(void *)u;
    printf("void* round trip %d, uintptr round trip %d value %d, distance %lu\n", ip == arr, round == &arr[1],
           *round, (unsigned long)(u - u0));
    uintptr_t aligned = (uintptr_t)(void *)arr % sizeof(int);
    printf("int array aligned: %d\n", aligned == 0);

    const int ci_storage_is_mutable[2] = {5, 6};
    int mutable_obj = 40;
    const int *cp = &mutable_obj;
    int *wp = (int *)cp; /* casting away const is fine: the object itself is not const */
    *wp += 2;
    printf("const cast write %d, const array %d\n", mutable_obj, ci_storage_is_mutable[1]);

    typedef void (*generic_fn)(void);
    generic_fn g = (generic_fn)twice;
    int (*t)(int) = (int (*)(int))g;
    printf("function pointer round trip %d\n", t(21));

    long lv = 0x1122334455667788L;
    unsigned char lb[sizeof lv];
    memcpy(lb, &lv, sizeof lv);
    long rebuilt = 0;
    for (int i = 7; i >= 0; i--) rebuilt = rebuilt * 256 + lb[i];
    printf("rebuilt %d low byte %02x\n", rebuilt == lv, lb[0]);

    short shorts[4] = {1, -2, 3, -4};
    unsigned short *us = (unsigned short *)shorts;
    printf("short as unsigned short: %u %u\n", us[1], us[3]);
    return (int)(msg.hdr.tag + bytes[0]) % 16;
}
