/* A switch-driven stack machine interpreter: programs are int arrays of
   opcodes; runs a loop summing squares, an iterative factorial, a GCD,
   and a recursive Fibonacci via call/return frames. */
#include <stdio.h>

int code[200];
int stack[256];
int rstack[64];
int mem[16];

int run(int trace) {
    int pc = 0, sp = 0, rsp = 0, steps = 0;
    for (;;) {
        int op = code[pc++];
        steps++;
        if (trace) printf("pc=%d op=%d sp=%d top=%d\n", pc - 1, op, sp, sp > 0 ? stack[sp - 1] : 0);
        switch (op) {
        case 0: /* halt */
            return sp > 0 ? stack[sp - 1] : steps;
        case 1: /* push imm */
            stack[sp++] = code[pc++];
            break;
        case 2: /* add */
            sp--;
            stack[sp - 1] += stack[sp];
            break;
        case 3: /* sub */
            sp--;
            stack[sp - 1] -= stack[sp];
            break;
        case 4: /* mul */
            sp--;
            stack[sp - 1] *= stack[sp];
            break;
        case 5: /* mod (guarded) */
            sp--;
            stack[sp - 1] = stack[sp] == 0 ? 0 : stack[sp - 1] % stack[sp];
            break;
        case 6: /* load mem */
            stack[sp] = mem[code[pc++]];
            sp++;
            break;
        case 7: /* store mem */
            mem[code[pc++]] = stack[--sp];
            break;
        case 8: /* jump */
            pc = code[pc];
            break;
        case 9: /* jump if zero */
            if (stack[--sp] == 0) pc = code[pc];
            else pc++;
            break;
        case 10: /* less than */
            sp--;
            stack[sp - 1] = stack[sp - 1] < stack[sp];
            break;
        case 11: /* dup */
            stack[sp] = stack[sp - 1];
            sp++;
            break;
        case 12: /* call */
            rstack[rsp++] = pc + 1;
            pc = code[pc];
            break;
        case 13: /* return */
            pc = rstack[--rsp];
            break;
        case 14: /* swap */
        {
            int t = stack[sp - 1];
            stack[sp - 1] = stack[sp - 2];
            stack[sp - 2] = t;
            break;
        }
        case 15: /* drop */
            sp--;
            break;
        case 16: /* print */
            printf("out: %d\n", stack[--sp]);
            break;
        default:
            printf("bad opcode %d at %d\n", op, pc - 1);
            return -1;
        }
    }
}

int emit_pos = 0;

void emit(int x) { code[emit_pos++] = x; }

void emit2(int op, int arg) {
    emit(op);
    emit(arg);
}

int main(void) {
    /* sum of squares 1..n: mem0 = i, mem1 = acc */
    emit_pos = 0;
    emit2(1, 1); emit2(7, 0);          /* i = 1 */
    emit2(1, 0); emit2(7, 1);          /* acc = 0 */
    int loop = emit_pos;
    emit2(6, 0); emit2(1, 31); emit(10); /* i < 31 */
    int jz = emit_pos;
    emit2(9, 0);
    emit2(6, 0); emit(11); emit(4);      /* i*i */
    emit2(6, 1); emit(2); emit2(7, 1);   /* acc += */
    emit2(6, 0); emit2(1, 1); emit(2); emit2(7, 0); /* i++ */
    emit2(8, loop);
    code[jz + 1] = emit_pos;
    emit2(6, 1); emit(0);
    printf("sum of squares = %d\n", run(0));

    /* factorial 12 iteratively: mem0 = n, mem1 = acc */
    emit_pos = 0;
    emit2(1, 12); emit2(7, 0); emit2(1, 1); emit2(7, 1);
    loop = emit_pos;
    emit2(1, 0); emit2(6, 0); emit(10); /* 0 < n */
    jz = emit_pos;
    emit2(9, 0);
    emit2(6, 1); emit2(6, 0); emit(4); emit2(7, 1);
    emit2(6, 0); emit2(1, 1); emit(3); emit2(7, 0);
    emit2(8, loop);
    code[jz + 1] = emit_pos;
    emit2(6, 1); emit(0);
    printf("12! = %d\n", run(0));

    /* gcd(1071, 462) with mod, printing intermediate values */
    emit_pos = 0;
    emit2(1, 1071); emit2(7, 0); emit2(1, 462); emit2(7, 1);
    loop = emit_pos;
    emit2(6, 1);
    jz = emit_pos;
    emit2(9, 0);
    emit2(6, 1); emit(11); emit(16);
    emit2(6, 0); emit2(6, 1); emit(5);   /* a % b */
    emit2(6, 1); emit2(7, 0); emit2(7, 1);
    emit2(8, loop);
    code[jz + 1] = emit_pos;
    emit2(6, 0); emit(0);
    printf("gcd = %d\n", run(0));

    /* recursive fib via call/return: fib(n) with n on the stack */
    emit_pos = 0;
    emit2(1, 18);
    emit2(12, 6); /* call fib at 6 */
    emit(0);
    emit(0); /* padding */
    /* fib at 6: if n < 2 return n */
    emit(11); emit2(1, 2); emit(10);
    int jz2 = emit_pos;
    emit2(9, 0);
    emit(13);
    code[jz2 + 1] = emit_pos;
    emit(11); emit2(1, 1); emit(3); emit2(12, 6); /* fib(n-1) */
    emit(14);                                      /* swap: fib(n-1) below n */
    emit2(1, 2); emit(3); emit2(12, 6);            /* fib(n-2) */
    emit(2); emit(13);
    printf("fib(18) = %d\n", run(0));

    /* a tiny traced program and an invalid opcode */
    emit_pos = 0;
    emit2(1, 6); emit2(1, 7); emit(4); emit(11); emit(16); emit(99);
    printf("traced result = %d\n", run(1));
    return 0;
}
