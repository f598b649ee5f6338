/* des.c - DES encryption and decryption with bit-by-bit permutations.

   Algorithm: the Data Encryption Standard (FIPS 46-3).  Key schedule: PC-1
   selects 56 key bits into two 28-bit halves C and D, which are rotated left
   by 1 or 2 positions per round (one bit at a time), and PC-2 picks 48 bits
   of C||D as each round key.  A block goes through the initial permutation,
   16 Feistel rounds (expansion E of the right half to 48 bits, done with
   shifts of overlapping 6-bit windows, XOR with the round key, eight 6-to-4-bit S-boxes, permutation P, XOR into the left
   half, swap), and the final permutation, the inverse of IP (computed from
   IP at start-up).  Decryption is the same with the round keys reversed.
   Every permutation is a loop over its table testing one source bit at a
   time, in the style of the Malardalen ndes benchmark.

   Data: a known-answer test (key 133457799BBCDFF1, plaintext
   0123456789ABCDEF -> ciphertext 85E813540F0AB405), Rivest's iterated test
   (X0 = 9474B8E8C73BCA7D, alternately encrypting and decrypting X with
   itself as the key 16 times gives 1B1A2DDB4C642438), then messages of
   pseudo-random blocks (32-bit LCG) under pseudo-random keys, encrypted in
   ECB and CBC modes and decrypted again; the round trip must restore the
   message.  Ciphertext checksums are printed per message group.

   Control flow for path profiling: the permutation loops (64, 56, 48 and 32
   iterations) branch on each source bit, so their body paths follow the
   data bits; the rotation loop runs 1 or 2 times per round following the
   shift schedule; the S-box loop runs 8 times per round; the round loop
   calls the Feistel function, which calls the permutation function twice
   (calls nested in loops, three levels deep); encryption and decryption are
   chosen by a flag inside the round loop.

   Loop-heavy: yes (bit loops inside round loops inside block loops). */
#include <stdio.h>

const int initial_perm[64] = {
    58, 50, 42, 34, 26, 18, 10, 2, 60, 52, 44, 36, 28, 20, 12, 4,
    62, 54, 46, 38, 30, 22, 14, 6, 64, 56, 48, 40, 32, 24, 16, 8,
    57, 49, 41, 33, 25, 17, 9,  1, 59, 51, 43, 35, 27, 19, 11, 3,
    61, 53, 45, 37, 29, 21, 13, 5, 63, 55, 47, 39, 31, 23, 15, 7};

int final_perm[64]; /* inverse of initial_perm, built at start-up */

const int p_perm[32] = {16, 7, 20, 21, 29, 12, 28, 17, 1,  15, 23, 26, 5,  18, 31, 10,
                        2,  8, 24, 14, 32, 27, 3,  9,  19, 13, 30, 6,  22, 11, 4,  25};

const int pc1[56] = {57, 49, 41, 33, 25, 17, 9,  1,  58, 50, 42, 34, 26, 18,
                     10, 2,  59, 51, 43, 35, 27, 19, 11, 3,  60, 52, 44, 36,
                     63, 55, 47, 39, 31, 23, 15, 7,  62, 54, 46, 38, 30, 22,
                     14, 6,  61, 53, 45, 37, 29, 21, 13, 5,  28, 20, 12, 4};

const int pc2[48] = {14, 17, 11, 24, 1,  5,  3,  28, 15, 6,  21, 10,
                     23, 19, 12, 4,  26, 8,  16, 7,  27, 20, 13, 2,
                     41, 52, 31, 37, 47, 55, 30, 40, 51, 45, 33, 48,
                     44, 49, 39, 56, 34, 53, 46, 42, 50, 36, 29, 32};

const int key_shifts[16] = {1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 1};

