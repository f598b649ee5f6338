/* Melski & Reps 1998, Figure 4, as C: main calls pow (here `power`, to keep clear of the math
 * library's name) from two call sites inside its loop, and pow has a loop of its own. The
 * program computes (sum_{j=1..9} (2j)^2) + (sum_{k=1..6} (3k)^2) = 1140 + 819.
 *
 * Interprocedural paths cross the calls: `vmrun --profile=ipp:context --path-ends backedge
 * --report` counts 12 distinct context paths, 49 in all, with the counts of the paper's Figure
 * 8-9 output (9, 9, 6, 5, six of 3, 1 and 1; the ids differ because the VM's graph of the
 * compiled loops has more blocks than Figure 5), and `ipp:piecewise` the 9 piecewise paths of
 * Figures 16-17 (15, 9, 6, 6, 5, 3, 3, 1, 1). programs/cfgs/melski-reps-pow.cfg is Figure 5
 * with the paper's vertex names, which `vmrun cfg` numbers exactly as the paper does
 * (docs/interproc.md). */
#include <stdio.h>

double power(double base, long exp) {
    double p = 1.0;
    while (exp > 0) {
        p *= base;
        exp--;
    }
    return p;
}

int main(void) {
    double t, result = 0.0;
    int i = 1;
    while (i <= 18) {
        if ((i % 2) == 0) {
            t = power(i, 2);
            result += t;
        }
        if ((i % 3) == 0) {
            t = power(i, 2);
            result += t;
        }
        i++;
    }
    printf("%.1f\n", result);
    return 0;
}
