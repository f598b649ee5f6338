/*
 * exprcalc.c - benchmark: tokenizer and recursive-descent expression evaluator.
 *
 * Algorithm: a calculator language over 32-bit unsigned values (wrapping;
 * x / 0 and x % 0 are 0) with statements `name = e;` (also +=, -=, *=) and
 * expressions with ?:, ||, &&, < > == !=, + - * / %, unary - and !,
 * parentheses, numbers and variables.  A hand-written tokenizer (a switch
 * over the next character, with one character of lookahead) feeds a
 * recursive-descent parser that evaluates while it parses: one function
 * for ?:, one for unary operators and primaries, one for the five levels
 * of binary operators that calls itself for the next tighter level.
 * Data: a generator writes batches of random statements (fixed-seed
 * xorshift choices) as text into a char array, following the same grammar
 * and computing the value of everything it writes on a shadow copy of the
 * variables; after each batch the interpreter's variables must equal them.
 *
 * Control flow for path profiling:
 *   - the tokenizer is a loop (skipping blanks) around an 18-way switch on
 *     the text, with inner loops for numbers and names, called per token;
 *   - the parser recurses through seven short levels, each with a loop over
 *     the operators of its level and a switch applying an operator: deep
 *     call chains whose shape follows the data;
 *   - variable lookup is a loop with an early exit comparing names
 *     character by character (a nested loop with its own early exit);
 *   - the generator mirrors the parser's recursion with random choices.
 *
 * Loop-heavy: no (most time goes into recursive calls of short parser
 * functions and per-token calls of the tokenizer; their loops run only a
 * few iterations each).
 */
#include <stdio.h>

unsigned xorshift_state = 2463534242u;

unsigned next_random(void) {
    unsigned x = xorshift_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    xorshift_state = x;
    return x;
}

int chance(int percent) {
    return (int)(next_random() % 100u) < percent;
}

char names[24][3];
int name_length[24];
int name_count = 24;
unsigned values[24];   /* the interpreter's variables */
unsigned expected[24]; /* the generator's shadow copy */

/* Gives variable v a name of one to three letters (the first letters are
   all different, so the names are distinct) and an initial value. */
void make_variables(void) {
    for (int v = 0; v < name_count; v++) {
        values[v] = (unsigned)v * 7u + 1u;
        expected[v] = values[v];
        name_length[v] = 1 + (v * 5) % 3;
        names[v][0] = (char)('a' + v);
        for (int c = 1; c < name_length[v]; c++)
            names[v][c] = (char)('a' + (int)(next_random() % 26u));
    }
}

/* Binary operators are named by their token kinds (see the tokenizer):
   the character itself for one-character operators, and 'E' ==, 'N' !=,
   'A' &&, 'O' ||.  Level 0 binds loosest.  The assignment operators
   = 'P' += 'M' -= 'T' *= are applied as binary operators too. */
int level_of(int op) {
    switch (op) {
    case 'O': return 0;
    case 'A': return 1;
    case '<': case '>': case 'E': case 'N': return 2;
    case '+': case '-': return 3;
    case '*': case '/': case '%': return 4;
    default: return -1;
    }
}

unsigned apply(int op, unsigned a, unsigned b) {
    switch (op) {
    case '=': return b;
    case 'O': return a != 0u || b != 0u;
    case 'A': return a != 0u && b != 0u;
    case '<': return a < b;
    case '>': return a > b;
    case 'E': return a == b;
    case 'N': return a != b;
    case '+': case 'P': return a + b;
    case '-': case 'M': return a - b;
    case '*': case 'T': return a * b;
    case '/': return b == 0u ? 0u : a / b;
    default: return b == 0u ? 0u : a % b;
    }
}

char text[24000];
int text_length = 0;

void emit(int c) {
    text[text_length++] = (char)c;
}

void emit_space(void) {
    if (chance(40))
        emit(' ');
}

void emit_number(unsigned v) {
    if (v >= 10u)
        emit_number(v / 10u);
    emit('0' + (int)(v % 10u));
}

void emit_name(int index) {
    for (int c = 0; c < name_length[index]; c++)
        emit(names[index][c]);
}

