/* <unistd.h> (POSIX): the parts benchmarks use. */
#ifndef _UNISTD_H
#define _UNISTD_H
#ifndef NULL
#define NULL ((void *)0)
#endif
#ifndef __size_t_defined
#define __size_t_defined
typedef unsigned long size_t;
#endif
typedef long ssize_t;
typedef int pid_t;
typedef unsigned int useconds_t;
#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2
#define R_OK 4
#define W_OK 2
#define X_OK 1
#define F_OK 0
ssize_t read(int fd, void *buf, size_t nbytes);
ssize_t write(int fd, const void *buf, size_t n);
int close(int fd);
int access(const char *name, int type);
int unlink(const char *name);
unsigned int sleep(unsigned int seconds);
int usleep(useconds_t useconds);
pid_t getpid(void);
int isatty(int fd);
#endif
