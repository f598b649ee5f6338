//! The library functions that work on memory through pointers: `<string.h>`'s `mem*` and
//! `str*` functions, `<stdlib.h>`'s allocation functions and `qsort`, `puts` of any
//! string, and the `printf` forms that take a `va_list` (`vprintf`, `vsprintf`, `vsnprintf`). Their C signatures ([`MemFn::signature`]) are what the checker converts
//! arguments to; the VM implements them on its checked memory (every byte they touch must be
//! inside a live object, as for the program's own accesses).

use std::fmt;
use std::sync::Arc;

use crate::ctype::{CType, FnType};
use crate::scalar::ScalarType;

/// A library function on memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MemFn {
    /// `void *memcpy(void *dst, const void *src, size_t n)` (the areas must not overlap).
    Memcpy,
    /// `void *memmove(void *dst, const void *src, size_t n)` (the areas may overlap).
    Memmove,
    /// `void *memset(void *dst, int c, size_t n)`.
    Memset,
    /// `int memcmp(const void *a, const void *b, size_t n)`: the sign of the first differing
    /// byte's difference (as unsigned chars), 0 if equal.
    Memcmp,
    /// `size_t strlen(const char *s)`.
    Strlen,
    /// `char *strcpy(char *dst, const char *src)`.
    Strcpy,
    /// `char *strncpy(char *dst, const char *src, size_t n)` (pads with NULs up to `n`).
    Strncpy,
    /// `int strcmp(const char *a, const char *b)`.
    Strcmp,
    /// `int strncmp(const char *a, const char *b, size_t n)`.
    Strncmp,
    /// `char *strcat(char *dst, const char *src)`.
    Strcat,
    /// `char *strchr(const char *s, int c)`: the first `(char)c` in `s` (the terminating NUL
    /// counts), or null.
    Strchr,
    /// `char *strrchr(const char *s, int c)`: the last `(char)c` in `s` (the terminating NUL
    /// counts), or null.
    Strrchr,
    /// `char *strstr(const char *haystack, const char *needle)`: the first occurrence of
    /// `needle` in `haystack` (`haystack` itself for an empty `needle`), or null.
    Strstr,
    /// `char *strncat(char *dst, const char *src, size_t n)`: appends at most `n` bytes of
    /// `src` and a NUL.
    Strncat,
    /// `void *memchr(const void *s, int c, size_t n)`: the first `(unsigned char)c` in the `n`
    /// bytes at `s`, or null.
    Memchr,
    /// `void *malloc(size_t n)`.
    Malloc,
    /// `void *calloc(size_t count, size_t size)`: zeroed.
    Calloc,
    /// `void *realloc(void *p, size_t n)`.
    Realloc,
    /// `void free(void *p)`.
    Free,
    /// `void qsort(void *base, size_t count, size_t size, int (*compare)(const void *, const
    /// void *))`.
    Qsort,
    /// `int puts(const char *s)`: writes `s` and a newline.
    Puts,
    /// `void __assert_fail(const char *assertion, const char *file, unsigned line, const char
    /// *function)`: what `<assert.h>`'s `assert` calls when its expression is 0; the run
    /// stops with a runtime error naming the assertion (glibc's message and `abort` come with
    /// the hosted library).
    AssertFail,
    /// `void abort(void)`: ends the program as glibc's does, by SIGABRT (exit status 134),
    /// with a runtime error naming where it was called.
    Abort,
    /// `int vprintf(const char *format, va_list ap)`: `printf` of a format read at run time
    /// and the arguments in the block `ap` points into (`<stdarg.h>`'s 8-byte slots).
    Vprintf,
    /// `int vsprintf(char *buffer, const char *format, va_list ap)`.
    Vsprintf,
    /// `int vsnprintf(char *buffer, size_t limit, const char *format, va_list ap)`.
    Vsnprintf,
    /// `long double` arithmetic (module [`super::long_double`]), which the checker lowers to
    /// these calls on the 16-byte objects that hold the values: `void __ld_arith(long double
    /// *dst, const long double *a, const long double *b, int op)` stores `*a op *b` ([`LdOp`]
    /// code) in `*dst`.
    ///
    /// [`LdOp`]: super::long_double::LdOp
    LdArith,
    /// `void __ld_neg(long double *dst, const long double *a)`: `-*a`.
    LdNeg,
    /// `int __ld_compare(const long double *a, const long double *b, int op)`: 1 if `*a op
    /// *b` holds ([`crate::hir::CompareOp::code`]), else 0 (a NaN compares unequal).
    LdCompare,
    /// `void __ld_from_long(long double *dst, long x)`: exact.
    LdFromLong,
    /// `void __ld_from_ulong(long double *dst, unsigned long x)`: exact.
    LdFromULong,
    /// `void __ld_from_double(long double *dst, double x)`: exact.
    LdFromDouble,
    /// `long __ld_to_long(const long double *a)`: truncated toward zero.
    LdToLong,
    /// `unsigned long __ld_to_ulong(const long double *a)`: truncated toward zero.
    LdToULong,
    /// `double __ld_to_double(const long double *a)`: rounded to nearest.
    LdToDouble,
    /// `float __ld_to_float(const long double *a)`: rounded to nearest, once.
    LdToFloat,
}

