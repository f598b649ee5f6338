//! The text form of a BL path-id stream, as the k-BLPP paper writes it (Example 3):
//! `* 6 2 0 0 2 2 0 0 2 2 0 0 2 3`. Tokens are separated by white space (and optionally
//! commas); a token is `*` (a routine entry) or a BL path id (a decimal `u64`). A stream that does
//! not start with `*` starts as if it did.

use crate::executor::StreamItem;
use std::fmt;

/// A bad token: where it is and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamError {
    /// 1-based position of the token in the stream.
    pub token: usize,
    /// 1-based line of the token.
    pub line: usize,
    /// 1-based column (in characters) of the token.
    pub column: usize,
    /// The token's text.
    pub text: String,
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "stream:{}:{}: token {} '{}' is neither `*` nor a BL path id (a decimal integer from 0 to {})",
            self.line,
            self.column,
            self.token,
            self.text,
            u64::MAX
        )
    }
}

impl std::error::Error for StreamError {}

/// Parses a stream; the first bad token is an error.
pub fn parse_stream(text: &str) -> Result<Vec<StreamItem>, StreamError> {
    let mut items = Vec::new();
    let mut token = 0;
    for (line_no, line) in text.lines().enumerate() {
        let mut chars = line.char_indices().peekable();
        let mut column = 0;
        while let Some(&(start, c)) = chars.peek() {
            if c.is_whitespace() || c == ',' {
                chars.next();
                column += 1;
                continue;
            }
            let start_column = column + 1;
            let mut end = line.len();
            while let Some(&(i, c)) = chars.peek() {
                if c.is_whitespace() || c == ',' {
                    end = i;
                    break;
                }
                chars.next();
                column += 1;
            }
            let word = &line[start..end];
            token += 1;
            let item = if word == "*" {
                Some(StreamItem::Invocation)
            } else if word.bytes().all(|b| b.is_ascii_digit()) {
                word.parse::<u64>().ok().map(StreamItem::Path)
            } else {
                None
            };
            match item {
                Some(item) => items.push(item),
                None => {
                    return Err(StreamError {
                        token,
                        line: line_no + 1,
                        column: start_column,
                        text: word.to_string(),
                    })
                }
            }
        }
    }
    Ok(items)
}

#[cfg(test)]
mod tests {
    use super::*;
    use StreamItem::{Invocation as Star, Path as P};

    #[test]
    fn parses_markers_ids_and_separators() {
        assert_eq!(
            parse_stream("* 6 2,0\n  *\t18446744073709551615").unwrap(),
            vec![Star, P(6), P(2), P(0), Star, P(u64::MAX)]
        );
        assert_eq!(parse_stream("  \n").unwrap(), vec![]);
    }

    #[test]
    fn bad_tokens_are_located() {
        let e = parse_stream("* 6 2x 0").unwrap_err();
        assert_eq!(
            (e.token, e.line, e.column, e.text.as_str()),
            (3, 1, 5, "2x")
        );
        let e = parse_stream("* 1\n 2 -3").unwrap_err();
        assert_eq!(
            (e.token, e.line, e.column, e.text.as_str()),
            (4, 2, 4, "-3")
        );
        let e = parse_stream("18446744073709551616").unwrap_err();
        assert_eq!((e.token, e.column), (1, 1));
        let e = parse_stream("* é 1").unwrap_err();
        assert_eq!((e.token, e.column, e.text.as_str()), (2, 3, "é"));
        assert!(e.to_string().starts_with("stream:1:3: token 2 'é'"));
        // `+5` and `**` are not tokens of the format either.
        assert_eq!(parse_stream("+5").unwrap_err().token, 1);
        assert_eq!(parse_stream("* **").unwrap_err().token, 2);
    }
}
