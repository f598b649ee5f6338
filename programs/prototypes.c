/* Function declarations: prototypes with and without parameter names,
   array parameters in prototypes, functions returning every scalar type,
   void functions, const parameters, calls before definitions. */
#include <stdio.h>

char ret_char(int);
int ret_int(char c, double d);
unsigned ret_unsigned(unsigned long);
long ret_long(long a, long b);
unsigned long ret_ulong(int a[], int);
double ret_double(const double x);
void fill_squares(long out[], int n);
void nothing(void);
int ping(int n);
int pong(int n);

int log_count = 0;

int main(void) {
    printf("ret_char(321) = %d\n", ret_char(321));
    printf("ret_int('A', 2.9) = %d\n", ret_int('A', 2.9));
    printf("ret_unsigned(2^32+5) = %u\n", ret_unsigned(4294967301ul));
    printf("ret_long = %ld\n", ret_long(3000000000L, -7));
    int arr[5] = {1, -2, 3, -4, 5};
    printf("ret_ulong = %lu\n", ret_ulong(arr, 5));
    printf("ret_double(2) = %.4f\n", ret_double(2));
    long sq[6];
    fill_squares(sq, 6);
    for (int i = 0; i < 6; i++) printf("%ld ", sq[i]);
    printf("\n");
    nothing();
    nothing();
    printf("log_count = %d\n", log_count);
    printf("ping(7) = %d, pong(7) = %d\n", ping(7), pong(7));
    /* a call used as a statement discards the value */
    ret_int('x', 0.0);
    /* arguments are evaluated before the call; result used in conditions */
    if (ret_char(65 + 256) == 'A') printf("char wrap ok\n");
    return ret_int(1, 1.0) - 4;
}

char ret_char(int x) { return x; }

int ret_int(char c, double d) { return c + (int)d; }

unsigned ret_unsigned(unsigned long x) { return x; }

long ret_long(long a, long b) { return a * b; }

unsigned long ret_ulong(int a[], int n) {
    unsigned long s = 0;
    for (int i = 0; i < n; i++) s += a[i];
    return s;
}

double ret_double(const double x) { return x / 3.0; }

void fill_squares(long out[], int n) {
    for (int i = 0; i < n; i++) out[i] = (long)i * i * 1000000000L;
}

void nothing(void) {
    log_count++;
    return;
}

int ping(int n) { return n <= 0 ? 0 : 1 + pong(n - 1); }

int pong(int n) { return n <= 0 ? 100 : 2 * ping(n - 1); }
