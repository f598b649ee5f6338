//! The library functions that work through pointers, as the interpreter runs them: the
//! `Lib` instruction (`<string.h>`, `malloc` and friends, `puts` of any string), `Sprintf`,
//! and the strings `printf` reads for `%s`. Every byte they touch is checked against its
//! object by [`crate::memory`], so a bad argument is a runtime error naming the object and
//! offset, never a corrupted heap.
//!
//! Heap blocks remember where they were allocated and freed as *sites*: [`AllocSites`] numbers
//! the call sites (function and source location) the first time each allocates or frees, and
//! writes them back as `file:line:col` in messages and the leak report.

use hashbrown::HashMap;
use lang::builtins::long_double::{LdOp, LongDouble};
use lang::builtins::memory::MemFn;
use lang::bytecode::{FuncIdx, Loc, Program, Site, SiteArg};
use lang::hir::CompareOp;
use lang::printf_format::{ArgKind, Conv, Piece, Spec};
use smallvec::SmallVec;

use crate::memory::{ptr_add, Fault, FaultKind, Memory};
use crate::printf::{self, PrintfArg};

/// The call sites that allocated or freed heap blocks, numbered in order of first use.
#[derive(Clone, Debug, Default)]
pub struct AllocSites {
    sites: Vec<(FuncIdx, Loc)>,
    ids: HashMap<(FuncIdx, Loc), u32>,
}

impl AllocSites {
    /// The number of the call site at `loc` of `func`.
    pub fn id(&mut self, func: FuncIdx, loc: Loc) -> u32 {
        *self.ids.entry((func, loc)).or_insert_with(|| {
            self.sites.push((func, loc));
            self.sites.len() as u32 - 1
        })
    }

    /// Site `site` as `file:line:col`.
    pub fn describe(&self, program: &Program, site: u32) -> String {
        match self.sites.get(site as usize) {
            Some(&(func, loc)) => {
                let f = &program.functions[func.index()];
                let file = program
                    .files
                    .get(f.file as usize)
                    .map_or("", String::as_str);
                format!("{file}:{loc}")
            }
            None => format!("site {site}"),
        }
    }

    /// The message of `fault`, with its sites as `file:line:col`.
    pub fn render(&self, program: &Program, fault: &Fault) -> String {
        fault.render(&|site| self.describe(program, site))
    }
}

/// Runs the library function `f` on the arguments in `args[0..]` (as many as its C
/// signature has), leaving its result in `args[0]` (in the register form of its type; 0 for
/// `free`). `site` numbers the call for the heap's records; `out` takes what `puts` writes.
pub fn call(
    memory: &mut Memory,
    out: &mut Vec<u8>,
    f: MemFn,
    args: &mut [u64],
    site: u32,
) -> Result<(), Fault> {
    let int = |v: i32| v as i64 as u64;
    let result = match f {
        MemFn::Memcpy => memory.memcpy(args[0], args[1], args[2])?,
        MemFn::Memmove => memory.memmove(args[0], args[1], args[2])?,
        MemFn::Memset => memory.memset(args[0], args[1] as i32, args[2])?,
        MemFn::Memcmp => int(memory.memcmp(args[0], args[1], args[2])?),
        MemFn::Strlen => memory.strlen(args[0])?,
        MemFn::Strcpy => memory.strcpy(args[0], args[1])?,
        MemFn::Strncpy => memory.strncpy(args[0], args[1], args[2])?,
        MemFn::Strcmp => int(memory.strcmp(args[0], args[1])?),
        MemFn::Strncmp => int(memory.strncmp(args[0], args[1], args[2])?),
        MemFn::Strcat => memory.strcat(args[0], args[1])?,
        MemFn::Strchr => memory.strchr(args[0], args[1] as i32)?,
        MemFn::Strrchr => memory.strrchr(args[0], args[1] as i32)?,
        MemFn::Strstr => memory.strstr(args[0], args[1])?,
        MemFn::Strncat => memory.strncat(args[0], args[1], args[2])?,
        MemFn::Memchr => memory.memchr(args[0], args[1] as i32, args[2])?,
        MemFn::Malloc => memory.malloc(args[0], site)?,
        MemFn::Calloc => memory.calloc(args[0], args[1], site)?,
        MemFn::Realloc => memory.realloc(args[0], args[1], site)?,
        MemFn::Free => {
            memory.free(args[0], site)?;
            0
        }
        MemFn::Puts => {
            let text = memory.read_c_string(args[0], "puts")?;
            out.extend_from_slice(text);
            out.push(b'\n');
            // glibc's `puts` returns the number of bytes written.
            int((text.len() + 1).min(i32::MAX as usize) as i32)
        }
        // Library code in C (the prelude): the compiler never emits it as an instruction, and
        // the verifier refuses it.
        MemFn::Qsort => 0,
        // Stops the run: the interpreter reports it with [`assertion`] before calling here.
        MemFn::AssertFail | MemFn::Abort => 0,
        MemFn::Vprintf => {
            let before = out.len();
            vformat(memory, args[0], args[1], "vprintf", out)?;
            int((out.len() - before).min(i32::MAX as usize) as i32)
        }
        MemFn::Vsprintf | MemFn::Vsnprintf => {
            let bounded = f == MemFn::Vsnprintf;
            let by = f.name();
            let first = 1 + usize::from(bounded);
            let mut text = Vec::new();
            vformat(memory, args[first], args[first + 1], by, &mut text)?;
            if bounded {
                memory.write_c_string_bounded(args[0], args[1], &text, by)?;
            } else {
                memory.write_c_string(args[0], &text, by)?;
            }
            int(text.len().min(i32::MAX as usize) as i32)
        }
        MemFn::LdArith
        | MemFn::LdNeg
        | MemFn::LdCompare
        | MemFn::LdFromLong
        | MemFn::LdFromULong
        | MemFn::LdFromDouble
        | MemFn::LdToLong
        | MemFn::LdToULong
        | MemFn::LdToDouble
        | MemFn::LdToFloat => long_double_call(memory, f, args)?,
    };
    args[0] = result;
    Ok(())
}

