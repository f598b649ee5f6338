/*
 * D'Elia, Demetrescu, Finocchi, "Ball-Larus Path Profiling Across Multiple Loop Iterations"
 * (k-BLPP), OOPSLA 2013 (shared/papers/delia-demetrescu-finocchi-2013-k-blpp.txt): the CFG
 * of Figure 3 (section 2.1), its trace of 44 basic blocks, the stream of Example 1 and
 * Example 3 (section 2.3), * 6 2 0 0 2 2 0 0 2 2 0 0 2 3, and its 4-IPF (Figure 3) and 4-SF
 * (Figure 5).
 *
 * The figure is an image the text does not hold; the text fixes the graph: 8 acyclic paths
 * starting at A or at the header B of the back edge (E,B), BL path 2 is B,C,E and 0 is B,D,E
 * (the 4-gram <2,0,0,2> is B,C,E,B,D,E,B,D,E,B,C,E), and A..F takes 44 blocks: 6 = A,B,C,E,
 * 12 loop paths of 3 blocks, 3 = B,C,E,F.
 *
 *         A           line 40 (entry)
 *         |
 *   +---> B           lines 42-43, the loop header: B->D on the 3rd and 4th of every 4
 *   |    / \          iterations, else B->C
 *   |   D   C         D: line 44; C: line 46
 *   |    \ /
 *   +---- E           line 48: E->B (the back edge) while i < 14, else E->F
 *         |
 *         F           lines 49-50 (exit)
 *
 * Blocks (`vmrun disasm`): b0 = A, b1 = B, b2 = D, b3 = C, b4 = E, b5 = F.
 *
 * Trace: A B C E (B C E B D E B D E B C E)^3 B C E F: 14 iterations taking C C D D C C ...,
 * 44 blocks, the paper's stream of 14 BL paths.
 *
 * Ids: the paper numbers the paths from B before those from A, and at E the back edge
 * before E->F; the VM numbers real edges before the dummy ones (S->A before S->B, E->F before
 * E->back edge), so each VM id is the paper's id XOR 5 (4 + 1; B->D 0, B->C 2 as in the paper):
 *   paper 6 = A,B,C,E    is VM 3        paper 2 = B,C,E    is VM 7
 *   paper 0 = B,D,E      is VM 5        paper 3 = B,C,E,F  is VM 6
 * The stream is * 3 7 5 5 7 7 5 5 7 7 5 5 7 6; the 4-IPF is the paper's tree for tree with
 * the labels renamed (22 nodes, <7,5,5,7> x3 is the paper's <2,0,0,2> x3).
 * `vmrun forest --k 4 --stream "* 6 2 0 0 2 2 0 0 2 2 0 0 2 3"` shows it with the paper's ids.
 */
#include <stdio.h>

int main(void) {
    int i = 0, sum = 0;              /* A */
    do {
        i++;                         /* B */
        if ((i - 1) % 4 >= 2) {      /* B: B->D, or B->C */
            sum += 10 * i;           /* D */
        } else {
            sum += i;                /* C */
        }
    } while (i < 14);                /* E: E->B, or E->F */
    printf("iterations %d, sum %d\n", i, sum);   /* F */
    return 0;                                    /* F */
}
