/*
 * Ball & Larus, "Efficient Path Profiling", MICRO 1996, as presented in the slides
 * (shared/papers/ball-larus-1996-efficient-path-profiling-slides.txt): the A..F graph of
 * "Path Representation" (NumPaths A 6, B 4, C 2, D 2, E 1, F 1), its path ids ("Path
 * Regeneration": R = 3 is A B C D E F), and Prof1 of "Path versus Edge Profiling"
 * (ACDF 90, ACDEF 60, ABCDEF 100). Also programs/cfgs/ball-larus-slides.cfg.
 *
 *        A            A: lines 37-38 (entry of path())
 *       / \           A->C (val 0) when 0 <= a <= 3, else A->B (val 2)
 *      |   B          B: lines 40-41
 *      |  / |         B->C (val 0) when b != 0, else B->D (val 2)
 *      C    |         C: line 43, C->D (val 0)
 *       \   |
 *        D            D: lines 46-47
 *        | \          D->F (val 0) when 0 <= d <= 3, else D->E (val 1)
 *        |  E         E: line 49, E->F (val 0)
 *        | /
 *        F            F: line 54 (exit)
 *
 * Ids (the slides' numbering, sum of the vals): 0 ACDF, 1 ACDEF, 2 ABCDF, 3 ABCDEF, 4 ABDF,
 * 5 ABDEF. Blocks of path() (`vmrun disasm`): b0 = A, b1 = B, b2 = C, b3 = D, b4 = E, b5 = F.
 *
 * Why switches: the VM numbers a conditional branch's fall-through first, and code is laid
 * out A B C D E F, so `if`s would number A->B before A->C and D->E before D->F (ids 0 ABCDEF,
 * 1 ABCDF, 2 ABDEF, 3 ABDF, 4 ACDEF, 5 ACDF). A jump table lists its cases first, then its
 * default: that gives the slides' order. (The case label inside the `if` is legal C: B falls
 * into C when b != 0, and A jumps straight to C.)
 *
 * Profile of path() (`--tier-up 0`; no loop, so `--path-ends` changes nothing):
 *   bl       6 static paths; 0 (ACDF) x90, 1 (ACDEF) x60, 3 (ABCDEF) x100: Prof1, whose
 *            edge counts are A->C 150, A->B 100, B->C 100, C->D 250, D->F 90, D->E 160 and
 *            E->F 160 (the 160 of the "Event Counting" slide).
 */
#include <stdio.h>

int path(int a, int b, int d) {
    int r = 1;                          /* A */
    switch (a) {                        /* A: A->C (cases), or A->B (default) */
    default:
        r = r * 3;                      /* B */
        if (b) {                        /* B: B->C, or B->D */
    case 0: case 1: case 2: case 3:
            r = r + 5;                  /* C */
        }
    }
    r = r * 7;                          /* D */
    switch (d) {                        /* D: D->F (cases), or D->E (default) */
    default:
        r = r + 11;                     /* E */
        /* fall through */
    case 0: case 1: case 2: case 3:
        ;
    }
    return r;                           /* F */
}

int main(void) {
    int total = 0;
    for (int n = 0; n < 90; n++) total += path(0, 0, 0);    /* A C D F      x90 */
    for (int n = 0; n < 60; n++) total += path(0, 0, 4);    /* A C D E F    x60 */
    for (int n = 0; n < 100; n++) total += path(4, 1, 4);   /* A B C D E F  x100 */
    printf("250 calls, checksum %d\n", total);
    return 0;
}
