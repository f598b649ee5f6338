/* A tiny stack VM: an assembler turns text into an array of instruction structs, a switch loop runs them with call frames (recursive fib, gcd loop). */
#include <stdio.h>
#include <string.h>

typedef enum { PUSH, LOADA, ADD, SUB, LT, JZ, JMP, CALL, RET, PRINT, HALT, MOD, DUP, SWAP, POP, OVER } Op;

typedef struct {
    Op op;
    int arg;
    int line;
} Instr;

typedef struct {
    int ret_pc;
    int base;  /* stack index of the first argument */
    int nargs;
} Frame;

static const char *const mnemonics[] = {"push", "loada", "add", "sub", "lt", "jz", "jmp", "call", "ret",
                                        "print", "halt", "mod", "dup", "swap", "pop", "over"};

static int assemble(const char *src, Instr *out, int max) {
    int n = 0, line = 1;
    const char *p = src;
    while (*p && n < max) {
        char word[8];
        int w = 0;
        while (*p == ' ' || *p == '\n') {
            if (*p == '\n') line++;
            p++;
        }
        if (!*p) break;
        while (*p && *p != ' ' && *p != '\n' && w < 7) word[w++] = *p++;
        word[w] = '\0';
        int op = -1;
        for (int i = 0; i < (int)(sizeof mnemonics / sizeof mnemonics[0]); i++)
            if (strcmp(word, mnemonics[i]) == 0) op = i;
        if (op < 0) {
            printf("bad mnemonic '%s' on line %d\n", word, line);
            return -1;
        }
        int arg = 0;
        while (*p == ' ') p++;
        int neg = *p == '-';
        if (neg) p++;
        while (*p >= '0' && *p <= '9') arg = arg * 10 + (*p++ - '0');
        if (neg) arg = -arg;
        out[n].op = (Op)op;
        out[n].arg = arg;
        out[n].line = line;
        n++;
    }
    return n;
}

static long run(const Instr *code, int argval, long *steps) {
    int stack[256], sp = 0, fp = 0, pc = 0;
    Frame frames[64];
    *steps = 0;
    stack[sp++] = argval;
    frames[fp++] = (Frame){-1, 0, 1};
    for (;;) {
        const Instr *in = &code[pc++];
        ++*steps;
        switch (in->op) {
        case PUSH: stack[sp++] = in->arg; break;
        case LOADA: stack[sp++] = stack[frames[fp - 1].base + in->arg]; break;
        case ADD: sp--; stack[sp - 1] += stack[sp]; break;
        case SUB: sp--; stack[sp - 1] -= stack[sp]; break;
        case MOD: sp--; stack[sp - 1] %= stack[sp]; break;
        case LT: sp--; stack[sp - 1] = stack[sp - 1] < stack[sp]; break;
        case DUP: stack[sp] = stack[sp - 1]; sp++; break;
        case SWAP: { int t = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = t; } break;
        case POP: sp--; break;
        case OVER: stack[sp] = stack[sp - 2]; sp++; break;
        case JZ: if (stack[--sp] == 0) pc = in->arg; break;
        case JMP: pc = in->arg; break;
        case CALL: frames[fp++] = (Frame){pc, sp - 1, 1}; pc = in->arg; break;
        case RET: {
            int result = stack[sp - 1];
            Frame f = frames[--fp];
            sp = f.base;
            stack[sp++] = result;
            if (f.ret_pc < 0) return result;
            pc = f.ret_pc;
            break;
        }
        case PRINT: printf("  print %d\n", stack[sp - 1]); break;
        case HALT: return stack[sp - 1];
        }
    }
}

int main(void) {
    /* fib(n): if n < 2 return n; return fib(n-1) + fib(n-2) */
    const char *fib_src =
        "loada 0\npush 2\nlt\njz 6\nloada 0\nret\n"
        "loada 0\npush 1\nsub\ncall 0\n"
        "loada 0\npush 2\nsub\ncall 0\nadd\nret\n";
    /* gcd(a, 462): (a b) -> (b a%b) until b is 0, printing each b */
    const char *gcd_src =
        "loada 0\npush 462\n"
        "dup\njz 9\nprint\nswap\nover\nmod\njmp 2\n"
        "pop\nhalt\n";
    Instr code[64];
    int n = assemble(fib_src, code, 64);
    printf("fib program: %d instructions, last on line %d (%s)\n", n, code[n - 1].line, mnemonics[code[n - 1].op]);
    long total_steps = 0;
    for (int k = 5; k <= 20; k += 5) {
        long steps;
        long r = run(code, k, &steps);
        total_steps += steps;
        printf("fib(%d) = %ld in %ld steps\n", k, r, steps);
    }
    n = assemble(gcd_src, code, 64);
    printf("gcd program: %d instructions\n", n);
    long steps;
    long g = run(code, 1071, &steps);
    printf("gcd(1071, 462) = %ld in %ld steps\n", g, steps);
    int bad = assemble("push 1\nfrob 2\n", code, 64);
    printf("bad assemble -> %d, total steps %ld\n", bad, total_steps);
    return (int)g;
}
