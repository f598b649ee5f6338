//! Traces (`--trace`, design note "Trace"): node names separated by blanks, `( ... )^N` repeats
//! a group (groups nest), `;` separates invocations. Example: `1 (2 3 5 2 4 5)^100 2 3 5 6`.
//!
//! A [`Trace`] is stored compactly, as written: a group is one item followed by its body, so
//! `(...)^100000` costs the size of its body, not of its expansion. [`Trace::steps`] expands it
//! lazily with a stack of group frames. [`walk`] follows the steps along a CFG, checking that
//! each invocation starts at the entry, only takes existing edges and ends at the exit; errors
//! name the step (1-based position in the expansion) and the invocation.

use crate::ball_larus::EdgeProfile;
use crate::cfg::{Block, Cfg, Edge};
use crate::cfg_text::is_name_char;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Item {
    Node(Block),
    Separator,
    /// A group whose body is the next `len` items, repeated `times` (>= 1) times.
    Group {
        len: u32,
        times: u64,
    },
}

/// A parsed trace. See the [module documentation](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    items: Vec<Item>,
}

/// A syntax error in a trace, at a 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceSyntaxError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TraceSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "trace {}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for TraceSyntaxError {}

/// One step of an expanded trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The next block.
    Node(Block),
    /// `;`: the end of an invocation.
    Separator,
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    /// Current group nesting depth (bounded by [`MAX_NESTING`]).
    depth: usize,
}

/// Groups may nest this deep (the parser recurses once per level).
pub const MAX_NESTING: usize = 256;

impl Parser<'_> {
    /// An error at byte `at`, which may be on an earlier line than the parser (an unclosed
    /// `(` reported at the end): its line and column are counted from the text.
    fn error(&self, at: usize, message: String) -> TraceSyntaxError {
        let before = &self.text[..at];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        TraceSyntaxError {
            line: before.matches('\n').count() + 1,
            column: before[line_start..].chars().count() + 1,
            message,
        }
    }

    fn skip_blanks(&mut self) {
        while let Some(c) = self.text[self.pos..].chars().next() {
            if !c.is_whitespace() {
                return;
            }
            self.pos += c.len_utf8();
        }
    }

    /// Parses items until `)` (when `nested`) or the end; appends them to `out`.
    fn items(
        &mut self,
        out: &mut Vec<Item>,
        nested: Option<usize>,
        resolve: &dyn Fn(&str) -> Option<Block>,
    ) -> Result<(), TraceSyntaxError> {
        loop {
            self.skip_blanks();
            let start = self.pos;
            let Some(c) = self.text[self.pos..].chars().next() else {
                return match nested {
                    Some(open) => Err(self.error(open, "unclosed '('".into())),
                    None => Ok(()),
                };
            };
            match c {
                ';' => {
                    self.pos += 1;
                    out.push(Item::Separator);
                }
                '(' => {
                    self.pos += 1;
                    let at = out.len();
                    out.push(Item::Group { len: 0, times: 0 });
                    if self.depth == MAX_NESTING {
                        return Err(
                            self.error(start, format!("groups nest deeper than {MAX_NESTING}"))
                        );
                    }
                    self.depth += 1;
                    self.items(out, Some(start), resolve)?;
                    self.depth -= 1;
                    // `)` consumed; now `^N`.
                    self.skip_blanks();
                    let caret = self.pos;
                    if !self.text[self.pos..].starts_with('^') {
                        return Err(self.error(caret, "expected '^N' after ')'".into()));
                    }
                    self.pos += 1;
                    let digits_start = self.pos;
                    while self.text[self.pos..].starts_with(|c: char| c.is_ascii_digit()) {
                        self.pos += 1;
                    }
                    let digits = &self.text[digits_start..self.pos];
                    let times: u64 = digits.parse().map_err(|_| {
                        self.error(
                            digits_start,
                            format!("expected a repeat count after '^', found '{}'", &digits),
                        )
                    })?;
                    let len = out.len() - at - 1;
                    if times == 0 || len == 0 {
                        out.truncate(at);
                    } else {
                        let len = u32::try_from(len)
                            .map_err(|_| self.error(start, "group too large".into()))?;
                        out[at] = Item::Group { len, times };
                    }
                }
                ')' => {
                    self.pos += 1;
                    return match nested {
                        Some(_) => Ok(()),
                        None => Err(self.error(start, "')' without '('".into())),
                    };
                }
                c if is_name_char(c) => {
                    while self.text[self.pos..].starts_with(is_name_char) {
                        self.pos += self.text[self.pos..]
                            .chars()
                            .next()
                            .map_or(1, char::len_utf8);
                    }
                    let name = &self.text[start..self.pos];
                    let b = resolve(name)
                        .ok_or_else(|| self.error(start, format!("unknown node '{name}'")))?;
                    out.push(Item::Node(b));
                }
                c => return Err(self.error(start, format!("unexpected character '{c}'"))),
            }
        }
    }
}

