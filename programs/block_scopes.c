/* Locals whose address is taken, declared in nested blocks and entered and left every way C
 * allows: loop bodies (break, continue), a for statement's own declarations, goto out of and
 * into blocks, switch cases inside blocks (Duff's device), a pointer taken in one pass of a
 * block and used again in the next pass. Valid C throughout: the VM must not report a use after
 * scope where there is none, and every mode's profile must stay exact. */
#include <stdio.h>

static void bump(int *p, int by) { *p += by; }

static int sum_digits(const char *s) {
    int n = 0;
    while (*s) {
        if (*s >= '0' && *s <= '9') {
            n += *s - '0';
        }
        s++;
    }
    return n;
}

/* A loop body's locals passed by address; break and continue leave the block. */
static long loop_bodies(int rounds) {
    long total = 0;
    for (int i = 0; i < rounds; i++) {
        int local = i;
        char text[12];
        bump(&local, 3);
        sprintf(text, "%d", local * 7);
        if (i % 5 == 4) {
            continue;
        }
        if (i > 180) {
            break;
        }
        total += sum_digits(text) + local;
    }
    return total;
}

/* The for statement's own declaration is an object; a pointer kept from one pass to the next
 * points at the same (live again) object. */
static int for_scope(int n) {
    int acc = 0;
    for (int k = 0, *pk = &k; k < n; bump(pk, 1)) {
        int cell = k * k;
        int *kept = &cell;
        acc += *kept % 7;
    }
    return acc;
}

/* goto out of blocks and back into them (C: entering a block by a jump starts its locals'
 * lifetime, though not their initialization). */
static int gotos(int n) {
    int visits = 0;
    int round = 0;
again:
    {
        int mark = round;
        int *pm = &mark;
        bump(pm, 1);
        visits += *pm;
        if (++round < n) {
            goto again;
        }
        if (round == n) {
            round++;
            goto inside;
        }
    }
    return visits;
    {
        int late;
    inside:
        late = 5;
        bump(&late, visits % 3);
        visits += late;
        if (visits < 10000) {
            return visits;
        }
    }
    return -1;
}

/* Duff's device with a block-scope counter whose address is taken: switch jumps into the
 * middle of a do-while inside a block. */
static void duff_copy(int *to, const int *from, int count) {
    {
        int n = (count + 3) / 4;
        int *pn = &n;
        switch (count % 4) {
        case 0:
            do {
                *to++ = *from++;
                /* fall through */
            case 3:
                *to++ = *from++;
                /* fall through */
            case 2:
                *to++ = *from++;
                /* fall through */
            case 1:
                *to++ = *from++;
            } while (--*pn > 0);
        }
    }
}

/* Cases inside a block that declares an addressed local. */
static int classify(int v) {
    int result = 0;
    switch (v % 4) {
        int scratch;
    case 0:
        scratch = 10;
        bump(&scratch, v);
        result = scratch;
        break;
    case 1: {
        int inner = v * 2;
        bump(&inner, 1);
        result = inner;
        break;
    }
    case 2:
        scratch = 3;
        result = scratch * v;
        break;
    default:
        result = -v;
    }
    return result;
}

int main(void) {
    printf("loop bodies: %ld\n", loop_bodies(200));
    printf("for scope: %d\n", for_scope(300));
    for (int n = 1; n <= 4; n++) {
        printf("gotos(%d): %d\n", n, gotos(n));
    }
    int src[23];
    int dst[23];
    for (int i = 0; i < 23; i++) {
        src[i] = i * 3 + 1;
        dst[i] = 0;
    }
    for (int count = 0; count <= 23; count += 5) {
        duff_copy(dst, src, count);
        int s = 0;
        for (int i = 0; i < 23; i++) {
            s += dst[i];
        }
        printf("duff %d: %d\n", count, s);
    }
    long c = 0;
    for (int v = 0; v < 400; v++) {
        c += classify(v);
    }
    printf("classify: %ld\n", c);
    return 0;
}
