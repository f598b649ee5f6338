//! `<string.h>` on the checked memory, and C strings for `printf("%s")` and `sprintf`.
//!
//! Each function has C's semantics and returns what the C function returns (pointers into
//! the same object, with the same tag). Each checks its arguments against their objects once,
//! not per byte, and reports the *first* byte a straightforward byte-by-byte loop would fault
//! on: for `memcpy`, reading `src[i]` comes before writing `dst[i]`; `strlen` faults on the
//! first byte past the object when no null byte ends the string within it. A null pointer
//! faults even for a length of 0 only where the function reads a string; a range of 0 bytes
//! is never checked (C2y makes `memcpy(NULL, NULL, 0)` valid).
//!
//! Overlapping source and destination are an error for `memcpy`, `strcpy`, `strncpy` and
//! `strcat` (undefined in C; `memmove` allows it). `memcmp` checks both whole ranges, even past
//! the first difference (as ASan's `strict_memcmp`); `strcmp`, `strncmp` and `strchr` read
//! only up to where C stops. Comparisons return the difference of the first differing bytes
//! as `unsigned char` (as glibc's x86-64 `strcmp`; C only fixes the sign).

use lang::builtins::long_double::{self, LongDouble};

use super::fault::{Access, AccessKind, AccessSize, Fault, FaultKind};
use super::objects::View;
use super::{ptr_add, Memory};

/// The result of checking `n` bytes from a pointer: their address, or the index (from the
/// pointer) of the first byte that faults, with the fault.
type Span = Result<usize, (u64, Fault)>;

fn read(by: &'static str, size: AccessSize) -> Access {
    Access::library(by, AccessKind::Read, size)
}

fn write(by: &'static str, size: AccessSize) -> Access {
    Access::library(by, AccessKind::Write, size)
}

/// The first fault of a loop that, for each index, reads then writes: `first`'s if its index
/// is not after `second`'s.
fn first_fault(first: Span, second: Span) -> Result<(usize, usize), Fault> {
    match (first, second) {
        (Ok(a), Ok(b)) => Ok((a, b)),
        (Err((_, fault)), Ok(_)) | (Ok(_), Err((_, fault))) => Err(fault),
        (Err((i, f)), Err((j, g))) => Err(if i <= j { f } else { g }),
    }
}

fn overlaps(a: usize, a_len: usize, b: usize, b_len: usize) -> bool {
    a < b + b_len && b < a + a_len
}

impl Memory {
    /// The bytes from the view's pointer to its object's end (none if it points outside).
    fn window(&self, view: &View) -> &[u8] {
        match view.avail() {
            0 => &[],
            avail => &self.store.bytes()[view.addr as usize..view.addr as usize + avail as usize],
        }
    }

    /// The fault of the byte at `index` from the view's pointer (outside its object).
    fn fault_at(&self, view: &View, index: u64, access: Access) -> Fault {
        let offset = view.offset();
        self.objects
            .out_of_bounds(view, offset, offset.saturating_add(index as i64), access)
    }

    /// Checks `n > 0` bytes from `p`.
    fn span(&self, p: u64, n: u64, access: Access) -> Span {
        match self.objects.resolve(p, access) {
            Err(fault) => Err((0, fault)),
            Ok(view) => {
                let avail = view.avail();
                if n <= avail {
                    Ok(view.addr as usize)
                } else {
                    Err((avail, self.fault_at(&view, avail, access)))
                }
            }
        }
    }

    /// The fault of `by` copying `src_len` bytes from `src` to `dst_len` bytes at `dst`, which
    /// overlap (so they are in one object).
    #[cold]
    fn overlap(&self, by: &'static str, dst: u64, dst_len: u64, src: u64, src_len: u64) -> Fault {
        let access = read(by, AccessSize::Bytes(src_len));
        let (Ok(d), Ok(s)) = (
            self.objects.resolve(dst, access),
            self.objects.resolve(src, access),
        ) else {
            return FaultKind::Internal(format!("{by}: overlap outside an object")).into();
        };
        FaultKind::Overlap {
            by,
            object: self.objects.object_of(dst).expect("dst resolves"),
            dst: d.offset(),
            src: s.offset(),
            dst_len,
            src_len,
        }
        .into()
    }

    /// Copies `n` bytes from `src` to `dst`; overlap is an error if `strict`.
    fn copy(
        &mut self,
        by: &'static str,
        dst: u64,
        src: u64,
        n: u64,
        strict: bool,
    ) -> Result<(), Fault> {
        if n == 0 {
            return Ok(());
        }
        let (s, d) = first_fault(
            self.span(src, n, read(by, AccessSize::Bytes(n))),
            self.span(dst, n, write(by, AccessSize::Bytes(n))),
        )?;
        let len = n as usize;
        if strict && overlaps(d, len, s, len) {
            return Err(self.overlap(by, dst, n, src, n));
        }
        self.store.bytes_mut().copy_within(s..s + len, d);
        Ok(())
    }

