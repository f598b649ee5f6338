/* rand and srand: the same sequence as glibc's, seeded and unseeded, in expressions. */
#include <stdio.h>
#include <stdlib.h>

int dice(void) { return rand() % 6 + 1; }

int main(void) {
    int first = rand();
    printf("%d %d\n", first, RAND_MAX);
    srand(42);
    int counts[7] = {0};
    for (int i = 0; i < 6000; i++) counts[dice()]++;
    for (int f = 1; f <= 6; f++) printf("%d:%d ", f, counts[f]);
    printf("\n");
    srand(42);
    printf("%d\n", dice() * 10 + dice());
    srand(0u - 1u);
    long sum = 0;
    for (int i = 0; i < 1000; i++) sum += rand() - rand() / 2;
    printf("%ld\n", sum);
    srand(1);
    printf("%d\n", rand() == first);
    return rand() % 256;
}
