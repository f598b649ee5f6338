//! Counting the instructions a run executes: `perf stat -e instructions:u` around every timed
//! run where the machine has the hardware counter, or callgrind (valgrind) in a round of its
//! own, which is exact and repeatable but about 50 times slower. On machines without the
//! counter (many virtual machines: `perf stat` says `<not supported>`), `--instructions auto`
//! says so and the tables fall back to CPU time.

use std::path::Path;
use std::process::Command;

/// `--instructions`: how to count instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum InstructionsArg {
    /// `perf stat` if this machine has the counter, otherwise none (and say why).
    Auto,
    /// `perf stat -e instructions:u` around every timed run (an error if unavailable).
    Perf,
    /// One extra, untimed round under callgrind: exact counts, ~50x slower runs.
    Callgrind,
    /// Do not count instructions.
    Off,
}

/// How instructions are counted in this benchmark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Counter {
    /// Every timed run under `perf stat`.
    Perf,
    /// A callgrind round.
    Callgrind,
    /// Not counted, for this reason.
    Unavailable(String),
}

impl Counter {
    /// The name written in the results (`perf`, `callgrind`, `none`).
    pub fn name(&self) -> &'static str {
        match self {
            Counter::Perf => "perf",
            Counter::Callgrind => "callgrind",
            Counter::Unavailable(_) => "none",
        }
    }
}

/// Decides how to count, trying the tools; an error when an explicitly requested tool does
/// not work here.
pub fn choose(arg: InstructionsArg) -> Result<Counter, String> {
    match arg {
        InstructionsArg::Off => Ok(Counter::Unavailable(
            "not counted (--instructions off)".into(),
        )),
        InstructionsArg::Auto => Ok(match perf_works() {
            Ok(()) => Counter::Perf,
            Err(why) => Counter::Unavailable(format!(
                "{why}; ratios use CPU time (exact counts: --instructions callgrind)"
            )),
        }),
        InstructionsArg::Perf => perf_works().map(|()| Counter::Perf),
        InstructionsArg::Callgrind => callgrind_works().map(|()| Counter::Callgrind),
    }
}

/// Whether `perf stat -e instructions:u` counts on this machine; why not otherwise.
fn perf_works() -> Result<(), String> {
    let out = Command::new("perf")
        .args(["stat", "-x", ",", "-e", "instructions:u", "--", "true"])
        .output()
        .map_err(|e| format!("perf stat cannot run here ({e})"))?;
    let text = String::from_utf8_lossy(&out.stderr);
    match parse_perf(&text) {
        Some(_) => Ok(()),
        None => Err(format!(
            "perf stat -e instructions: {} on this machine",
            perf_problem(&text)
        )),
    }
}

/// What perf said instead of a count (`<not supported>`, a permission message...).
fn perf_problem(text: &str) -> String {
    for line in text.lines() {
        if line.contains("<not supported>") {
            return "not supported".into();
        }
        if line.contains("<not counted>") {
            return "not counted".into();
        }
    }
    match text.lines().map(str::trim).find(|l| !l.is_empty()) {
        Some(line) => format!("no count ({line})"),
        None => "no count".into(),
    }
}

fn callgrind_works() -> Result<(), String> {
    match Command::new("valgrind").arg("--version").output() {
        Ok(out) if out.status.success() => Ok(()),
        Ok(out) => Err(format!(
            "valgrind --version failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Err(e) => Err(format!("valgrind (for callgrind) cannot run here: {e}")),
    }
}

/// The command that runs `program args...` under perf, writing its counts to `out`.
pub fn perf_command(program: &Path, out: &Path) -> Command {
    let mut c = Command::new("perf");
    c.args(["stat", "-x", ",", "-e", "instructions:u", "-o"])
        .arg(out)
        .arg("--")
        .arg(program);
    c
}

/// The command that runs `program args...` under callgrind, writing its log to `log`.
pub fn callgrind_command(program: &Path, log: &Path) -> Command {
    let mut c = Command::new("valgrind");
    c.arg("--tool=callgrind")
        .arg("--callgrind-out-file=/dev/null")
        .arg(format!("--log-file={}", log.display()))
        .arg("--")
        .arg(program);
    c
}

/// The instruction count of `perf stat -x ,` output (the first field of the line of the
/// `instructions` event), if it counted.
pub fn parse_perf(text: &str) -> Option<u64> {
    text.lines()
        .filter(|l| l.contains(",instructions"))
        .find_map(|l| l.split(',').next()?.trim().parse().ok())
}

/// The instruction count of a callgrind log (`==PID== Collected : N`).
pub fn parse_callgrind(text: &str) -> Option<u64> {
    text.lines().find_map(|l| {
        let (_, after) = l.split_once("Collected :")?;
        after.trim().parse().ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_perf_csv_counts_and_refusals() {
        let counted = "# started on Wed Nov 25\n\n1234567,,instructions:u,803070,100.00,,\n";
        assert_eq!(parse_perf(counted), Some(1234567));
        let refused = "<not supported>,,instructions:u,0,100.00,,\n";
        assert_eq!(parse_perf(refused), None);
        assert_eq!(perf_problem(refused), "not supported");
    }

    #[test]
    fn reads_callgrind_logs() {
        let log = "==12== Callgrind, a call-graph generating cache profiler\n\
                   ==12== Events    : Ir\n==12== Collected : 4917358\n==12==\n";
        assert_eq!(parse_callgrind(log), Some(4917358));
        assert_eq!(parse_callgrind("==12== error\n"), None);
    }
}
