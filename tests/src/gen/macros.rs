//! The prelude's function-like macros (`ADD`, `SUB`, `MUL`, token pasting, stringizing) and
//! the expressions and statements that use them: the preprocessor's part of a generated
//! program, which the declarations ([`super::decls`], which write the prelude) and the
//! expressions ([`super::expr`]) share.

/// Macros of the prelude: arithmetic through function-like macros, a pasted name and a
/// stringized argument.
pub(super) const MACROS: &str = "#define ADD(a, b) ((a) + (b))
#define SUB(a, b) ((a) - (b))
#define MUL(a, b) ((a) * (b))
#define PASTE(a, b) a ## b
#define STR(x) #x
";

/// `(l op r)` written as a call of the prelude's macro for `op`.
pub(super) fn macro_call(op: &str, l: &str, r: &str) -> String {
    let name = match op {
        "+" => "ADD",
        "-" => "SUB",
        _ => "MUL",
    };
    format!("{name}({l}, {r})")
}

/// A `puts` of a stringized macro argument (its spaces collapse to one, as C99 6.10.3.2 says).
pub(super) fn stringized_puts() -> &'static str {
    "puts(STR(  spaced     out  \"q\" ));"
}