/// The `long double` operations the checker lowers arithmetic to ([`MemFn::LdArith`] ...):
/// the result in register form. Never inlined: inlined into [`call`], its locals made every
/// library call's frame larger (0.1-0.2% more instructions on the twins that call the
/// string and heap functions most).
#[inline(never)]
fn long_double_call(memory: &mut Memory, f: MemFn, args: &[u64]) -> Result<u64, Fault> {
    let by = f.name();
    let stored = |memory: &mut Memory, value: LongDouble| {
        memory.write_long_double(args[0], value, by).map(|()| 0)
    };
    let load_long_double = |memory: &Memory, p: u64| memory.read_long_double(p, by);
    match f {
        MemFn::LdArith => {
            let a = load_long_double(memory, args[1])?;
            let b = load_long_double(memory, args[2])?;
            let op = LdOp::from_code(args[3] as i32 as i64).unwrap_or(LdOp::Add);
            stored(memory, a.arith(op, b))
        }
        MemFn::LdNeg => {
            let a = load_long_double(memory, args[1])?;
            stored(memory, a.negated())
        }
        MemFn::LdCompare => {
            let a = load_long_double(memory, args[0])?;
            let b = load_long_double(memory, args[1])?;
            let op = CompareOp::from_code(args[2] as i32 as i64).unwrap_or(CompareOp::Eq);
            Ok(u64::from(op.holds(a.compare(b))))
        }
        MemFn::LdFromLong => stored(memory, LongDouble::from_i64(args[1] as i64)),
        MemFn::LdFromULong => stored(memory, LongDouble::from_u64(args[1])),
        MemFn::LdFromDouble => stored(memory, LongDouble::from_f64(f64::from_bits(args[1]))),
        MemFn::LdToLong => Ok(load_long_double(memory, args[0])?.to_i64() as u64),
        MemFn::LdToULong => Ok(load_long_double(memory, args[0])?.to_u64()),
        MemFn::LdToDouble => Ok(load_long_double(memory, args[0])?.to_f64().to_bits()),
        // The register form of a float is the double equal to it.
        MemFn::LdToFloat => Ok(f64::from(load_long_double(memory, args[0])?.to_f32()).to_bits()),
        // Only the operations above reach here (see `call`).
        _ => Ok(0),
    }
}