/* The generator: the grammar with random choices, computing the values.
   emit_operator writes an operator (or ? and :) with optional spaces. */
void emit_operator(int op) {
    emit_space();
    switch (op) {
    case 'E': emit('='); emit('='); break;
    case 'N': emit('!'); emit('='); break;
    case 'A': emit('&'); emit('&'); break;
    case 'O': emit('|'); emit('|'); break;
    default: emit(op); break;
    }
    emit_space();
}

int comparisons[4] = {'<', '>', 'E', 'N'};

/* A random operator of a level. */
int random_operator(int level) {
    int pick = (int)(next_random() % 6u);
    switch (level) {
    case 0: return 'O';
    case 1: return 'A';
    case 2: return comparisons[pick % 4];
    case 3: return pick < 4 ? '+' : '-';
    default: return pick < 2 ? '*' : pick < 4 ? '/' : '%';
    }
}

/* The chance (percent) of one more operator, by level. */
int continue_percent[5] = {10, 10, 20, 45, 30};

unsigned gen_expr(int depth);

unsigned gen_unary(int depth) {
    int choice = (int)(next_random() % 100u);
    if (choice < 12) { /* unary minus (7%) or not (5%) */
        emit(choice < 7 ? '-' : '!');
        unsigned v = gen_unary(depth);
        return choice < 7 ? 0u - v : (unsigned)(v == 0u);
    }
    if (depth <= 0 || choice < 45) { /* a number, mostly a small one */
        unsigned v = next_random() % (choice < 35 ? 100u : 100000u);
        emit_number(v);
        return v;
    }
    if (choice < 75) {
        int index = (int)(next_random() % (unsigned)name_count);
        emit_name(index);
        return expected[index];
    }
    emit('(');
    unsigned v = gen_expr(depth - 1);
    emit(')');
    return v;
}

/* Operands of level `level` joined by its operators (comparisons: at most
   one, they do not chain). */
unsigned gen_binary(int level, int depth) {
    if (level == 5)
        return gen_unary(depth);
    unsigned v = gen_binary(level + 1, depth);
    while (chance(continue_percent[level])) {
        int op = random_operator(level);
        emit_operator(op);
        v = apply(op, v, gen_binary(level + 1, depth - 1));
        if (level == 2)
            break;
    }
    return v;
}

/* A conditional expression, or just a binary one. */
unsigned gen_expr(int depth) {
    unsigned v = gen_binary(0, depth);
    if (depth <= 1 || !chance(8))
        return v;
    emit_operator('?');
    unsigned a = gen_expr(depth - 1);
    emit_operator(':');
    unsigned b = gen_expr(depth - 1);
    return v != 0u ? a : b;
}

/* Writes one statement and updates the shadow state. */
void gen_statement(void) {
    int target = (int)(next_random() % (unsigned)name_count);
    int kind = (int)(next_random() % 8u); /* half plain assignments */
    int op = kind == 5 ? 'P' : kind == 6 ? 'M' : kind == 7 ? 'T' : '=';
    emit_name(target);
    emit_space();
    if (op != '=')
        emit(op == 'P' ? '+' : op == 'M' ? '-' : '*');
    emit('=');
    emit_space();
    unsigned v = gen_expr(4);
    emit(';');
    emit(chance(50) ? '\n' : ' ');
    expected[target] = apply(op, expected[target], v);
}

/* Token kinds: as for operators (above), and 'P' +=, 'M' -=, 'T' *=,
   'n' number, 'i' identifier, '$' end of text, '@' bad character. */
int pos = 0, token = 0, syntax_errors = 0;
unsigned token_value = 0;              /* of a number */
int token_start = 0, token_length = 0; /* of a name */

/* The next character if it is `want` (consumed), else 0. */
int follows(int want) {
    if (text[pos] != want)
        return 0;
    pos++;
    return 1;
}

