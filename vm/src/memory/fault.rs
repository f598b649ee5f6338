//! Memory faults: what a checked access, a heap operation or a library function found wrong,
//! and the message that says so.
//!
//! A [`Fault`] is one boxed [`FaultKind`], so `Result<usize, Fault>` (what the access check
//! returns) is two machine words. Faults are built only on the cold path: they copy what the
//! message needs (the object's description) out of the object table, so they outlive it.
//!
//! Messages name the object and the byte offset, and never the VM's internals (slots,
//! generations). Sites (where a block was allocated or freed) are opaque numbers:
//! [`Fault::render`] lets the interpreter name them (`prog.c:12:9`), `Display` writes
//! `site 7`. The interpreter prefixes `file:line:col: runtime error: `.

use std::fmt;

use super::Site;

/// Whether an access reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AccessKind {
    /// A load, or a library function reading its argument.
    Read,
    /// A store, or a library function writing its argument.
    Write,
}

impl AccessKind {
    fn noun(self) -> &'static str {
        match self {
            AccessKind::Read => "read",
            AccessKind::Write => "write",
        }
    }

    fn verb(self) -> &'static str {
        match self {
            AccessKind::Read => "reading",
            AccessKind::Write => "writing",
        }
    }
}

/// How many bytes an access covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AccessSize {
    /// A known number of bytes: a load or store's width, or a library function's range.
    Bytes(u64),
    /// A string up to its terminating null byte (`strlen`, `strcpy`'s source, `%s`).
    String,
}

/// One access: a load or store of the program (`by: None`), or part of what a library
/// function does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Access {
    /// Read or write.
    pub kind: AccessKind,
    /// Its extent.
    pub size: AccessSize,
    /// The library function making it (`"memcpy"`), or `None` for the program's own access.
    pub by: Option<&'static str>,
}

impl Access {
    /// A load (`Read`) or store (`Write`) of `width` bytes by the program.
    pub fn program(kind: AccessKind, width: u32) -> Access {
        Access {
            kind,
            size: AccessSize::Bytes(width as u64),
            by: None,
        }
    }

    /// An access by the library function `by`.
    pub fn library(by: &'static str, kind: AccessKind, size: AccessSize) -> Access {
        Access {
            kind,
            size,
            by: Some(by),
        }
    }

    /// `read of 4 bytes`, `write of 1 byte`, `read` (of a string).
    fn what(&self) -> String {
        match self.size {
            AccessSize::Bytes(n) => format!("{} of {}", self.kind.noun(), bytes(n)),
            AccessSize::String => self.kind.noun().to_string(),
        }
    }
}

/// What kind of object a description is about.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ObjectKind {
    /// A global (or `static`) variable.
    Global,
    /// A string literal's array.
    StringLiteral,
    /// A local variable (one whose address is taken) of a function.
    Local {
        /// The function's name.
        function: String,
    },
    /// A block of `malloc`, `calloc` or `realloc`.
    Heap {
        /// Where it was allocated.
        site: Site,
    },
}

/// An object as messages name it: `'int a[10]' (global, 40 bytes)`,
/// `heap block of 24 bytes allocated at site 7`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ObjectDesc {
    /// Its kind.
    pub kind: ObjectKind,
    /// Its declaration as the compiler wrote it (`int a[10]`; a string literal's text with its
    /// quotes); empty for heap blocks.
    pub name: String,
    /// Its size in bytes.
    pub size: u32,
}

impl ObjectDesc {
    fn write(&self, f: &mut dyn fmt::Write, sites: &dyn Fn(Site) -> String) -> fmt::Result {
        let size = bytes(self.size as u64);
        match &self.kind {
            ObjectKind::Global => write!(f, "'{}' (global, {size})", self.name),
            ObjectKind::StringLiteral => write!(f, "string literal {} ({size})", self.name),
            ObjectKind::Local { function } => {
                write!(f, "'{}' (local of function {function}, {size})", self.name)
            }
            ObjectKind::Heap { site } => {
                write!(f, "heap block of {size} allocated at {}", sites(*site))
            }
        }
    }

    /// The description alone, with sites written `site N`.
    pub fn render(&self) -> String {
        let mut s = String::new();
        // Writing to a String cannot fail.
        let _ = self.write(&mut s, &default_site);
        s
    }
}

