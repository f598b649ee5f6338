/* <setjmp.h> (C99 7.13): glibc's `jmp_buf` size on x86-64 (200 bytes). */
#ifndef _SETJMP_H
#define _SETJMP_H
typedef long jmp_buf[25];
int setjmp(jmp_buf env);
void longjmp(jmp_buf env, int val);
#endif
