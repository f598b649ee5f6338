//! Source positions.
//!
//! A [`Span`] is a half-open range of byte offsets into the source text. Every token, AST node,
//! HIR node and diagnostic carries one. A [`LineIndex`] turns byte offsets into 1-based
//! `line:col` pairs (columns count bytes, as gcc's do for ASCII sources) by binary search over the
//! offsets where lines start.

use std::fmt;

/// A half-open byte range `start..end` of the source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// Offset of the first byte.
    pub start: u32,
    /// Offset one past the last byte (`start == end` for an empty span, e.g. end of input).
    pub end: u32,
}

impl Span {
    /// The span `start..end` (byte offsets; saturated to `u32::MAX`).
    pub fn new(start: usize, end: usize) -> Span {
        let clamp = |x: usize| u32::try_from(x).unwrap_or(u32::MAX);
        Span {
            start: clamp(start),
            end: clamp(end.max(start)),
        }
    }

    /// The smallest span covering both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// The byte range, for slicing the source.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }

    /// The length in bytes.
    pub fn len(self) -> u32 {
        self.end - self.start
    }

    /// True if the span covers no byte.
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// A 1-based line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    /// Line number, starting at 1.
    pub line: u32,
    /// Column number in bytes, starting at 1.
    pub col: u32,
}

impl fmt::Display for LineCol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// Maps byte offsets of one source text to line and column numbers.
#[derive(Clone, Debug)]
pub struct LineIndex {
    /// Byte offset at which each line starts; `line_starts[0] == 0`, strictly increasing.
    line_starts: Vec<u32>,
    /// Length of the source in bytes.
    len: u32,
}

impl LineIndex {
    /// Index the line starts of `source` (lines end at `\n`).
    pub fn new(source: &str) -> LineIndex {
        let mut line_starts = vec![0];
        line_starts.extend(
            source
                .bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| u32::try_from(i + 1).unwrap_or(u32::MAX)),
        );
        LineIndex {
            line_starts,
            len: u32::try_from(source.len()).unwrap_or(u32::MAX),
        }
    }

    /// The 1-based line and column of byte `offset` (offsets past the end map to the end).
    pub fn line_col(&self, offset: u32) -> LineCol {
        let offset = offset.min(self.len);
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        LineCol {
            line: line as u32 + 1,
            col: offset - self.line_starts[line] + 1,
        }
    }

    /// The 1-based line of byte `offset`.
    pub fn line(&self, offset: u32) -> u32 {
        self.line_col(offset).line
    }

    /// Number of lines (a final line without `\n` counts; an empty source has one line).
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_of_offsets() {
        let idx = LineIndex::new("ab\ncd\n\nx");
        let lc = |o| {
            let LineCol { line, col } = idx.line_col(o);
            (line, col)
        };
        assert_eq!(lc(0), (1, 1));
        assert_eq!(lc(1), (1, 2));
        assert_eq!(lc(2), (1, 3)); // the newline itself
        assert_eq!(lc(3), (2, 1));
        assert_eq!(lc(6), (3, 1));
        assert_eq!(lc(7), (4, 1));
        assert_eq!(lc(100), (4, 2)); // clamped to the end
        assert_eq!(idx.line_count(), 4);
    }

    #[test]
    fn span_join() {
        let a = Span::new(3, 5);
        let b = Span::new(1, 4);
        assert_eq!(a.to(b), Span::new(1, 5));
        assert_eq!(Span::new(5, 2), Span::new(5, 5));
    }
}
