/*
 * montecarlo.c - benchmark: Monte Carlo estimation with a per-sample generator.
 *
 * Algorithms: a 64-bit linear congruential generator (Knuth's MMIX
 * constants) whose top 53 bits give uniform doubles in [0, 1); each sample
 * calls it through a short function.  On top of it:
 *   - pi by hit-or-miss in the unit square (the scimark kernel), in several
 *     rounds, each one checked against a loose error bound;
 *   - the integral over [0, 1] of four functions (x^2, sin(pi x), exp(-x),
 *     1/(1+x^2)) by mean-value sampling and, for two of them, also by
 *     hit-or-miss under the curve; the exact values are known, so the
 *     program prints the estimates and the absolute errors;
 *   - random walks: a 2-D lattice walk (four directions picked by a switch)
 *     measuring returns to the origin and mean squared distance, and a 1-D
 *     gambler's-ruin walk with absorbing barriers (early exit when a
 *     barrier is hit) compared with the exact ruin probability.
 * All data comes from the generator with fixed seeds.
 *
 * Control flow for path profiling:
 *   - the generator is a loop-free function called once or twice per
 *     sample: many short calls inside the sampling loops;
 *   - the hit/miss branch in the pi and under-the-curve loops is random
 *     (about 79% / 21%), so consecutive iterations mix two paths;
 *   - the integrand is chosen by a switch inside a function called per
 *     sample, constant within one loop: a long run of one path per run;
 *   - the lattice walk's body is a 4-way switch plus a return-to-origin
 *     test; the ruin walk's loop (nested in a loop over games) has a
 *     two-way step and two early exits.
 *
 * Loop-heavy: no by the suite's measure (the sampling loops call the short
 * generator and integrand functions once or twice an iteration, so about two
 * thirds of the Ball-Larus paths completed are those calls).
 */
#include <stdio.h>
#include <math.h>

unsigned long lcg_state = 20240601ul;

/* Uniform double in [0, 1) from the top 53 bits of the 64-bit LCG. */
double next_uniform(void) {
    lcg_state = lcg_state * 6364136223846793005ul + 1442695040888963407ul;
    return (double)(lcg_state >> 11) * (1.0 / 9007199254740992.0);
}

/* A random integer in [0, n) taken from the high bits (the low bits of an
   LCG have short periods). */
int next_below(int n) {
    lcg_state = lcg_state * 6364136223846793005ul + 1442695040888963407ul;
    return (int)((lcg_state >> 33) % (unsigned long)n);
}

const double PI = 3.14159265358979323846;

/* The integrands, selected by number. */
double integrand(int which, double x) {
    switch (which) {
    case 0:
        return x * x;
    case 1:
        return sin(PI * x);
    case 2:
        return exp(-x);
    default:
        return 1.0 / (1.0 + x * x);
    }
}

double exact_integral(int which) {
    switch (which) {
    case 0:
        return 1.0 / 3.0;
    case 1:
        return 2.0 / PI;
    case 2:
        return 1.0 - exp(-1.0);
    default:
        return PI / 4.0;
    }
}

/* Hit-or-miss estimate of pi: the fraction of points of the unit square
   inside the quarter circle is pi / 4. */
double estimate_pi(int samples) {
    int inside = 0;
    for (int i = 0; i < samples; i++) {
        double x = next_uniform();
        double y = next_uniform();
        if (x * x + y * y <= 1.0)
            inside++;
    }
    return 4.0 * (double)inside / (double)samples;
}

/* Mean-value estimate of the integral of an integrand over [0, 1]. */
double integrate_mean(int which, int samples) {
    double sum = 0.0;
    for (int i = 0; i < samples; i++)
        sum += integrand(which, next_uniform());
    return sum / (double)samples;
}

/* Hit-or-miss estimate: the integrand is bounded by 1 on [0, 1], so the
   integral is the fraction of the unit square under its graph. */
double integrate_hits(int which, int samples) {
    int under = 0;
    for (int i = 0; i < samples; i++) {
        double x = next_uniform();
        double y = next_uniform();
        if (y < integrand(which, x))
            under++;
    }
    return (double)under / (double)samples;
}

