//! What the three allowed headers declare, so that the checker rejects what gcc would.
//!
//! A program may include `<stdio.h>`, `<stdlib.h>` and `<math.h>` (nothing else). Each library
//! function must have its header included, as gcc (`-std=c99`, which rejects implicit
//! declarations of these in practice) expects. The names a header declares under
//! `-std=c99` (functions, types, objects: taken from glibc's headers with
//! `gcc -std=c99 -aux-info` and `-E`) may not be redeclared at file scope, and its macros
//! (`EOF`, `NULL`, `INFINITY`, ...) may not be declared anywhere: gcc would either report a
//! conflicting declaration or expand the macro into a syntax error.

/// The headers a program may include.
pub const HEADERS: &[&str] = &["stdio.h", "stdlib.h", "math.h", "string.h", "stddef.h"];

const STRING_NAMES: &[&str] = &[
    "memchr", "memcmp", "memcpy", "memmove", "memset", "strcat", "strchr", "strcmp", "strcoll",
    "strcpy", "strcspn", "strerror", "strlen", "strncat", "strncmp", "strncpy", "strpbrk",
    "strrchr", "strspn", "strstr", "strtok", "strxfrm",
];
const STRING_MACROS: &[&str] = &["NULL"];
// `ptrdiff_t` is a typedef of the header text (`preprocess::headers`), like `size_t`.
const STDDEF_NAMES: &[&str] = &["wchar_t"];
const STDDEF_MACROS: &[&str] = &["NULL", "offsetof"];

const STDIO_NAMES: &[&str] = &[
    "clearerr",
    "fclose",
    "feof",
    "ferror",
    "fflush",
    "fgetc",
    "fgetpos",
    "fgets",
    "fopen",
    "fprintf",
    "fputc",
    "fputs",
    "fread",
    "freopen",
    "fscanf",
    "fseek",
    "fsetpos",
    "ftell",
    "fwrite",
    "getc",
    "getchar",
    "gets",
    "perror",
    "printf",
    "putc",
    "putchar",
    "puts",
    "remove",
    "rename",
    "rewind",
    "scanf",
    "setbuf",
    "setvbuf",
    "snprintf",
    "sprintf",
    "sscanf",
    "tmpfile",
    "tmpnam",
    "ungetc",
    "vfprintf",
    "vfscanf",
    "vprintf",
    "vscanf",
    "vsnprintf",
    "vsprintf",
    "vsscanf",
    "FILE",
    "fpos_t",
];
const STDIO_MACROS: &[&str] = &[
    "BUFSIZ",
    "EOF",
    "FILENAME_MAX",
    "FOPEN_MAX",
    "L_tmpnam",
    "NULL",
    "SEEK_CUR",
    "SEEK_END",
    "SEEK_SET",
    "TMP_MAX",
    "stderr",
    "stdin",
    "stdout",
];
const STDLIB_NAMES: &[&str] = &[
    "abort", "abs", "atexit", "atof", "atoi", "atol", "atoll", "bsearch", "calloc", "div", "exit",
    "free", "getenv", "labs", "ldiv", "llabs", "lldiv", "malloc", "mblen", "mbstowcs", "mbtowc",
    "qsort", "rand", "realloc", "srand", "strtod", "strtof", "strtol", "strtold", "strtoll",
    "strtoul", "strtoull", "system", "wcstombs", "wctomb", "wchar_t", "div_t", "ldiv_t", "lldiv_t",
];
const STDLIB_MACROS: &[&str] = &[
    "EXIT_FAILURE",
    "EXIT_SUCCESS",
    "MB_CUR_MAX",
    "NULL",
    "RAND_MAX",
];
const MATH_NAMES: &[&str] = &[
    "acos",
    "acosf",
    "acosh",
    "acoshf",
    "acoshl",
    "acosl",
    "asin",
    "asinf",
    "asinh",
    "asinhf",
    "asinhl",
    "asinl",
    "atan",
    "atan2",
    "atan2f",
    "atan2l",
    "atanf",
    "atanh",
    "atanhf",
    "atanhl",
    "atanl",
    "cbrt",
    "cbrtf",
    "cbrtl",
    "ceil",
    "ceilf",
    "ceill",
    "copysign",
    "copysignf",
    "copysignl",
    "cos",
    "cosf",
    "cosh",
    "coshf",
    "coshl",
    "cosl",
    "erf",
    "erfc",
    "erfcf",
    "erfcl",
    "erff",
    "erfl",
    "exp",
    "exp2",
    "exp2f",
    "exp2l",
    "expf",
    "expl",
    "expm1",
    "expm1f",
    "expm1l",
    "fabs",
    "fabsf",
    "fabsl",
    "fdim",
    "fdimf",
    "fdiml",
    "floor",
    "floorf",
    "floorl",
    "fma",
    "fmaf",
    "fmal",
    "fmax",
    "fmaxf",
    "fmaxl",
    "fmin",
    "fminf",
    "fminl",
    "fmod",
    "fmodf",
    "fmodl",
    "frexp",
    "frexpf",
    "frexpl",
    "hypot",
    "hypotf",
    "hypotl",
    "ilogb",
    "ilogbf",
    "ilogbl",
    "ldexp",
    "ldexpf",
    "ldexpl",
    "lgamma",
    "lgammaf",
    "lgammal",
    "llrint",
    "llrintf",
    "llrintl",
    "llround",
    "llroundf",
    "llroundl",
    "log",
    "log10",
    "log10f",
    "log10l",
    "log1p",
    "log1pf",
    "log1pl",
    "log2",
    "log2f",
    "log2l",
    "logb",
    "logbf",
    "logbl",
    "logf",
    "logl",
    "lrint",
    "lrintf",
    "lrintl",
    "lround",
    "lroundf",
    "lroundl",
    "modf",
    "modff",
    "modfl",
    "nan",
    "nanf",
    "nanl",
    "nearbyint",
    "nearbyintf",
    "nearbyintl",
    "nextafter",
    "nextafterf",
    "nextafterl",
    "nexttoward",
    "nexttowardf",
    "nexttowardl",
    "pow",
    "powf",
    "powl",
    "remainder",
    "remainderf",
    "remainderl",
    "remquo",
    "remquof",
    "remquol",
    "rint",
    "rintf",
    "rintl",
    "round",
    "roundf",
    "roundl",
    "scalbln",
    "scalblnf",
    "scalblnl",
    "scalbn",
    "scalbnf",
    "scalbnl",
    "sin",
    "sinf",
    "sinh",
    "sinhf",
    "sinhl",
    "sinl",
    "sqrt",
    "sqrtf",
    "sqrtl",
    "tan",
    "tanf",
    "tanh",
    "tanhf",
    "tanhl",
    "tanl",
    "tgamma",
    "tgammaf",
    "tgammal",
    "trunc",
    "truncf",
    "truncl",
    "double_t",
    "float_t",
];
const MATH_MACROS: &[&str] = &[
    "FP_ILOGB0",
    "FP_ILOGBNAN",
    "FP_INFINITE",
    "FP_NAN",
    "FP_NORMAL",
    "FP_SUBNORMAL",
    "FP_ZERO",
    "HUGE_VAL",
    "HUGE_VALF",
    "HUGE_VALL",
    "INFINITY",
    "MATH_ERREXCEPT",
    "MATH_ERRNO",
    "NAN",
    "fpclassify",
    "isfinite",
    "isgreater",
    "isgreaterequal",
    "isinf",
    "isless",
    "islessequal",
    "islessgreater",
    "isnan",
    "isnormal",
    "isunordered",
    "math_errhandling",
    "signbit",
];

