/*
 * bcinterp.c - benchmark: a stack-machine bytecode interpreter.
 *
 * Algorithm: a small virtual machine with an operand stack, 16 local
 * variables, a return stack and 23 opcodes (push, load, store, increment,
 * dup, pop, swap, add, sub, mul, div, mod, lt, le, eq, ne, jmp, jz, jnz,
 * call, ret, out, halt), dispatched by a switch in a fetch-decode-execute
 * loop.  Programs are assembled at start-up into int arrays by a tiny
 * assembler with labels and forward-jump fix-ups:
 *   - primes: counts the primes below a bound by trial division, the test
 *     being a subroutine (call/ret) with an early exit;
 *   - nested: a doubly nested counting loop with a data-dependent branch
 *     on (i + j) % 3 in the inner body;
 *   - fib: the iterative Fibonacci recurrence modulo a prime, restarted
 *     many times;
 *   - collatz: total stopping times of a range of numbers (odd/even branch
 *     with a data-dependent trip count).
 * Each program's result is recomputed natively in C and compared.  Data:
 * the programs' constants are fixed in the assembler code.
 *
 * Control flow for path profiling:
 *   - the dispatch loop is one loop whose body is a 23-way switch: every
 *     iteration is one bytecode instruction, so the sequence of loop-body
 *     paths spells the bytecode trace; the interpreted loops make long
 *     cyclic patterns of paths (the 10-20 instructions of an interpreted
 *     loop body repeat in the same order), with data-dependent exits
 *     (jz/jnz taken or not) that change the cycle;
 *   - conditional jumps have an inner branch on the popped value;
 *   - the assembler is a loop-free emitter called from straight-line code,
 *     followed by a fix-up loop; the native checks are ordinary loop nests.
 *
 * Loop-heavy: yes (almost all time in the dispatch loop).
 */
#include <stdio.h>

/* Opcodes (the case labels of the interpreter's switch use the numbers). */
const int OP_PUSH = 0, OP_LOAD = 1, OP_STORE = 2, OP_INC = 3, OP_DUP = 4, OP_POP = 5;
const int OP_SWAP = 6, OP_ADD = 7, OP_SUB = 8, OP_MUL = 9, OP_DIV = 10, OP_MOD = 11;
const int OP_LT = 12, OP_LE = 13, OP_EQ = 14, OP_NE = 15, OP_JMP = 16, OP_JZ = 17;
const int OP_JNZ = 18, OP_CALL = 19, OP_RET = 20, OP_OUT = 21, OP_HALT = 22;

int code[512];
int code_length = 0;

/* Labels: position of each label (-1 until placed) and the jump operands
   that refer to a label not yet placed. */
int label_at[32];
int fixup_slot[64], fixup_label[64];
int fixup_count = 0;

void start_program(void) {
    code_length = 0;
    fixup_count = 0;
    for (int i = 0; i < 32; i++)
        label_at[i] = -1;
}

void emit(int op) {
    code[code_length++] = op;
}

void emit_arg(int op, int argument) {
    code[code_length++] = op;
    code[code_length++] = argument;
}

void place(int label) {
    label_at[label] = code_length;
}

/* A jump or call to a label, resolved at the end. */
void emit_jump(int op, int label) {
    code[code_length++] = op;
    fixup_slot[fixup_count] = code_length;
    fixup_label[fixup_count] = label;
    fixup_count++;
    code[code_length++] = -1;
}

void resolve_labels(void) {
    for (int f = 0; f < fixup_count; f++)
        code[fixup_slot[f]] = label_at[fixup_label[f]];
}

/* ---------- the interpreter ---------- */

int stack[256];
int locals[16];
int return_stack[64];
long executed = 0;
unsigned output_hash = 0;
int output_count = 0;
int last_output = 0;

