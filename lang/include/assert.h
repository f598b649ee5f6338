/* <assert.h> (C99 7.2). As the standard requires (and glibc's does), there is no include
   guard: each inclusion defines `assert` anew, by whether NDEBUG is defined at that point. */
#undef assert
#ifdef NDEBUG
#define assert(expr) ((void)0)
#else
#define assert(expr) ((expr) ? (void)0 : __assert_fail(#expr, __FILE__, __LINE__, __func__))
#endif
#ifndef _ASSERT_H_DECLS
#define _ASSERT_H_DECLS
void __assert_fail(const char *assertion, const char *file, unsigned int line,
                   const char *function);
#endif