const int sbox[8][64] = {
    {14, 4,  13, 1, 2,  15, 11, 8,  3,  10, 6,  12, 5,  9,  0, 7,
     0,  15, 7,  4, 14, 2,  13, 1,  10, 6,  12, 11, 9,  5,  3, 8,
     4,  1,  14, 8, 13, 6,  2,  11, 15, 12, 9,  7,  3,  10, 5, 0,
     15, 12, 8,  2, 4,  9,  1,  7,  5,  11, 3,  14, 10, 0,  6, 13},
    {15, 1,  8,  14, 6,  11, 3,  4,  9,  7, 2,  13, 12, 0, 5,  10,
     3,  13, 4,  7,  15, 2,  8,  14, 12, 0, 1,  10, 6,  9, 11, 5,
     0,  14, 7,  11, 10, 4,  13, 1,  5,  8, 12, 6,  9,  3, 2,  15,
     13, 8,  10, 1,  3,  15, 4,  2,  11, 6, 7,  12, 0,  5, 14, 9},
    {10, 0,  9,  14, 6, 3,  15, 5,  1,  13, 12, 7,  11, 4,  2,  8,
     13, 7,  0,  9,  3, 4,  6,  10, 2,  8,  5,  14, 12, 11, 15, 1,
     13, 6,  4,  9,  8, 15, 3,  0,  11, 1,  2,  12, 5,  10, 14, 7,
     1,  10, 13, 0,  6, 9,  8,  7,  4,  15, 14, 3,  11, 5,  2,  12},
    {7,  13, 14, 3, 0,  6,  9,  10, 1,  2, 8, 5,  11, 12, 4,  15,
     13, 8,  11, 5, 6,  15, 0,  3,  4,  7, 2, 12, 1,  10, 14, 9,
     10, 6,  9,  0, 12, 11, 7,  13, 15, 1, 3, 14, 5,  2,  8,  4,
     3,  15, 0,  6, 10, 1,  13, 8,  9,  4, 5, 11, 12, 7,  2,  14},
    {2,  12, 4,  1,  7,  10, 11, 6,  8,  5,  3,  15, 13, 0, 14, 9,
     14, 11, 2,  12, 4,  7,  13, 1,  5,  0,  15, 10, 3,  9, 8,  6,
     4,  2,  1,  11, 10, 13, 7,  8,  15, 9,  12, 5,  6,  3, 0,  14,
     11, 8,  12, 7,  1,  14, 2,  13, 6,  15, 0,  9,  10, 4, 5,  3},
    {12, 1,  10, 15, 9, 2,  6,  8,  0,  13, 3,  4,  14, 7,  5,  11,
     10, 15, 4,  2,  7, 12, 9,  5,  6,  1,  13, 14, 0,  11, 3,  8,
     9,  14, 15, 5,  2, 8,  12, 3,  7,  0,  4,  10, 1,  13, 11, 6,
     4,  3,  2,  12, 9, 5,  15, 10, 11, 14, 1,  7,  6,  0,  8,  13},
    {4,  11, 2,  14, 15, 0, 8,  13, 3,  12, 9, 7,  5,  10, 6, 1,
     13, 0,  11, 7,  4,  9, 1,  10, 14, 3,  5, 12, 2,  15, 8, 6,
     1,  4,  11, 13, 12, 3, 7,  14, 10, 15, 6, 8,  0,  5,  9, 2,
     6,  11, 13, 8,  1,  4, 10, 7,  9,  5,  0, 15, 14, 2,  3, 12},
    {13, 2,  8,  4, 6,  15, 11, 1,  10, 9,  3,  14, 5,  0,  12, 7,
     1,  15, 13, 8, 10, 3,  7,  4,  12, 5,  6,  11, 0,  14, 9,  2,
     7,  11, 4,  1, 9,  12, 14, 2,  0,  6,  10, 13, 15, 3,  5,  8,
     2,  1,  14, 7, 4,  10, 8,  13, 15, 12, 9,  0,  3,  5,  6,  11}};

unsigned long round_keys[16];

unsigned rng_state = 1977u;

unsigned next_random(void) {
    rng_state = rng_state * 69069u + 1u;
    return rng_state;
}

unsigned long random_block(void) {
    unsigned long high = next_random();
    return high << 32 | next_random();
}

/* Output bit i (from the left, of out_bits) is input bit table[i] (1-based
   from the left of an in_bits-wide value). */
unsigned long permute(unsigned long in, int in_bits, const int table[], int out_bits) {
    unsigned long out = 0ul;
    for (int i = 0; i < out_bits; i++) {
        out <<= 1;
        if ((in >> (in_bits - table[i])) & 1ul)
            out |= 1ul;
    }
    return out;
}

/* Rotates a 28-bit half left by one position at a time. */
unsigned long rotate28(unsigned long half, int count) {
    for (int k = 0; k < count; k++) {
        if (half & 0x8000000ul)
            half = ((half << 1) & 0xFFFFFFFul) | 1ul;
        else
            half = half << 1;
    }
    return half;
}

void key_schedule(unsigned long key) {
    unsigned long selected = permute(key, 64, pc1, 56);
    unsigned long c = selected >> 28, d = selected & 0xFFFFFFFul;
    for (int round = 0; round < 16; round++) {
        c = rotate28(c, key_shifts[round]);
        d = rotate28(d, key_shifts[round]);
        round_keys[round] = permute(c << 28 | d, 56, pc2, 48);
    }
}

