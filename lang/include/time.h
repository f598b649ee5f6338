/* <time.h> (C99 7.23) and the POSIX clocks: glibc's types on x86-64. */
#ifndef _TIME_H
#define _TIME_H
#ifndef NULL
#define NULL ((void *)0)
#endif
#ifndef __size_t_defined
#define __size_t_defined
typedef unsigned long size_t;
#endif
#define CLOCKS_PER_SEC ((clock_t)1000000)
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID 3
typedef long clock_t;
#ifndef __time_t_defined
#define __time_t_defined
typedef long time_t;
#endif
typedef int clockid_t;
#ifndef __timespec_defined
#define __timespec_defined
struct timespec {
    time_t tv_sec;
    long tv_nsec;
};
#endif
struct tm {
    int tm_sec;
    int tm_min;
    int tm_hour;
    int tm_mday;
    int tm_mon;
    int tm_year;
    int tm_wday;
    int tm_yday;
    int tm_isdst;
    long tm_gmtoff;
    const char *tm_zone;
};
clock_t clock(void);
double difftime(time_t time1, time_t time0);
time_t mktime(struct tm *tp);
time_t time(time_t *timer);
char *asctime(const struct tm *tp);
char *ctime(const time_t *timer);
struct tm *gmtime(const time_t *timer);
struct tm *localtime(const time_t *timer);
size_t strftime(char *s, size_t maxsize, const char *format, const struct tm *tp);
int clock_gettime(clockid_t clock_id, struct timespec *tp);
int clock_getres(clockid_t clock_id, struct timespec *res);
int nanosleep(const struct timespec *requested, struct timespec *remaining);
#endif
