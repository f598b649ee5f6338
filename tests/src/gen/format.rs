//! Random printf conversion specifications that C99 defines for a given argument type
//! (flags, width, precision and length modifiers in every combination glibc documents),
//! and literal text pieces safe to put in a format string.

use super::rng::Rng;
use super::types::Ty;

/// Picks a random subset of `flags` in random order, each at most once.
fn flags(rng: &mut Rng, allowed: &[char]) -> String {
    let mut out = String::new();
    let mut pool: Vec<char> = allowed.to_vec();
    while !pool.is_empty() && rng.chance(35) {
        let i = rng.index(pool.len());
        out.push(pool.remove(i));
    }
    out
}

fn width(rng: &mut Rng, max: i64) -> String {
    if rng.chance(45) {
        rng.range(1, max).to_string()
    } else {
        String::new()
    }
}

fn precision(rng: &mut Rng, percent: u64, max: i64) -> String {
    if rng.chance(percent) {
        if rng.chance(10) {
            ".".to_string() // a lone '.' means precision 0
        } else {
            format!(".{}", rng.range(0, max))
        }
    } else {
        String::new()
    }
}

/// A conversion specification (starting with `%`) for an argument of type `ty` after the
/// default argument promotions (the types narrower than `int` are treated as `Int`, `Float`
/// as `Double`).
pub fn conversion(rng: &mut Rng, ty: Ty) -> String {
    match ty.promote() {
        Ty::Int => {
            if rng.chance(10) {
                return format!("%{}{}c", flags(rng, &['-']), width(rng, 5));
            }
            let conv = if rng.chance(25) { 'i' } else { 'd' };
            let len = if rng.chance(12) { "h" } else { "" };
            format!(
                "%{}{}{}{}{}",
                flags(rng, &['-', '+', ' ', '0']),
                width(rng, 14),
                precision(rng, 30, 12),
                len,
                conv
            )
        }
        Ty::UInt => {
            let conv = *rng.pick(&['u', 'x', 'X', 'o']);
            let allowed: &[char] = if conv == 'u' {
                &['-', '0']
            } else {
                &['-', '0', '#']
            };
            let len = if rng.chance(12) { "h" } else { "" };
            format!(
                "%{}{}{}{}{}",
                flags(rng, allowed),
                width(rng, 14),
                precision(rng, 30, 12),
                len,
                conv
            )
        }
        Ty::Long => {
            let conv = if rng.chance(25) { 'i' } else { 'd' };
            // 64-bit lengths: `l`, and now and then `ll`, `j` (intmax_t), `z` (size_t), `t`.
            let len = if rng.chance(20) {
                *rng.pick(&["ll", "j", "z", "t"])
            } else {
                "l"
            };
            format!(
                "%{}{}{}{}{}",
                flags(rng, &['-', '+', ' ', '0']),
                width(rng, 24),
                precision(rng, 30, 22),
                len,
                conv
            )
        }
        Ty::ULong => {
            let conv = *rng.pick(&['u', 'x', 'X', 'o']);
            let allowed: &[char] = if conv == 'u' {
                &['-', '0']
            } else {
                &['-', '0', '#']
            };
            // 64-bit lengths: `l`, and now and then `ll`, `j` (intmax_t), `z` (size_t), `t`.
            let len = if rng.chance(20) {
                *rng.pick(&["ll", "j", "z", "t"])
            } else {
                "l"
            };
            format!(
                "%{}{}{}{}{}",
                flags(rng, allowed),
                width(rng, 24),
                precision(rng, 30, 24),
                len,
                conv
            )
        }
        Ty::Double | Ty::Float | Ty::Char | Ty::Bool | Ty::UChar | Ty::Short | Ty::UShort => {
            let conv = *rng.pick(&['f', 'F', 'e', 'E', 'g', 'G', 'g', 'f']);
            let len = if rng.chance(10) { "l" } else { "" };
            format!(
                "%{}{}{}{}{}",
                flags(rng, &['-', '+', ' ', '0', '#']),
                width(rng, 22),
                precision(rng, 65, 17),
                len,
                conv
            )
        }
    }
}

/// A short piece of literal format text: plain characters, an escape, or `%%`.
pub fn literal_text(rng: &mut Rng) -> String {
    match rng.below(8) {
        0 => "%%".to_string(),
        1 => "\\t".to_string(),
        2 => " | ".to_string(),
        3 => "=".to_string(),
        4 => ", ".to_string(),
        5 => "[".to_string(),
        6 => "] ".to_string(),
        _ => " ".to_string(),
    }
}

/// A `%s` conversion and its string-literal argument.
pub fn string_conversion(rng: &mut Rng) -> (String, String) {
    let spec = format!(
        "%{}{}{}s",
        flags(rng, &['-']),
        width(rng, 12),
        precision(rng, 30, 6)
    );
    let arg = (*rng.pick(&[
        "\"\"",
        "\"abc\"",
        "\"hello world\"",
        "\"x\"",
        "\"tab\\there\"",
    ]))
    .to_string();
    (spec, arg)
}