/// The kind of object a dangling pointer pointed to, when the object itself is no longer
/// known (its slot has been reused since it died).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeadKind {
    /// A heap block, freed.
    Heap,
    /// A local of a function that returned.
    Local,
}

/// Why `free` or `realloc` refused a pointer.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum BadFree {
    /// It points to an object that is not a heap block (a global, a local, a string literal).
    NotHeap(ObjectDesc),
    /// It points inside a heap block, at this offset, not to its start.
    Interior(ObjectDesc, i64),
    /// It points to no object at all (an integer cast to a pointer).
    Invalid(u64),
    /// It points to an object that no longer exists, and whose slot has been reused since.
    Dangling(u64, DeadKind),
}

/// What went wrong. Offsets are in bytes from the start of the object.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FaultKind {
    /// An access through the null pointer (`offset`: the access's offset from it, e.g. a
    /// field's).
    Null {
        /// The access.
        access: Access,
        /// Its offset from the null pointer.
        offset: i64,
    },
    /// An access through a pointer that is not the address of any object (an integer cast to
    /// a pointer, or a pointer computed from null).
    Invalid {
        /// The access.
        access: Access,
        /// The pointer's bits.
        pointer: u64,
    },
    /// An access (partly) outside its object.
    OutOfBounds {
        /// The access.
        access: Access,
        /// The object.
        object: ObjectDesc,
        /// Where the access starts.
        offset: i64,
        /// The first byte outside the object (equal to `offset` for a load or store).
        first_bad: i64,
    },
    /// A load or store of 2, 4 or 8 bytes at an address that is not a multiple of its width.
    Misaligned {
        /// The access.
        access: Access,
        /// The object.
        object: ObjectDesc,
        /// Where the access starts.
        offset: i64,
    },
    /// An access to a heap block after it was freed.
    UseAfterFree {
        /// The access.
        access: Access,
        /// The block.
        object: ObjectDesc,
        /// Where the access starts.
        offset: i64,
        /// Where the block was freed (by `free` or `realloc`).
        freed_at: Site,
    },
    /// An access to a local after its function returned.
    UseAfterReturn {
        /// The access.
        access: Access,
        /// The local.
        object: ObjectDesc,
        /// Where the access starts.
        offset: i64,
    },
    /// An access to a block-scope local after its block ended, while its function still runs
    /// (ASan's stack-use-after-scope).
    UseAfterScope {
        /// The access.
        access: Access,
        /// The local.
        object: ObjectDesc,
        /// Where the access starts.
        offset: i64,
    },
    /// An access through a pointer to an object that no longer exists, when the object is
    /// not known any more (its slot has been reused since it died).
    Dangling {
        /// The access.
        access: Access,
        /// The pointer's bits.
        pointer: u64,
        /// What the object was.
        was: DeadKind,
    },
    /// `free` or `realloc` of a heap block already freed.
    DoubleFree {
        /// `"free"` or `"realloc"`.
        by: &'static str,
        /// The block.
        object: ObjectDesc,
        /// Where it was freed first.
        freed_at: Site,
    },
    /// `free` or `realloc` of a pointer that is not (the start of) a live heap block.
    BadFree {
        /// `"free"` or `"realloc"`.
        by: &'static str,
        /// What the pointer is.
        reason: BadFree,
    },
    /// A format read at run time (`vprintf`'s) that is malformed or uses what the VM's
    /// `printf` does not support.
    BadFormat {
        /// The function.
        by: &'static str,
        /// What is wrong.
        message: String,
    },
    /// A library function whose source and destination overlap (`memcpy`, `strcpy`, ...).
    Overlap {
        /// The function.
        by: &'static str,
        /// The object both ranges are in.
        object: ObjectDesc,
        /// The destination range's start offset.
        dst: i64,
        /// The source range's start offset.
        src: i64,
        /// The destination range's length.
        dst_len: u64,
        /// The source range's length.
        src_len: u64,
    },
    /// An allocation that would take the memory beyond its limit (or whose size does not fit
    /// in the 32-bit address space at all).
    OutOfMemory {
        /// `"malloc"`, `"calloc"` or `"realloc"`.
        by: &'static str,
        /// The number of elements (`calloc`'s first argument; 1 otherwise).
        count: u64,
        /// The size asked for (of each element, for `calloc`).
        size: u64,
        /// The memory limit in bytes.
        limit: u64,
        /// Bytes of heap blocks live at the time.
        in_use: u64,
    },
    /// More objects would exist at once than the object table can name.
    TooManyObjects {
        /// The most that can exist at once.
        limit: u32,
    },
    /// A function's locals do not fit in what is left of the frame region.
    StackOverflow {
        /// The bytes asked for.
        size: u64,
        /// The frame region's size.
        limit: u64,
    },
    /// The globals and the frame region do not fit in the memory limit.
    Layout {
        /// The bytes they need (with the reserved 16).
        needed: u64,
        /// The memory limit.
        limit: u64,
    },
    /// The VM misused this module (a layout outside its region): a bug, never the program's.
    Internal(String),
}