/// The functions, types and objects `header` declares at file scope.
fn names(header: &str) -> &'static [&'static str] {
    match header {
        "stdio.h" => STDIO_NAMES,
        "stdlib.h" => STDLIB_NAMES,
        "math.h" => MATH_NAMES,
        "string.h" => STRING_NAMES,
        "stddef.h" => STDDEF_NAMES,
        _ => &[],
    }
}

/// The macros `header` defines.
fn macros(header: &str) -> &'static [&'static str] {
    match header {
        "stdio.h" => STDIO_MACROS,
        "stdlib.h" => STDLIB_MACROS,
        "math.h" => MATH_MACROS,
        "string.h" => STRING_MACROS,
        "stddef.h" => STDDEF_MACROS,
        _ => &[],
    }
}

/// The included headers of a program.
#[derive(Clone, Debug, Default)]
pub struct Headers {
    included: Vec<&'static str>,
}

impl Headers {
    /// Record that `header` (one of [`HEADERS`]) is included; returns false for other headers.
    pub fn include(&mut self, header: &str) -> bool {
        match HEADERS.iter().find(|&&h| h == header) {
            Some(h) => {
                if !self.included.contains(h) {
                    self.included.push(h);
                }
                true
            }
            None => false,
        }
    }

    /// True if `header` is included.
    pub fn has(&self, header: &str) -> bool {
        self.included.contains(&header)
    }

    /// The included header that defines `name` as a macro, if any.
    pub fn macro_header(&self, name: &str) -> Option<&'static str> {
        self.included
            .iter()
            .copied()
            .find(|h| macros(h).contains(&name))
    }

    /// The included header that declares `name` at file scope, if any.
    pub fn declaring_header(&self, name: &str) -> Option<&'static str> {
        self.included
            .iter()
            .copied()
            .find(|h| names(h).contains(&name))
    }
}

/// The header declaring `name` among the allowed ones (whether included or not).
pub fn standard_header_of(name: &str) -> Option<&'static str> {
    HEADERS
        .iter()
        .copied()
        .find(|h| names(h).contains(&name) || macros(h).contains(&name))
}
