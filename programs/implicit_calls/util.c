/* Definitions of what main.c calls without declaring. */
#include <stdio.h>

int combine(int a, double b, int c, char *name) { return a * 100 + (int)(b * 10) + c + name[1]; }

int scale(int v, double by) { return (int)(v * by); }

/* An old-style definition: its parameters are the promoted types. */
int twice(x)
int x;
{
    return 2 * x;
}

int report(int total, double ratio) { return printf("total %d ratio %.2f\n", total, ratio); }