/* 2-D lattice walks: returns the number of returns to the origin over all
   walks and stores the mean squared final distance in result[0]. */
int lattice_walks(int walks, int steps, double result[]) {
    int returns = 0;
    double total_sq = 0.0;
    for (int w = 0; w < walks; w++) {
        int x = 0, y = 0;
        for (int s = 0; s < steps; s++) {
            switch (next_below(4)) {
            case 0:
                x++;
                break;
            case 1:
                x--;
                break;
            case 2:
                y++;
                break;
            default:
                y--;
                break;
            }
            if (x == 0 && y == 0)
                returns++;
        }
        total_sq += (double)(x * x + y * y);
    }
    result[0] = total_sq / (double)walks;
    return returns;
}

/* Gambler's ruin: start with `stake`, win one unit with probability p,
   stop at 0 (ruin) or at `goal`.  Returns the number of ruins and adds the
   total number of steps to steps_out[0]. */
int ruin_games(int games, int stake, int goal, double p, long steps_out[]) {
    int ruins = 0;
    for (int g = 0; g < games; g++) {
        int money = stake;
        long steps = 0;
        for (;;) {
            steps++;
            if (next_uniform() < p)
                money++;
            else
                money--;
            if (money == 0) {
                ruins++;
                break;
            }
            if (money == goal)
                break;
        }
        steps_out[0] += steps;
    }
    return ruins;
}

/* Exact probability of ruin for the biased walk (p != 1/2). */
double exact_ruin(int stake, int goal, double p) {
    double r = (1.0 - p) / p;
    return (pow(r, (double)stake) - pow(r, (double)goal)) / (1.0 - pow(r, (double)goal));
}

int main(void) {
    int failures = 0;

    /* pi in rounds of growing size */
    double pi_sum = 0.0;
    for (int round = 0; round < 4; round++) {
        int samples = 150000 * (round + 1);
        double pi = estimate_pi(samples);
        double error = fabs(pi - PI);
        if (error > 0.05)
            failures++;
        pi_sum += pi;
        printf("pi round %d: samples %7d estimate %.6f error %.6f\n", round, samples, pi,
               error);
    }
    printf("pi mean of rounds %.6f\n", pi_sum / 4.0);

    /* integrals by mean value and by hit-or-miss */
    for (int which = 0; which < 4; which++) {
        double exact = exact_integral(which);
        double mean = integrate_mean(which, 2000000);
        printf("integral %d: exact %.6f mean-value %.6f (err %.6f)", which, exact, mean,
               fabs(mean - exact));
        if (fabs(mean - exact) > 0.02)
            failures++;
        if (which == 1 || which == 3) {
            double hits = integrate_hits(which, 300000);
            printf(" hit-or-miss %.6f (err %.6f)", hits, fabs(hits - exact));
            if (fabs(hits - exact) > 0.02)
                failures++;
        }
        printf("\n");
    }

    /* lattice walks */
    for (int length = 100; length <= 400; length *= 2) {
        double mean_sq[1];
        int returns = lattice_walks(1000, length, mean_sq);
        printf("lattice walks of %d steps: returns %d mean squared distance %.3f\n", length,
               returns, mean_sq[0]);
        if (mean_sq[0] < 0.5 * length || mean_sq[0] > 1.5 * length)
            failures++;
    }

    /* gambler's ruin with a slight bias */
    for (int stake = 5; stake <= 15; stake += 5) {
        long steps[1] = {0};
        double p = 0.48;
        int games = 8000;
        int ruins = ruin_games(games, stake, 20, p, steps);
        double estimate = (double)ruins / (double)games;
        double exact = exact_ruin(stake, 20, p);
        printf("ruin from %2d to 20: estimate %.4f exact %.4f mean length %.2f\n", stake,
               estimate, exact, (double)steps[0] / (double)games);
        if (fabs(estimate - exact) > 0.06)
            failures++;
    }

    printf("generator state %016lx failures %d\n", lcg_state, failures);
    return failures == 0 ? 0 : 1;
}
