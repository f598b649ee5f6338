/* A table-driven state machine: an array of transition structs holding predicate and action function pointers lexes a small config text into tokens. */
#include <stdio.h>
#include <string.h>

typedef enum { S_START, S_IDENT, S_NUMBER, S_STRING, S_COMMENT, S_ERROR, NSTATES } State;

typedef struct {
    char tok[32];
    int len;
    int counts[4]; /* identifiers, numbers, strings, symbols */
    long number_sum;
    int line;
} Lexer;

typedef int (*pred_fn)(int c);
typedef void (*action_fn)(Lexer *lx, int c);

typedef struct {
    State from;
    pred_fn match;
    State to;
    action_fn action;
} Transition;

static int is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_alnum(int c) { return is_alpha(c) || is_digit(c); }
static int is_space(int c) { return c == ' ' || c == '\t' || c == '\n'; }
static int is_quote(int c) { return c == '"'; }
static int is_hash(int c) { return c == '#'; }
static int is_newline(int c) { return c == '\n'; }
static int is_symbol(int c) { return c != 0 && strchr("=;{},", c) != NULL; }
static int any(int c) { return c != 0; }

static void start_tok(Lexer *lx, int c) {
    lx->len = 0;
    lx->tok[lx->len++] = (char)c;
}
static void append(Lexer *lx, int c) {
    if (lx->len < 31) lx->tok[lx->len++] = (char)c;
}
static void emit(Lexer *lx, const char *kind, int slot) {
    lx->tok[lx->len] = '\0';
    printf("%d:%-6s %s\n", lx->line, kind, lx->tok);
    lx->counts[slot]++;
}
static void end_ident(Lexer *lx, int c) { (void)c; emit(lx, "ident", 0); }
static void end_number(Lexer *lx, int c) {
    (void)c;
    long v = 0;
    for (const char *p = lx->tok; p < lx->tok + lx->len; p++) v = v * 10 + (*p - '0');
    lx->number_sum += v;
    emit(lx, "number", 1);
}
static void open_string(Lexer *lx, int c) { (void)c; lx->len = 0; }
static void close_string(Lexer *lx, int c) { (void)c; emit(lx, "string", 2); }
static void symbol(Lexer *lx, int c) {
    start_tok(lx, c);
    emit(lx, "symbol", 3);
}
static void newline(Lexer *lx, int c) { lx->line += c == '\n'; }

/* first matching row wins; a row with to == from and no action just stays */
static const Transition table[] = {
    {S_START, is_alpha, S_IDENT, start_tok},   {S_START, is_digit, S_NUMBER, start_tok},
    {S_START, is_quote, S_STRING, open_string}, {S_START, is_hash, S_COMMENT, NULL},
    {S_START, is_symbol, S_START, symbol},      {S_START, is_space, S_START, newline},
    {S_IDENT, is_alnum, S_IDENT, append},       {S_IDENT, any, S_START, end_ident},
    {S_NUMBER, is_digit, S_NUMBER, append},     {S_NUMBER, is_alpha, S_ERROR, NULL},
    {S_NUMBER, any, S_START, end_number},       {S_STRING, is_quote, S_START, close_string},
    {S_STRING, is_newline, S_ERROR, NULL},      {S_STRING, any, S_STRING, append},
    {S_COMMENT, is_newline, S_START, newline},  {S_COMMENT, any, S_COMMENT, NULL},
};

static const char *const state_names[NSTATES] = {"start", "ident", "number", "string", "comment", "error"};

static State run(Lexer *lx, const char *text) {
    State s = S_START;
    memset(lx, 0, sizeof *lx);
    lx->line = 1;
    const char *p = text;
    while (s != S_ERROR) {
        int c = (unsigned char)*p;
        const Transition *t = NULL;
        for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
            if (table[i].from == s && table[i].match(c)) {
                t = &table[i];
                break;
            }
        if (t == NULL) break; /* end of input in a state with no rule for '\0' */
        State next = t->to;
        if (t->action) t->action(lx, c);
        /* leaving a token state on a delimiter: the delimiter is reprocessed from START */
        if ((s == S_IDENT || s == S_NUMBER) && next == S_START) {
            s = S_START;
            continue;
        }
        s = next;
        p++;
    }
    printf("stopped in %s at line %d; ids %d nums %d strs %d syms %d sum %ld\n", state_names[s], lx->line,
           lx->counts[0], lx->counts[1], lx->counts[2], lx->counts[3], lx->number_sum);
    return s;
}

int main(void) {
    Lexer lx;
    State a = run(&lx, "# settings\nwidth = 640;\nheight=480 ;\nname = \"main window\";\n"
                       "opts { depth=24, vsync = 1 }\n");
    State b = run(&lx, "ok = 1;\nbad = 12ab;\n");
    State c = run(&lx, "title = \"unterminated\nnext = 2;\n");
    return (int)a * 100 + (int)b * 10 + (int)c - 50;
}
