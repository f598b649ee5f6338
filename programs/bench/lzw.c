/* lzw.c - LZW compression and decompression of generated data.

   Algorithm: LZW in the style of Unix compress.  Codes 0-255 are the single
   bytes, 256 is CLEAR (dictionary reset) and 257 is END; new strings get codes
   from 258 up to 4095.  The encoder finds the code of (prefix code, byte)
   pairs in an open-addressing hash table (double hashing, as in compress);
   codes are packed LSB-first into a byte stream with a variable width of 9 to
   12 bits, where the width of the i-th code after a reset is the number of
   bits of the largest code that can appear at that point, so that encoder and
   decoder agree without extra signalling.  When the dictionary is full, the
   encoder emits CLEAR and both sides start over.  The decoder rebuilds the
   dictionary as (prefix, last byte) pairs, unwinds strings through a stack,
   and handles the special KwKwK case (a code that is not yet defined).

   Data: four generated inputs from a 32-bit LCG: English-like text (words
   from a generated vocabulary with a skewed frequency, sentences with capitals,
   punctuation and line breaks), a run-heavy "bitmap" stream, a small-alphabet
   stream, and uniformly random bytes (incompressible: the dictionary fills and
   is reset often).  Every input is compressed, decompressed and compared with
   the original; sizes and FNV-1a checksums of the compressed streams are
   printed.

   Control flow for path profiling: the encoder loop body has a hash probe loop
   nested inside (hit, empty slot, or collision and re-probe: data dependent),
   then either extends the current string or emits a code, which calls the bit
   packer (a loop flushing whole bytes) and may widen the code or reset the
   dictionary; the decoder loop body switches on CLEAR/END/known/unknown codes
   and unwinds the string with an inner loop whose trip count is the string
   length.  Text input gives long strings and mostly hash hits; random input
   gives short strings, frequent collisions and dictionary resets.

   Loop-heavy: yes (the byte loop of the encoder with its probe loop, and the
   decoder loop with its unwinding loop). */
#include <stdio.h>

unsigned rng_state = 2463534242u;

