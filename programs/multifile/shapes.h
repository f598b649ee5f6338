/* The interface of the multifile example: what stats.c and geometry.c export. */
#ifndef SHAPES_H
#define SHAPES_H

#define GRID 8

/* stats.c */
extern int samples;
extern long total;
void record(int value);
double mean(void);
int histogram_peak(void);

/* geometry.c */
extern const int grid_size;
int area(int w, int h);
int manhattan(int x1, int y1, int x2, int y2);
void fill_grid(int grid[][GRID], int seed);
int geometry_calls(void);

#endif
