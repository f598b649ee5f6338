//! A profiler must not change what the program does: every run's stdout and exit status are
//! compared with those of the program's first `none` run, and a difference is described in one
//! line (where the outputs part, or the two statuses).

/// What the reference run (the first `none` run) printed and how it exited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    /// Its stdout bytes.
    pub stdout: Vec<u8>,
    /// Its exit status.
    pub status: i32,
}

/// How a run differs from the reference, in one line; `None` if it does not.
pub fn difference(reference: &Reference, stdout: &[u8], status: i32) -> Option<String> {
    let mut parts = Vec::new();
    if status != reference.status {
        parts.push(format!(
            "exit status {status} where none's is {}",
            reference.status
        ));
    }
    if stdout != reference.stdout.as_slice() {
        parts.push(output_difference(&reference.stdout, stdout));
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// Where `actual` departs from `expected`: the first differing line, both versions shown.
fn output_difference(expected: &[u8], actual: &[u8]) -> String {
    let expected_lines: Vec<&[u8]> = expected.split_inclusive(|&b| b == b'\n').collect();
    let actual_lines: Vec<&[u8]> = actual.split_inclusive(|&b| b == b'\n').collect();
    for (i, (e, a)) in expected_lines.iter().zip(&actual_lines).enumerate() {
        if e != a {
            return format!(
                "stdout differs from none's at line {}: {} where none printed {}",
                i + 1,
                quote(a),
                quote(e)
            );
        }
    }
    let common = expected_lines.len().min(actual_lines.len());
    if actual_lines.len() < expected_lines.len() {
        format!(
            "stdout stops after {common} lines where none's goes on with {}",
            quote(expected_lines[common])
        )
    } else {
        format!(
            "stdout goes on after none's {common} lines with {}",
            quote(actual_lines[common])
        )
    }
}

/// A line as shown in a message: quoted, escaped, at most 60 characters.
fn quote(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line);
    let mut shown: String = text.chars().take(60).collect();
    if text.chars().count() > 60 {
        shown.push_str("...");
    }
    format!("{shown:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference() -> Reference {
        Reference {
            stdout: b"sum 10\nmax 4\nok\n".to_vec(),
            status: 0,
        }
    }

    #[test]
    fn the_same_run_does_not_differ() {
        assert_eq!(difference(&reference(), b"sum 10\nmax 4\nok\n", 0), None);
    }

    #[test]
    fn a_changed_line_is_named_with_both_versions() {
        let d = difference(&reference(), b"sum 10\nmax 5\nok\n", 0).unwrap();
        assert_eq!(
            d,
            r#"stdout differs from none's at line 2: "max 5\n" where none printed "max 4\n""#
        );
    }

    #[test]
    fn a_changed_status_and_a_cut_output_are_both_reported() {
        let d = difference(&reference(), b"sum 10\n", 70).unwrap();
        assert_eq!(
            d,
            r#"exit status 70 where none's is 0; stdout stops after 1 lines where none's goes on with "max 4\n""#
        );
    }

    #[test]
    fn extra_output_and_a_missing_final_newline_differ() {
        let more = difference(&reference(), b"sum 10\nmax 4\nok\nextra\n", 0).unwrap();
        assert!(more.contains("goes on after none's 3 lines"), "{more}");
        let no_newline = difference(&reference(), b"sum 10\nmax 4\nok", 0).unwrap();
        assert!(no_newline.contains("line 3"), "{no_newline}");
    }
}