/* Runs code from address 0 until halt; returns 0, or 1 on a fault. */
int run(void) {
    int pc = 0, sp = 0, rsp = 0;
    for (;;) {
        int op = code[pc++];
        executed++;
        switch (op) {
        case 0: /* push constant */
            stack[sp++] = code[pc++];
            break;
        case 1: /* load local */
            stack[sp++] = locals[code[pc++]];
            break;
        case 2: /* store local */
            locals[code[pc++]] = stack[--sp];
            break;
        case 3: /* increment local */
            locals[code[pc]]++;
            pc++;
            break;
        case 4: /* dup */
            stack[sp] = stack[sp - 1];
            sp++;
            break;
        case 5: /* pop */
            sp--;
            break;
        case 6: { /* swap */
            int t = stack[sp - 1];
            stack[sp - 1] = stack[sp - 2];
            stack[sp - 2] = t;
            break;
        }
        case 7: /* add (wrapping) */
            sp--;
            stack[sp - 1] = (int)((unsigned)stack[sp - 1] + (unsigned)stack[sp]);
            break;
        case 8: /* sub */
            sp--;
            stack[sp - 1] = (int)((unsigned)stack[sp - 1] - (unsigned)stack[sp]);
            break;
        case 9: /* mul */
            sp--;
            stack[sp - 1] = (int)((unsigned)stack[sp - 1] * (unsigned)stack[sp]);
            break;
        case 10: /* div */
        case 11: /* mod */
            sp--;
            if (stack[sp] == 0)
                return 1;
            stack[sp - 1] = op == 10 ? stack[sp - 1] / stack[sp] : stack[sp - 1] % stack[sp];
            break;
        case 12: /* less than */
            sp--;
            stack[sp - 1] = stack[sp - 1] < stack[sp];
            break;
        case 13: /* less or equal */
            sp--;
            stack[sp - 1] = stack[sp - 1] <= stack[sp];
            break;
        case 14: /* equal */
            sp--;
            stack[sp - 1] = stack[sp - 1] == stack[sp];
            break;
        case 15: /* not equal */
            sp--;
            stack[sp - 1] = stack[sp - 1] != stack[sp];
            break;
        case 16: /* jump */
            pc = code[pc];
            break;
        case 17: /* jump if zero */
            if (stack[--sp] == 0)
                pc = code[pc];
            else
                pc++;
            break;
        case 18: /* jump if not zero */
            if (stack[--sp] != 0)
                pc = code[pc];
            else
                pc++;
            break;
        case 19: /* call */
            return_stack[rsp++] = pc + 1;
            pc = code[pc];
            break;
        case 20: /* return */
            pc = return_stack[--rsp];
            break;
        case 21: /* output: fold the value into the output hash */
            last_output = stack[--sp];
            output_hash = (output_hash ^ (unsigned)last_output) * 16777619u;
            output_count++;
            break;
        case 22: /* halt */
            return 0;
        default:
            return 1;
        }
    }
}

/* ---------- the programs ---------- */

/* Primes below limit by trial division; outputs each prime, then the count.
   Locals: 0 n, 1 count, 2 divisor. */
void assemble_primes(int limit) {
    start_program();
    emit_arg(OP_PUSH, 2); emit_arg(OP_STORE, 0);
    emit_arg(OP_PUSH, 0); emit_arg(OP_STORE, 1);
    place(0); /* loop over n */
    emit_arg(OP_LOAD, 0); emit_arg(OP_PUSH, limit); emit(OP_LT); emit_jump(OP_JZ, 2);
    emit_jump(OP_CALL, 3);
    emit_jump(OP_JZ, 1);
    emit_arg(OP_INC, 1);
    emit_arg(OP_LOAD, 0); emit(OP_OUT);
    place(1); /* next n */
    emit_arg(OP_INC, 0); emit_jump(OP_JMP, 0);
    place(2); /* end */
    emit_arg(OP_LOAD, 1); emit(OP_OUT);
    emit(OP_HALT);
    place(3); /* subroutine: is locals[0] prime? leaves 0 or 1 */
    emit_arg(OP_PUSH, 2); emit_arg(OP_STORE, 2);
    place(4); /* while d * d <= n */
    emit_arg(OP_LOAD, 2); emit(OP_DUP); emit(OP_MUL); emit_arg(OP_LOAD, 0);
    emit(OP_LE); emit_jump(OP_JZ, 5);
    emit_arg(OP_LOAD, 0); emit_arg(OP_LOAD, 2); emit(OP_MOD); emit_jump(OP_JZ, 6);
    emit_arg(OP_INC, 2); emit_jump(OP_JMP, 4);
    place(5); /* no divisor found */
    emit_arg(OP_PUSH, 1); emit(OP_RET);
    place(6); /* divisible */
    emit_arg(OP_PUSH, 0); emit(OP_RET);
    resolve_labels();
}

