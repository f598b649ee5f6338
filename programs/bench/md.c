/*
 * md.c - benchmark: molecular dynamics of a Lennard-Jones fluid.
 *
 * Algorithm: 256 particles in a periodic cubic box (reduced units: density
 * 0.8442, initial temperature 0.722, as in the classic liquid-argon runs),
 * started on a face-centred cubic lattice with random velocities (net
 * momentum removed, scaled to the temperature).  Forces come from the
 * Lennard-Jones potential 4 (r^-12 - r^-6), truncated at r = 2.5 and
 * shifted so that it is continuous there; every pair is visited (O(n^2))
 * with the minimum-image convention.  Time integration is velocity Verlet
 * (half kick, drift with wrap-around into the box, new forces, half kick),
 * dt = 0.004.  During the first 50 of 150 steps the velocities are
 * rescaled to the target temperature every 10 steps (equilibration); after
 * that the total energy must stay constant (its worst relative drift is
 * checked).  Every 15 steps the kinetic, potential and total energy per
 * particle and the temperature are printed, at the end a histogram of pair
 * distances (the radial distribution) and the drift.
 * Data: the lattice is a formula, the velocities come from a fixed-seed
 * 64-bit LCG.
 *
 * Control flow for path profiling:
 *   - the force computation is a triangular double loop over pairs; the
 *     body does the minimum image in each dimension (two-sided
 *     data-dependent branches, three times) and a cutoff branch (about a
 *     third of the pairs interact), so the body has many paths whose
 *     sequence follows the geometry;
 *   - the integration loops over particles and dimensions, with wrap-around
 *     branches at the box faces (rarely taken);
 *   - the minimum image is a short function called in the pair loop;
 *   - the histogram pass adds a bin computation with a range check.
 *
 * Loop-heavy: no by the suite's measure (72% of the Ball-Larus paths completed
 * are calls of minimum_image, three per pair: the time is in the pair loop, but
 * its work is in a short function it calls).
 */
#include <stdio.h>
#include <math.h>

double position[256][3];
double velocity[256][3];
double force[256][3];
int histogram[25];

int count = 256;
double box = 0.0;
double half_box = 0.0;
const double CUTOFF = 2.5;
double energy_shift = 0.0; /* the potential at the cutoff */

unsigned long rng_state = 42ul;

