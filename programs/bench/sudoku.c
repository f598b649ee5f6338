/*
 * sudoku.c - benchmark: backtracking sudoku solver with candidate bitmasks.
 *
 * Algorithm: the classic depth-first search.  The digits used in every
 * row, column and 3 x 3 box are kept as 9-bit masks, so the candidates of
 * a cell are the complement of three ORed masks.  At each level the solver
 * scans the empty cells for the one with the fewest candidates (most
 * constrained first, stopping the scan early at a cell with zero or one
 * candidate), then tries its candidates in increasing order, recursing
 * after each placement and undoing it afterwards.  The search counts
 * solutions up to two, so it also proves that a puzzle's solution is
 * unique.  Checks: every solution is a valid grid that keeps the givens;
 * each puzzle is also solved in transformed forms (digits relabelled, rows
 * permuted within bands, bands permuted, transposed), which changes the
 * search order but must give the transformed solution.
 * Data: four well-known puzzles written as digit arrays (an easy textbook
 * example, AI Escargot, Inkala's 2010 puzzle and a 17-clue puzzle), and
 * their transforms chosen by a fixed-seed LCG.
 *
 * Control flow for path profiling:
 *   - recursion one level per filled cell (up to 64 deep), with a loop
 *     over the candidates at every level and an early return when two
 *     solutions are found;
 *   - the cell-selection scan is a loop over 81 cells with branches for
 *     filled cells, a new minimum, and an early exit on 0 or 1 candidates:
 *     its path sequence changes with every placement;
 *   - short helpers (place, remove, candidate mask) called in loops;
 *   - the validity check is a loop nest with a switch over the kind of
 *     unit (row, column, box).
 *
 * Loop-heavy: yes by the suite's measure (65% of the Ball-Larus paths
 * completed are iterations of the 81-cell scan and the candidate loops; the
 * rest is the recursion, a few candidates tried per call).
 */
#include <stdio.h>

int puzzles[4][81] = {
    {5, 3, 0, 0, 7, 0, 0, 0, 0, 6, 0, 0, 1, 9, 5, 0, 0, 0, 0, 9, 8, 0, 0, 0, 0, 6, 0,
     8, 0, 0, 0, 6, 0, 0, 0, 3, 4, 0, 0, 8, 0, 3, 0, 0, 1, 7, 0, 0, 0, 2, 0, 0, 0, 6,
     0, 6, 0, 0, 0, 0, 2, 8, 0, 0, 0, 0, 4, 1, 9, 0, 0, 5, 0, 0, 0, 0, 8, 0, 0, 7, 9},
    {1, 0, 0, 0, 0, 7, 0, 9, 0, 0, 3, 0, 0, 2, 0, 0, 0, 8, 0, 0, 9, 6, 0, 0, 5, 0, 0,
     0, 0, 5, 3, 0, 0, 9, 0, 0, 0, 1, 0, 0, 8, 0, 0, 0, 2, 6, 0, 0, 0, 0, 4, 0, 0, 0,
     3, 0, 0, 0, 0, 0, 0, 1, 0, 0, 4, 0, 0, 0, 0, 0, 0, 7, 0, 0, 7, 0, 0, 0, 3, 0, 0},
    {8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 6, 0, 0, 0, 0, 0, 0, 7, 0, 0, 9, 0, 2, 0, 0,
     0, 5, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 4, 5, 7, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, 0,
     0, 0, 1, 0, 0, 0, 0, 6, 8, 0, 0, 8, 5, 0, 0, 0, 1, 0, 0, 9, 0, 0, 0, 0, 4, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 1, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0,
     0, 0, 0, 0, 5, 0, 4, 0, 7, 0, 0, 8, 0, 0, 0, 3, 0, 0, 0, 0, 1, 0, 9, 0, 0, 0, 0,
     3, 0, 0, 4, 0, 0, 2, 0, 0, 0, 5, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 6, 0, 0, 0}};

int grid[81];
int solution[81];
int transformed_solution[81];
int row_used[9], col_used[9], box_used[9];
int bit_count[512];
int solutions_found = 0;
long nodes = 0;

unsigned rng_state = 8675309u;

int random_below(int n) {
    rng_state = rng_state * 1103515245u + 12345u;
    return (int)((rng_state >> 16) % (unsigned)n);
}

int box_of(int cell) {
    return (cell / 27) * 3 + (cell % 9) / 3;
}

int candidates(int cell) {
    return 511 & ~(row_used[cell / 9] | col_used[cell % 9] | box_used[box_of(cell)]);
}

void place(int cell, int digit) {
    int bit = 1 << (digit - 1);
    grid[cell] = digit;
    row_used[cell / 9] |= bit;
    col_used[cell % 9] |= bit;
    box_used[box_of(cell)] |= bit;
}

void unplace(int cell) {
    int bit = 1 << (grid[cell] - 1);
    row_used[cell / 9] &= ~bit;
    col_used[cell % 9] &= ~bit;
    box_used[box_of(cell)] &= ~bit;
    grid[cell] = 0;
}