/* for i < rows, j < cols: acc = (i + j) % 3 ? (acc + i * j) % 1000003 : acc - 7;
   outputs acc after every row.  Locals: 0 i, 1 j, 2 acc. */
void assemble_nested(int rows, int cols) {
    start_program();
    emit_arg(OP_PUSH, 0); emit_arg(OP_STORE, 0);
    place(0); /* row loop */
    emit_arg(OP_LOAD, 0); emit_arg(OP_PUSH, rows); emit(OP_LT); emit_jump(OP_JZ, 5);
    emit_arg(OP_PUSH, 0); emit_arg(OP_STORE, 1);
    place(1); /* column loop */
    emit_arg(OP_LOAD, 1); emit_arg(OP_PUSH, cols); emit(OP_LT); emit_jump(OP_JZ, 4);
    emit_arg(OP_LOAD, 0); emit_arg(OP_LOAD, 1); emit(OP_ADD); emit_arg(OP_PUSH, 3);
    emit(OP_MOD); emit_jump(OP_JZ, 2);
    emit_arg(OP_LOAD, 2); emit_arg(OP_LOAD, 0); emit_arg(OP_LOAD, 1); emit(OP_MUL);
    emit(OP_ADD); emit_arg(OP_PUSH, 1000003); emit(OP_MOD); emit_arg(OP_STORE, 2);
    emit_jump(OP_JMP, 3);
    place(2); /* (i + j) % 3 == 0 */
    emit_arg(OP_LOAD, 2); emit_arg(OP_PUSH, 7); emit(OP_SUB); emit_arg(OP_STORE, 2);
    place(3);
    emit_arg(OP_INC, 1); emit_jump(OP_JMP, 1);
    place(4); /* end of a row */
    emit_arg(OP_LOAD, 2); emit(OP_OUT);
    emit_arg(OP_INC, 0); emit_jump(OP_JMP, 0);
    place(5);
    emit(OP_HALT);
    resolve_labels();
}

/* rounds restarts of a, b = b, (a + b) % 1000007 for 50 + r steps; outputs a.
   Locals: 0 r, 1 k, 2 a, 3 b. */
void assemble_fib(int rounds) {
    start_program();
    emit_arg(OP_PUSH, 0); emit_arg(OP_STORE, 0);
    place(0); /* round loop */
    emit_arg(OP_LOAD, 0); emit_arg(OP_PUSH, rounds); emit(OP_LT); emit_jump(OP_JZ, 3);
    emit_arg(OP_PUSH, 0); emit_arg(OP_STORE, 2);
    emit_arg(OP_PUSH, 1); emit_arg(OP_STORE, 3);
    emit_arg(OP_PUSH, 0); emit_arg(OP_STORE, 1);
    place(1); /* step loop: k < r + 50 */
    emit_arg(OP_LOAD, 1); emit_arg(OP_LOAD, 0); emit_arg(OP_PUSH, 50); emit(OP_ADD);
    emit(OP_LT); emit_jump(OP_JZ, 2);
    /* stack: b, b b, b b a, b (a+b), b (a+b)%m; then b := new, a := old b */
    emit_arg(OP_LOAD, 3); emit(OP_DUP); emit_arg(OP_LOAD, 2); emit(OP_ADD);
    emit_arg(OP_PUSH, 1000007); emit(OP_MOD); emit_arg(OP_STORE, 3); emit_arg(OP_STORE, 2);
    emit_arg(OP_INC, 1); emit_jump(OP_JMP, 1);
    place(2); /* end of a round */
    emit_arg(OP_LOAD, 2); emit(OP_OUT);
    emit_arg(OP_INC, 0); emit_jump(OP_JMP, 0);
    place(3);
    emit(OP_HALT);
    resolve_labels();
}