/// A memory fault: the program must stop. See the module docs.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Fault(Box<FaultKind>);

impl Fault {
    /// What went wrong.
    pub fn kind(&self) -> &FaultKind {
        &self.0
    }

    /// The message, with each site written by `sites` (e.g. as `prog.c:12:9`).
    pub fn render(&self, sites: &dyn Fn(Site) -> String) -> String {
        let mut s = String::new();
        // Writing to a String cannot fail.
        let _ = self.write(&mut s, sites);
        s
    }

    fn write(&self, f: &mut dyn fmt::Write, sites: &dyn Fn(Site) -> String) -> fmt::Result {
        if let Some(by) = self.access().and_then(|a| a.by) {
            write!(f, "{by}: ")?;
        }
        match self.kind() {
            FaultKind::Null { access, offset } => {
                write!(f, "null pointer dereference ({}", access.what())?;
                if *offset != 0 {
                    write!(f, " at offset {offset}")?;
                }
                f.write_str(")")
            }
            FaultKind::Invalid { access, pointer } => write!(
                f,
                "{} through invalid pointer {pointer:#x}, the address of no object",
                access.what()
            ),
            FaultKind::OutOfBounds {
                access,
                object,
                offset,
                first_bad,
            } => {
                if access.by.is_none() {
                    write!(f, "out-of-bounds {} at offset {offset} of ", access.what())?;
                    return object.write(f, sites);
                }
                write!(
                    f,
                    "out-of-bounds {} at offset {first_bad} of ",
                    access.kind.noun()
                )?;
                object.write(f, sites)?;
                match (access.size, access.kind) {
                    (AccessSize::String, AccessKind::Read) => write!(
                        f,
                        ": the string at offset {offset} has no terminating null byte within it"
                    ),
                    (AccessSize::String, AccessKind::Write) => {
                        write!(f, " while writing a string from offset {offset}")
                    }
                    (AccessSize::Bytes(n), kind) => write!(
                        f,
                        " while {} {} from offset {offset}",
                        kind.verb(),
                        bytes(n)
                    ),
                }
            }
            FaultKind::Misaligned {
                access,
                object,
                offset,
            } => {
                write!(f, "misaligned {} at offset {offset} of ", access.what())?;
                object.write(f, sites)
            }
            FaultKind::UseAfterFree {
                access,
                object,
                offset,
                freed_at,
            } => {
                write!(f, "{} at offset {offset} of ", access.what())?;
                object.write(f, sites)?;
                write!(f, " after it was freed at {}", sites(*freed_at))
            }
            FaultKind::UseAfterReturn {
                access,
                object,
                offset,
            } => {
                write!(f, "{} at offset {offset} of ", access.what())?;
                object.write(f, sites)?;
                match &object.kind {
                    ObjectKind::Local { function } => write!(f, " after {function} returned"),
                    _ => f.write_str(" after its function returned"),
                }
            }
            FaultKind::UseAfterScope {
                access,
                object,
                offset,
            } => {
                write!(f, "{} at offset {offset} of ", access.what())?;
                object.write(f, sites)?;
                f.write_str(" after the block declaring it ended")
            }
            FaultKind::Dangling {
                access,
                pointer,
                was,
            } => write!(
                f,
                "{} through dangling pointer {pointer:#x}: {}",
                access.what(),
                match was {
                    DeadKind::Heap => "its heap block was freed",
                    DeadKind::Local => "its local's function returned",
                }
            ),
            FaultKind::DoubleFree {
                by,
                object,
                freed_at,
            } => {
                write!(f, "{by}: double free of ")?;
                object.write(f, sites)?;
                write!(f, ", already freed at {}", sites(*freed_at))
            }
            FaultKind::BadFree { by, reason } => match reason {
                BadFree::NotHeap(object) => {
                    write!(f, "{by} of ")?;
                    object.write(f, sites)?;
                    f.write_str(", which is not a heap block")
                }
                BadFree::Interior(object, offset) => {
                    write!(f, "{by} of a pointer to offset {offset} of ")?;
                    object.write(f, sites)?;
                    f.write_str(", not to its start")
                }
                BadFree::Invalid(pointer) => write!(
                    f,
                    "{by} of invalid pointer {pointer:#x}, the address of no object"
                ),
                BadFree::Dangling(pointer, DeadKind::Heap) => write!(
                    f,
                    "{by} of dangling pointer {pointer:#x}: its heap block was already freed"
                ),
                BadFree::Dangling(pointer, DeadKind::Local) => write!(
                    f,
                    "{by} of dangling pointer {pointer:#x}: its local's function returned"
                ),
            },
            FaultKind::Overlap {
                by,
                object,
                dst,
                src,
                dst_len,
                src_len,
            } => {
                write!(
                    f,
                    "{by}: overlapping destination (offsets {dst}..{}) and source (offsets {src}..{}) in ",
                    dst + *dst_len as i64,
                    src + *src_len as i64
                )?;
                object.write(f, sites)
            }
            FaultKind::OutOfMemory {
                by,
                count,
                size,
                limit,
                in_use,
            } => {
                write!(f, "out of memory: {by} of ")?;
                if *count != 1 || *by == "calloc" {
                    write!(f, "{count} x {}", bytes(*size))?;
                } else {
                    f.write_str(&bytes(*size))?;
                }
                write!(
                    f,
                    " exceeds the memory limit of {limit} bytes ({in_use} bytes of heap blocks in use; see --max-memory)"
                )
            }
            FaultKind::TooManyObjects { limit } => write!(
                f,
                "too many objects: at most {limit} (globals, locals whose address is taken and heap blocks) can exist at once"
            ),
            FaultKind::StackOverflow { size, limit } => write!(
                f,
                "stack overflow: {} of locals do not fit in the {limit}-byte frame region (see --stack-size)",
                bytes(*size)
            ),
            FaultKind::Layout { needed, limit } => write!(
                f,
                "the globals and the frame region need {needed} bytes, more than the memory limit of {limit} bytes"
            ),
            FaultKind::BadFormat { by, message } => write!(f, "invalid format of {by}: {message}"),
            FaultKind::Internal(message) => write!(f, "internal error: {message}"),
        }
    }

