/* <strings.h> (POSIX). */
#ifndef _STRINGS_H
#define _STRINGS_H
#ifndef __size_t_defined
#define __size_t_defined
typedef unsigned long size_t;
#endif
int strcasecmp(const char *s1, const char *s2);
int strncasecmp(const char *s1, const char *s2, size_t n);
void bzero(void *s, size_t n);
int ffs(int i);
#endif
