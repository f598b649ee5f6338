/* Includes itself without a guard: an include cycle. */
int depth;
#include "cycle.h"