double next_uniform(void) {
    rng_state = rng_state * 6364136223846793005ul + 1442695040888963407ul;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

/* Nearest periodic image of a coordinate difference. */
double minimum_image(double d) {
    if (d > half_box)
        return d - box;
    if (d < -half_box)
        return d + box;
    return d;
}

void initialize(double density, double temperature) {
    box = pow((double)count / density, 1.0 / 3.0);
    half_box = 0.5 * box;
    double inv6 = 1.0 / pow(CUTOFF, 6.0);
    energy_shift = 4.0 * (inv6 * inv6 - inv6);
    /* fcc: 4 particles per cell, 4 x 4 x 4 cells */
    double cell = box / 4.0;
    double offsets[4][3] = {{0.0, 0.0, 0.0}, {0.5, 0.5, 0.0}, {0.5, 0.0, 0.5}, {0.0, 0.5, 0.5}};
    int p = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            for (int k = 0; k < 4; k++)
                for (int b = 0; b < 4; b++) {
                    position[p][0] = ((double)i + offsets[b][0] + 0.25) * cell;
                    position[p][1] = ((double)j + offsets[b][1] + 0.25) * cell;
                    position[p][2] = ((double)k + offsets[b][2] + 0.25) * cell;
                    p++;
                }
    double momentum[3] = {0.0, 0.0, 0.0};
    for (p = 0; p < count; p++)
        for (int d = 0; d < 3; d++) {
            velocity[p][d] = next_uniform() - 0.5;
            momentum[d] += velocity[p][d];
        }
    double kinetic = 0.0;
    for (p = 0; p < count; p++)
        for (int d = 0; d < 3; d++) {
            velocity[p][d] -= momentum[d] / count;
            kinetic += velocity[p][d] * velocity[p][d];
        }
    /* equipartition: kinetic energy = 3/2 N T (with unit mass) */
    double scale = sqrt(3.0 * (double)count * temperature / kinetic);
    for (p = 0; p < count; p++)
        for (int d = 0; d < 3; d++)
            velocity[p][d] *= scale;
}

/* Computes all forces; returns the potential energy.  When sample is set,
   pair distances below half the box also go into the histogram. */
double compute_forces(int sample) {
    double potential = 0.0;
    double cutoff2 = CUTOFF * CUTOFF;
    for (int p = 0; p < count; p++)
        for (int d = 0; d < 3; d++)
            force[p][d] = 0.0;
    for (int i = 0; i < count - 1; i++) {
        for (int j = i + 1; j < count; j++) {
            double dx = minimum_image(position[i][0] - position[j][0]);
            double dy = minimum_image(position[i][1] - position[j][1]);
            double dz = minimum_image(position[i][2] - position[j][2]);
            double r2 = dx * dx + dy * dy + dz * dz;
            if (sample) {
                int bin = (int)(sqrt(r2) / half_box * 25.0);
                if (bin < 25)
                    histogram[bin]++;
            }
            if (r2 >= cutoff2)
                continue;
            double inv2 = 1.0 / r2;
            double inv6 = inv2 * inv2 * inv2;
            potential += 4.0 * (inv6 * inv6 - inv6) - energy_shift;
            /* -dU/dr / r = 48 r^-14 - 24 r^-8 */
            double magnitude = (48.0 * inv6 * inv6 - 24.0 * inv6) * inv2;
            force[i][0] += magnitude * dx;
            force[i][1] += magnitude * dy;
            force[i][2] += magnitude * dz;
            force[j][0] -= magnitude * dx;
            force[j][1] -= magnitude * dy;
            force[j][2] -= magnitude * dz;
        }
    }
    return potential;
}

double kinetic_energy(void) {
    double sum = 0.0;
    for (int p = 0; p < count; p++)
        for (int d = 0; d < 3; d++)
            sum += velocity[p][d] * velocity[p][d];
    return 0.5 * sum;
}

/* One velocity-Verlet step; returns the new potential energy. */
double step(double dt, int sample) {
    for (int p = 0; p < count; p++) {
        for (int d = 0; d < 3; d++) {
            velocity[p][d] += 0.5 * dt * force[p][d];
            double x = position[p][d] + dt * velocity[p][d];
            if (x >= box)
                x -= box;
            else if (x < 0.0)
                x += box;
            position[p][d] = x;
        }
    }
    double potential = compute_forces(sample);
    for (int p = 0; p < count; p++)
        for (int d = 0; d < 3; d++)
            velocity[p][d] += 0.5 * dt * force[p][d];
    return potential;
}

/* Scales the velocities to the target temperature (equilibration). */
void rescale(double temperature) {
    double scale = sqrt(3.0 * (double)count * temperature / (2.0 * kinetic_energy()));
    for (int p = 0; p < count; p++)
        for (int d = 0; d < 3; d++)
            velocity[p][d] *= scale;
}

int main(void) {
    double dt = 0.004, target = 0.722;
    int steps = 150, equilibration = 50;
    initialize(0.8442, target);
    double potential = compute_forces(0);
    printf("box %.6f particles %d initial energy %.6f\n", box, count,
           kinetic_energy() + potential);
    double reference = 0.0, worst_drift = 0.0;
    for (int s = 1; s <= steps; s++) {
        potential = step(dt, s > steps - 5);
        if (s <= equilibration && s % 10 == 0)
            rescale(target);
        double kinetic = kinetic_energy();
        double total = kinetic + potential;
        if (s == equilibration) {
            reference = total; /* constant energy from here on */
        } else if (s > equilibration) {
            double drift = fabs(total - reference) / fabs(reference);
            if (drift > worst_drift)
                worst_drift = drift;
        }
        if (s % 15 == 0)
            printf("step %3d: kinetic %.6f potential %.6f total %.6f temperature %.6f\n", s,
                   kinetic / count, potential / count, total / count,
                   2.0 * kinetic / (3.0 * count));
    }
    printf("pair distance histogram (r / half box, 25 bins, last 5 steps):\n");
    for (int b = 0; b < 25; b++) {
        printf(" %d", histogram[b]);
        if (b % 13 == 12)
            printf("\n");
    }
    printf("\nworst relative energy drift after equilibration %.3e\n", worst_drift);
    return worst_drift < 1e-2 ? 0 : 1;
}
