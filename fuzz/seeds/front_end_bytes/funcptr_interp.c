/* A tiny dispatch interpreter: opcodes index a table of handler function pointers operating on a machine struct through a pointer. */
#include <stdio.h>

enum { OP_PUSH, OP_ADD, OP_SUB, OP_MUL, OP_DUP, OP_SWAP, OP_OVER, OP_DROP, OP_JNZ, OP_JMP, OP_PRINT, OP_HALT,
       OP_STORE, OP_LOAD, OP_DEC, NOPS };

typedef struct Machine Machine;
typedef int (*handler)(Machine *m, int arg);

struct Machine {
    int stack[32];
    int sp;
    int pc;
    int regs[4];
    long steps;
    int printed;
};

static void push(Machine *m, int v) { m->stack[m->sp++] = v; }
static int pop(Machine *m) { return m->stack[--m->sp]; }

static int h_push(Machine *m, int a) { push(m, a); return 1; }
static int h_add(Machine *m, int a) { (void)a; int y = pop(m), x = pop(m); push(m, x + y); return 1; }
static int h_sub(Machine *m, int a) { (void)a; int y = pop(m), x = pop(m); push(m, x - y); return 1; }
static int h_mul(Machine *m, int a) { (void)a; int y = pop(m), x = pop(m); push(m, x * y); return 1; }
static int h_dup(Machine *m, int a) { (void)a; int x = pop(m); push(m, x); push(m, x); return 1; }
static int h_swap(Machine *m, int a) { (void)a; int y = pop(m), x = pop(m); push(m, y); push(m, x); return 1; }
static int h_over(Machine *m, int a) { (void)a; push(m, m->stack[m->sp - 2]); return 1; }
static int h_drop(Machine *m, int a) { (void)a; m->sp--; return 1; }
static int h_jnz(Machine *m, int a) { if (pop(m) != 0) m->pc = a - 1; return 1; }
static int h_jmp(Machine *m, int a) { m->pc = a - 1; return 1; }
static int h_print(Machine *m, int a) {
    (void)a;
    printf("  out: %d\n", m->stack[m->sp - 1]);
    m->printed++;
    return 1;
}
static int h_halt(Machine *m, int a) { (void)m; (void)a; return 0; }
static int h_store(Machine *m, int a) { m->regs[a] = pop(m); return 1; }
static int h_load(Machine *m, int a) { push(m, m->regs[a]); return 1; }
static int h_dec(Machine *m, int a) { m->regs[a]--; return 1; }

static const handler dispatch[NOPS] = {
    [OP_PUSH] = h_push, [OP_ADD] = h_add,   [OP_SUB] = h_sub,     [OP_MUL] = h_mul,   [OP_DUP] = h_dup,
    [OP_SWAP] = h_swap, [OP_OVER] = h_over, [OP_DROP] = h_drop,   [OP_JNZ] = h_jnz,   [OP_JMP] = h_jmp,
    [OP_PRINT] = h_print, [OP_HALT] = h_halt, [OP_STORE] = h_store, [OP_LOAD] = h_load, [OP_DEC] = h_dec,
};

static const char *const op_names[NOPS] = {"push", "add", "sub", "mul", "dup", "swap", "over", "drop",
                                           "jnz", "jmp", "print", "halt", "store", "load", "dec"};

static int run(const char *title, const int (*code)[2], Machine *m) {
    m->sp = 0;
    m->pc = 0;
    m->steps = 0;
    m->printed = 0;
    for (int i = 0; i < 4; i++) m->regs[i] = 0;
    printf("%s:\n", title);
    int counts[NOPS] = {0};
    for (;;) {
        const int *ins = code[m->pc];
        handler h = dispatch[ins[0]];
        counts[ins[0]]++;
        m->steps++;
        if (!h(m, ins[1])) break;
        m->pc++;
    }
    int most = 0;
    for (int i = 1; i < NOPS; i++)
        if (counts[i] > counts[most]) most = i;
    printf("  steps %ld, most frequent op %s (%d), sp %d\n", m->steps, op_names[most], counts[most], m->sp);
    return m->sp > 0 ? m->stack[m->sp - 1] : 0;
}

int main(void) {
    /* factorial of 10 by a counted loop: r0 = n, r1 = acc */
    static const int fact[][2] = {
        {OP_PUSH, 10}, {OP_STORE, 0}, {OP_PUSH, 1}, {OP_STORE, 1},
        {OP_LOAD, 1}, {OP_LOAD, 0}, {OP_MUL, 0}, {OP_STORE, 1}, {OP_DEC, 0}, {OP_LOAD, 0}, {OP_JNZ, 4},
        {OP_LOAD, 1}, {OP_PRINT, 0}, {OP_HALT, 0},
    };
    /* first Fibonacci numbers printed from a stack pair: a b -> b a+b */
    static const int fib[][2] = {
        {OP_PUSH, 8}, {OP_STORE, 2}, {OP_PUSH, 0}, {OP_PUSH, 1},
        {OP_PRINT, 0}, {OP_DUP, 0}, {OP_STORE, 3}, {OP_ADD, 0}, {OP_LOAD, 3}, {OP_SWAP, 0},
        {OP_DEC, 2}, {OP_LOAD, 2}, {OP_JNZ, 4}, {OP_OVER, 0}, {OP_SUB, 0}, {OP_HALT, 0},
    };
    Machine m;
    int a = run("factorial", fact, &m);
    int b = run("fibonacci", fib, &m);
    printf("results %d %d\n", a, b);
    return b;
}
