//! Runtime errors ("traps") and how they are reported.
//!
//! A trap stops the program. The report names the location of the failing instruction and what
//! went wrong, then the stack of active calls, innermost first:
//! ```text
//! prog.c:7:14: runtime error: integer division by zero
//! stack trace (innermost first):
//!   div_all at prog.c:7:14
//!   main at prog.c:15:5
//! ```
//! Consecutive identical frames (deep recursion at one call site) are shown once, followed by
//! `(xN)`; a trace longer than 40 such lines shows its innermost and outermost frames.

use std::fmt;

use lang::bytecode::Loc;

/// The most stack-trace lines a report shows (after collapsing repeated frames).
const MAX_TRACE_LINES: usize = 40;

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrapKind {
    /// Integer `/` by zero.
    DivByZero,
    /// Integer `%` by zero.
    RemByZero,
    /// An array index outside `0 .. dim`.
    Index {
        /// The index (as a signed value).
        index: i64,
        /// The size of the dimension it indexes.
        dim: u32,
    },
    /// A shift count outside `0 .. bits`.
    Shift {
        /// The count (as a signed value).
        count: i64,
        /// Width of the shifted type.
        bits: u32,
    },
    /// A call would exceed the maximum call depth.
    Depth(u32),
    /// The program would execute more instructions than `--max-steps` allows (this many).
    Steps(u64),
    /// A call's local arrays and objects would not fit in the array stack of this many bytes.
    StackOverflow(u32),
    /// A memory access through a pointer that C leaves undefined (out of its object's bounds,
    /// null, dangling, misaligned): the checked memory's description of the fault.
    Memory(String),
    /// The run's memory (the program's and the profile's structures, [`crate::alloc_meter`])
    /// passed this many bytes, the `--max-memory` limit.
    MemoryLimit(u64),
    /// The process received this signal (SIGINT or SIGTERM, see [`crate::signals`]).
    Interrupted(i32),
    /// `assert(e)` found `e` to be 0: the message names the assertion and where it is. The
    /// exit status is glibc's after its `abort`, 134 (SIGABRT).
    Assertion(String),
    /// The program called `abort()`: exit status 134 (SIGABRT), as a native program's.
    Aborted,
    /// Not a trap: the loop stopped for the machine to finish an instruction's work outside
    /// it (a `free` while array parameters may refer to the block), and resumes at the next
    /// instruction. Never reported.
    Suspended,
    /// The VM failed: a profiler produced code that does not verify (a bug, never the
    /// program's fault).
    Internal(String),
}

impl TrapKind {
    /// The trap a pending stop ([`crate::signals::pending`]) becomes: an interrupt by the
    /// signal, or the memory limit.
    #[cold]
    pub fn of_pending(pending: i32) -> TrapKind {
        if pending == crate::signals::MEMORY_LIMIT_REACHED {
            TrapKind::MemoryLimit(crate::alloc_meter::limit())
        } else {
            TrapKind::Interrupted(pending)
        }
    }
}

impl fmt::Display for TrapKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrapKind::DivByZero => f.write_str("integer division by zero"),
            TrapKind::RemByZero => f.write_str("integer remainder by zero"),
            TrapKind::Index { index, dim } => write!(
                f,
                "array index {index} out of bounds for dimension of size {dim}"
            ),
            TrapKind::Shift { count, bits } => write!(
                f,
                "shift count {count} out of range for a {bits}-bit operand (must be 0..{})",
                bits - 1
            ),
            TrapKind::Depth(max) => write!(
                f,
                "call depth limit exceeded: more than {max} active calls (see --max-depth)"
            ),
            TrapKind::Memory(what) => f.write_str(what),
            TrapKind::Steps(max) => write!(
                f,
                "step limit reached: going on would execute more than {max} instructions \
                 (see --max-steps)"
            ),
            TrapKind::StackOverflow(size) => write!(
                f,
                "stack overflow: the local arrays and objects of the active calls need more than \
                 the stack's {size} bytes (see --stack-size)"
            ),
            TrapKind::MemoryLimit(max) => write!(
                f,
                "memory limit reached: the program's memory and the profile's structures take \
                 more than {max} bytes (see --max-memory)"
            ),
            TrapKind::Interrupted(signal) => write!(f, "interrupted by {}", signal_name(*signal)),
            TrapKind::Assertion(message) => f.write_str(message),
            TrapKind::Aborted => f.write_str("the program called abort()"),
            TrapKind::Internal(message) => write!(f, "internal error: {message}"),
            TrapKind::Suspended => f.write_str("suspended (the machine resumes the run)"),
        }
    }
}

/// One line of a stack trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceEntry {
    /// The function's name.
    pub function: String,
    /// The source file of its definition (empty: the program's file, as given to
    /// [`Trap::render`]).
    pub file: String,
    /// Where it is executing (for callers: the call).
    pub loc: Loc,
}

/// A runtime error with its stack trace (innermost frame first; never empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trap {
    /// What went wrong.
    pub kind: TrapKind,
    /// The active calls, innermost first.
    pub trace: Vec<TraceEntry>,
}

impl Trap {
    /// Renders the report for a program read from `file_name` (each frame is shown in its
    /// function's file, `file_name` if the frame does not name one).
    pub fn render(&self, file_name: &str) -> String {
        use fmt::Write;
        let file_of = |e: &TraceEntry| -> String {
            if e.file.is_empty() {
                file_name.to_string()
            } else {
                e.file.clone()
            }
        };
        let (file, loc) = self
            .trace
            .first()
            .map_or((file_name.to_string(), Loc::default()), |e| {
                (file_of(e), e.loc)
            });
        let mut s = format!("{file}:{loc}: runtime error: {}\n", self.kind);
        s.push_str("stack trace (innermost first):\n");
        // Runs of identical frames (deep recursion) are shown once with a count, and very
        // long traces keep their innermost and outermost frames.
        let mut runs: Vec<(&TraceEntry, usize)> = Vec::new();
        for e in &self.trace {
            match runs.last_mut() {
                Some((last, n)) if *last == e => *n += 1,
                _ => runs.push((e, 1)),
            }
        }
        let shown = |s: &mut String, (e, n): &(&TraceEntry, usize)| {
            let _ = write!(s, "  {} at {}:{}", e.function, file_of(e), e.loc);
            if *n > 1 {
                let _ = write!(s, " (x{n})");
            }
            s.push('\n');
        };
        if runs.len() <= MAX_TRACE_LINES {
            runs.iter().for_each(|r| shown(&mut s, r));
        } else {
            let tail = MAX_TRACE_LINES / 4;
            let head = MAX_TRACE_LINES - tail;
            runs[..head].iter().for_each(|r| shown(&mut s, r));
            let _ = writeln!(s, "  ... {} more frames ...", runs.len() - head - tail);
            runs[runs.len() - tail..]
                .iter()
                .for_each(|r| shown(&mut s, r));
        }
        s
    }
}

/// The conventional name of a signal number (`SIGINT`), or `signal N`.
pub fn signal_name(signal: i32) -> String {
    match signal {
        2 => "SIGINT".into(),
        15 => "SIGTERM".into(),
        n => format!("signal {n}"),
    }
}
