/* <stdarg.h> (C99 7.15): a variadic function's further arguments. The VM's calling
   convention (lang/src/check/calls.rs): the caller puts them, after the default argument
   promotions, into 8-byte slots of a block in its frame, and passes the block's address as a
   hidden last argument. A `va_list` points into that block; `va_arg` reads one slot and steps
   to the next. Reading past the last argument is an out-of-bounds error naming the block.
   Unlike gcc's `va_list` (an array), this one is a pointer: passing it to a function passes
   a copy, which is all the C standard promises (C99 7.15p3). */
#ifndef _STDARG_H
#define _STDARG_H
#ifndef __GNUC_VA_LIST
#define __GNUC_VA_LIST
typedef char *__gnuc_va_list;
#endif
typedef __gnuc_va_list va_list;
typedef __gnuc_va_list __builtin_va_list;
#define va_start(ap, last) ((void)((ap) = __builtin_va_area()))
/* A slot is 8 bytes; a `long double` takes two. */
#define __va_slot_size(type) ((sizeof(type) + 7) / 8 * 8)
#define va_arg(ap, type) (*(type *)(void *)(((ap) += __va_slot_size(type)) - __va_slot_size(type)))
#define va_end(ap) ((void)(ap))
#define va_copy(dest, src) ((void)((dest) = (src)))
#define __va_copy(dest, src) ((void)((dest) = (src)))
#define __builtin_va_start(ap, last) va_start(ap, last)
#define __builtin_va_arg(ap, type) va_arg(ap, type)
#define __builtin_va_end(ap) va_end(ap)
#define __builtin_va_copy(dest, src) va_copy(dest, src)
#endif