unsigned next_random(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

/* Codes and sizes. */
const int CLEAR_CODE = 256;
const int END_CODE = 257;
const int FIRST_FREE = 258;
const int MAX_CODES = 4096;
const int MIN_WIDTH = 9;
const int MAX_WIDTH = 12;
const int HASH_SIZE = 5003; /* prime, about 120% of MAX_CODES */

/* Encoder dictionary: hash table of (prefix, byte) -> code. */
int hash_prefix[5003];
int hash_byte[5003];
int hash_code[5003]; /* -1 when the slot is empty */

/* Decoder dictionary: code -> (prefix code, last byte). */
int dict_prefix[4096];
int dict_byte[4096];
int unwind_stack[4096];

int input[60000];
int output[60000];
int packed[90000];

/* Bit packer state (LSB first). */
unsigned bit_buffer;
int bit_count;
int packed_length;

/* Bit unpacker state. */
int read_position;

void clear_hash_table(void) {
    for (int i = 0; i < HASH_SIZE; i++)
        hash_code[i] = -1;
}

void put_code(int code, int width) {
    bit_buffer |= (unsigned)code << bit_count;
    bit_count += width;
    while (bit_count >= 8) {
        packed[packed_length++] = (int)(bit_buffer & 0xFFu);
        bit_buffer >>= 8;
        bit_count -= 8;
    }
}

int get_code(int width) {
    while (bit_count < width) {
        bit_buffer |= (unsigned)packed[read_position++] << bit_count;
        bit_count += 8;
    }
    int code = (int)(bit_buffer & ((1u << width) - 1u));
    bit_buffer >>= width;
    bit_count -= width;
    return code;
}

/* Smallest width that can hold every code below limit (limit >= 2^(w-1)). */
int width_for(int limit) {
    int width = MIN_WIDTH;
    while (width < MAX_WIDTH && (1 << width) < limit)
        width++;
    return width;
}

/* Compresses input[0..length) into packed[]; returns the number of codes. */
int lzw_compress(int length) {
    int next_code = FIRST_FREE;
    int codes = 0;
    bit_buffer = 0u;
    bit_count = 0;
    packed_length = 0;
    clear_hash_table();

    int current = input[0];
    for (int i = 1; i < length; i++) {
        int byte = input[i];
        /* Probe for (current, byte). */
        int slot = ((byte << 4) ^ current) % HASH_SIZE;
        int step = slot == 0 ? 1 : HASH_SIZE - slot;
        int found = -1;
        for (;;) {
            if (hash_code[slot] < 0)
                break;
            if (hash_prefix[slot] == current && hash_byte[slot] == byte) {
                found = hash_code[slot];
                break;
            }
            slot -= step;
            if (slot < 0)
                slot += HASH_SIZE;
        }
        if (found >= 0) {
            current = found;
            continue;
        }
        /* The string current+byte is new: emit current. */
        put_code(current, width_for(next_code));
        codes++;
        if (next_code < MAX_CODES) {
            hash_prefix[slot] = current;
            hash_byte[slot] = byte;
            hash_code[slot] = next_code++;
        } else {
            put_code(CLEAR_CODE, width_for(next_code));
            codes++;
            next_code = FIRST_FREE;
            clear_hash_table();
        }
        current = byte;
    }
    put_code(current, width_for(next_code));
    put_code(END_CODE, width_for(next_code + 1));
    codes += 2;
    if (bit_count > 0)
        put_code(0, 8 - bit_count);
    return codes;
}

/* First byte of the string written by the last emit_string call. */
int string_first;

/* Writes the string of code into output[] at position (its bytes are found
   last to first along the prefix chain, so they are reversed through a
   stack); returns its length. */
int emit_string(int code, int position) {
    int depth = 0;
    while (code >= FIRST_FREE) {
        unwind_stack[depth++] = dict_byte[code];
        code = dict_prefix[code];
    }
    string_first = code;
    output[position++] = code;
    for (int k = depth - 1; k >= 0; k--)
        output[position++] = unwind_stack[k];
    return depth + 1;
}

/* Decompresses packed[] into output[]; returns the number of bytes.  The
   decoder defines each code one step after the encoder did, hence the
   "+ 1" in the width limit once a previous code exists. */
int lzw_decompress(void) {
    int next_code = FIRST_FREE;
    int previous = -1;
    int previous_first = 0;
    int length = 0;
    bit_buffer = 0u;
    bit_count = 0;
    read_position = 0;

    for (;;) {
        int limit = previous < 0 ? next_code : next_code + 1;
        int code = get_code(width_for(limit));
        if (code == END_CODE)
            break;
        if (code == CLEAR_CODE) {
            next_code = FIRST_FREE;
            previous = -1;
            continue;
        }
        if (previous < 0) {
            output[length++] = code;
            previous = code;
            previous_first = code;
            continue;
        }
        int written;
        if (code < next_code) {
            written = emit_string(code, length);
        } else {
            /* KwKwK: the code being defined is previous + its own first
               byte, which is the first byte of previous. */
            written = emit_string(previous, length);
            output[length + written] = previous_first;
            written++;
        }
        if (next_code < MAX_CODES) {
            dict_prefix[next_code] = previous;
            dict_byte[next_code] = string_first;
            next_code++;
        }
        length += written;
        previous = code;
        previous_first = string_first;
    }
    return length;
}

/* Input generators. */
int vocabulary[300][10];
int word_length[300];

void build_vocabulary(void) {
    const int vowels[5] = {'a', 'e', 'i', 'o', 'u'};
    for (int w = 0; w < 300; w++) {
        int len = 2 + (int)(next_random() % 8u);
        for (int k = 0; k < len; k++) {
            unsigned r = next_random();
            if (k % 2 == 1)
                vocabulary[w][k] = vowels[r % 5u];
            else
                vocabulary[w][k] = 'b' + (int)(r % 25u);
        }
        word_length[w] = len;
    }
}

int generate_text(int length) {
    int n = 0, words_in_sentence = 0, column = 0;
    while (n < length - 12) {
        unsigned r = next_random();
        /* Skewed choice: small word numbers are much more frequent. */
        int w = (int)((r % 300u) * ((r >> 10) % 300u) / 300u);
        for (int k = 0; k < word_length[w]; k++) {
            int c = vocabulary[w][k];
            if (k == 0 && words_in_sentence == 0)
                c = c - 'a' + 'A';
            input[n++] = c;
        }
        words_in_sentence++;
        column += word_length[w] + 1;
        if (words_in_sentence > 4 && (r >> 20) % 5u == 0u) {
            input[n++] = (r >> 24) % 4u == 0u ? '?' : '.';
            words_in_sentence = 0;
        } else if ((r >> 18) % 11u == 0u) {
            input[n++] = ',';
        }
        if (column > 64) {
            input[n++] = '\n';
            column = 0;
        } else {
            input[n++] = ' ';
        }
    }
    return n;
}

int generate_runs(int length) {
    int n = 0;
    while (n < length) {
        unsigned r = next_random();
        int value = (r & 3u) == 0u ? (int)((r >> 4) & 0xFFu) : ((r & 1u) ? 0xFF : 0);
        int run = 1 + (int)((r >> 12) % 40u);
        for (int k = 0; k < run && n < length; k++)
            input[n++] = value;
    }
    return n;
}

int generate_small_alphabet(int length) {
    for (int i = 0; i < length; i++)
        input[i] = 'A' + (int)(next_random() % 4u);
    return length;
}

int generate_random(int length) {
    for (int i = 0; i < length; i++)
        input[i] = (int)(next_random() & 0xFFu);
    return length;
}

unsigned fnv1a(const int data[], int length) {
    unsigned h = 2166136261u;
    for (int i = 0; i < length; i++)
        h = (h ^ (unsigned)data[i]) * 16777619u;
    return h;
}

int main(void) {
    const int rounds = 14;
    int failures = 0;
    unsigned total = 0u;
    long kind_bytes[4] = {0, 0, 0, 0};
    long kind_packed[4] = {0, 0, 0, 0};
    long kind_codes[4] = {0, 0, 0, 0};
    unsigned kind_hash[4] = {0u, 0u, 0u, 0u};
    build_vocabulary();
    for (int round = 0; round < rounds; round++) {
        unsigned round_hash = 0u;
        int round_failures = 0;
        for (int kind = 0; kind < 4; kind++) {
            int length;
            if (kind == 0)
                length = generate_text(60000);
            else if (kind == 1)
                length = generate_runs(50000 + 500 * round);
            else if (kind == 2)
                length = generate_small_alphabet(40000);
            else
                length = generate_random(30000);
            int codes = lzw_compress(length);
            unsigned packed_hash = fnv1a(packed, packed_length);
            int restored = lzw_decompress();
            int same = restored == length;
            for (int i = 0; same && i < length; i++)
                if (output[i] != input[i])
                    same = 0;
            if (!same)
                round_failures++;
            kind_bytes[kind] += length;
            kind_packed[kind] += packed_length;
            kind_codes[kind] += codes;
            kind_hash[kind] = (kind_hash[kind] ^ packed_hash) * 16777619u;
            round_hash = round_hash * 31u + (packed_hash ^ fnv1a(input, length));
        }
        printf("round %2d: hash %08x failures %d\n", round, round_hash, round_failures);
        failures += round_failures;
        total = (total << 7 | total >> 25) ^ round_hash;
    }
    for (int kind = 0; kind < 4; kind++)
        printf("kind %d: %ld bytes -> %ld codes, %ld bytes (%.2f%%), hash %08x\n", kind,
               kind_bytes[kind], kind_codes[kind], kind_packed[kind],
               100.0 * (double)kind_packed[kind] / (double)kind_bytes[kind], kind_hash[kind]);
    printf("combined %08x failures %d\n", total, failures);
    return failures == 0 ? 0 : 1;
}
