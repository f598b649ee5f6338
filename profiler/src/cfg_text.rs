//! The textual CFG format (`*.cfg`, design note `cfg-format.md`):
//!
//! ```text
//! # Roy & Srikant 2009, Figure 1
//! entry 1
//! exit 6
//! 1 -> 2
//! 2 -> 3 4        # successors in order
//! 3 -> 5
//! 4 -> 5 6
//! 5 -> 2 6
//! ```
//!
//! Node names are made of letters, digits, `_`, `.` and `'`; `#` starts a comment. Blocks are
//! numbered in the order their names first appear. Every problem is reported with its line (and
//! column for syntax errors), all of them at once, never by panicking: syntax errors, a missing
//! or repeated `entry`/`exit` line, an `entry`/`exit` naming a node that appears on no edge line,
//! a node with two edge lines, a duplicate edge, an edge into the entry, an edge out of the exit,
//! a node unreachable from the entry, and a node that cannot reach the exit.

use crate::cfg::{Block, Cfg, CfgBuilder};
use crate::index::IndexVec;
use std::collections::HashMap;
use std::fmt;

/// A parsed `.cfg` file: the graph and the names of its blocks.
#[derive(Clone, Debug)]
pub struct ParsedCfg {
    /// The graph.
    pub cfg: Cfg,
    names: IndexVec<Block, String>,
    by_name: HashMap<String, Block>,
}

impl ParsedCfg {
    /// The file's name for block `b`.
    pub fn name(&self, b: Block) -> &str {
        &self.names[b]
    }

    /// The block named `name`, if any.
    pub fn block(&self, name: &str) -> Option<Block> {
        self.by_name.get(name).copied()
    }

    /// All names, indexed by block.
    pub fn names(&self) -> &IndexVec<Block, String> {
        &self.names
    }
}

/// One problem in a `.cfg` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CfgTextError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, when the problem is at a precise place on the line.
    pub column: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for CfgTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(c) => write!(f, "{}:{}: {}", self.line, c, self.message),
            None => write!(f, "{}: {}", self.line, self.message),
        }
    }
}

/// All the problems found in a `.cfg` file, in line order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CfgTextErrors(pub Vec<CfgTextError>);

impl CfgTextErrors {
    /// One `file:line[:col]: message` line per problem.
    pub fn render(&self, file: &str) -> String {
        self.0.iter().map(|e| format!("{file}:{e}\n")).collect()
    }
}

impl fmt::Display for CfgTextErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "line {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for CfgTextErrors {}

/// Whether `c` may appear in a node name.
pub fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '.' || c == '\''
}

#[derive(Debug, PartialEq)]
enum Token<'a> {
    Name(&'a str),
    Arrow,
}

/// Splits one line (comment already removed) into tokens with their 1-based columns.
fn tokenize(line: &str, line_no: usize) -> Result<Vec<(usize, Token<'_>)>, CfgTextError> {
    let mut tokens = Vec::new();
    let mut chars = line.char_indices().peekable();
    while let Some(&(i, c)) = chars.peek() {
        let column = line[..i].chars().count() + 1;
        if c.is_whitespace() {
            chars.next();
        } else if line[i..].starts_with("->") {
            chars.next();
            chars.next();
            tokens.push((column, Token::Arrow));
        } else if is_name_char(c) {
            let mut end = i;
            while let Some(&(j, d)) = chars.peek() {
                if !is_name_char(d) {
                    break;
                }
                end = j + d.len_utf8();
                chars.next();
            }
            tokens.push((column, Token::Name(&line[i..end])));
        } else {
            return Err(CfgTextError {
                line: line_no,
                column: Some(column),
                message: format!(
                    "unexpected character '{c}' (node names use letters, digits, _ . ')"
                ),
            });
        }
    }
    Ok(tokens)
}

