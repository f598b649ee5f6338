//! The standard headers that are plain C text: `<limits.h>`, `<stdbool.h>`, `<stdint.h>`,
//! `<inttypes.h>` (its `PRId64`-style macros; not its functions).
//!
//! Unlike `<stdio.h>`, `<stdlib.h>` and `<math.h>`, whose functions the checker knows (see
//! [`crate::check::library`]), these headers only define macros and typedefs, so they are
//! preprocessed like any included file, from texts built into the front end (the files in
//! `lang/src/preprocess/headers/`). Their values and types are gcc's and glibc's on x86-64
//! (`INT_MAX` is an `int`, `UINT_MAX` an `unsigned int`, `int_fast16_t` a `long`), so
//! `printf("%u", UINT_MAX)` type-checks and prints as with gcc. Diagnostics inside them name
//! the file `<limits.h>` (and so on).

/// The headers and their texts.
const TEXT_HEADERS: &[(&str, &str)] = &[
    ("limits.h", include_str!("headers/limits.h")),
    ("stdbool.h", include_str!("headers/stdbool.h")),
    ("stdint.h", include_str!("headers/stdint.h")),
    ("inttypes.h", include_str!("headers/inttypes.h")),
];

/// The macros of the library's headers whose functions the checker knows (`<stdlib.h>`'s
/// `RAND_MAX`, `EXIT_SUCCESS`, `EXIT_FAILURE`; `<stdio.h>`'s `EOF`), with glibc's values.
const LIBRARY_MACROS: &[(&str, &str)] = &[
    (
        "stdlib.h",
        concat!(
            "#ifndef _STDLIB_H_MACROS\n#define _STDLIB_H_MACROS\n#define EXIT_SUCCESS 0\n#define EXIT_FAILURE 1\n#define RAND_MAX 2147483647\n",
            "#ifndef NULL\n#define NULL ((void *)0)\n#endif\n",
            "#ifndef __size_t_defined\n#define __size_t_defined\ntypedef unsigned long size_t;\n#endif\n#endif\n"
        ),
    ),
    (
        "stdio.h",
        concat!(
            "#ifndef _STDIO_H_MACROS\n#define _STDIO_H_MACROS\n#define EOF (-1)\n",
            "#ifndef NULL\n#define NULL ((void *)0)\n#endif\n",
            "#ifndef __size_t_defined\n#define __size_t_defined\ntypedef unsigned long size_t;\n#endif\n#endif\n"
        ),
    ),
    (
        "string.h",
        concat!(
            "#ifndef _STRING_H_MACROS\n#define _STRING_H_MACROS\n",
            "#ifndef NULL\n#define NULL ((void *)0)\n#endif\n",
            "#ifndef __size_t_defined\n#define __size_t_defined\ntypedef unsigned long size_t;\n#endif\n#endif\n"
        ),
    ),
    (
        "stddef.h",
        concat!(
            "#ifndef _STDDEF_H_MACROS\n#define _STDDEF_H_MACROS\n",
            "#ifndef NULL\n#define NULL ((void *)0)\n#endif\n",
            "#ifndef __size_t_defined\n#define __size_t_defined\ntypedef unsigned long size_t;\n#endif\n",
            "typedef long ptrdiff_t;\n",
            "#define offsetof(TYPE, MEMBER) __builtin_offsetof(TYPE, MEMBER)\n#endif\n"
        ),
    ),
];

/// The macro definitions that come with `#include <name>` of a library header the checker
/// handles, if it has any: `<stdlib.h>`'s `EXIT_SUCCESS`, `EXIT_FAILURE`, `RAND_MAX`, `<stdio.h>`'s `EOF`.
pub fn library_macros(name: &str) -> Option<&'static str> {
    LIBRARY_MACROS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

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
    TEXT_HEADERS
        .iter()
        .chain(LIBRARY_MACROS)
        .find_map(|(header, text)| {
            let defines = text.lines().any(|line| {
                let words: Vec<&str> = line
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .filter(|w| !w.is_empty())
                    .collect();
                match words.as_slice() {
                    ["define", macro_name, ..] => *macro_name == name,
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
