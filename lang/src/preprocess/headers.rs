//! The standard headers: real C text, shipped inside the front end (the files of
//! `lang/include/`), preprocessed like any included file.
//!
//! Every C99 header but `<complex.h>`, `<fenv.h>`, `<tgmath.h>`, `<wchar.h>` and
//! `<wctype.h>`, and the POSIX headers benchmarks include (`<unistd.h>`, `<sys/time.h>`,
//! `<strings.h>`). Each has an include guard (but `<assert.h>`, which the standard makes
//! redefine `assert` at each inclusion), so any header may be included any number of times, in
//! any order. Their values and types are gcc's and glibc's on x86-64 (`INT_MAX` is an `int`,
//! `UINT_MAX` an `unsigned int`, `int_fast16_t` a `long`, `RAND_MAX` 2147483647), so
//! `printf("%u", UINT_MAX)` type-checks and prints as with gcc.
//!
//! They declare the library's functions with glibc's prototypes. A prototype of a function the
//! VM implements binds the name to the implementation (see [`crate::check::library`]); one it
//! does not implement yet is an ordinary declaration, and a program that calls it stops at
//! link time naming the function and its header. `#include <h>` finds a file of an `-I`
//! directory first, as gcc does, then these. Diagnostics inside them name the file `<h>`.

/// The headers and their texts.
const TEXT_HEADERS: &[(&str, &str)] = &[
    ("assert.h", include_str!("../../include/assert.h")),
    ("ctype.h", include_str!("../../include/ctype.h")),
    ("errno.h", include_str!("../../include/errno.h")),
    ("float.h", include_str!("../../include/float.h")),
    ("inttypes.h", include_str!("../../include/inttypes.h")),
    ("iso646.h", include_str!("../../include/iso646.h")),
    ("limits.h", include_str!("../../include/limits.h")),
    ("locale.h", include_str!("../../include/locale.h")),
    ("math.h", include_str!("../../include/math.h")),
    ("setjmp.h", include_str!("../../include/setjmp.h")),
    ("signal.h", include_str!("../../include/signal.h")),
    ("stdarg.h", include_str!("../../include/stdarg.h")),
    ("stdbool.h", include_str!("../../include/stdbool.h")),
    ("stddef.h", include_str!("../../include/stddef.h")),
    ("stdint.h", include_str!("../../include/stdint.h")),
    ("stdio.h", include_str!("../../include/stdio.h")),
    ("stdlib.h", include_str!("../../include/stdlib.h")),
    ("string.h", include_str!("../../include/string.h")),
    ("strings.h", include_str!("../../include/strings.h")),
    ("sys/time.h", include_str!("../../include/sys/time.h")),
    ("time.h", include_str!("../../include/time.h")),
    ("unistd.h", include_str!("../../include/unistd.h")),
];

/// The text of the standard header `name` (as in `#include <name>`), if it is one of these.
pub fn text(name: &str) -> Option<&'static str> {
    TEXT_HEADERS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// The names of the text headers.
pub fn names() -> impl Iterator<Item = &'static str> {
    TEXT_HEADERS.iter().map(|(n, _)| *n)
}

/// The text header that defines `name` as a macro or typedef, if any (for the hint of an
/// "undeclared" error).
pub fn defining(name: &str) -> Option<&'static str> {
    TEXT_HEADERS.iter().find_map(|(header, text)| {
        let defines = text.lines().any(|line| {
            let words: Vec<&str> = line
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty())
                .collect();
            match words.as_slice() {
                ["define", macro_name, ..] => *macro_name == name,
                // `typedef void (*handler_t)(int);` declares the name after `(*`.
                ["typedef", ..] if line.contains("(*") => line
                    .split_once("(*")
                    .is_some_and(|(_, rest)| rest.split(')').next() == Some(name)),
                ["typedef", .., type_name] => *type_name == name,
                _ => false,
            }
        });
        defines.then_some(*header)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_of_a_name_is_found_by_its_definition() {
        assert_eq!(defining("INT_MAX"), Some("limits.h"));
        assert_eq!(defining("uint8_t"), Some("stdint.h"));
        assert_eq!(defining("INT64_C"), Some("stdint.h"));
        assert_eq!(defining("true"), Some("stdbool.h"));
        assert_eq!(defining("RAND_MAX"), Some("stdlib.h"));
        assert_eq!(defining("int"), None);
        assert_eq!(defining("LIMITS"), None);
    }
}