/* Total Collatz stopping time of the numbers in [low, high); outputs it.
   Locals: 0 n, 1 x, 2 total. */
void assemble_collatz(int low, int high) {
    start_program();
    emit_arg(OP_PUSH, low); emit_arg(OP_STORE, 0);
    place(0);
    emit_arg(OP_LOAD, 0); emit_arg(OP_PUSH, high); emit(OP_LT); emit_jump(OP_JZ, 5);
    emit_arg(OP_LOAD, 0); emit_arg(OP_STORE, 1);
    place(1); /* while x != 1 */
    emit_arg(OP_LOAD, 1); emit_arg(OP_PUSH, 1); emit(OP_NE); emit_jump(OP_JZ, 4);
    emit_arg(OP_LOAD, 1); emit_arg(OP_PUSH, 2); emit(OP_MOD); emit_jump(OP_JZ, 2);
    emit_arg(OP_LOAD, 1); /* odd: 3x + 1 */
    emit_arg(OP_PUSH, 3); emit(OP_MUL); emit_arg(OP_PUSH, 1); emit(OP_ADD);
    emit_arg(OP_STORE, 1);
    emit_jump(OP_JMP, 3);
    place(2); /* even: x / 2 */
    emit_arg(OP_LOAD, 1); emit_arg(OP_PUSH, 2); emit(OP_DIV); emit_arg(OP_STORE, 1);
    place(3);
    emit_arg(OP_INC, 2); emit_jump(OP_JMP, 1);
    place(4);
    emit_arg(OP_INC, 0); emit_jump(OP_JMP, 0);
    place(5);
    emit_arg(OP_LOAD, 2); emit(OP_OUT);
    emit(OP_HALT);
    resolve_labels();
}

/* ---------- native reference results ---------- */

unsigned native_hash = 0;
int native_last = 0;

void native_out(int v) {
    native_last = v;
    native_hash = (native_hash ^ (unsigned)v) * 16777619u;
}

void native_primes(int limit) {
    int count = 0;
    for (int n = 2; n < limit; n++) {
        int prime = 1;
        for (int d = 2; d * d <= n; d++)
            if (n % d == 0) {
                prime = 0;
                break;
            }
        if (prime) {
            count++;
            native_out(n);
        }
    }
    native_out(count);
}

void native_nested(int rows, int cols) {
    int acc = 0;
    for (int i = 0; i < rows; i++) {
        for (int j = 0; j < cols; j++)
            acc = (i + j) % 3 != 0 ? (acc + i * j) % 1000003 : acc - 7;
        native_out(acc);
    }
}

void native_fib(int rounds) {
    for (int r = 0; r < rounds; r++) {
        int a = 0, b = 1;
        for (int k = 0; k < r + 50; k++) {
            int next = (a + b) % 1000007;
            a = b;
            b = next;
        }
        native_out(a);
    }
}

void native_collatz(int low, int high) {
    int total = 0;
    for (int n = low; n < high; n++)
        for (int x = n; x != 1; total++)
            x = x % 2 != 0 ? 3 * x + 1 : x / 2;
    native_out(total);
}

int main(void) {
    int failures = 0;
    for (int program = 0; program < 4; program++) {
        output_hash = 0;
        native_hash = 0;
        output_count = 0;
        executed = 0;
        for (int i = 0; i < 16; i++)
            locals[i] = 0;
        switch (program) {
        case 0: assemble_primes(40000); native_primes(40000); break;
        case 1: assemble_nested(420, 420); native_nested(420, 420); break;
        case 2: assemble_fib(500); native_fib(500); break;
        default: assemble_collatz(1, 6000); native_collatz(1, 6000); break;
        }
        int fault = run();
        int agree = !fault && output_hash == native_hash && last_output == native_last;
        printf("program %d: %3d words, %9ld instructions, %5d outputs, last %d, hash %08x,"
               " agrees %d\n",
               program, code_length, executed, output_count, last_output, output_hash, agree);
        if (!agree)
            failures++;
    }
    printf("failures %d\n", failures);
    return failures == 0 ? 0 : 1;
}