void next_token(void) {
    for (;;) {
        int c = text[pos++];
        switch (c) {
        case ' ': case '\t': case '\n':
            continue;
        case '\0': /* the sentinel after the text */
            token = '$';
            return;
        case '+': token = follows('=') ? 'P' : '+'; return;
        case '-': token = follows('=') ? 'M' : '-'; return;
        case '*': token = follows('=') ? 'T' : '*'; return;
        case '=': token = follows('=') ? 'E' : '='; return;
        case '!': token = follows('=') ? 'N' : '!'; return;
        case '&': token = follows('&') ? 'A' : '@'; return;
        case '|': token = follows('|') ? 'O' : '@'; return;
        case '(': case ')': case ';': case '?': case ':': case '<': case '>': case '/': case '%':
            token = c;
            return;
        default:
            if (c >= '0' && c <= '9') {
                unsigned v = (unsigned)(c - '0');
                while (text[pos] >= '0' && text[pos] <= '9')
                    v = v * 10u + (unsigned)(text[pos++] - '0');
                token = 'n';
                token_value = v;
                return;
            }
            if (c >= 'a' && c <= 'z') {
                token_start = pos - 1;
                while (text[pos] >= 'a' && text[pos] <= 'z')
                    pos++;
                token = 'i';
                token_length = pos - token_start;
                return;
            }
            token = '@';
            return;
        }
    }
}

void expect(int kind) {
    if (token != kind)
        syntax_errors++;
    next_token();
}

/* Index of the identifier token's variable, or -1. */
int lookup_token_name(void) {
    for (int v = 0; v < name_count; v++) {
        if (name_length[v] != token_length)
            continue;
        int c = 0;
        while (c < token_length && names[v][c] == text[token_start + c])
            c++;
        if (c == token_length)
            return v;
    }
    return -1;
}

unsigned parse_expr(void);

unsigned parse_unary(void) {
    switch (token) {
    case '-': next_token(); return 0u - parse_unary();
    case '!': next_token(); return (unsigned)(parse_unary() == 0u);
    case 'n': {
        unsigned v = token_value;
        next_token();
        return v;
    }
    case 'i': {
        int index = lookup_token_name();
        next_token();
        if (index < 0)
            syntax_errors++;
        return index < 0 ? 0u : values[index];
    }
    case '(': {
        next_token();
        unsigned v = parse_expr();
        expect(')');
        return v;
    }
    }
    syntax_errors++;
    next_token();
    return 0u;
}

/* Binary operators of `level` and tighter; level 5 is a unary operand. */
unsigned parse_binary(int level) {
    if (level == 5)
        return parse_unary();
    unsigned v = parse_binary(level + 1);
    while (level_of(token) == level) {
        int op = token;
        next_token();
        v = apply(op, v, parse_binary(level + 1));
        if (level == 2)
            break; /* comparisons do not chain */
    }
    return v;
}

unsigned parse_expr(void) {
    unsigned v = parse_binary(0);
    if (token != '?')
        return v;
    next_token();
    unsigned a = parse_expr();
    expect(':');
    unsigned b = parse_expr();
    return v != 0u ? a : b;
}

/* Runs every statement of the text; returns the number of statements. */
int run_text(void) {
    int statements = 0;
    text[text_length] = '\0';
    pos = 0;
    next_token();
    while (token != '$') {
        int target = token == 'i' ? lookup_token_name() : -1;
        next_token();
        int op = token;
        next_token();
        unsigned v = parse_expr();
        expect(';');
        if (target < 0 || (op != '=' && op != 'P' && op != 'M' && op != 'T')) {
            syntax_errors++;
            continue;
        }
        values[target] = apply(op, values[target], v);
        statements++;
    }
    return statements;
}

int main(void) {
    make_variables();
    int batches = 135, mismatches = 0;
    long total_statements = 0, total_chars = 0;
    for (int batch = 0; batch < batches; batch++) {
        text_length = 0;
        while (text_length < 19000)
            gen_statement();
        total_chars += text_length;
        total_statements += run_text();
        unsigned digest = 0;
        for (int v = 0; v < name_count; v++) {
            if (values[v] != expected[v])
                mismatches++;
            digest = (digest << 3 | digest >> 29) ^ values[v];
        }
        if (batch % 10 == 9)
            printf("batch %2d: statements so far %ld chars %ld digest %08x errors %d\n", batch,
                   total_statements, total_chars, digest, syntax_errors);
    }
    printf("mismatches %d syntax errors %d\n", mismatches, syntax_errors);
    return mismatches == 0 && syntax_errors == 0 ? 0 : 1;
}
