/* Char-array codecs: run-length encoding and decoding, Caesar/ROT13,
   base64 encoding, hex dump, all without strings; verifies round trips. */
#include <stdio.h>

char input[200];
char encoded[400];
char decoded[200];

int rle_encode(char in[], int n, char out[]) {
    int o = 0;
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && in[j] == in[i] && j - i < 9) j++;
        out[o++] = (char)('0' + (j - i));
        out[o++] = in[i];
        i = j;
    }
    return o;
}

int rle_decode(char in[], int n, char out[]) {
    int o = 0;
    for (int i = 0; i + 1 < n; i += 2)
        for (int k = 0; k < in[i] - '0'; k++) out[o++] = in[i + 1];
    return o;
}

void rot(char buf[], int n, int k) {
    for (int i = 0; i < n; i++) {
        char c = buf[i];
        if (c >= 'a' && c <= 'z') buf[i] = (char)('a' + (c - 'a' + k) % 26);
        else if (c >= 'A' && c <= 'Z') buf[i] = (char)('A' + (c - 'A' + k) % 26);
    }
}

char b64char(int v) {
    if (v < 26) return (char)('A' + v);
    if (v < 52) return (char)('a' + v - 26);
    if (v < 62) return (char)('0' + v - 52);
    return v == 62 ? '+' : '/';
}

int base64(char in[], int n, char out[]) {
    int o = 0;
    for (int i = 0; i < n; i += 3) {
        unsigned b = (unsigned)(in[i] & 0xff) << 16;
        if (i + 1 < n) b |= (unsigned)(in[i + 1] & 0xff) << 8;
        if (i + 2 < n) b |= (unsigned)(in[i + 2] & 0xff);
        out[o++] = b64char((int)(b >> 18) & 63);
        out[o++] = b64char((int)(b >> 12) & 63);
        out[o++] = i + 1 < n ? b64char((int)(b >> 6) & 63) : '=';
        out[o++] = i + 2 < n ? b64char((int)b & 63) : '=';
    }
    return o;
}

void print_chars(char buf[], int n) {
    for (int i = 0; i < n; i++) putchar(buf[i]);
    putchar('\n');
}

int main(void) {
    int n = 0;
    /* "aaabccddddddddddddeffff Hello, World!" */
    int codes[24] = {97, 97, 97, 98, 99, 99, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100,
                     101, 102, 102, 102, 102, 32};
    for (int i = 0; i < 24; i++) input[n++] = (char)codes[i];
    int hw[13] = {72, 101, 108, 108, 111, 44, 32, 87, 111, 114, 108, 100, 33};
    for (int i = 0; i < 13; i++) input[n++] = (char)hw[i];
    print_chars(input, n);
    int e = rle_encode(input, n, encoded);
    print_chars(encoded, e);
    int d = rle_decode(encoded, e, decoded);
    int same = d == n;
    for (int i = 0; i < n && same; i++) same = decoded[i] == input[i];
    printf("rle %d -> %d bytes, round trip %d\n", n, e, same);
    rot(input, n, 13);
    print_chars(input, n);
    rot(input, n, 13);
    print_chars(input, n);
    rot(input, n, 3);
    print_chars(input, n);
    rot(input, n, 23);
    e = base64(input, n, encoded);
    print_chars(encoded, e);
    for (int len = 1; len <= 5; len++) {
        char tmp[5];
        for (int i = 0; i < len; i++) tmp[i] = (char)hw[i];
        e = base64(tmp, len, encoded);
        print_chars(encoded, e);
    }
    /* hex dump of bytes including negative chars */
    char bytes[20];
    for (int i = 0; i < 20; i++) bytes[i] = (char)(i * 29 - 100);
    for (int i = 0; i < 20; i++) {
        printf("%02x%c", bytes[i] & 0xff, i % 10 == 9 ? '\n' : ' ');
    }
    return 0;
}