    /// The access the fault is about, if it is about one.
    pub fn access(&self) -> Option<&Access> {
        match self.kind() {
            FaultKind::Null { access, .. }
            | FaultKind::Invalid { access, .. }
            | FaultKind::OutOfBounds { access, .. }
            | FaultKind::Misaligned { access, .. }
            | FaultKind::UseAfterFree { access, .. }
            | FaultKind::UseAfterReturn { access, .. }
            | FaultKind::UseAfterScope { access, .. }
            | FaultKind::Dangling { access, .. } => Some(access),
            _ => None,
        }
    }
}

impl FaultKind {
    /// The fault of this kind.
    pub fn into_fault(self) -> Fault {
        self.into()
    }
}

impl From<FaultKind> for Fault {
    fn from(kind: FaultKind) -> Fault {
        Fault(Box::new(kind))
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, &default_site)
    }
}

impl fmt::Debug for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fault({self})")
    }
}

impl std::error::Error for Fault {}

/// `site 7`: how a site reads without the interpreter's locations.
fn default_site(site: Site) -> String {
    format!("site {site}")
}

/// `1 byte`, `24 bytes`.
fn bytes(n: u64) -> String {
    if n == 1 {
        "1 byte".to_string()
    } else {
        format!("{n} bytes")
    }
}
