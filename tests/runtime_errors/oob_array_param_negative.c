/* Runtime error: an array parameter indexed below the start of its array. C allows a negative
   index of an array parameter given a pointer into an array (the first two calls); the third
   call reads before the array's first element. */
#include <stdio.h>

static long previous(const long v[], int k) { return v[-k]; }

int main(void) {
    long table[6] = {10, 20, 30, 40, 50, 60};
    printf("before table[3]: %ld\n", previous(&table[3], 1));
    printf("3 before table[5]: %ld\n", previous(table + 5, 3));
    printf("before table[0]: %ld\n", previous(table, 1));
    return 0;
}
