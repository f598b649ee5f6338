/* crc.c - cyclic redundancy checks over generated buffers.

   Algorithms: CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) computed
   bit by bit and through a 256-entry table built at start-up; CRC-16/CCITT
   (polynomial 0x1021, initial value 0xFFFF, not reflected) bit by bit and
   through its own table.  Both are checked against the standard check values
   of the string "123456789" and against each other on every buffer.

   Control flow for path profiling: a 4-level loop nest (round, buffer, byte,
   bit) in the bitwise CRCs, where the inner branch (low/high bit set) depends
   on the data; a small helper called once per bit (many short calls in the
   innermost loop); table-driven loops with a call per byte.  Loop-heavy:
   nearly all the time is spent in the byte and bit loops. */
#include <stdio.h>

unsigned crc32_table[256];
unsigned crc16_table[256];

unsigned lcg_state = 12345u;

unsigned next_random(void) {
    lcg_state = lcg_state * 1103515245u + 12345u;
    return lcg_state >> 8;
}

/* One bit of the reflected CRC-32 shift register. */
unsigned crc32_step(unsigned crc) {
    if (crc & 1u)
        return (crc >> 1) ^ 0xEDB88320u;
    return crc >> 1;
}

/* One bit of the CRC-16/CCITT shift register (kept in 16 bits). */
unsigned crc16_step(unsigned crc) {
    if (crc & 0x8000u)
        return ((crc << 1) ^ 0x1021u) & 0xFFFFu;
    return (crc << 1) & 0xFFFFu;
}

void build_tables(void) {
    for (int byte = 0; byte < 256; byte++) {
        unsigned c32 = (unsigned)byte;
        unsigned c16 = (unsigned)byte << 8;
        for (int bit = 0; bit < 8; bit++) {
            c32 = crc32_step(c32);
            c16 = crc16_step(c16);
        }
        crc32_table[byte] = c32;
        crc16_table[byte] = c16;
    }
}

unsigned crc32_bitwise(const int data[], int length) {
    unsigned crc = 0xFFFFFFFFu;
    for (int i = 0; i < length; i++) {
        crc ^= (unsigned)data[i];
        for (int bit = 0; bit < 8; bit++)
            crc = crc32_step(crc);
    }
    return ~crc;
}

unsigned crc32_update_byte(unsigned crc, int byte) {
    return (crc >> 8) ^ crc32_table[(crc ^ (unsigned)byte) & 0xFFu];
}

unsigned crc32_tabled(const int data[], int length) {
    unsigned crc = 0xFFFFFFFFu;
    for (int i = 0; i < length; i++)
        crc = crc32_update_byte(crc, data[i]);
    return ~crc;
}

unsigned crc16_bitwise(const int data[], int length) {
    unsigned crc = 0xFFFFu;
    for (int i = 0; i < length; i++) {
        crc ^= (unsigned)data[i] << 8;
        for (int bit = 0; bit < 8; bit++)
            crc = crc16_step(crc);
    }
    return crc;
}

unsigned crc16_tabled(const int data[], int length) {
    unsigned crc = 0xFFFFu;
    for (int i = 0; i < length; i++) {
        unsigned index = ((crc >> 8) ^ (unsigned)data[i]) & 0xFFu;
        crc = ((crc << 8) & 0xFFFFu) ^ crc16_table[index];
    }
    return crc;
}

/* Fills a buffer with bytes whose distribution depends on the kind:
   0 uniform, 1 mostly zero, 2 text-like, 3 a repeating ramp. */
void fill_buffer(int data[], int length, int kind) {
    for (int i = 0; i < length; i++) {
        unsigned r = next_random();
        switch (kind) {
        case 0:
            data[i] = (int)(r & 0xFFu);
            break;
        case 1:
            data[i] = (r % 16u == 0u) ? (int)(r >> 16 & 0xFFu) : 0;
            break;
        case 2:
            data[i] = 32 + (int)(r % 95u);
            break;
        default:
            data[i] = (i * 7 + kind) & 0xFF;
            break;
        }
    }
}

int main(void) {
    int check[9] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
    int buffer[1024];
    const int rounds = 16;
    const int buffers_per_round = 120;
    unsigned combined32 = 0, combined16 = 0;
    int mismatches = 0;

    build_tables();
    printf("table[1]=%08x table[255]=%08x crc16_table[1]=%04x\n",
           crc32_table[1], crc32_table[255], crc16_table[1]);
    printf("check crc32: bitwise %08x tabled %08x\n",
           crc32_bitwise(check, 9), crc32_tabled(check, 9));
    printf("check crc16: bitwise %04x tabled %04x\n",
           crc16_bitwise(check, 9), crc16_tabled(check, 9));

    for (int round = 0; round < rounds; round++) {
        unsigned round32 = 0, round16 = 0;
        for (int b = 0; b < buffers_per_round; b++) {
            int length = 256 + (b * 97) % 769;
            fill_buffer(buffer, length, b % 4);
            unsigned a32 = crc32_bitwise(buffer, length);
            unsigned t32 = crc32_tabled(buffer, length);
            unsigned a16 = crc16_bitwise(buffer, length);
            unsigned t16 = crc16_tabled(buffer, length);
            if (a32 != t32 || a16 != t16)
                mismatches++;
            round32 = (round32 << 5 | round32 >> 27) ^ t32;
            round16 = ((round16 << 3) ^ t16) & 0xFFFFFu;
        }
        printf("round %d: crc32 mix %08x crc16 mix %05x\n", round, round32, round16);
        combined32 ^= round32;
        combined16 += round16;
    }
    printf("combined %08x %08x mismatches %d\n", combined32, combined16, mismatches);
    return mismatches == 0 ? 0 : 1;
}
