/* A recursive-descent expression evaluator over a char array built from
   character codes: + - * / % unary minus, parentheses, comparisons;
   mutual recursion through prototypes, errors reported by position. */
#include <stdio.h>

char src[256];
int src_len = 0;
int pos = 0;
int error = 0;

long parse_expr(void);
long parse_term(void);
long parse_unary(void);

void load(int codes[], int n) {
    for (int i = 0; i < n; i++) src[i] = (char)codes[i];
    src_len = n;
    pos = 0;
    error = 0;
}

void skip(void) {
    while (pos < src_len && src[pos] == ' ') pos++;
}

char peek(void) {
    skip();
    return pos < src_len ? src[pos] : '\0';
}

long parse_primary(void) {
    char c = peek();
    if (c == '(') {
        pos++;
        long v = parse_expr();
        if (peek() != ')') {
            if (!error) error = pos + 1;
            return 0;
        }
        pos++;
        return v;
    }
    if (c >= '0' && c <= '9') {
        long v = 0;
        while (pos < src_len && src[pos] >= '0' && src[pos] <= '9') v = v * 10 + (src[pos++] - '0');
        return v;
    }
    if (!error) error = pos + 1;
    return 0;
}

long parse_unary(void) {
    char c = peek();
    if (c == '-') {
        pos++;
        return -parse_unary();
    }
    if (c == '+') {
        pos++;
        return parse_unary();
    }
    return parse_primary();
}

long parse_term(void) {
    long v = parse_unary();
    for (;;) {
        char c = peek();
        if (c != '*' && c != '/' && c != '%') return v;
        pos++;
        long rhs = parse_unary();
        switch (c) {
        case '*': v *= rhs; break;
        case '/': v = rhs != 0 ? v / rhs : 0; break;
        default: v = rhs != 0 ? v % rhs : 0; break;
        }
    }
}

long parse_sum(void) {
    long v = parse_term();
    while (peek() == '+' || peek() == '-') {
        char c = src[pos++];
        long rhs = parse_term();
        v = c == '+' ? v + rhs : v - rhs;
    }
    return v;
}

long parse_expr(void) {
    long v = parse_sum();
    char c = peek();
    if (c == '<' || c == '>' || c == '=') {
        pos++;
        long rhs = parse_sum();
        return c == '<' ? v < rhs : c == '>' ? v > rhs : v == rhs;
    }
    return v;
}

void show(void) {
    for (int i = 0; i < src_len; i++) putchar(src[i]);
    long v = parse_expr();
    if (!error && pos < src_len) error = pos + 1;
    if (error) printf("  => error at column %d\n", error);
    else printf("  => %ld\n", v);
}

int main(void) {
    int e1[11] = {49, 32, 43, 32, 50, 32, 42, 32, 51, 32, 32};                 /* "1 + 2 * 3  " */
    int e2[13] = {40, 49, 43, 50, 41, 42, 40, 51, 43, 52, 41, 45, 53};         /* "(1+2)*(3+4)-5" */
    int e3[9] = {45, 45, 55, 32, 37, 32, 51, 32, 32};                          /* "--7 % 3  " */
    int e4[10] = {49, 48, 48, 47, 40, 55, 45, 55, 41, 32};                     /* "100/(7-7) " */
    int e5[7] = {50, 42, 40, 51, 43, 52};                                      /* "2*(3+4" */
    int e6[13] = {57, 57, 57, 57, 57, 42, 57, 57, 57, 57, 57, 62, 49};         /* "99999*99999>1" */
    int e7[5] = {49, 43, 42, 50, 32};                                          /* "1+*2 " */
    load(e1, 11);
    show();
    load(e2, 13);
    show();
    load(e3, 9);
    show();
    load(e4, 10);
    show();
    load(e5, 6);
    show();
    load(e6, 13);
    show();
    load(e7, 5);
    show();
    /* a generated long expression: 1-2+3-4+...+99 with nested parentheses */
    src_len = 0;
    for (int i = 1; i < 40; i++) {
        if (i > 1) src[src_len++] = i % 2 ? '+' : '-';
        if (i % 5 == 0) src[src_len++] = '(';
        if (i >= 10) src[src_len++] = (char)('0' + i / 10);
        src[src_len++] = (char)('0' + i % 10);
        if (i % 5 == 0) {
            src[src_len++] = '*';
            src[src_len++] = '2';
            src[src_len++] = ')';
        }
    }
    pos = 0;
    error = 0;
    show();
    return 0;
}
