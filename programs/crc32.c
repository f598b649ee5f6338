/* CRC-32 (IEEE 802.3, reflected, table-driven and bitwise), Adler-32 and
   FNV-1a over byte arrays built from character codes. */
#include <stdio.h>

unsigned table[256];

void make_table(void) {
    for (unsigned n = 0; n < 256; n++) {
        unsigned c = n;
        for (int k = 0; k < 8; k++) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
        table[n] = c;
    }
}

unsigned crc_table(char buf[], int len) {
    unsigned c = 0xffffffffu;
    for (int i = 0; i < len; i++) c = table[(c ^ (unsigned)buf[i]) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

unsigned crc_bitwise(char buf[], int len) {
    unsigned crc = ~0u;
    for (int i = 0; i < len; i++) {
        crc ^= buf[i] & 0xff;
        for (int k = 0; k < 8; k++) {
            unsigned mask = -(crc & 1);
            crc = (crc >> 1) ^ (0xedb88320u & mask);
        }
    }
    return ~crc;
}

unsigned adler32(char buf[], int len) {
    unsigned a = 1, b = 0;
    for (int i = 0; i < len; i++) {
        a = (a + (buf[i] & 0xff)) % 65521;
        b = (b + a) % 65521;
    }
    return (b << 16) | a;
}

unsigned long fnv1a64(char buf[], int len) {
    unsigned long h = 14695981039346656037ul;
    for (int i = 0; i < len; i++) {
        h ^= (unsigned long)(buf[i] & 0xff);
        h *= 1099511628211ul;
    }
    return h;
}

char buf[4096];

int main(void) {
    make_table();
    printf("table[1] = %08x, table[255] = %08x\n", table[1], table[255]);
    /* "123456789": the standard check value is cbf43926 */
    for (int i = 0; i < 9; i++) buf[i] = (char)('1' + i);
    printf("crc32(\"123456789\") = %08x / %08x\n", crc_table(buf, 9), crc_bitwise(buf, 9));
    printf("adler32(\"123456789\") = %08x\n", adler32(buf, 9));
    printf("fnv1a64(\"123456789\") = %016lx\n", fnv1a64(buf, 9));
    /* "The quick brown fox jumps over the lazy dog" built from codes */
    int codes[43] = {84, 104, 101, 32, 113, 117, 105, 99, 107, 32, 98, 114, 111, 119, 110,
                     32, 102, 111, 120, 32, 106, 117, 109, 112, 115, 32, 111, 118, 101, 114,
                     32, 116, 104, 101, 32, 108, 97, 122, 121, 32, 100, 111, 103};
    for (int i = 0; i < 43; i++) buf[i] = (char)codes[i];
    for (int i = 0; i < 43; i++) putchar(buf[i]);
    putchar('\n');
    printf("crc32 = %08x (expect 414fa339)\n", crc_table(buf, 43));
    printf("adler32 = %08x\n", adler32(buf, 43));
    /* bytes with the high bit set (negative chars) */
    for (int i = 0; i < 4096; i++) buf[i] = (char)(i * 131 + (i >> 3));
    for (int len = 1; len <= 4096; len *= 4)
        printf("len %4d: crc %08x bitwise %08x adler %08x fnv %016lx\n", len, crc_table(buf, len),
               crc_bitwise(buf, len), adler32(buf, len), fnv1a64(buf, len));
    return 0;
}
