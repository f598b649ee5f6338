/* Uses the tables with no size in sight; defines one of them. */
extern int primes[];
extern const char *month_names[];

const char *month_names[12] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                               "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
double weights[2][3] = {{0.5, 1.5, 2.5}, {-1.0, 0.0, 4.25}};

int sum_primes(int n) {
    int *p = primes;
    int s = 0;
    while (n-- > 0)
        s += *p++;
    return s;
}