impl Trace {
    /// Parses `text`, naming blocks with `resolve` (e.g. [`crate::cfg_text::ParsedCfg::block`]).
    pub fn parse(
        text: &str,
        resolve: &dyn Fn(&str) -> Option<Block>,
    ) -> Result<Trace, TraceSyntaxError> {
        let mut p = Parser {
            text,
            pos: 0,
            depth: 0,
        };
        let mut items = Vec::new();
        p.items(&mut items, None, resolve)?;
        Ok(Trace { items })
    }

    /// A trace of the given invocations, each a sequence of blocks (for generated traces).
    pub fn from_invocations<'a>(invocations: impl IntoIterator<Item = &'a [Block]>) -> Trace {
        let mut items = Vec::new();
        for (i, inv) in invocations.into_iter().enumerate() {
            if i > 0 {
                items.push(Item::Separator);
            }
            items.extend(inv.iter().map(|&b| Item::Node(b)));
        }
        Trace { items }
    }

    /// The expanded steps, lazily.
    pub fn steps(&self) -> Steps<'_> {
        Steps {
            items: &self.items,
            stack: vec![Frame {
                start: 0,
                end: self.items.len(),
                pos: 0,
                remaining: 1,
            }],
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Frame {
    start: usize,
    end: usize,
    pos: usize,
    remaining: u64,
}

/// Lazy expansion of a [`Trace`]; memory is proportional to the nesting depth.
#[derive(Clone, Debug)]
pub struct Steps<'a> {
    items: &'a [Item],
    stack: Vec<Frame>,
}

impl Iterator for Steps<'_> {
    type Item = Step;

    fn next(&mut self) -> Option<Step> {
        loop {
            let top = self.stack.last_mut()?;
            if top.pos == top.end {
                if top.remaining > 1 {
                    top.remaining -= 1;
                    top.pos = top.start;
                } else {
                    self.stack.pop();
                }
                continue;
            }
            let item = self.items[top.pos];
            match item {
                Item::Node(b) => {
                    top.pos += 1;
                    return Some(Step::Node(b));
                }
                Item::Separator => {
                    top.pos += 1;
                    return Some(Step::Separator);
                }
                Item::Group { len, times } => {
                    let start = top.pos + 1;
                    let end = start + len as usize;
                    top.pos = end;
                    self.stack.push(Frame {
                        start,
                        end,
                        pos: start,
                        remaining: times,
                    });
                }
            }
        }
    }
}

/// A trace that does not follow the CFG.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceError {
    /// An invocation does not start at the entry.
    NotAtEntry {
        /// 1-based invocation number.
        invocation: u64,
        /// 1-based step number.
        step: u64,
        /// The first block of the invocation.
        block: Block,
    },
    /// A step along an edge the CFG lacks.
    NoEdge {
        /// 1-based step number (of the `to` block).
        step: u64,
        /// The previous block.
        from: Block,
        /// The block of this step.
        to: Block,
    },
    /// An invocation ends elsewhere than at the exit.
    NotAtExit {
        /// 1-based invocation number.
        invocation: u64,
        /// Its last block.
        block: Block,
    },
}

impl TraceError {
    /// The message, with blocks named by `name`.
    pub fn render(&self, name: &dyn Fn(Block) -> String) -> String {
        match self {
            TraceError::NotAtEntry {
                invocation,
                step,
                block,
            } => {
                format!(
                    "trace step {step}: invocation {invocation} starts at {}, not at the entry",
                    name(*block)
                )
            }
            TraceError::NoEdge { step, from, to } => {
                format!(
                    "trace step {step}: there is no edge {} -> {}",
                    name(*from),
                    name(*to)
                )
            }
            TraceError::NotAtExit { invocation, block } => {
                format!(
                    "trace: invocation {invocation} ends at {}, not at the exit",
                    name(*block)
                )
            }
        }
    }
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(&|b: Block| b.to_string()))
    }
}

impl std::error::Error for TraceError {}

/// What happens along a trace, as [`walk`] reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WalkEvent {
    /// An invocation starts (at the entry).
    Enter,
    /// The edge is taken, arriving at the block.
    Edge(Edge, Block),
    /// The invocation reaches its end at the exit.
    Exit,
}

/// Follows `trace` along `cfg`, calling `on` for each event; stops at the first error.
/// Empty invocations (nothing between two `;`, or a trailing `;`) are skipped.
pub fn walk(cfg: &Cfg, trace: &Trace, mut on: impl FnMut(WalkEvent)) -> Result<(), TraceError> {
    let mut current: Option<Block> = None;
    let mut invocation = 0u64;
    let mut step = 0u64;
    let finish =
        |current: Option<Block>, invocation: u64, on: &mut dyn FnMut(WalkEvent)| match current {
            Some(c) if c != cfg.exit() => Err(TraceError::NotAtExit {
                invocation,
                block: c,
            }),
            Some(_) => {
                on(WalkEvent::Exit);
                Ok(())
            }
            None => Ok(()),
        };
    for s in trace.steps() {
        match s {
            Step::Node(b) => {
                step += 1;
                match current {
                    None => {
                        invocation += 1;
                        if b != cfg.entry() {
                            return Err(TraceError::NotAtEntry {
                                invocation,
                                step,
                                block: b,
                            });
                        }
                        on(WalkEvent::Enter);
                    }
                    Some(c) => {
                        let e = cfg.find_edge(c, b).ok_or(TraceError::NoEdge {
                            step,
                            from: c,
                            to: b,
                        })?;
                        on(WalkEvent::Edge(e, b));
                    }
                }
                current = Some(b);
            }
            Step::Separator => {
                finish(current, invocation, &mut on)?;
                current = None;
            }
        }
    }
    finish(current, invocation, &mut on)
}

