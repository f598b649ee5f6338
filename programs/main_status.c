/* main's return value becomes the exit status, reduced modulo 256 like a
   process status (300 -> 44). Also a void function returning early. */
#include <stdio.h>

int checksum = 0;

void accumulate(int x) {
    if (x < 0) return;
    checksum = checksum * 31 + x;
}

int main(void) {
    for (int i = -5; i < 20; i++) accumulate(i * 7 % 11);
    printf("checksum = %d\n", checksum);
    int status = 300;
    printf("returning %d\n", status);
    return status;
}
