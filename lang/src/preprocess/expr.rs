//! `#if` expressions (C99 6.10.1): integer constant expressions evaluated in `intmax_t` or
//! `uintmax_t` (64 bits), after `defined` and macro expansion, every identifier left being 0.
//!
//! A value is unsigned if a `u`-suffixed (or too large for `intmax_t`) constant makes it so,
//! through the usual arithmetic conversions. Operands that are not evaluated (`0 && 1/0`, the
//! other arm of `?:`) may divide by zero.

use super::tokens::{Kind, Tok};

/// A value: 64 bits and a signedness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value {
    /// The bits.
    pub bits: u64,
    /// `uintmax_t` rather than `intmax_t`.
    pub unsigned: bool,
}

impl Value {
    fn signed(v: i64) -> Value {
        Value {
            bits: v as u64,
            unsigned: false,
        }
    }

    fn truth(b: bool) -> Value {
        Value::signed(i64::from(b))
    }

    fn is_true(self) -> bool {
        self.bits != 0
    }
}

/// An error: the token (index into the expression's tokens, or its end) and the message.
pub type ExprError = (Option<usize>, String);

/// Evaluate `toks` (already expanded; `defined` already replaced).
pub fn evaluate(toks: &[Tok]) -> Result<Value, ExprError> {
    if toks.is_empty() {
        return Err((None, "`#if` with no expression".into()));
    }
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
    };
    let v = p.comma(true)?;
    match p.toks.get(p.pos) {
        None => Ok(v),
        Some(t) => Err((
            Some(p.pos),
            format!("missing binary operator before `{}`", t.text),
        )),
    }
}

/// Recursive descent over the tokens; `live` is false in operands that are not evaluated.
struct Parser<'a> {
    toks: &'a [Tok],
    pos: usize,
    /// Nesting of parentheses and unary operators (bounded: the parser recurses).
    depth: u32,
}

/// Deepest nesting of parentheses and unary operators in a `#if` expression (C99 5.2.4.1
/// asks for 63 levels of parentheses).
const MAX_DEPTH: u32 = 64;

/// Binary operators by precedence level, loosest first (`?:` and `,` handled apart).
const LEVELS: &[&[&str]] = &[
    &["||"],
    &["&&"],
    &["|"],
    &["^"],
    &["&"],
    &["==", "!="],
    &["<", ">", "<=", ">="],
    &["<<", ">>"],
    &["+", "-"],
    &["*", "/", "%"],
];

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn eat(&mut self, p: &str) -> bool {
        if self.peek().is_some_and(|t| t.is(p)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn here(&self) -> Option<usize> {
        (self.pos < self.toks.len()).then_some(self.pos)
    }

    fn comma(&mut self, live: bool) -> Result<Value, ExprError> {
        let mut v = self.conditional(live)?;
        while self.eat(",") {
            v = self.conditional(live)?;
        }
        Ok(v)
    }

    fn conditional(&mut self, live: bool) -> Result<Value, ExprError> {
        let c = self.binary(0, live)?;
        if !self.eat("?") {
            return Ok(c);
        }
        let a = self.comma(live && c.is_true())?;
        if !self.eat(":") {
            return Err((self.here(), "expected `:` in `?:` expression".into()));
        }
        let b = self.conditional(live && !c.is_true())?;
        let unsigned = a.unsigned || b.unsigned;
        let v = if c.is_true() { a } else { b };
        Ok(Value { unsigned, ..v })
    }

    fn binary(&mut self, level: usize, live: bool) -> Result<Value, ExprError> {
        if level == LEVELS.len() {
            return self.unary(live);
        }
        let mut lhs = self.binary(level + 1, live)?;
        loop {
            let Some(op) = self
                .peek()
                .filter(|t| t.kind == Kind::Punct)
                .and_then(|t| LEVELS[level].iter().find(|o| **o == &*t.text))
                .copied()
            else {
                return Ok(lhs);
            };
            let at = self.pos;
            self.pos += 1;
            let rhs_live = match op {
                "&&" => live && lhs.is_true(),
                "||" => live && !lhs.is_true(),
                _ => live,
            };
            let rhs = self.binary(level + 1, rhs_live)?;
            lhs = apply(op, lhs, rhs, live).map_err(|m| (Some(at), m))?;
        }
    }

    fn unary(&mut self, live: bool) -> Result<Value, ExprError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err((self.here(), "`#if` expression nested too deeply".into()));
        }
        let v = self.unary_inner(live);
        self.depth -= 1;
        v
    }

    fn unary_inner(&mut self, live: bool) -> Result<Value, ExprError> {
        let toks = self.toks;
        let Some(t) = toks.get(self.pos) else {
            return Err((
                None,
                "expected a value at the end of the `#if` expression".into(),
            ));
        };
        let at = self.pos;
        match (t.kind, &*t.text) {
            (Kind::Punct, "(") => {
                self.pos += 1;
                let v = self.comma(live)?;
                if !self.eat(")") {
                    return Err((self.here(), "expected `)` in `#if` expression".into()));
                }
                Ok(v)
            }
            (Kind::Punct, op @ ("+" | "-" | "~" | "!")) => {
                self.pos += 1;
                let v = self.unary(live)?;
                Ok(match op {
                    "+" => v,
                    "-" => Value {
                        bits: v.bits.wrapping_neg(),
                        ..v
                    },
                    "~" => Value { bits: !v.bits, ..v },
                    _ => Value::truth(!v.is_true()),
                })
            }
            (Kind::Number, text) => {
                self.pos += 1;
                number(text).map_err(|m| (Some(at), m))
            }
            (Kind::Char, text) => {
                self.pos += 1;
                character(text).map_err(|m| (Some(at), m))
            }
            (Kind::Ident, _) => {
                self.pos += 1;
                Ok(Value::signed(0))
            }
            _ => Err((
                Some(at),
                format!("token `{}` is not valid in a `#if` expression", t.text),
            )),
        }
    }
}