/// The edge counts along `trace` (for smart numbering and event-counting weights).
pub fn edge_profile(cfg: &Cfg, trace: &Trace) -> Result<EdgeProfile, TraceError> {
    let mut prof = EdgeProfile::zeros(cfg);
    walk(cfg, trace, |ev| {
        if let WalkEvent::Edge(e, _) = ev {
            prof.edges[e] += 1;
        }
    })?;
    Ok(prof)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg_text::parse_cfg;

    const FIG1: &str = "entry 1\nexit 6\n1 -> 2\n2 -> 3 4\n3 -> 5\n4 -> 5 6\n5 -> 2 6\n";

    fn names(p: &crate::cfg_text::ParsedCfg, t: &Trace) -> String {
        t.steps()
            .map(|s| match s {
                Step::Node(b) => p.name(b).to_string(),
                Step::Separator => ";".into(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn groups_expand_lazily_and_nest() {
        let p = parse_cfg(FIG1).unwrap();
        let t = Trace::parse("1 ((2 3 5)^2 2 4 5)^2 2 4 6 ; 1 2 4 6", &|n| p.block(n)).unwrap();
        assert_eq!(
            names(&p, &t),
            "1 2 3 5 2 3 5 2 4 5 2 3 5 2 3 5 2 4 5 2 4 6 ; 1 2 4 6"
        );
        let big = Trace::parse("1 (2 3 5)^100000 2 4 6", &|n| p.block(n)).unwrap();
        assert_eq!(big.items.len(), 8);
        assert_eq!(big.steps().count(), 300_004);
        let empty = Trace::parse("1 (()^5)^1000000000000 2 4 6", &|n| p.block(n)).unwrap();
        assert_eq!(names(&p, &empty), "1 2 4 6");
    }

    #[test]
    fn syntax_errors_have_positions() {
        let p = parse_cfg(FIG1).unwrap();
        let err = |s: &str| Trace::parse(s, &|n| p.block(n)).unwrap_err().to_string();
        assert_eq!(err("1 2 7"), "trace 1:5: unknown node '7'");
        assert_eq!(err("1 (2 3"), "trace 1:3: unclosed '('");
        // Reported where the group opened, lines before the end (found by fuzzing: the
        // column was counted from the last line's start).
        assert_eq!(err("1\n (2\n 3\n"), "trace 2:2: unclosed '('");
        assert_eq!(err("1 (2\n\n 3) x"), "trace 3:5: expected '^N' after ')'");
        assert_eq!(err("1 (2 3)"), "trace 1:8: expected '^N' after ')'");
        assert_eq!(
            err("1 (2)^x"),
            "trace 1:7: expected a repeat count after '^', found ''"
        );
        assert_eq!(err("1 2)"), "trace 1:4: ')' without '('");
        assert_eq!(err("1\n2 $"), "trace 2:3: unexpected character '$'");
        let deep = "(".repeat(100_000);
        assert_eq!(err(&deep), "trace 1:257: groups nest deeper than 256");
    }

    #[test]
    fn walking_checks_the_cfg() {
        let p = parse_cfg(FIG1).unwrap();
        let run = |s: &str| {
            let t = Trace::parse(s, &|n| p.block(n)).unwrap();
            walk(&p.cfg, &t, |_| {}).map_err(|e| e.render(&|b| p.name(b).to_string()))
        };
        assert_eq!(run("1 2 4 6 ; 1 2 3 5 6 ;"), Ok(()));
        assert_eq!(
            run("1 2 4 6 ; 2 4 6").unwrap_err(),
            "trace step 5: invocation 2 starts at 2, not at the entry"
        );
        assert_eq!(
            run("1 (2 3 5)^3 4 6").unwrap_err(),
            "trace step 11: there is no edge 5 -> 4"
        );
        assert_eq!(
            run("1 2 4 ; 1 2 4 6").unwrap_err(),
            "trace: invocation 1 ends at 4, not at the exit"
        );
        assert_eq!(
            run("1 2 4 6 2").unwrap_err(),
            "trace step 5: there is no edge 6 -> 2"
        );
        let t = Trace::parse("1 (2 3 5)^10 2 4 6", &|n| p.block(n)).unwrap();
        let prof = edge_profile(&p.cfg, &t).unwrap();
        let e52 = p
            .cfg
            .find_edge(p.block("5").unwrap(), p.block("2").unwrap())
            .unwrap();
        assert_eq!(prof.edges[e52], 10);
    }
}