/* The Feistel function f(R, K).  The expansion E takes, for S-box i, the
   six bits 4i .. 4i+5 of the 34-bit string R32 R1 R2 ... R32 R1, so it is
   computed with shifts inside the S-box loop instead of a 48-bit table. */
unsigned long feistel(unsigned long right, unsigned long key) {
    unsigned long wrapped = (right & 1ul) << 33 | right << 1 | right >> 31;
    unsigned long substituted = 0ul;
    for (int box = 0; box < 8; box++) {
        int six = (int)((wrapped >> (28 - 4 * box)) ^ (key >> (42 - 6 * box))) & 63;
        int row = (six >> 4 & 2) | (six & 1);
        int column = six >> 1 & 15;
        substituted = substituted << 4 | (unsigned long)sbox[box][row * 16 + column];
    }
    return permute(substituted, 32, p_perm, 32);
}

unsigned long des_block(unsigned long block, int decrypt) {
    unsigned long state = permute(block, 64, initial_perm, 64);
    unsigned long left = state >> 32, right = state & 0xFFFFFFFFul;
    for (int round = 0; round < 16; round++) {
        unsigned long key;
        if (decrypt)
            key = round_keys[15 - round];
        else
            key = round_keys[round];
        unsigned long next = left ^ feistel(right, key);
        left = right;
        right = next;
    }
    /* The halves are not swapped after the last round. */
    return permute(right << 32 | left, 64, final_perm, 64);
}

unsigned long message[64];
unsigned long cipher[64];
unsigned long plain[64];

int main(void) {
    for (int i = 0; i < 64; i++)
        final_perm[initial_perm[i] - 1] = i + 1;

    key_schedule(0x133457799BBCDFF1ul);
    unsigned long kat = des_block(0x0123456789ABCDEFul, 0);
    unsigned long back = des_block(kat, 1);
    int kat_ok = kat == 0x85E813540F0AB405ul && back == 0x0123456789ABCDEFul;
    printf("known answer: %016lx -> %016lx ok %d\n", back, kat, kat_ok);

    unsigned long x = 0x9474B8E8C73BCA7Dul;
    for (int i = 0; i < 16; i++) {
        key_schedule(x);
        x = des_block(x, i % 2);
    }
    int rivest_ok = x == 0x1B1A2DDB4C642438ul;
    printf("rivest test: %016lx ok %d\n", x, rivest_ok);

    int failures = 0;
    const int groups = 16, messages_per_group = 7, blocks = 64;
    for (int g = 0; g < groups; g++) {
        unsigned long ecb_sum = 0ul, cbc_sum = 0ul;
        for (int m = 0; m < messages_per_group; m++) {
            key_schedule(random_block());
            unsigned long iv = random_block();
            for (int b = 0; b < blocks; b++) {
                /* Some messages are text-like (high bits clear), some constant. */
                unsigned long r = random_block();
                if (m == 1)
                    r &= 0x7F7F7F7F7F7F7F7Ful;
                else if (m == 2 && b % 4 != 0)
                    r = message[b - 1];
                message[b] = r;
            }
            /* ECB */
            for (int b = 0; b < blocks; b++)
                cipher[b] = des_block(message[b], 0);
            for (int b = 0; b < blocks; b++) {
                plain[b] = des_block(cipher[b], 1);
                ecb_sum = (ecb_sum << 7 | ecb_sum >> 57) ^ cipher[b];
            }
            for (int b = 0; b < blocks; b++)
                if (plain[b] != message[b])
                    failures++;
            /* CBC */
            unsigned long chain = iv;
            for (int b = 0; b < blocks; b++) {
                cipher[b] = des_block(message[b] ^ chain, 0);
                chain = cipher[b];
            }
            chain = iv;
            for (int b = 0; b < blocks; b++) {
                plain[b] = des_block(cipher[b], 1) ^ chain;
                chain = cipher[b];
                cbc_sum += cipher[b] ^ (cbc_sum >> 3);
            }
            for (int b = 0; b < blocks; b++)
                if (plain[b] != message[b])
                    failures++;
        }
        printf("group %d: ecb %016lx cbc %016lx\n", g, ecb_sum, cbc_sum);
    }
    printf("round trip failures %d\n", failures);
    return kat_ok && rivest_ok && failures == 0 ? 0 : 1;
}
