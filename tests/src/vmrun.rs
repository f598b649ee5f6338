//! Running a program in-process with `vm::run_source` (Contract 4), guarded by a time limit
//! and an output cap so that a VM bug (an endless loop, runaway output) becomes a reported
//! mismatch instead of a hung test.

use std::io::Write;
use std::sync::mpsc;
use std::time::Duration;

use crate::outcome::Outcome;

/// At most this many stdout bytes are kept; a run that prints more fails its write.
pub const OUTPUT_CAP: usize = 64 << 20;

/// A `Write` that keeps at most [`OUTPUT_CAP`] bytes.
struct CappedBuffer(Vec<u8>);

impl Write for CappedBuffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.0.len() + buf.len() > OUTPUT_CAP {
            return Err(std::io::Error::other("e2e: output cap exceeded"));
        }
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs `source` with `vm::run_source` and default options on a separate thread. If it does
/// not finish within `limit` (or panics), returns an outcome with status -1 and the reason in
/// `stderr` (a timed-out run is left to finish in the background).
pub fn vm_outcome(file_name: &str, source: &str, limit: Duration) -> Outcome {
    vm_outcome_files(&[(file_name.to_string(), source.to_string())], limit)
}

/// Like [`vm_outcome`] for a program of several source files, `(name, text)`, linked
/// (`vm::run_sources_with`).
pub fn vm_outcome_files(files: &[(String, String)], limit: Duration) -> Outcome {
    let (tx, rx) = mpsc::channel();
    let files = files.to_vec();
    let label = files.first().map_or(String::new(), |(n, _)| n.clone());
    let spawned = std::thread::Builder::new()
        .name(format!("vm:{label}"))
        .stack_size(64 << 20)
        .spawn(move || {
            let mut out = CappedBuffer(Vec::new());
            let pairs: Vec<(&str, &str)> = files
                .iter()
                .map(|(n, s)| (n.as_str(), s.as_str()))
                .collect();
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let options = vm::RunOptions::default();
                vm::run_sources_with(&pairs, &Default::default(), &options, &mut out)
            }));
            let outcome = match result {
                Ok(r) => Outcome {
                    stdout: out.0,
                    status: r.exit_status,
                    stderr: r.stderr,
                },
                Err(payload) => Outcome {
                    stdout: out.0,
                    status: -1,
                    stderr: format!("vm::run_source PANICKED: {}", panic_message(&payload)),
                },
            };
            let _ = tx.send(outcome);
        });
    if let Err(e) = spawned {
        panic!("cannot spawn a VM thread: {e}");
    }
    match rx.recv_timeout(limit) {
        Ok(outcome) => outcome,
        Err(_) => Outcome {
            stdout: Vec::new(),
            status: -1,
            stderr: format!("vm::run_source did not finish within {limit:?}"),
        },
    }
}

/// The text of a panic payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "<non-string panic payload>".to_string()
    }
}

/// The time limit for one VM run: `E2E_VM_TIMEOUT_SECS`, default 300 s (debug builds of the
/// interpreter are slow on the twins).
pub fn vm_time_limit() -> Duration {
    let secs = std::env::var("E2E_VM_TIMEOUT_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    Duration::from_secs(secs)
}
