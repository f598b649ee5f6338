//! Running one measured process: its stdout captured whole, the end of its stderr kept, its
//! wall time and CPU time (CPU time from the kernel, `wait4`'s resource usage), a time limit,
//! and an interrupt of the benchmark (SIGINT/SIGTERM, see `vm::signals`) passed on to it.
//!
//! Peak memory is not taken from `wait4`: Linux keeps a process's `ru_maxrss` across `exec`,
//! so a child would report the benchmark's own resident set from before it became `vmrun`.
//! `vmrun --stats-out` reports its own peak (`VmHWM`, reset by `exec`) instead.
//!
//! The wall time runs from just before the process is spawned to the moment `wait4` returns
//! (a separate thread blocks in it, so nothing polls); it includes starting the process, as
//! what a user runs does. CPU time is user plus system time of the process and the processes
//! it waited for (a wrapper such as `perf stat` and its child).

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::{Duration, Instant};

/// Stdout beyond this many bytes is dropped and the run fails (a runaway program).
pub const OUTPUT_CAP: usize = 64 << 20;
/// The last this many bytes of stderr are kept (for error messages).
const STDERR_KEPT: usize = 16 << 10;
/// How often the waiting thread looks at the time limit and the interrupt flag.
const POLL: Duration = Duration::from_millis(20);

/// How a measured process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// It exited with this status.
    Exited(i32),
    /// A signal killed it.
    Signaled(i32),
    /// It ran past the time limit and was killed.
    TimedOut,
    /// The benchmark was interrupted while it ran (it was sent SIGINT and waited for).
    Interrupted,
}

/// What one process did.
#[derive(Clone, Debug)]
pub struct ChildRun {
    /// Everything it wrote to stdout (at most [`OUTPUT_CAP`] bytes).
    pub stdout: Vec<u8>,
    /// Whether stdout went past [`OUTPUT_CAP`].
    pub stdout_overflow: bool,
    /// The end of what it wrote to stderr.
    pub stderr: String,
    /// How it ended.
    pub end: End,
    /// Wall time from spawn to exit.
    pub wall: Duration,
    /// User plus system CPU time.
    pub cpu: Duration,
}

impl ChildRun {
    /// The first line of stderr that says something, for a short message.
    pub fn stderr_line(&self) -> &str {
        self.stderr
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or("")
    }
}

/// The result of `wait4`: the raw status and the resource usage.
struct Waited {
    status: i32,
    usage: ::libc::rusage,
    wall: Duration,
}

/// Runs `command` (stdin closed, stdout and stderr captured) until it exits, killing it after
/// `limit`. An error only if it cannot be started or waited for.
pub fn run(mut command: Command, limit: Duration) -> Result<ChildRun, String> {
    // Its own process group, so that a time limit or an interrupt reaches a wrapper (perf,
    // valgrind) and the vmrun under it alike.
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let started = Instant::now();
    let mut child = command
        .spawn()
        .map_err(|e| format!("cannot start {:?}: {e}", command.get_program()))?;
    let pid = child.id() as ::libc::pid_t;
    let stdout = child.stdout.take().expect("stdout is piped");
    let stderr = child.stderr.take().expect("stderr is piped");
    let out_reader = thread::spawn(move || read_capped(stdout, OUTPUT_CAP));
    let err_reader = thread::spawn(move || read_tail(stderr, STDERR_KEPT));

    let reaped = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    {
        let reaped = Arc::clone(&reaped);
        thread::spawn(move || {
            let waited = wait_for(pid, started);
            reaped.store(true, Ordering::SeqCst);
            let _ = tx.send(waited);
        });
    }
    let mut forced = None;
    let waited = loop {
        match rx.recv_timeout(POLL) {
            Ok(waited) => break waited?,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err("the waiting thread ended without a result".into())
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if forced.is_some() || reaped.load(Ordering::SeqCst) {
                    continue;
                }
                if vm::signals::pending() != 0 {
                    signal(pid, ::libc::SIGINT);
                    forced = Some(End::Interrupted);
                } else if started.elapsed() > limit {
                    signal(pid, ::libc::SIGKILL);
                    forced = Some(End::TimedOut);
                }
            }
        }
    };
    let (stdout, stdout_overflow) = out_reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    let end = forced.unwrap_or_else(|| decode_status(waited.status));
    let usage = &waited.usage;
    Ok(ChildRun {
        stdout,
        stdout_overflow,
        stderr,
        end,
        wall: waited.wall,
        cpu: timeval(usage.ru_utime) + timeval(usage.ru_stime),
    })
}