impl MemFn {
    /// Every function, in declaration order.
    pub const ALL: [MemFn; 36] = [
        MemFn::Memcpy,
        MemFn::Memmove,
        MemFn::Memset,
        MemFn::Memcmp,
        MemFn::Strlen,
        MemFn::Strcpy,
        MemFn::Strncpy,
        MemFn::Strcmp,
        MemFn::Strncmp,
        MemFn::Strcat,
        MemFn::Strchr,
        MemFn::Strrchr,
        MemFn::Strstr,
        MemFn::Strncat,
        MemFn::Memchr,
        MemFn::Malloc,
        MemFn::Calloc,
        MemFn::Realloc,
        MemFn::Free,
        MemFn::Qsort,
        MemFn::Puts,
        MemFn::AssertFail,
        MemFn::Abort,
        MemFn::Vprintf,
        MemFn::Vsprintf,
        MemFn::Vsnprintf,
        MemFn::LdArith,
        MemFn::LdNeg,
        MemFn::LdCompare,
        MemFn::LdFromLong,
        MemFn::LdFromULong,
        MemFn::LdFromDouble,
        MemFn::LdToLong,
        MemFn::LdToULong,
        MemFn::LdToDouble,
        MemFn::LdToFloat,
    ];

    /// The function called `name` in C, if it is one of these (the `long double` operations
    /// are the checker's, not callable by name).
    pub fn lookup(name: &str) -> Option<MemFn> {
        MemFn::ALL
            .into_iter()
            .find(|f| f.name() == name && !f.is_long_double_operation())
    }

    /// Whether it is one of the `long double` operations the checker lowers arithmetic to.
    pub fn is_long_double_operation(self) -> bool {
        matches!(
            self,
            MemFn::LdArith
                | MemFn::LdNeg
                | MemFn::LdCompare
                | MemFn::LdFromLong
                | MemFn::LdFromULong
                | MemFn::LdFromDouble
                | MemFn::LdToLong
                | MemFn::LdToULong
                | MemFn::LdToDouble
                | MemFn::LdToFloat
        )
    }

