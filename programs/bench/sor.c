/*
 * sor.c - benchmark: successive over-relaxation for the Poisson equation.
 *
 * Algorithm: the 5-point discretisation of -(u_xx + u_yy) = f on an n x n
 * interior grid of doubles (rows 0 and n+1, column 0 hold boundary values)
 * is solved by successive over-relaxation, in two orderings: lexicographic
 * Gauss-Seidel and red-black (all cells with (i + j) even, then all odd).
 * Boundary handling: Dirichlet values on the top (a sine profile), bottom
 * and left sides; a Neumann (zero-flux) right side, where the missing east
 * neighbour is the mirrored west one; and an interior obstacle (a mask of
 * cells held at a fixed potential, like a plate in a capacitor) that the
 * sweeps skip.  Each solve iterates until the largest update falls below a
 * tolerance (or an iteration cap), then the residual is computed
 * independently as a check.  Several grids, sources and relaxation factors
 * (1.3, 1.7 and the optimal 2 / (1 + sin(pi / (n + 1)))) are tried, and the
 * two orderings must agree once both converged; a scimark-style fixed number of sweeps over a random grid ends the run.
 * Data: boundary and source terms are formulas; the random grid comes from
 * a fixed-seed 32-bit LCG.
 *
 * Control flow for path profiling:
 *   - a deep loop nest: solve (iteration loop with an early exit on
 *     convergence) -> sweep (colour loop for red-black) -> rows -> columns;
 *   - the column loop's body branches on the obstacle mask, on the Neumann
 *     column and on whether the update is the largest so far, so the path
 *     sequence along a row has a fixed spatial pattern (boundary, free,
 *     obstacle, free, Neumann) that repeats every row and every sweep;
 *   - in the red-black sweep the colour test alternates every iteration
 *     (a period-2 cycle of paths that k-iteration profiles see);
 *   - a switch picks the source term in the set-up loops.
 *
 * Loop-heavy: yes (almost all time in the row/column loops of the sweeps).
 */
#include <stdio.h>
#include <math.h>

double grid[82][82];
double source[82][82];
int obstacle[82][82];

unsigned rng_state = 2463534242u;

unsigned next_random(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state;
}

const double PI = 3.14159265358979323846;

/* Sets up the boundary values, the source term (kind 0: none, 1: two
   point charges, 2: a smooth bump) and, optionally, a square obstacle held
   at potential 0.5 in the middle of the grid. */
void setup(int n, int kind, int with_obstacle) {
    double h = 1.0 / (double)(n + 1);
    for (int i = 0; i <= n + 1; i++) {
        for (int j = 0; j <= n + 1; j++) {
            double x = (double)j * h;
            double y = (double)i * h;
            grid[i][j] = 0.0;
            obstacle[i][j] = 0;
            if (i == 0)
                grid[i][j] = sin(PI * x);
            switch (kind) {
            case 0:
                source[i][j] = 0.0;
                break;
            case 1:
                source[i][j] = 0.0;
                if (i == n / 3 && j == n / 3)
                    source[i][j] = 40.0 / (h * h);
                else if (i == 2 * n / 3 && j == n / 2)
                    source[i][j] = -25.0 / (h * h);
                break;
            default:
                source[i][j] = 8.0 * exp(-20.0 * ((x - 0.5) * (x - 0.5) + (y - 0.6) * (y - 0.6)));
                break;
            }
        }
    }
    if (with_obstacle) {
        int lo = n / 2 - n / 8, hi = n / 2 + n / 8;
        for (int i = lo; i <= hi; i++)
            for (int j = lo; j <= hi; j++) {
                obstacle[i][j] = 1;
                grid[i][j] = 0.5;
            }
    }
}

/* The east neighbour, mirrored at the Neumann boundary (column n). */
double east_of(int i, int j, int n) {
    return j == n ? grid[i][j - 1] : grid[i][j + 1];
}

/* One lexicographic Gauss-Seidel/SOR sweep; returns the largest update. */
double sweep_lexicographic(int n, double omega) {
    double h2 = 1.0 / (double)((n + 1) * (n + 1));
    double largest = 0.0;
    for (int i = 1; i <= n; i++) {
        for (int j = 1; j <= n; j++) {
            if (obstacle[i][j])
                continue;
            double east = j == n ? grid[i][j - 1] : grid[i][j + 1];
            double target = 0.25 * (grid[i - 1][j] + grid[i + 1][j] + grid[i][j - 1] + east +
                                    h2 * source[i][j]);
            double delta = omega * (target - grid[i][j]);
            grid[i][j] += delta;
            if (fabs(delta) > largest)
                largest = fabs(delta);
        }
    }
    return largest;
}