/// Parses a `.cfg` file. See the [module documentation](self) for the format and the errors.
pub fn parse_cfg(text: &str) -> Result<ParsedCfg, CfgTextErrors> {
    let mut errors = Vec::new();
    let mut names: IndexVec<Block, String> = IndexVec::new();
    let mut by_name: HashMap<String, Block> = HashMap::new();
    let mut first_line: IndexVec<Block, usize> = IndexVec::new();
    let mut intern = |name: &str, line: usize, names: &mut IndexVec<Block, String>| -> Block {
        if let Some(&b) = by_name.get(name) {
            return b;
        }
        let b = names.push(name.to_string());
        first_line.push(line);
        by_name.insert(name.to_string(), b);
        b
    };
    let mut entry: Option<(Block, usize)> = None;
    let mut exit: Option<(Block, usize)> = None;
    // (line, source, successors)
    let mut edge_lines: Vec<(usize, Block, Vec<Block>)> = Vec::new();
    let mut on_edge_line: Vec<bool> = Vec::new();

    for (idx, raw) in text.lines().enumerate() {
        let line_no = idx + 1;
        let line = raw.split('#').next().unwrap_or("");
        let tokens = match tokenize(line, line_no) {
            Ok(t) => t,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        let err = |column: usize, message: String| CfgTextError {
            line: line_no,
            column: Some(column),
            message,
        };
        match tokens.as_slice() {
            [] => {}
            [(_, Token::Name(src)), (_, Token::Arrow), rest @ ..] => {
                let src_block = intern(src, line_no, &mut names);
                let mut succs = Vec::new();
                for (col, t) in rest {
                    match t {
                        Token::Name(n) => {
                            let s = intern(n, line_no, &mut names);
                            if succs.contains(&s) {
                                errors.push(err(*col, format!("duplicate edge {src} -> {n}")));
                            } else {
                                succs.push(s);
                            }
                        }
                        Token::Arrow => {
                            errors.push(err(*col, "unexpected '->' among successors".into()))
                        }
                    }
                }
                edge_lines.push((line_no, src_block, succs));
            }
            [(_, Token::Name(kw)), (_, Token::Name(n))] if *kw == "entry" || *kw == "exit" => {
                let b = intern(n, line_no, &mut names);
                let slot = if *kw == "entry" {
                    &mut entry
                } else {
                    &mut exit
                };
                match slot {
                    Some((_, prev)) => errors.push(CfgTextError {
                        line: line_no,
                        column: Some(1),
                        message: format!("second '{kw}' line (the first is on line {prev})"),
                    }),
                    None => *slot = Some((b, line_no)),
                }
            }
            [(_, Token::Name(kw)), ..] if *kw == "entry" || *kw == "exit" => {
                errors.push(err(1, format!("expected '{kw} NAME'")));
            }
            [(col, _), ..] => {
                errors.push(err(
                    *col,
                    "expected 'entry NAME', 'exit NAME' or 'NAME -> SUCCESSORS...'".into(),
                ));
            }
        }
    }

    // Graph-level checks on a file with syntax errors would only add noise.
    if !errors.is_empty() {
        return Err(finish_errors(errors));
    }
    let n = names.len();
    on_edge_line.resize(n, false);
    let mut line_of_edges: Vec<Option<usize>> = vec![None; n];
    let mut succs: Vec<Vec<Block>> = vec![Vec::new(); n];
    for (line, src, ss) in &edge_lines {
        on_edge_line[src.index()] = true;
        for s in ss {
            on_edge_line[s.index()] = true;
        }
        if let Some(prev) = line_of_edges[src.index()] {
            errors.push(CfgTextError {
                line: *line,
                column: None,
                message: format!(
                    "second edge line for node {} (the first is on line {prev})",
                    names[*src]
                ),
            });
        } else {
            line_of_edges[src.index()] = Some(*line);
            succs[src.index()] = ss.clone();
        }
    }
    let (entry, exit) = match (entry, exit) {
        (Some(en), Some(ex)) => (en, ex),
        (en, ex) => {
            let last = text.lines().count().max(1);
            if en.is_none() {
                errors.push(CfgTextError {
                    line: last,
                    column: None,
                    message: "missing 'entry NAME' line".into(),
                });
            }
            if ex.is_none() {
                errors.push(CfgTextError {
                    line: last,
                    column: None,
                    message: "missing 'exit NAME' line".into(),
                });
            }
            return Err(finish_errors(errors));
        }
    };
    let single_node = edge_lines.is_empty() && entry.0 == exit.0;
    for (kw, (b, line)) in [("entry", entry), ("exit", exit)] {
        if !single_node && !on_edge_line[b.index()] {
            errors.push(CfgTextError {
                line,
                column: None,
                message: format!(
                    "unknown node {} ({kw} names a node that appears on no edge line)",
                    names[b]
                ),
            });
        }
    }
    for (line, src, ss) in &edge_lines {
        if *src == exit.0 && !ss.is_empty() {
            errors.push(CfgTextError {
                line: *line,
                column: None,
                message: format!("the exit node {} has successors", names[*src]),
            });
        }
        if ss.contains(&entry.0) {
            errors.push(CfgTextError {
                line: *line,
                column: None,
                message: format!(
                    "edge {} -> {} enters the entry node",
                    names[*src], names[entry.0]
                ),
            });
        }
    }
    if !errors.is_empty() {
        return Err(finish_errors(errors));
    }

    // Reachability, both ways.
    let mut preds: Vec<Vec<Block>> = vec![Vec::new(); n];
    for (i, ss) in succs.iter().enumerate() {
        for s in ss {
            preds[s.index()].push(Block::new(i));
        }
    }
    let forward = reach(n, entry.0, &succs);
    let backward = reach(n, exit.0, &preds);
    let where_is = |b: Block| line_of_edges[b.index()].unwrap_or(first_line[b]);
    for b in names.indices() {
        if !forward[b.index()] {
            errors.push(CfgTextError {
                line: where_is(b),
                column: None,
                message: format!(
                    "node {} is unreachable from the entry {}",
                    names[b], names[entry.0]
                ),
            });
        } else if !backward[b.index()] {
            errors.push(CfgTextError {
                line: where_is(b),
                column: None,
                message: format!("node {} cannot reach the exit {}", names[b], names[exit.0]),
            });
        }
    }
    if !errors.is_empty() {
        return Err(finish_errors(errors));
    }

    let mut builder = CfgBuilder::new();
    builder.add_blocks(n);
    for (i, ss) in succs.iter().enumerate() {
        for &s in ss {
            builder.add_edge(Block::new(i), s);
        }
    }
    match builder.finish(entry.0, exit.0) {
        Ok(cfg) => Ok(ParsedCfg {
            cfg,
            names,
            by_name,
        }),
        // Every invariant of `CfgBuilder::finish` was checked above with a line number; this is
        // kept so that a future invariant cannot turn into a panic.
        Err(e) => Err(CfgTextErrors(vec![CfgTextError {
            line: entry.1,
            column: None,
            message: e.to_string(),
        }])),
    }
}

fn reach(n: usize, start: Block, next: &[Vec<Block>]) -> Vec<bool> {
    let mut seen = vec![false; n];
    seen[start.index()] = true;
    let mut stack = vec![start];
    while let Some(b) = stack.pop() {
        for &s in &next[b.index()] {
            if !seen[s.index()] {
                seen[s.index()] = true;
                stack.push(s);
            }
        }
    }
    seen
}

fn finish_errors(mut errors: Vec<CfgTextError>) -> CfgTextErrors {
    errors.sort_by_key(|e| (e.line, e.column));
    CfgTextErrors(errors)
}

/// Writes a graph in the `.cfg` format, naming blocks with `name` (used by the generators to
/// save a failing case, and by tests).
pub fn write_cfg(cfg: &Cfg, name: impl Fn(Block) -> String) -> String {
    let mut out = format!("entry {}\nexit {}\n", name(cfg.entry()), name(cfg.exit()));
    for b in cfg.blocks() {
        if cfg.out_degree(b) > 0 {
            out.push_str(&name(b));
            out.push_str(" ->");
            for &s in cfg.successors(b) {
                out.push(' ');
                out.push_str(&name(s));
            }
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(text: &str) -> Vec<String> {
        parse_cfg(text)
            .unwrap_err()
            .0
            .iter()
            .map(|e| e.to_string())
            .collect()
    }

    #[test]
    fn parses_figure_1_with_names_in_order_of_appearance() {
        let p =
            parse_cfg("# fig 1\nentry 1\nexit 6\n1 -> 2\n2 -> 3 4\n3 -> 5\n4 -> 5 6\n5 -> 2 6\n")
                .unwrap();
        assert_eq!(p.cfg.num_blocks(), 6);
        assert_eq!(p.cfg.num_edges(), 8);
        assert_eq!(p.name(p.cfg.entry()), "1");
        assert_eq!(p.name(p.cfg.exit()), "6");
        let two = p.block("2").unwrap();
        let succ: Vec<_> = p.cfg.successors(two).iter().map(|&s| p.name(s)).collect();
        assert_eq!(succ, vec!["3", "4"]);
    }

    #[test]
    fn single_node_graph() {
        let p = parse_cfg("entry a\nexit a\n").unwrap();
        assert_eq!(p.cfg.num_blocks(), 1);
    }

    #[test]
    fn every_listed_error_has_its_line() {
        assert_eq!(
            errors("entry a\nexit b\na -> b c\n"),
            vec!["3: node c cannot reach the exit b"]
        );
        assert_eq!(
            errors("entry a\nexit b\na -> b\nc -> b\n"),
            vec!["4: node c is unreachable from the entry a"]
        );
        assert_eq!(
            errors("entry a\nexit b\na -> b b\n"),
            vec!["3:8: duplicate edge a -> b"]
        );
        assert_eq!(
            errors("entry a\nexit b\na -> b\na -> b\n"),
            vec!["4: second edge line for node a (the first is on line 3)"]
        );
        assert_eq!(
            errors("entry a\nexit b\na -> c\nc -> a b\n"),
            vec!["4: edge c -> a enters the entry node"]
        );
        assert_eq!(errors("entry a\nexit b\na -> b\nb -> a\n").len(), 2);
        assert_eq!(
            errors("entry a\nexit z\na -> b\n"),
            vec!["2: unknown node z (exit names a node that appears on no edge line)"]
        );
        assert_eq!(
            errors("entry a\na -> b\n"),
            vec!["2: missing 'exit NAME' line"]
        );
        assert_eq!(
            errors("entry a\nentry b\nexit b\na -> b\n"),
            vec!["2:1: second 'entry' line (the first is on line 1)"]
        );
        assert_eq!(
            errors("entry a\nexit b\na -> b $\n"),
            vec!["3:8: unexpected character '$' (node names use letters, digits, _ . ')"]
        );
        assert_eq!(
            errors("entry a\nexit b\na b\n"),
            vec!["3:1: expected 'entry NAME', 'exit NAME' or 'NAME -> SUCCESSORS...'"]
        );
    }

    #[test]
    fn write_then_parse_round_trips() {
        let text = "entry 1\nexit 6\n1 -> 2\n2 -> 3 4\n3 -> 5\n4 -> 5 6\n5 -> 2 6\n";
        let p = parse_cfg(text).unwrap();
        assert_eq!(write_cfg(&p.cfg, |b| p.name(b).to_string()), text);
    }
}