/// `printf` of the format string at `format` (read and parsed at run time) with the
/// arguments in the 8-byte slots from `ap` (`<stdarg.h>`'s block: integers sign- or
/// zero-extended to 8 bytes, doubles, pointers), appending to `out`. Every slot read is a
/// checked access: a conversion without its argument reads past the block and is an
/// out-of-bounds error naming it.
fn vformat(
    memory: &Memory,
    format: u64,
    ap: u64,
    by: &'static str,
    out: &mut Vec<u8>,
) -> Result<(), Fault> {
    let text = memory.read_c_string(format, by)?.to_vec();
    let pieces = lang::printf_format::parse(&text).map_err(|e| {
        Fault::from(FaultKind::BadFormat {
            by,
            message: e.to_string(),
        })
    })?;
    let kinds: Vec<(&Spec, ArgKind)> = lang::printf_format::arguments(&pieces);
    // The slots first (each a checked 8-byte read; a `long double` takes two, its 16
    // bytes), then the strings they point to.
    let mut slots = Vec::with_capacity(kinds.len());
    let mut long_doubles = Vec::new();
    let mut offset = 0i64;
    for (_, kind) in &kinds {
        if *kind == ArgKind::LongDouble {
            long_doubles.push(memory.read_long_double(ptr_add(ap, offset), by)?);
            slots.push(0);
            offset += 16;
        } else {
            slots.push(memory.load_u64(ap, offset)?);
            offset += 8;
        }
    }
    let mut strings: Vec<&[u8]> = Vec::new();
    for (i, (spec, kind)) in kinds.iter().enumerate() {
        if *kind == ArgKind::Str {
            // `%.*s`: the precision is the slot before the string's.
            let precision = if spec.precision_star {
                i.checked_sub(1)
                    .and_then(|k| u64::try_from(slots[k] as i32).ok())
            } else {
                spec.precision.map(u64::from)
            };
            let s = match precision {
                Some(max) => memory.read_c_string_max(slots[i], max, by)?,
                None => memory.read_c_string(slots[i], by)?,
            };
            strings.push(s);
        }
    }
    let mut values: Vec<PrintfArg<'_>> = Vec::with_capacity(kinds.len());
    let mut string = 0;
    let mut long_double = long_doubles.into_iter();
    for (i, (_, kind)) in kinds.iter().enumerate() {
        let v = slots[i];
        values.push(match kind {
            ArgKind::LongDouble => {
                PrintfArg::LongDouble(long_double.next().unwrap_or(LongDouble::ZERO))
            }
            ArgKind::Int | ArgKind::Char => PrintfArg::Int(i64::from(v as i32)),
            ArgKind::UInt => PrintfArg::UInt(u64::from(v as u32)),
            ArgKind::Long => PrintfArg::Int(v as i64),
            ArgKind::ULong | ArgKind::Pointer | ArgKind::None => PrintfArg::UInt(v),
            ArgKind::Double => PrintfArg::Double(f64::from_bits(v)),
            ArgKind::Str => {
                string += 1;
                PrintfArg::Str(strings[string - 1])
            }
        });
    }
    printf::format(&pieces, &values, out);
    Ok(())
}

/// The message of a failed `assert` from the arguments of `__assert_fail(assertion, file,
/// line, function)`: "assertion `e` failed at file:line in function `f`".
pub fn assertion(memory: &Memory, args: &[u64]) -> Result<String, Fault> {
    let text = |p: u64| -> Result<String, Fault> {
        Ok(String::from_utf8_lossy(memory.read_c_string(p, "__assert_fail")?).into_owned())
    };
    let expression = text(args[0])?;
    let file = text(args[1])?;
    let function = text(args[3])?;
    Ok(format!(
        "assertion `{expression}` failed at {file}:{} in function `{function}`",
        args[2] as u32
    ))
}

/// A `%s` conversion and the index of the argument giving its `.*` precision, if any.
type StringArgument<'f> = Option<(&'f Spec, Option<usize>)>;