/* One red-black sweep: first the cells with (i + j) even, then the odd
   ones.  Every column is visited and the colour tested, so the two paths
   (skip / update) alternate along a row. */
double sweep_red_black(int n, double omega) {
    double h2 = 1.0 / (double)((n + 1) * (n + 1));
    double largest = 0.0;
    for (int colour = 0; colour < 2; colour++) {
        for (int i = 1; i <= n; i++) {
            for (int j = 1; j <= n; j++) {
                if (((i + j) & 1) != colour || obstacle[i][j])
                    continue;
                double target = 0.25 * (grid[i - 1][j] + grid[i + 1][j] + grid[i][j - 1] +
                                        east_of(i, j, n) + h2 * source[i][j]);
                double delta = omega * (target - grid[i][j]);
                grid[i][j] += delta;
                if (fabs(delta) > largest)
                    largest = fabs(delta);
            }
        }
    }
    return largest;
}

/* Largest residual of the discrete equations over the free cells. */
double residual(int n) {
    double inv_h2 = (double)((n + 1) * (n + 1));
    double worst = 0.0;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++) {
            if (obstacle[i][j])
                continue;
            double laplace = (4.0 * grid[i][j] - grid[i - 1][j] - grid[i + 1][j] -
                              grid[i][j - 1] - east_of(i, j, n)) * inv_h2;
            double r = fabs(laplace - source[i][j]);
            if (r > worst)
                worst = r;
        }
    return worst;
}

/* Iterates sweeps until the largest update is below tol; returns the
   number of sweeps done. */
int solve(int n, double omega, int red_black, double tol, int max_sweeps) {
    for (int sweep = 1; sweep <= max_sweeps; sweep++) {
        double change = red_black ? sweep_red_black(n, omega) : sweep_lexicographic(n, omega);
        if (change < tol)
            return sweep;
    }
    return max_sweeps;
}

double grid_sum(int n) {
    double total = 0.0;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++)
            total += grid[i][j];
    return total;
}

int main(void) {
    int sizes[3] = {20, 32, 48};
    double factors[2] = {1.3, 1.7};
    int failures = 0;

    for (int s = 0; s < 3; s++) {
        int n = sizes[s];
        int kind = s;
        double optimal = 2.0 / (1.0 + sin(PI / (double)(n + 1)));
        for (int f = 0; f < 3; f++) {
            double omega = f < 2 ? factors[f] : optimal;
            double lexical_sum = 0.0;
            int lexical_sweeps = 0;
            for (int red_black = 0; red_black < 2; red_black++) {
                setup(n, kind, s != 0);
                int sweeps = solve(n, omega, red_black, 1e-7, 1000);
                double res = residual(n);
                double sum = grid_sum(n);
                printf("n=%2d source %d omega %.4f ", n, kind, omega);
                if (red_black)
                    printf("red-black");
                else
                    printf("lexical  ");
                printf(": sweeps %4d residual %.3e sum %.6f mid %.6f\n", sweeps, res, sum,
                       grid[n / 2][n / 4]);
                if (sweeps < 1000 && res > 1e-2 * (double)((n + 1) * (n + 1)))
                    failures++;
                /* both orderings converge to the same discrete solution */
                if (!red_black) {
                    lexical_sum = sum;
                    lexical_sweeps = sweeps;
                } else if (sweeps < 1000 && lexical_sweeps < 1000 &&
                           fabs(sum - lexical_sum) > 1e-5 * fabs(lexical_sum)) {
                    failures++;
                }
            }
        }
    }

    /* scimark-style: a fixed number of sweeps over a random grid */
    int n = 80;
    for (int i = 0; i <= n + 1; i++)
        for (int j = 0; j <= n + 1; j++) {
            grid[i][j] = (double)(next_random() >> 8) / 16777216.0;
            source[i][j] = 0.0;
            obstacle[i][j] = 0;
        }
    double last = 0.0;
    for (int sweep = 0; sweep < 60; sweep++)
        last = sweep_lexicographic(n, 1.25);
    printf("random grid: last change %.6e sum %.6f\n", last, grid_sum(n));
    printf("failures %d\n", failures);
    return failures == 0 ? 0 : 1;
}
