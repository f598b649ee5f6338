/* A program that includes no header may define functions named like the library's (TACLeBench's
   qurt defines its own `float fabs(float)`): its own are called. */
int printf(const char *restrict format, ...);

float fabs(float n) { return n < 0 ? -n : n; }

static int abs(int x) { return x < 0 ? -x : x + 1000; }

int main(void) {
    printf("%.2f %.2f %d %d\n", fabs(-2.5f), fabs(1.25f), abs(-3), abs(3));
    return 0;
}