    /// `memcpy(dst, src, n)`: returns `dst`. Overlapping ranges are an error.
    pub fn memcpy(&mut self, dst: u64, src: u64, n: u64) -> Result<u64, Fault> {
        self.copy("memcpy", dst, src, n, true)?;
        Ok(dst)
    }

    /// `memmove(dst, src, n)`: returns `dst`; the ranges may overlap.
    pub fn memmove(&mut self, dst: u64, src: u64, n: u64) -> Result<u64, Fault> {
        self.copy("memmove", dst, src, n, false)?;
        Ok(dst)
    }

    /// `memset(dst, c, n)`: fills `n` bytes with `(unsigned char) c`; returns `dst`.
    pub fn memset(&mut self, dst: u64, c: i32, n: u64) -> Result<u64, Fault> {
        if n > 0 {
            let d = self
                .span(dst, n, write("memset", AccessSize::Bytes(n)))
                .map_err(|(_, fault)| fault)?;
            self.store.bytes_mut()[d..d + n as usize].fill(c as u8);
        }
        Ok(dst)
    }

    /// The `long double` at `p`, read by the `long double` operation `by` (its 16 bytes
    /// must be inside one object; the value is the first 10, little-endian).
    pub fn read_long_double(&self, p: u64, by: &'static str) -> Result<LongDouble, Fault> {
        let a = self
            .span(
                p,
                long_double::SIZE,
                read(by, AccessSize::Bytes(long_double::SIZE)),
            )
            .map_err(|(_, fault)| fault)?;
        Ok(LongDouble::from_bytes(&self.store.bytes()[a..a + 16]))
    }

    /// Writes `value` to the 16 bytes at `p` (the padding as zeros), by the `long double`
    /// operation `by`.
    pub fn write_long_double(
        &mut self,
        p: u64,
        value: LongDouble,
        by: &'static str,
    ) -> Result<(), Fault> {
        let a = self
            .span(
                p,
                long_double::SIZE,
                write(by, AccessSize::Bytes(long_double::SIZE)),
            )
            .map_err(|(_, fault)| fault)?;
        self.store.bytes_mut()[a..a + 16].copy_from_slice(&value.to_bytes());
        Ok(())
    }

    /// `memcmp(a, b, n)`: the difference of the first differing bytes, 0 if none. Both whole
    /// ranges must be inside their objects.
    pub fn memcmp(&self, a: u64, b: u64, n: u64) -> Result<i32, Fault> {
        if n == 0 {
            return Ok(0);
        }
        let access = read("memcmp", AccessSize::Bytes(n));
        let (x, y) = first_fault(self.span(a, n, access), self.span(b, n, access))?;
        let n = n as usize;
        Ok(difference(&self.store.bytes()[x..x + n], &self.store.bytes()[y..y + n]).unwrap_or(0))
    }

    /// The string at `p` (without its null byte), read by `by`: the fault if `p` is not a
    /// valid pointer or no null byte ends the string within its object.
    pub fn read_c_string(&self, p: u64, by: &'static str) -> Result<&[u8], Fault> {
        let access = read(by, AccessSize::String);
        let view = self.objects.resolve(p, access)?;
        let window = self.window(&view);
        match window.iter().position(|&b| b == 0) {
            Some(len) => Ok(&window[..len]),
            None => Err(self.fault_at(&view, window.len() as u64, access)),
        }
    }

    /// At most `max` bytes of the string at `p`, as `printf("%.*s", max, p)` reads it: no null
    /// byte is needed within the first `max` bytes.
    pub fn read_c_string_max(&self, p: u64, max: u64, by: &'static str) -> Result<&[u8], Fault> {
        if max == 0 {
            return Ok(&[]);
        }
        let access = read(by, AccessSize::String);
        let view = self.objects.resolve(p, access)?;
        let window = self.window(&view);
        let limit = window.len().min(max.min(usize::MAX as u64) as usize);
        match window[..limit].iter().position(|&b| b == 0) {
            Some(len) => Ok(&window[..len]),
            None if limit as u64 == max => Ok(&window[..limit]),
            None => Err(self.fault_at(&view, limit as u64, access)),
        }
    }

    /// `strlen(s)`.
    pub fn strlen(&self, s: u64) -> Result<u64, Fault> {
        Ok(self.read_c_string(s, "strlen")?.len() as u64)
    }

