/* Calendar arithmetic: leap years, day of week (Zeller and a day count),
   days between dates, and a printed month grid; switch over months. */
#include <stdio.h>

int is_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int days_in_month(int y, int m) {
    switch (m) {
    case 2:
        return is_leap(y) ? 29 : 28;
    case 4: case 6: case 9: case 11:
        return 30;
    default:
        return 31;
    }
}

/* 0 = Saturday ... 6 = Friday */
int zeller(int y, int m, int d) {
    if (m < 3) {
        m += 12;
        y--;
    }
    int k = y % 100, j = y / 100;
    return (d + 13 * (m + 1) / 5 + k + k / 4 + j / 4 + 5 * j) % 7;
}

long day_number(int y, int m, int d) {
    long n = 0;
    for (int yy = 1900; yy < y; yy++) n += is_leap(yy) ? 366 : 365;
    for (int mm = 1; mm < m; mm++) n += days_in_month(y, mm);
    return n + d - 1;
}

void print_weekday(int w) {
    switch (w) {
    case 0: printf("Saturday"); break;
    case 1: printf("Sunday"); break;
    case 2: printf("Monday"); break;
    case 3: printf("Tuesday"); break;
    case 4: printf("Wednesday"); break;
    case 5: printf("Thursday"); break;
    case 6: printf("Friday"); break;
    }
}

void print_month(int y, int m) {
    printf("     %04d-%02d\n Su Mo Tu We Th Fr Sa\n", y, m);
    int first = (zeller(y, m, 1) + 6) % 7; /* 0 = Sunday */
    for (int i = 0; i < first; i++) printf("   ");
    for (int d = 1; d <= days_in_month(y, m); d++) {
        printf("%3d", d);
        if ((first + d) % 7 == 0) printf("\n");
    }
    if ((first + days_in_month(y, m)) % 7 != 0) printf("\n");
}

int main(void) {
    int years[8] = {1900, 1996, 2000, 2023, 2024, 2100, 2400, 1999};
    for (int i = 0; i < 8; i++) printf("%d leap=%d\n", years[i], is_leap(years[i]));
    int dates[6][3] = {{1969, 7, 20}, {2000, 1, 1}, {2024, 2, 29}, {1900, 1, 1}, {2038, 1, 19}, {2026, 11, 21}};
    for (int i = 0; i < 6; i++) {
        int y = dates[i][0], m = dates[i][1], d = dates[i][2];
        int z = zeller(y, m, d);
        long dn = day_number(y, m, d);
        printf("%04d-%02d-%02d is a ", y, m, d);
        print_weekday(z);
        printf(" (day %ld since 1900, check %d)\n", dn, (int)((dn + 2) % 7) == z);
    }
    printf("days from 1969-07-20 to 2026-11-21: %ld\n", day_number(2026, 11, 21) - day_number(1969, 7, 20));
    print_month(2024, 2);
    print_month(2026, 11);
    int fri13 = 0;
    for (int y = 2000; y < 2030; y++)
        for (int m = 1; m <= 12; m++) fri13 += zeller(y, m, 13) == 6;
    printf("Friday the 13ths 2000-2029: %d\n", fri13);
    return 0;
}