/// `lhs op rhs` with the usual arithmetic conversions.
fn apply(op: &str, lhs: Value, rhs: Value, live: bool) -> Result<Value, String> {
    let unsigned = lhs.unsigned || rhs.unsigned;
    let (a, b) = (lhs.bits, rhs.bits);
    let (sa, sb) = (a as i64, b as i64);
    let arith = |bits: u64| Value { bits, unsigned };
    Ok(match op {
        "||" => Value::truth(lhs.is_true() || rhs.is_true()),
        "&&" => Value::truth(lhs.is_true() && rhs.is_true()),
        "|" => arith(a | b),
        "^" => arith(a ^ b),
        "&" => arith(a & b),
        "==" => Value::truth(a == b),
        "!=" => Value::truth(a != b),
        "<" | ">" | "<=" | ">=" => {
            let ord = if unsigned { a.cmp(&b) } else { sa.cmp(&sb) };
            Value::truth(match op {
                "<" => ord.is_lt(),
                ">" => ord.is_gt(),
                "<=" => ord.is_le(),
                _ => ord.is_ge(),
            })
        }
        // The result of a shift has the left operand's type.
        "<<" | ">>" => {
            let count = if rhs.unsigned && b > i64::MAX as u64 {
                i64::MAX
            } else {
                sb
            };
            let left = (op == "<<") == (count >= 0);
            let n = count.unsigned_abs();
            let bits = if left {
                if n >= 64 {
                    0
                } else {
                    a << n
                }
            } else if lhs.unsigned {
                if n >= 64 {
                    0
                } else {
                    a >> n
                }
            } else {
                (sa >> n.min(63)) as u64
            };
            Value {
                bits,
                unsigned: lhs.unsigned,
            }
        }
        "+" => arith(a.wrapping_add(b)),
        "-" => arith(a.wrapping_sub(b)),
        "*" => arith(a.wrapping_mul(b)),
        "/" | "%" => {
            if b == 0 {
                if live {
                    return Err("division by zero in `#if`".into());
                }
                return Ok(arith(0));
            }
            let bits = match (op, unsigned) {
                ("/", true) => a / b,
                ("%", true) => a % b,
                ("/", false) => sa.wrapping_div(sb) as u64,
                _ => sa.wrapping_rem(sb) as u64,
            };
            arith(bits)
        }
        _ => return Err(format!("unknown operator `{op}`")),
    })
}

/// An integer constant of a `#if` expression.
fn number(text: &str) -> Result<Value, String> {
    let lower = text.to_ascii_lowercase();
    let (digits, radix) = if let Some(h) = lower.strip_prefix("0x") {
        (h, 16)
    } else if lower.starts_with('0') {
        (&lower[..], 8)
    } else {
        (&lower[..], 10)
    };
    let end = digits
        .find(|c: char| !c.is_digit(radix))
        .unwrap_or(digits.len());
    let (body, suffix) = digits.split_at(end);
    let float = if radix == 16 {
        suffix.contains(['.', 'p'])
    } else {
        suffix.contains('.') || suffix.starts_with('e')
    };
    if float {
        return Err("floating constant in preprocessor expression".into());
    }
    let unsigned_suffix = match suffix {
        "" | "l" | "ll" => false,
        "u" | "ul" | "lu" | "ull" | "llu" => true,
        _ => return Err(format!("invalid integer constant `{text}` in `#if`")),
    };
    if body.is_empty() && radix == 16 {
        return Err(format!("invalid integer constant `{text}` in `#if`"));
    }
    let value = u64::from_str_radix(if body.is_empty() { "0" } else { body }, radix)
        .map_err(|_| format!("integer constant `{text}` is too large"))?;
    Ok(Value {
        bits: value,
        unsigned: unsigned_suffix || value > i64::MAX as u64,
    })
}

/// A character constant's value: one (signed) `char`, as gcc on x86-64.
fn character(text: &str) -> Result<Value, String> {
    let body = text
        .strip_prefix('\'')
        .and_then(|t| t.strip_suffix('\''))
        .ok_or_else(|| format!("invalid character constant {text}"))?;
    let mut diags = crate::diag::Diagnostics::new();
    let bytes = crate::lexer::unescape(body, 0, &mut diags);
    if !diags.is_empty() {
        let message = diags
            .iter()
            .next()
            .map_or(String::new(), |d| d.message.clone());
        return Err(message);
    }
    match bytes.as_slice() {
        [b] => Ok(Value::signed(i64::from(*b as i8))),
        [] => Err("empty character constant".into()),
        _ => Err("multi-character constants are not supported".into()),
    }
}