/// Blocks until process `pid` exits; its status, resource usage and the wall time since
/// `started`.
fn wait_for(pid: ::libc::pid_t, started: Instant) -> Result<Waited, String> {
    let mut status = 0;
    // SAFETY: `rusage` is plain data; `wait4` only writes into `status` and `usage`.
    let mut usage: ::libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: valid pointers to a local `int` and `rusage`; `pid` is our own child, which
        // nothing else waits for (its `std::process::Child` is never waited on).
        let rc = unsafe { ::libc::wait4(pid, &mut status, 0, &mut usage) };
        if rc == pid {
            return Ok(Waited {
                status,
                usage,
                wall: started.elapsed(),
            });
        }
        let error = std::io::Error::last_os_error();
        if error.kind() != std::io::ErrorKind::Interrupted {
            return Err(format!("cannot wait for process {pid}: {error}"));
        }
    }
}

/// Sends `signal` to the process group of our child `pid` (the group it leads).
fn signal(pid: ::libc::pid_t, signal: i32) {
    // SAFETY: signals the process group our child leads; the child has not been reaped
    // (checked by the caller just before; a pid is not reused within the microseconds
    // between).
    unsafe {
        ::libc::kill(-pid, signal);
    }
}

fn decode_status(status: i32) -> End {
    if ::libc::WIFEXITED(status) {
        End::Exited(::libc::WEXITSTATUS(status))
    } else if ::libc::WIFSIGNALED(status) {
        End::Signaled(::libc::WTERMSIG(status))
    } else {
        End::Signaled(0)
    }
}

fn timeval(t: ::libc::timeval) -> Duration {
    Duration::from_secs(u64::try_from(t.tv_sec).unwrap_or(0))
        + Duration::from_micros(u64::try_from(t.tv_usec).unwrap_or(0))
}

/// Reads `from` to its end, keeping the first `cap` bytes; whether there were more.
fn read_capped(mut from: impl Read, cap: usize) -> (Vec<u8>, bool) {
    let mut kept = Vec::new();
    let mut overflow = false;
    let mut buf = [0u8; 64 << 10];
    loop {
        match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = cap - kept.len();
                if n > room {
                    overflow = true;
                }
                kept.extend_from_slice(&buf[..n.min(room)]);
            }
        }
    }
    (kept, overflow)
}

/// Reads `from` to its end, keeping the last `keep` bytes, as text.
fn read_tail(mut from: impl Read, keep: usize) -> String {
    let mut kept: Vec<u8> = Vec::new();
    let mut buf = [0u8; 16 << 10];
    loop {
        match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                kept.extend_from_slice(&buf[..n]);
                if kept.len() > 2 * keep {
                    kept.drain(..kept.len() - keep);
                }
            }
        }
    }
    if kept.len() > keep {
        kept.drain(..kept.len() - keep);
    }
    String::from_utf8_lossy(&kept).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.arg("-c").arg(script);
        c
    }

    #[test]
    fn captures_output_status_and_usage() {
        let run = run(
            sh("echo out; echo err >&2; exit 3"),
            Duration::from_secs(20),
        )
        .unwrap();
        assert_eq!(run.stdout, b"out\n");
        assert_eq!(run.stderr_line(), "err");
        assert_eq!(run.end, End::Exited(3));
        assert!(!run.stdout_overflow);
    }

    #[test]
    fn a_process_past_its_limit_is_killed() {
        let started = Instant::now();
        let run = run(sh("sleep 30"), Duration::from_millis(200)).unwrap();
        assert_eq!(run.end, End::TimedOut);
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn a_process_killed_by_a_signal_says_which() {
        let run = run(sh("kill -9 $$"), Duration::from_secs(20)).unwrap();
        assert_eq!(run.end, End::Signaled(9));
    }

    #[test]
    fn readers_keep_the_head_of_stdout_and_the_tail_of_stderr() {
        let (head, overflow) = read_capped(&b"abcdefgh"[..], 5);
        assert_eq!((head.as_slice(), overflow), (&b"abcde"[..], true));
        let long: Vec<u8> = (0..100_000u32).map(|i| b'a' + (i % 26) as u8).collect();
        let tail = read_tail(&long[..], 10);
        assert_eq!(tail.as_bytes(), &long[long.len() - 10..]);
    }
}
