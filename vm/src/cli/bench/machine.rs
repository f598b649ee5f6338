//! Where and when a benchmark ran: the machine (host, kernel, processor, cores, memory), the
//! git commit of the checkout it ran in, and the date, as `results.json` records them so that
//! a table can always be traced back to what produced it.

use std::process::Command;

use super::results::{Commit, Machine};

/// The machine this process runs on. Missing facts are written as `unknown`.
pub fn this_machine() -> Machine {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    Machine {
        hostname: hostname().unwrap_or_else(|| "unknown".into()),
        os: uname().unwrap_or_else(|| std::env::consts::OS.into()),
        cpu: field(&cpuinfo, "model name").unwrap_or_else(|| "unknown".into()),
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        memory_kib: field(&meminfo, "MemTotal")
            .and_then(|v| v.trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0),
    }
}

/// The value of the first `name: value` line of a `/proc` file.
fn field(text: &str, name: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let (key, value) = l.split_once(':')?;
        (key.trim() == name).then(|| value.trim().to_string())
    })
}

fn hostname() -> Option<String> {
    let mut buf = [0u8; 256];
    // SAFETY: `gethostname` writes at most `buf.len()` bytes into `buf`.
    let rc = unsafe { ::libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if rc != 0 {
        return None;
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    Some(String::from_utf8_lossy(&buf[..end]).into_owned())
}

/// `sysname release`, as `uname -sr` prints.
fn uname() -> Option<String> {
    // SAFETY: `utsname` is plain data; `uname` fills it with NUL-terminated strings.
    let mut u: ::libc::utsname = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a local `utsname`.
    if unsafe { ::libc::uname(&mut u) } != 0 {
        return None;
    }
    let text = |chars: &[::libc::c_char]| {
        let bytes: Vec<u8> = chars
            .iter()
            .take_while(|&&c| c != 0)
            .map(|&c| c as u8)
            .collect();
        String::from_utf8_lossy(&bytes).into_owned()
    };
    Some(format!("{} {}", text(&u.sysname), text(&u.release)))
}

/// The commit checked out in the current directory and whether tracked files changed, if it
/// is a git checkout (and git is installed).
pub fn current_commit() -> Option<Commit> {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let id = git(&["rev-parse", "HEAD"])?;
    let dirty =
        git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    Some(Commit { id, dirty })
}

/// The current time in RFC 3339, UTC, to the second.
pub fn now_rfc3339() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_proc_fields_and_describes_this_machine() {
        let text = "processor\t: 0\nmodel name\t: Some CPU @ 2.0GHz\nflags\t: fpu\n";
        assert_eq!(
            field(text, "model name").as_deref(),
            Some("Some CPU @ 2.0GHz")
        );
        assert_eq!(field(text, "missing"), None);
        let m = this_machine();
        assert!(m.cores >= 1);
        assert!(!m.hostname.is_empty());
        let date = now_rfc3339();
        assert!(date.ends_with('Z') && date.len() == 20, "{date}");
    }
}