/* Depth-first search; stops once two solutions are known. */
void search(void) {
    nodes++;
    int best_cell = -1, best_count = 10;
    for (int cell = 0; cell < 81; cell++) {
        if (grid[cell] != 0)
            continue;
        int count = bit_count[candidates(cell)];
        if (count < best_count) {
            best_count = count;
            best_cell = cell;
            if (count <= 1)
                break; /* a dead end, or a forced cell: no need to look further */
        }
    }
    if (best_cell < 0) { /* the grid is full */
        if (solutions_found == 0)
            for (int cell = 0; cell < 81; cell++)
                solution[cell] = grid[cell];
        solutions_found++;
        return;
    }
    int mask = candidates(best_cell);
    for (int digit = 1; digit <= 9 && solutions_found < 2; digit++) {
        if (!(mask & (1 << (digit - 1))))
            continue;
        place(best_cell, digit);
        search();
        unplace(best_cell);
    }
}

/* Loads a grid and solves it; returns 0 when the givens conflict. */
int solve(const int givens[]) {
    for (int u = 0; u < 9; u++)
        row_used[u] = col_used[u] = box_used[u] = 0;
    for (int cell = 0; cell < 81; cell++)
        grid[cell] = 0;
    for (int cell = 0; cell < 81; cell++) {
        int digit = givens[cell];
        if (digit == 0)
            continue;
        if (candidates(cell) & (1 << (digit - 1)))
            place(cell, digit);
        else
            return 0;
    }
    solutions_found = 0;
    search();
    return 1;
}

/* Is solution[] a valid grid that keeps the givens? */
int valid_solution(const int givens[]) {
    for (int cell = 0; cell < 81; cell++)
        if (givens[cell] != 0 && givens[cell] != solution[cell])
            return 0;
    for (int kind = 0; kind < 3; kind++)
        for (int unit = 0; unit < 9; unit++) {
            int seen = 0;
            for (int k = 0; k < 9; k++) {
                int cell;
                switch (kind) {
                case 0: cell = unit * 9 + k; break;
                case 1: cell = k * 9 + unit; break;
                default: cell = (unit / 3) * 27 + (unit % 3) * 3 + (k / 3) * 9 + k % 3; break;
                }
                seen |= 1 << (solution[cell] - 1);
            }
            if (seen != 511)
                return 0;
        }
    return 1;
}

/* A random validity-preserving transformation, applied to the givens and
   to the known solution: new[cell] = relabel[old[source cell]]. */
void transform(const int givens[], int out[], const int known[], int known_out[]) {
    int relabel[10], row_map[9], col_map[9];
    relabel[0] = 0;
    for (int d = 1; d <= 9; d++)
        relabel[d] = d;
    for (int d = 9; d > 1; d--) { /* Fisher-Yates shuffle of the digits */
        int j = 1 + random_below(d);
        int t = relabel[d];
        relabel[d] = relabel[j];
        relabel[j] = t;
    }
    for (int band = 0; band < 3; band++) { /* rows within bands, cols within stacks */
        int shift_r = random_below(3), shift_c = random_below(3);
        for (int k = 0; k < 3; k++) {
            row_map[band * 3 + k] = band * 3 + (k + shift_r) % 3;
            col_map[band * 3 + k] = band * 3 + (k + shift_c) % 3;
        }
    }
    int band_shift = random_below(3), transpose = random_below(2);
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++) {
            int source_row = (row_map[r] + 3 * band_shift) % 9;
            int source_col = col_map[c];
            int source = transpose ? source_col * 9 + source_row : source_row * 9 + source_col;
            out[r * 9 + c] = relabel[givens[source]];
            known_out[r * 9 + c] = relabel[known[source]];
        }
}

int main(void) {
    int failures = 0;
    int variant[81], reference[81];
    int variant_counts[4] = {40, 20, 8, 9};
    for (int mask = 0; mask < 512; mask++) {
        int bits = 0;
        for (int m = mask; m != 0; m >>= 1)
            bits += m & 1;
        bit_count[mask] = bits;
    }
    for (int p = 0; p < 4; p++) {
        nodes = 0;
        int loaded = solve(puzzles[p]);
        int ok = loaded && solutions_found == 1 && valid_solution(puzzles[p]);
        printf("puzzle %d: %ld nodes, solutions %d, valid %d, first row", p, nodes,
               solutions_found, ok);
        for (int c = 0; c < 9; c++)
            printf(" %d", solution[c]);
        printf("\n");
        if (!ok)
            failures++;
        for (int cell = 0; cell < 81; cell++)
            reference[cell] = solution[cell];

        long variant_nodes = 0, fewest = -1, most = 0;
        int variants = variant_counts[p], agree = 0;
        for (int v = 0; v < variants; v++) {
            transform(puzzles[p], variant, reference, transformed_solution);
            nodes = 0;
            solve(variant);
            int same = solutions_found == 1 && valid_solution(variant);
            for (int cell = 0; cell < 81 && same; cell++)
                if (solution[cell] != transformed_solution[cell])
                    same = 0;
            agree += same;
            variant_nodes += nodes;
            if (fewest < 0 || nodes < fewest)
                fewest = nodes;
            if (nodes > most)
                most = nodes;
        }
        printf("  %d variants: %d agree, nodes total %ld, fewest %ld, most %ld\n", variants,
               agree, variant_nodes, fewest, most);
        if (agree != variants)
            failures++;
    }
    printf("failures %d\n", failures);
    return failures == 0 ? 0 : 1;
}
