//! The observable result of running a program, and a readable comparison of two results.

use std::fmt::Write as _;

/// What a run of a program produced: its stdout bytes and its exit status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Everything the program wrote to stdout.
    pub stdout: Vec<u8>,
    /// The exit status (0..=255 for a normal exit; minus the signal number if the reference
    /// build was killed by a signal; -1 if the VM run panicked or timed out).
    pub status: i32,
    /// Diagnostics or error text (not compared; shown in reports).
    pub stderr: String,
}

impl Outcome {
    /// Compares `self` (the reference, from gcc) with `actual` (from the VM). Returns `None`
    /// when stdout bytes and exit status are equal, else a multi-line report naming the first
    /// differing line of output (with both versions) and the two statuses.
    pub fn compare(&self, actual: &Outcome) -> Option<String> {
        if self.stdout == actual.stdout && self.status == actual.status {
            return None;
        }
        let mut report = String::new();
        if self.status != actual.status {
            let _ = writeln!(
                report,
                "  exit status: gcc {} vs vm {}",
                self.status, actual.status
            );
        }
        if self.stdout != actual.stdout {
            let _ = writeln!(report, "{}", first_difference(&self.stdout, &actual.stdout));
        }
        if !actual.stderr.is_empty() {
            let shown: String = actual
                .stderr
                .lines()
                .take(12)
                .collect::<Vec<_>>()
                .join("\n    ");
            let _ = writeln!(report, "  vm stderr:\n    {shown}");
        }
        Some(report)
    }
}

/// Describes where two outputs first differ: the line number, both lines (escaped), and the
/// line counts.
pub fn first_difference(expected: &[u8], actual: &[u8]) -> String {
    let exp: Vec<&[u8]> = expected.split_inclusive(|&b| b == b'\n').collect();
    let act: Vec<&[u8]> = actual.split_inclusive(|&b| b == b'\n').collect();
    let n = exp.len().max(act.len());
    for i in 0..n {
        let e = exp.get(i);
        let a = act.get(i);
        if e != a {
            return format!(
                "  stdout differs at line {} (gcc {} lines, {} bytes; vm {} lines, {} bytes)\n    gcc: {}\n    vm:  {}",
                i + 1,
                exp.len(),
                expected.len(),
                act.len(),
                actual.len(),
                e.map_or("<end of output>".to_string(), |l| escape(l)),
                a.map_or("<end of output>".to_string(), |l| escape(l)),
            );
        }
    }
    "  stdout identical".to_string()
}

/// Renders bytes as a quoted string with non-printable bytes escaped, cut after 200 bytes.
pub fn escape(bytes: &[u8]) -> String {
    let mut s = String::from("\"");
    for &b in bytes.iter().take(200) {
        match b {
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            0x20..=0x7e => s.push(b as char),
            _ => {
                let _ = write!(s, "\\x{b:02x}");
            }
        }
    }
    s.push('"');
    if bytes.len() > 200 {
        s.push_str("...");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(stdout: &str, status: i32) -> Outcome {
        Outcome {
            stdout: stdout.as_bytes().to_vec(),
            status,
            stderr: String::new(),
        }
    }

    #[test]
    fn equal_outcomes_compare_equal() {
        assert_eq!(outcome("a\nb\n", 3).compare(&outcome("a\nb\n", 3)), None);
    }

    #[test]
    fn reports_first_differing_line_and_status() {
        let r = outcome("a\nb\nc\n", 0)
            .compare(&outcome("a\nB\nc\n", 1))
            .unwrap();
        assert!(r.contains("exit status: gcc 0 vs vm 1"), "{r}");
        assert!(r.contains("line 2"), "{r}");
        assert!(r.contains("gcc: \"b\\n\""), "{r}");
        assert!(r.contains("vm:  \"B\\n\""), "{r}");
    }

    #[test]
    fn reports_missing_output() {
        let r = outcome("a\nb\n", 0).compare(&outcome("a\n", 0)).unwrap();
        assert!(r.contains("line 2") && r.contains("<end of output>"), "{r}");
    }

    #[test]
    fn escapes_control_bytes() {
        assert_eq!(escape(b"a\x01\xff\n"), "\"a\\x01\\xff\\n\"");
    }
}
