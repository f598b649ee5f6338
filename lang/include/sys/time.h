/* <sys/time.h> (POSIX): `struct timeval` and `gettimeofday`. */
#ifndef _SYS_TIME_H
#define _SYS_TIME_H
#ifndef __time_t_defined
#define __time_t_defined
typedef long time_t;
#endif
typedef long suseconds_t;
struct timeval {
    time_t tv_sec;
    suseconds_t tv_usec;
};
struct timezone {
    int tz_minuteswest;
    int tz_dsttime;
};
int gettimeofday(struct timeval *tv, void *tz);
#endif
