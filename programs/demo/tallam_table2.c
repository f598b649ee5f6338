/*
 * Tallam, Zhang, Gupta, "Extending Path Profiling across Loop Backedges and Procedure
 * Boundaries" (overlapping paths), CGO 2004
 * (shared/papers/tallam-zhang-gupta-2004-overlapping-paths.txt), section 2: the loop of
 * Table 2 (its CFG and 12 BL paths), run along the execution history of section 2.2.3 and
 * Tables 4 and 5: the loop is entered 500 times, 250 times taking the loop paths 1, 1, 3 and
 * 250 times 2, 2, 3.
 *
 *         En              lines 44-46 (entry of loop())
 *         |
 *   +---> P1              lines 48-50, the loop header
 *   |    /  \             P1->B1 when p == 1, else P1->P2
 *   |   B1   P2           B1: line 51; P2: line 52
 *   |   |   /  \          P2->B2 when p == 2, else P2->B3
 *   |   |  B2   B3        B2: line 53; B3: line 55
 *   |    \ |   /
 *   +----- P3             line 57: P3->P1 (the back edge) while it < 3, else P3->Ex
 *          |
 *          Ex             line 58 (exit)
 *
 * Loop paths (section 2.2.3): 1 = P1 B1 P3, 2 = P1 P2 B2 P3, 3 = P1 P2 B3 P3.
 * Blocks of loop() (`vmrun disasm`): b0 = En, b1 = P1, b2 = B1, b3 = P2, b4 = B2, b5 = B3,
 * b6 = P3, b7 = Ex: the paper's graph exactly.
 *
 * The paper lists the 12 BL paths by group, 1..12; the VM numbers them 0..11 by Ball-Larus
 * (paths from En first, then from P1; at P3 the exit before the back edge):
 *   paper  1 2 3 | 4 5 6 | 7 8 9  | 10 11 12      (En..Ex | En..P3 | P1..P3 | P1..Ex)
 *   VM     0 2 4 | 1 3 5 | 7 9 11 |  6  8 10
 *
 * Profile of loop() (`--tier-up 0 --path-ends backedge`):
 *   bl       12 static paths; paper 4 (VM 1), 5 (VM 3), 7 (VM 7), 8 (VM 9) x250 each,
 *            12 (VM 10) x500: F1 = F2 = F3 = 500, back edge 1000, E1 = E2 = 250, X3 = 500
 *            (section 2.2.3). These OL-0 counts cannot tell 1!1 from 1!2 (Table 5, OL-0).
 *   kiter:2  39 static paths; the real frequencies of Table 5's interesting paths: 1!1, 1!3,
 *            2!2 and 2!3 x250 each (VM ids 2 = En..1!1, 25 = 1!3..Ex, 11 = En..2!2,
 *            31 = 2!3..Ex), every other pair 0; total flow 1000.
 *   kbl:2    the same four pairs of BL paths: <1,7> <7,10> <3,9> <9,10> x250 each.
 */
#include <stdio.h>

/* The loop paths taken by one visit of the loop: Table 4's two histories. */
int history[2][3] = {{1, 1, 3}, {2, 2, 3}};

int loop(int h) {
    int s = 0;                              /* En */
    int it = 0;                             /* En */
    do {
        int p = history[h][it];             /* P1 */
        it++;                               /* P1 */
        if (p == 1) {                       /* P1: P1->B1, or P1->P2 */
            s += 1;                         /* B1 */
        } else if (p == 2) {                /* P2: P2->B2, or P2->B3 */
            s += 10;                        /* B2 */
        } else {
            s += 100;                       /* B3 */
        }
    } while (it < 3);                       /* P3: P3->P1, or P3->Ex */
    return s;                               /* Ex */
}

int main(void) {
    int total = 0;
    for (int n = 0; n < 500; n++)
        total += loop(n / 250);
    printf("500 visits, checksum %d\n", total);
    return 0;
}
