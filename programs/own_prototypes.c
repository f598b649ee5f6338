/* Library functions declared by the program itself instead of by their headers, as old
   benchmark programs do (TACLeBench's fac.c declares printf so): the library's functions
   are called, with the library's signatures. */
int printf(const char *restrict format, ...);
void *malloc(unsigned long size);
void free(void *p);
unsigned long strlen(const char *s);
int putchar(int c);

static int fac(int n) { return n <= 1 ? 1 : n * fac(n - 1); }

int main(void) {
    int *t = malloc(8 * sizeof(int));
    for (int i = 0; i < 8; i++) t[i] = fac(i);
    int n = printf("%d %d %lu\n", t[5], t[7], strlen("seven"));
    putchar('0' + n);
    putchar('\n');
    free(t);
    return 0;
}