    /// Copies the string at `src`, null byte included, to `dst`.
    fn copy_string(&mut self, by: &'static str, dst: u64, src: u64) -> Result<(), Fault> {
        let reading = read(by, AccessSize::String);
        let view = self.objects.resolve(src, reading)?;
        let window = self.window(&view);
        let Some(len) = window.iter().position(|&b| b == 0) else {
            // Reading fails at window.len(), unless writing the bytes before fails first.
            let bad = window.len() as u64;
            let src_fault = self.fault_at(&view, bad, reading);
            if bad > 0 {
                if let Err((_, fault)) = self.span(dst, bad, write(by, AccessSize::String)) {
                    return Err(fault);
                }
            }
            return Err(src_fault);
        };
        let n = len as u64 + 1;
        let d = self
            .span(dst, n, write(by, AccessSize::Bytes(n)))
            .map_err(|(_, fault)| fault)?;
        let s = view.addr as usize;
        if overlaps(d, len + 1, s, len + 1) {
            return Err(self.overlap(by, dst, n, src, n));
        }
        self.store.bytes_mut().copy_within(s..s + len + 1, d);
        Ok(())
    }

    /// `strcpy(dst, src)`: returns `dst`. Overlapping strings are an error.
    pub fn strcpy(&mut self, dst: u64, src: u64) -> Result<u64, Fault> {
        self.copy_string("strcpy", dst, src)?;
        Ok(dst)
    }

    /// `strncpy(dst, src, n)`: copies the string at `src` up to `n` bytes, then pads `dst` with
    /// null bytes up to `n` (no null byte if `src` has `n` or more); returns `dst`.
    pub fn strncpy(&mut self, dst: u64, src: u64, n: u64) -> Result<u64, Fault> {
        const BY: &str = "strncpy";
        if n == 0 {
            return Ok(dst);
        }
        let reading = read(BY, AccessSize::String);
        let writing = write(BY, AccessSize::Bytes(n));
        let view = self.objects.resolve(src, reading)?;
        let window = self.window(&view);
        let limit = window.len().min(n.min(usize::MAX as u64) as usize);
        // The bytes copied, and those read (the null byte too).
        let (copied, reads) = match window[..limit].iter().position(|&b| b == 0) {
            Some(len) => (len, len + 1),
            None if limit as u64 == n => (limit, limit),
            None => {
                let bad = limit as u64;
                let src_fault = self.fault_at(&view, bad, reading);
                if bad > 0 {
                    if let Err((_, fault)) = self.span(dst, bad, writing) {
                        return Err(fault);
                    }
                }
                return Err(src_fault);
            }
        };
        let d = self.span(dst, n, writing).map_err(|(_, fault)| fault)?;
        let s = view.addr as usize;
        if overlaps(d, n as usize, s, reads) {
            return Err(self.overlap(BY, dst, n, src, reads as u64));
        }
        self.store.bytes_mut().copy_within(s..s + copied, d);
        self.store.bytes_mut()[d + copied..d + n as usize].fill(0);
        Ok(dst)
    }

    /// `strcat(dst, src)`: appends the string at `src` to the one at `dst`; returns `dst`.
    pub fn strcat(&mut self, dst: u64, src: u64) -> Result<u64, Fault> {
        let len = self.read_c_string(dst, "strcat")?.len();
        self.copy_string("strcat", ptr_add(dst, len as i64), src)?;
        Ok(dst)
    }

    /// Compares the strings at `a` and `b`, up to `n` bytes if `n` is given.
    fn compare(&self, by: &'static str, a: u64, b: u64, n: Option<u64>) -> Result<i32, Fault> {
        if n == Some(0) {
            return Ok(0);
        }
        let access = read(by, AccessSize::String);
        let va = self.objects.resolve(a, access)?;
        let wa = self.window(&va);
        let vb = match self.objects.resolve(b, access) {
            Ok(view) => view,
            // a[0] is read before b[0].
            Err(_) if wa.is_empty() => return Err(self.fault_at(&va, 0, access)),
            Err(fault) => return Err(fault),
        };
        let wb = self.window(&vb);
        let limit = n.map_or(usize::MAX, |n| n.min(usize::MAX as u64) as usize);
        let m = wa.len().min(wb.len()).min(limit);
        for (&x, &y) in wa[..m].iter().zip(&wb[..m]) {
            if x != y || x == 0 {
                return Ok(x as i32 - y as i32);
            }
        }
        if m == limit {
            return Ok(0);
        }
        // Byte m is outside a's object or b's: a's is read first.
        Err(if wa.len() == m {
            self.fault_at(&va, m as u64, access)
        } else {
            self.fault_at(&vb, m as u64, access)
        })
    }

    /// `strcmp(a, b)`: the difference of the first differing bytes, 0 if equal.
    pub fn strcmp(&self, a: u64, b: u64) -> Result<i32, Fault> {
        self.compare("strcmp", a, b, None)
    }

    /// `strncmp(a, b, n)`: as [`Memory::strcmp`] on at most `n` bytes.
    pub fn strncmp(&self, a: u64, b: u64, n: u64) -> Result<i32, Fault> {
        self.compare("strncmp", a, b, Some(n))
    }