    /// The C name.
    pub fn name(self) -> &'static str {
        match self {
            MemFn::Memcpy => "memcpy",
            MemFn::Memmove => "memmove",
            MemFn::Memset => "memset",
            MemFn::Memcmp => "memcmp",
            MemFn::Strlen => "strlen",
            MemFn::Strcpy => "strcpy",
            MemFn::Strncpy => "strncpy",
            MemFn::Strcmp => "strcmp",
            MemFn::Strncmp => "strncmp",
            MemFn::Strcat => "strcat",
            MemFn::Strchr => "strchr",
            MemFn::Strrchr => "strrchr",
            MemFn::Strstr => "strstr",
            MemFn::Strncat => "strncat",
            MemFn::Memchr => "memchr",
            MemFn::Malloc => "malloc",
            MemFn::Calloc => "calloc",
            MemFn::Realloc => "realloc",
            MemFn::Free => "free",
            MemFn::Qsort => "qsort",
            MemFn::Puts => "puts",
            MemFn::AssertFail => "__assert_fail",
            MemFn::Abort => "abort",
            MemFn::Vprintf => "vprintf",
            MemFn::Vsprintf => "vsprintf",
            MemFn::Vsnprintf => "vsnprintf",
            MemFn::LdArith => "__ld_arith",
            MemFn::LdNeg => "__ld_neg",
            MemFn::LdCompare => "__ld_compare",
            MemFn::LdFromLong => "__ld_from_long",
            MemFn::LdFromULong => "__ld_from_ulong",
            MemFn::LdFromDouble => "__ld_from_double",
            MemFn::LdToLong => "__ld_to_long",
            MemFn::LdToULong => "__ld_to_ulong",
            MemFn::LdToDouble => "__ld_to_double",
            MemFn::LdToFloat => "__ld_to_float",
        }
    }

    /// Whether the VM's implementation is C code of the prelude (`lang/src/prelude/`), which
    /// defines it, rather than an instruction: `qsort`.
    pub fn is_written_in_c(self) -> bool {
        self == MemFn::Qsort
    }

    /// Whether it only reads memory (gcc's `pure` functions: calling it has no side effect).
    pub fn is_pure(self) -> bool {
        matches!(
            self,
            MemFn::Memcmp
                | MemFn::Strlen
                | MemFn::Strcmp
                | MemFn::Strncmp
                | MemFn::Strchr
                | MemFn::Strrchr
                | MemFn::Strstr
                | MemFn::Memchr
                | MemFn::LdCompare
                | MemFn::LdToLong
                | MemFn::LdToULong
                | MemFn::LdToDouble
                | MemFn::LdToFloat
        )
    }

    /// The header that declares it.
    pub fn header(self) -> &'static str {
        match self {
            MemFn::Malloc
            | MemFn::Calloc
            | MemFn::Realloc
            | MemFn::Free
            | MemFn::Qsort
            | MemFn::Abort => "stdlib.h",
            MemFn::Puts | MemFn::Vprintf | MemFn::Vsprintf | MemFn::Vsnprintf => "stdio.h",
            MemFn::AssertFail => "assert.h",
            f if f.is_long_double_operation() => "float.h",
            _ => "string.h",
        }
    }

    /// The result type and the parameter types.
    pub fn signature(self) -> (CType, Vec<CType>) {
        let size = || CType::Scalar(ScalarType::ULong);
        let int = || CType::Scalar(ScalarType::Int);
        let ptr = |to: CType, to_const: bool| CType::pointer_to(to, to_const);
        let void_p = || ptr(CType::Void, false);
        let const_void_p = || ptr(CType::Void, true);
        let char_p = || ptr(CType::Scalar(ScalarType::Char), false);
        let const_char_p = || ptr(CType::Scalar(ScalarType::Char), true);
        match self {
            MemFn::Memcpy | MemFn::Memmove => (void_p(), vec![void_p(), const_void_p(), size()]),
            MemFn::Memset => (void_p(), vec![void_p(), int(), size()]),
            MemFn::Memcmp => (int(), vec![const_void_p(), const_void_p(), size()]),
            MemFn::Strlen => (size(), vec![const_char_p()]),
            MemFn::Strcpy | MemFn::Strcat => (char_p(), vec![char_p(), const_char_p()]),
            MemFn::Strncpy => (char_p(), vec![char_p(), const_char_p(), size()]),
            MemFn::Strcmp => (int(), vec![const_char_p(), const_char_p()]),
            MemFn::Strncmp => (int(), vec![const_char_p(), const_char_p(), size()]),
            MemFn::Strchr | MemFn::Strrchr => (char_p(), vec![const_char_p(), int()]),
            MemFn::Strstr => (char_p(), vec![const_char_p(), const_char_p()]),
            MemFn::Strncat => (char_p(), vec![char_p(), const_char_p(), size()]),
            MemFn::Memchr => (void_p(), vec![const_void_p(), int(), size()]),
            MemFn::Malloc => (void_p(), vec![size()]),
            MemFn::Calloc => (void_p(), vec![size(), size()]),
            MemFn::Realloc => (void_p(), vec![void_p(), size()]),
            MemFn::Free => (CType::Void, vec![void_p()]),
            MemFn::Qsort => {
                let compare = CType::Function(Arc::new(FnType {
                    ret: int(),
                    params: vec![const_void_p(), const_void_p()],
                    variadic: false,
                }));
                (
                    CType::Void,
                    vec![void_p(), size(), size(), ptr(compare, false)],
                )
            }
            MemFn::Puts => (int(), vec![const_char_p()]),
            // `va_list` is `char *` (`<stdarg.h>`).
            MemFn::Vprintf => (int(), vec![const_char_p(), char_p()]),
            MemFn::Vsprintf => (int(), vec![char_p(), const_char_p(), char_p()]),
            MemFn::Vsnprintf => (int(), vec![char_p(), size(), const_char_p(), char_p()]),
            MemFn::Abort => (CType::Void, Vec::new()),
            MemFn::LdArith => (
                CType::Void,
                vec![void_p(), const_void_p(), const_void_p(), int()],
            ),
            MemFn::LdNeg => (CType::Void, vec![void_p(), const_void_p()]),
            MemFn::LdCompare => (int(), vec![const_void_p(), const_void_p(), int()]),
            MemFn::LdFromLong => (CType::Void, vec![void_p(), CType::Scalar(ScalarType::Long)]),
            MemFn::LdFromULong => (CType::Void, vec![void_p(), size()]),
            MemFn::LdFromDouble => (
                CType::Void,
                vec![void_p(), CType::Scalar(ScalarType::Double)],
            ),
            MemFn::LdToLong => (CType::Scalar(ScalarType::Long), vec![const_void_p()]),
            MemFn::LdToULong => (size(), vec![const_void_p()]),
            MemFn::LdToDouble => (CType::Scalar(ScalarType::Double), vec![const_void_p()]),
            MemFn::LdToFloat => (CType::Scalar(ScalarType::Float), vec![const_void_p()]),
            MemFn::AssertFail => (
                CType::Void,
                vec![
                    const_char_p(),
                    const_char_p(),
                    CType::Scalar(ScalarType::UInt),
                    const_char_p(),
                ],
            ),
        }
    }

    /// The result's scalar type (`None` for `void`).
    pub fn result(self) -> Option<ScalarType> {
        self.signature().0.scalar()
    }
}

impl fmt::Display for MemFn {
    /// Writes the C name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
