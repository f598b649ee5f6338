//! What a run cost, beside what it profiled: `vmrun --stats-out FILE` writes it as a small JSON
//! document (`docs/profile-format.md`, "Run statistics"), and `vmrun bench` reads it back from
//! every run it times.
//!
//! Unlike the profile, these numbers are measurements (times, memory), so two runs of the same
//! program never give the same file; the profile stays byte-for-byte deterministic because
//! they are kept out of it.

use serde::{Deserialize, Serialize};

use crate::{Mode, RunResult};

/// The value of the `format` field.
pub const FORMAT: &str = "vmrun-run-stats";
/// The value of the `version` field (bumped when a field changes meaning or is removed).
pub const VERSION: u32 = 1;

/// The statistics of one run. Field order is the JSON order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunStats {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`] when written by this module.
    pub version: u32,
    /// The program file as named on the command line.
    pub program: String,
    /// The profiling mode.
    pub mode: Mode,
    /// `K` of `kbl:K` and `kiter:K`, 1 otherwise.
    pub k: u32,
    /// The exit status the run ends with.
    pub exit_status: i32,
    /// Functions tiered up (instrumented), including any that failed to.
    pub tier_ups: u32,
    /// Wall time spent tiering up, in seconds: building CFGs, numbering paths, planning and
    /// generating instrumented code.
    pub tier_up_seconds: f64,
    /// Wall time from reading the source to the end of the run, in seconds (compiling,
    /// running, and assembling the profile when one is written).
    pub seconds: f64,
    /// Peak resident memory of the process, in KiB (`VmHWM` of `/proc/self/status`).
    pub max_rss_kib: u64,
}

impl RunStats {
    /// The statistics of `result`, a run of `program` under `mode`:`k` that took `seconds`.
    pub fn new(program: &str, mode: Mode, k: u32, result: &RunResult, seconds: f64) -> Self {
        RunStats {
            format: FORMAT.to_string(),
            version: VERSION,
            program: program.to_string(),
            mode,
            k,
            exit_status: result.exit_status,
            tier_ups: result.tier_ups.count,
            tier_up_seconds: result.tier_ups.time.as_secs_f64(),
            seconds,
            max_rss_kib: peak_rss_kib(),
        }
    }

    /// The JSON text (pretty-printed, ending with a newline).
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("run stats serialize");
        text.push('\n');
        text
    }

    /// Reads a document written by [`RunStats::to_json`]; the error names what is wrong.
    pub fn from_json(text: &str) -> Result<Self, String> {
        let stats: RunStats = serde_json::from_str(text).map_err(|e| e.to_string())?;
        crate::profile::check_header(&stats.format, stats.version, FORMAT, VERSION)?;
        Ok(stats)
    }
}

/// The peak resident set size of this process so far, in KiB: `VmHWM` of
/// `/proc/self/status`, the high-water mark of this program image (0 where there is no
/// `/proc`). Not `getrusage`'s `ru_maxrss`: Linux carries that across `exec`, so a process
/// started by a large parent (`vmrun bench` after reading a big profile) would report the
/// parent's resident set from before the `exec`.
pub fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rejects_other_formats() {
        let result = RunResult {
            exit_status: 3,
            stderr: String::new(),
            profile: None,
            tier_ups: crate::tier::tiering::TierUpStats {
                count: 2,
                time: std::time::Duration::from_micros(1500),
            },
        };
        let stats = RunStats::new("p.c", Mode::Kbl, 4, &result, 0.25);
        assert_eq!(stats.tier_ups, 2);
        assert_eq!(stats.tier_up_seconds, 0.0015);
        assert!(
            stats.max_rss_kib > 0,
            "this test process has a resident set"
        );
        let back = RunStats::from_json(&stats.to_json()).unwrap();
        assert_eq!(back, stats);
        let other = stats.to_json().replace(FORMAT, "vmrun-path-profile");
        assert!(RunStats::from_json(&other).unwrap_err().contains("format"));
    }
}
