/*
 * Roy & Srikant, "Profiling k-Iteration Paths: A Generalization of the Ball-Larus Profiling
 * Algorithm", CGO 2009 (shared/papers/roy-srikant-2009-k-iteration-paths.txt): Figure 1 (the
 * CFG, and the trace 1-(2-3-5-2-4-5)^100-6 of section 1), Figure 2 (its 10 acyclic and 23
 * two-iteration paths), Table 1 (Algorithm 1 numbering them, section 3.2) and Table 2 (the
 * instrumented code along the trace, section 4.2, Example 6).
 *
 *          1          node 1: lines 39-40 (entry)
 *          |
 *   +----> 2          node 2: lines 42-43, the loop header
 *   |     / \         2->3 on odd iterations, 2->4 on even ones
 *   |    3   4        node 3: line 44, 3->5
 *   |     \ / \       node 4: line 45, 4->5, or 4->6 (leaves the loop; never on this trace)
 *   |      5   |      node 5: line 46, 5->2 (the back edge) while i < 200, else 5->6
 *   +------+   |
 *          |   |
 *          6 <-+      node 6: lines 47-48 (exit)
 *
 * Blocks (`vmrun disasm`): b0 = 1, b1 = 2, b2 = 3, b3 = 4, b4 = 5, b5 = 6: the paper's graph
 * exactly. That is why the loop body after node 2 is written as the do-while condition: there
 * node 4 is one conditional branch, to 5 or to 6. (`if (...) break;` in a body would put a
 * block holding only the jump to 6 on the edge 4->6: same counts and ids, one node more.)
 *
 * Trace: the paper's, 1 (2 3 5 2 4 5)^100 6: 200 iterations, 3 and 4 alternating.
 *
 * Profile (`--tier-up 0 --path-ends backedge`):
 *   bl       10 static paths, Figure 2's ids: 1 (1-2-3-5) x1, 6 (2-3-5) x99, 8 (2-4-5) x99,
 *            7 (2-4-5-6) x1: 3 and 4 look equally likely, nothing says they alternate.
 *   kiter:2  23 static paths: 19 (2-4-5-2-3-5) x99, 16 (2-3-5-2-4-5) x98, 15 (2-3-5-2-4-5-6)
 *            x1, as in Table 2, and 1-2-3-5-2-4-5 x1, which is 3 in Table 2 but 4 here: the VM
 *            numbers a branch's fall-through first, so node 5 has 5->6 before 5->2, where
 *            Table 1 has the back edge first. That moves only paths from node 1 that take the
 *            back edge: Figure 2's 0-4 and 6-10 are 1-5 and 7-11 here, 5 and 11 are 0 and 6;
 *            12-22 are the paper's. Table 1 differs in its two rows for 5 in iteration 1.
 */
#include <stdio.h>

int main(void) {
    int i = 0;                                   /* node 1 */
    int sum = 0;                                 /* node 1 */
    do {
        i++;                                     /* node 2 */
    } while (((i % 2 == 1                        /* node 2: 2->3 if i is odd, else 2->4 */
               && (sum += 3, 1))                 /* node 3: 3->5 */
              || (sum += 4, sum < 1000))         /* node 4: 4->5, or 4->6 once sum >= 1000 */
             && i < 200);                        /* node 5: 5->2 (back edge), or 5->6 */
    printf("iterations %d, sum %d\n", i, sum);   /* node 6 */
    return 0;                                    /* node 6 */
}
