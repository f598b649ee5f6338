/* Configuration of macros.c: sizes and switches. Guarded: macros.c includes it twice. */
#ifndef MACROS_CONFIG_H
#define MACROS_CONFIG_H

#define RING_SIZE 16
#define VERSION_MAJOR 2
#define VERSION_MINOR 7
#define VERSION ((VERSION_MAJOR) * 100 + (VERSION_MINOR))
#define USE_CHECKSUM 1
/* #define NO_HISTOGRAM */

#endif
