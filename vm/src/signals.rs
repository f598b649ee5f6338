//! SIGINT and SIGTERM: an interrupted run still writes its output and its profile.
//!
//! [`install`] replaces the default action of both signals by a handler that only records the
//! signal number in an atomic (the one thing a handler may safely do). The interpreter polls
//! [`pending`] at every backward jump and every call, so every loop iteration and every
//! recursion step notices an interrupt within a few instructions; it then stops the run like a
//! trap ([`crate::trap::TrapKind::of_pending`]), and the caller flushes the output, writes the
//! profile marked incomplete and exits with status `128 + signal` (130 for SIGINT, 143 for
//! SIGTERM), as a shell reports a process killed by that signal.
//!
//! A second signal while the first is being handled is recorded the same way; the run is
//! already stopping. The poll is one relaxed load of a static and a predictable branch.

use std::sync::atomic::{AtomicI32, Ordering};

/// The number of the signal received, [`MEMORY_LIMIT_REACHED`], or 0.
static PENDING: AtomicI32 = AtomicI32::new(0);

/// What [`pending`] returns once the run's memory passed `--max-memory`
/// ([`crate::alloc_meter`]): not a signal number, so the run stops with a runtime error
/// instead of an interrupt.
pub const MEMORY_LIMIT_REACHED: i32 = -1;

/// The signal received since the last [`clear`], or 0 if none.
#[inline(always)]
pub fn pending() -> i32 {
    PENDING.load(Ordering::Relaxed)
}

/// Forgets a received signal (tests run several programs in one process).
pub fn clear() {
    PENDING.store(0, Ordering::Relaxed);
}

/// Asks the run to stop because its memory passed the limit (unless a signal came first).
pub fn raise_memory_limit() {
    let _ = PENDING.compare_exchange(
        0,
        MEMORY_LIMIT_REACHED,
        Ordering::Relaxed,
        Ordering::Relaxed,
    );
}

/// Records `signal` as if it had been received (for tests of the interrupt path).
pub fn raise_for_test(signal: i32) {
    PENDING.store(signal, Ordering::Relaxed);
}

extern "C" fn on_signal(signal: ::libc::c_int) {
    PENDING.store(signal, Ordering::Relaxed);
}

/// Installs the handler for SIGINT and SIGTERM. Returns an error message if the system
/// refuses (the run then keeps the default actions).
pub fn install() -> Result<(), String> {
    for signal in [::libc::SIGINT, ::libc::SIGTERM] {
        // SAFETY: `sigaction` is called with a zero-initialised (valid) struct whose handler is
        // an `extern "C"` function that only stores to an atomic, which is async-signal-safe.
        let rc = unsafe {
            let mut action: ::libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(::libc::c_int) as ::libc::sighandler_t;
            ::libc::sigemptyset(&mut action.sa_mask);
            action.sa_flags = ::libc::SA_RESTART;
            ::libc::sigaction(signal, &action, std::ptr::null_mut())
        };
        if rc != 0 {
            return Err(format!(
                "cannot install a handler for signal {signal}: {}",
                std::io::Error::last_os_error()
            ));
        }
    }
    Ok(())
}
