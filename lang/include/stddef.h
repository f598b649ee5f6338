/* <stddef.h> (C99 7.17): gcc's types on x86-64. */
#ifndef _STDDEF_H
#define _STDDEF_H
#ifndef NULL
#define NULL ((void *)0)
#endif
#ifndef __size_t_defined
#define __size_t_defined
typedef unsigned long size_t;
#endif
typedef long ptrdiff_t;
#ifndef __wchar_t_defined
#define __wchar_t_defined
typedef int wchar_t;
#endif
#define offsetof(TYPE, MEMBER) __builtin_offsetof(TYPE, MEMBER)
#endif