    /// `strchr(s, c)`: the pointer to the first `(char) c` in the string at `s` (its null byte
    /// if `c` is 0), or null.
    pub fn strchr(&self, s: u64, c: i32) -> Result<u64, Fault> {
        let access = read("strchr", AccessSize::String);
        let view = self.objects.resolve(s, access)?;
        let window = self.window(&view);
        let c = c as u8;
        match window.iter().position(|&b| b == c || b == 0) {
            Some(i) if window[i] == c => Ok(ptr_add(s, i as i64)),
            Some(_) => Ok(0),
            None => Err(self.fault_at(&view, window.len() as u64, access)),
        }
    }

    /// `strrchr(s, c)`: the pointer to the last `(char) c` in the string at `s` (its null byte
    /// if `c` is 0), or null.
    pub fn strrchr(&self, s: u64, c: i32) -> Result<u64, Fault> {
        let text = self.read_c_string(s, "strrchr")?;
        let c = c as u8;
        if c == 0 {
            return Ok(ptr_add(s, text.len() as i64));
        }
        Ok(text
            .iter()
            .rposition(|&b| b == c)
            .map_or(0, |i| ptr_add(s, i as i64)))
    }

    /// `strstr(haystack, needle)`: the pointer to the first occurrence of the string at
    /// `needle` in the one at `haystack` (`haystack` for an empty needle), or null.
    pub fn strstr(&self, haystack: u64, needle: u64) -> Result<u64, Fault> {
        let hay = self.read_c_string(haystack, "strstr")?;
        let pattern = self.read_c_string(needle, "strstr")?;
        if pattern.is_empty() {
            return Ok(haystack);
        }
        Ok(hay
            .windows(pattern.len())
            .position(|w| w == pattern)
            .map_or(0, |i| ptr_add(haystack, i as i64)))
    }

    /// `strncat(dst, src, n)`: appends at most `n` bytes of the string at `src` (which needs
    /// no null byte within them) and a null byte to the string at `dst`; returns `dst`.
    pub fn strncat(&mut self, dst: u64, src: u64, n: u64) -> Result<u64, Fault> {
        let len = self.read_c_string(dst, "strncat")?.len();
        let text = self.read_c_string_max(src, n, "strncat")?.to_vec();
        self.write_c_string(ptr_add(dst, len as i64), &text, "strncat")?;
        Ok(dst)
    }

    /// `memchr(s, c, n)`: the pointer to the first `(unsigned char) c` in the `n` bytes at
    /// `s`, or null; the bytes up to the one found (all `n` if none) must be in the object.
    pub fn memchr(&self, s: u64, c: i32, n: u64) -> Result<u64, Fault> {
        if n == 0 {
            return Ok(0);
        }
        let access = read("memchr", AccessSize::Bytes(n));
        let view = self.objects.resolve(s, access)?;
        let window = self.window(&view);
        let m = (window.len() as u64).min(n) as usize;
        match window[..m].iter().position(|&b| b == c as u8) {
            Some(i) => Ok(ptr_add(s, i as i64)),
            None if m as u64 == n => Ok(0),
            None => Err(self.fault_at(&view, m as u64, access)),
        }
    }

    /// Writes `text` and a null byte at `dst`, as `sprintf` (`by`) does.
    pub fn write_c_string(&mut self, dst: u64, text: &[u8], by: &'static str) -> Result<(), Fault> {
        let n = text.len() as u64 + 1;
        let d = self
            .span(dst, n, write(by, AccessSize::Bytes(n)))
            .map_err(|(_, fault)| fault)?;
        let bytes = self.store.bytes_mut();
        bytes[d..d + text.len()].copy_from_slice(text);
        bytes[d + text.len()] = 0;
        Ok(())
    }

    /// Writes what fits of `text` in `size` bytes at `dst`, null byte included, as
    /// `snprintf(dst, size, ...)` (`by`) does: nothing if `size` is 0, else at most `size - 1`
    /// bytes of `text` and a null byte. Only the bytes written must be inside the object.
    pub fn write_c_string_bounded(
        &mut self,
        dst: u64,
        size: u64,
        text: &[u8],
        by: &'static str,
    ) -> Result<(), Fault> {
        if size == 0 {
            return Ok(());
        }
        let kept = (text.len() as u64).min(size - 1) as usize;
        self.write_c_string(dst, &text[..kept], by)
    }
}

/// The difference of the first differing bytes of `a` and `b` (same lengths), if any.
fn difference(a: &[u8], b: &[u8]) -> Option<i32> {
    a.iter()
        .zip(b)
        .find(|(x, y)| x != y)
        .map(|(&x, &y)| x as i32 - y as i32)
}