/// For each argument of `format`, in order: the `%s` conversion whose string it is, if it is
/// one (see [`StringArgument`]).
fn string_arguments(format: &[Piece]) -> SmallVec<[StringArgument<'_>; 8]> {
    let mut out: SmallVec<[StringArgument<'_>; 8]> = SmallVec::new();
    for p in format {
        if let Piece::Conversion(s) = p {
            if s.conv == Conv::Percent {
                continue;
            }
            if s.width_star {
                out.push(None);
            }
            let precision = s.precision_star.then(|| {
                out.push(None);
                out.len() - 1
            });
            out.push((s.conv == Conv::Str).then_some((s, precision)));
        }
    }
    out
}

/// Formats `format` with the arguments of `site_args`, whose registers are `regs[0..]`, as
/// `printf` does, appending to `out`. A `%s` of a pointer reads its string (checked, up to
/// the precision if there is one).
pub fn format(
    memory: &Memory,
    format: &[Piece],
    site_args: &[SiteArg],
    regs: &[u64],
    out: &mut Vec<u8>,
) -> Result<(), Fault> {
    let strings_of = string_arguments(format);
    let is_string = |i: usize| strings_of.get(i).is_some_and(Option::is_some);
    // The register of each argument (a literal string has none).
    let mut reg_of: SmallVec<[usize; 8]> = SmallVec::new();
    let mut next = 0;
    for a in site_args {
        reg_of.push(next);
        if !matches!(a, SiteArg::Str(_)) {
            next += 1;
        }
    }
    // The strings pointers point to, read first (the values borrow them), each up to its
    // precision if it has one (then it needs no terminating NUL).
    let mut strings: SmallVec<[&[u8]; 2]> = SmallVec::new();
    for (i, a) in site_args.iter().enumerate() {
        if let (SiteArg::Ptr, Some(Some((spec, star)))) = (a, strings_of.get(i)) {
            let precision = match star {
                Some(k) => u64::try_from(regs[reg_of[*k]] as i32).ok(),
                None => spec.precision.map(u64::from),
            };
            let p = regs[reg_of[i]];
            let s = match precision {
                Some(max) => memory.read_c_string_max(p, max, "printf")?,
                None => memory.read_c_string(p, "printf")?,
            };
            strings.push(s);
        }
    }
    // A `long double` argument is the address of its bytes: read them for its conversion.
    // (Which arguments are, worked out only for a format with an `L` conversion.)
    let long_doubles: Option<SmallVec<[bool; 8]>> = format
        .iter()
        .any(|p| {
            matches!(p, Piece::Conversion(s) if s.length == lang::printf_format::Length::LongDouble)
        })
        .then(|| {
            lang::printf_format::arguments(format)
                .iter()
                .map(|(_, k)| *k == ArgKind::LongDouble)
                .collect()
        });
    let long_double_at = |i: usize| {
        long_doubles
            .as_ref()
            .is_some_and(|l| l.get(i).copied().unwrap_or(false))
    };
    let mut values: SmallVec<[PrintfArg<'_>; 8]> = SmallVec::new();
    let mut next = 0;
    let mut string = 0;
    for (i, a) in site_args.iter().enumerate() {
        if matches!(a, SiteArg::Ptr) && long_double_at(i) {
            let x = memory.read_long_double(regs[next], "printf")?;
            values.push(PrintfArg::LongDouble(x));
            next += 1;
            continue;
        }
        let v = match a {
            SiteArg::Str(s) => {
                values.push(PrintfArg::Str(s));
                continue;
            }
            SiteArg::Int => PrintfArg::Int(regs[next] as i64),
            SiteArg::UInt => PrintfArg::UInt(regs[next]),
            SiteArg::Double => PrintfArg::Double(f64::from_bits(regs[next])),
            SiteArg::Ptr if is_string(i) => {
                string += 1;
                PrintfArg::Str(strings[string - 1])
            }
            SiteArg::Ptr => PrintfArg::UInt(regs[next]),
        };
        next += 1;
        values.push(v);
    }
    printf::format(format, &values, out);
    Ok(())
}

/// `printf` with site `site` and its argument registers `regs[0..]`: appends to `out`.
pub fn printf(memory: &Memory, site: &Site, regs: &[u64], out: &mut Vec<u8>) -> Result<(), Fault> {
    match site {
        Site::Printf { format: f, args } => format(memory, f, args, regs, out),
        _ => Ok(()),
    }
}

/// `sprintf(buffer, ...)` or `snprintf(buffer, limit, ...)` with site `site`: the buffer (and
/// the limit) in `regs[0]` (`regs[1]`), the arguments after them. Leaves the length of the
/// whole output (an `int`) in `regs[0]`.
pub fn sprintf(memory: &mut Memory, site: &Site, regs: &mut [u64]) -> Result<(), Fault> {
    let Site::Sprintf {
        bounded,
        format: f,
        args,
    } = site
    else {
        return Ok(());
    };
    let first = 1 + usize::from(*bounded);
    let mut text = Vec::new();
    format(memory, f, args, &regs[first..], &mut text)?;
    if *bounded {
        memory.write_c_string_bounded(regs[0], regs[1], &text, "snprintf")?;
    } else {
        memory.write_c_string(regs[0], &text, "sprintf")?;
    }
    regs[0] = text.len().min(i32::MAX as usize) as i32 as i64 as u64;
    Ok(())
}
