//! The interpreter: one `loop { match }` over the bytecode, generic over [`Probes`].
//!
//! ## State
//! * `stack`: the register stack, untyped 64-bit slots. The running frame's window is
//!   `stack[base .. base + num_regs]`; a call's window starts at the caller's argument register
//!   (see [`lang::bytecode`]), so arguments are never copied. The loop addresses the window
//!   through a raw pointer `regs`.
//! * `Machine::mem`: the [`Memory`] of bytes (`u32` byte addresses, every value in its C
//!   representation, see [`lang::bytecode`]): the globals, then the array stack;
//!   `Machine::abase` is the running frame's array area and `Machine::atop` the top of the
//!   array stack (byte addresses). Loads extend memory's C values to the registers' canonical
//!   64-bit forms (`LdE32S`: sign-extend 4 bytes; `LdEF32`: binary32 to the double the
//!   register holds) and stores truncate (`StE8`: the low byte).
//! * `Machine::frames`: the callers of the running frame (return pc, window, array area, code
//!   version). Calls and returns push and pop it; after warm-up they never allocate.
//! * Only the hottest values are locals of the loop: the code pointer, pc, the window pointer
//!   and the function's tables. Everything else lives in the [`Machine`], so the compiler can
//!   keep those few in machine registers (measured: keeping the memory vector and the frame
//!   offsets as locals made LLVM spill the window pointer, costing ~40% on every benchmark).
//! * Dispatch loads only the opcode: the loop matches on a reference to the instruction, so
//!   each arm reads just the operands it uses. Copying the whole instruction first made LLVM
//!   decode every operand field into registers before the jump, for every instruction
//!   (measured with callgrind on the twin benchmarks: 7% to 11% more instructions without
//!   probes, 10% to 19% with `bl`, whose loop ran a register short).
//!
//! ## Code versions and on-stack replacement
//! Code is held in [`Version`]s (instructions, source locations, jump tables), boxed in
//! [`Machine::versions`] and never moved or freed while the program runs; `Machine::entry[f]`
//! names the version new calls of `f` use. A frame holds a pointer to its version, so a frame
//! can switch versions (OSR) when [`Probes::on_back_edge`] asks for it, and different
//! activations of one function may run different versions. Issue 4's tier-up adds a version
//! (an instrumented copy) and repoints `entry`.
//!
//! ## Safety
//! Registers are read and written without bounds checks in release builds. This relies on the
//! verifier ([`lang::bytecode::verify`]): every register operand is below the function's
//! `num_regs`, and the loop keeps `stack.len() >= base + num_regs` for the running frame
//! (checked on entry of every call). Jump targets are verified too, and the last instruction of
//! every version never falls through, so `pc` always indexes the code. Global scalars are
//! accessed without bounds checks too: the verifier proves every `GetG*`/`SetG*` lies inside
//! the globals, which the memory always holds. An array element's address comes from a
//! register, so its access is checked against the end of memory (one comparison: see
//! [`crate::byte_memory`]), after the language's own index check; failing it is a VM bug and
//! panics.

mod array_params;

use std::io::Write;

use hashbrown::HashMap;
use lang::builtins::memory::MemFn;
use lang::bytecode::{
    ArrayRef, FuncIdx, Function, Instr, JumpTable, Loc, MathFn, PairIdx, Pc, Program, Shape, Site,
    FRAME_OBJECT_INDEX, SCOPE_BEGIN, SCOPE_END,
};

use lang::bytecode::verify::{verify_instrumented, Body, ProbeTables, VerifyError};

use crate::branch_counts::{BranchCounts, Counters};
use crate::byte_memory::Memory as Store;
use crate::memory::{AccessKind, Decl, DeclId, DeclKind, Memory, MemoryOptions};
use crate::memory_calls::AllocSites;
use crate::probes::{Hooks, ModeFlags, Osr, Probes, Shared};
use crate::trap::{TraceEntry, Trap, TrapKind};
use crate::version::Version;

/// What a call needs to know about its callee, in one place (one load per call).
#[derive(Clone, Copy, Debug)]
struct Callee {
    /// The version new calls run (`Machine::entry`).
    version: *const Version,
    num_params: u16,
    num_locals: u16,
    num_regs: u16,
    array_bytes: u32,
}

/// A suspended caller.
#[derive(Clone, Copy, Debug)]
struct Frame {
    version: *const Version,
    ret_pc: usize,
    base: usize,
    abase: usize,
    /// The caller's path register (restored on return only in modes whose frames keep one:
    /// `ModeFlags::frame_paths`).
    path: u64,
    /// Whether the caller's next path end is dropped (it entered its code by OSR mid-path).
    pending: bool,
}

/// Flush the output buffer to the writer once it holds this many bytes.
const OUT_FLUSH: usize = 1 << 16;

/// A frame still running when the run ended ([`Machine::live_frames`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LiveFrame {
    /// Its function.
    pub func: FuncIdx,
    /// The index of the code version it runs.
    pub version: u32,
    /// The instruction it stands at.
    pub pc: Pc,
}

/// How a run ended without a trap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// `main` returned this value.
    Return(i32),
    /// `exit(n)` was called with this argument.
    Exit(i32),
}

impl Exit {
    /// The process exit status (`value & 255`).
    pub fn status(self) -> i32 {
        match self {
            Exit::Return(v) | Exit::Exit(v) => v & 255,
        }
    }
}

/// The machine: program, code versions, stacks, memory and output buffer.
pub struct Machine<'p> {
    /// The program being run.
    pub program: &'p Program,
    /// Where the running frame stood when the run stopped by a trap (its version and the pc
    /// it would have run next had it gone on; see [`Machine::live_frames`]), `None` otherwise.
    stopped_at: Option<(*const Version, usize)>,
    /// Where the loop resumes when it starts again (the version and pc of the running frame)
    /// after stopping for work it leaves to the machine ([`array_params`]); `None`: it starts
    /// `main`.
    resume: Option<(*const Version, usize)>,
    /// The pointers that dangling array references stand for ([`array_params`]).
    dangling_arrays: array_params::DanglingArrays,
    /// The running mode's step cursor ([`Probes::step_cursor`]), null if it has none: the
    /// `Probe` handler runs the common step of its table itself ([`crate::step_table`]).
    step_cursor: *mut crate::step_table::StepCursor,
    /// Every code version; never shrinks while running (frames point into the boxes).
    pub versions: Vec<Box<Version>>,
    /// For each function, the index of the version new calls use (change with
    /// [`Machine::set_entry`]).
    entry: Vec<u32>,
    /// Per function: the entry version and frame layout.
    callees: Vec<Callee>,
    /// The branch counters of the compiled versions.
    branch_counts: BranchCounts,
    /// Maximum number of active frames (main counts as 1).
    pub max_depth: u32,
    /// Program output not yet written to the writer.
    pub out: Vec<u8>,
    stack: Vec<u64>,
    /// The checked memory: the bytes (globals, the array stack, the heap), the objects
    /// pointers may point to (globals, string literals, frame objects, heap blocks) with the
    /// checks of every access through a pointer, and `malloc`'s heap.
    memory: Memory,
    frames: Vec<Frame>,
    /// The running frame's cold state, kept in memory so the dispatch loop's registers go to
    /// the hot values (code, pc, register window): window start, array area, array stack top.
    base: usize,
    abase: usize,
    atop: usize,
    /// Set when writing to the output failed (further output is discarded).
    pub write_failed: bool,
    /// The running frame's path register (modes with `P::PATHS`; `ipp` runs one register
    /// through calls).
    path: u64,
    /// Whether the running frame's next path end is dropped (it entered by OSR mid-path).
    pending: bool,
    /// The state of `rand` and `srand`.
    rand: crate::rand::GlibcRand,
    /// Per function, the declarations of its frame objects (for messages).
    frame_decls: Vec<Vec<DeclId>>,
    /// The frames that registered frame objects: frame depth and the object depth to return
    /// to when that frame returns.
    frame_marks: Vec<(usize, usize)>,
    /// The call sites that allocated or freed heap blocks (for messages).
    alloc_sites: AllocSites,
    /// Profiling modes: the calls through function pointers, by calling function, call
    /// site and callee.
    indirect_calls: HashMap<(FuncIdx, Loc, FuncIdx), u64>,
    /// The instructions the program may still execute (`--max-steps`, charged by the `Fuel`
    /// instructions of a metered program: [`lang::bytecode::meter`]).
    steps_left: u64,
    /// The `--max-steps` limit, for the message when it is reached.
    max_steps: u64,
    /// What the running mode asks of the loop ([`Machine::set_mode`]).
    mode: ModeFlags,
}

impl<'p> Machine<'p> {
    /// A machine for a verified `program`, with one version (the compiled code) per function,
    /// and memory as large as the address space allows (at most [`DEFAULT_STACK_SIZE`] of
    /// array stack, no heap limit below the 4 GiB of addresses).
    ///
    /// [`DEFAULT_STACK_SIZE`]: crate::memory::DEFAULT_STACK_SIZE
    pub fn new(program: &'p Program, max_depth: u32) -> Machine<'p> {
        let globals_end = u64::from(program.globals_end).next_multiple_of(16);
        let room = u64::from(crate::memory::MAX_MEMORY).saturating_sub(globals_end);
        let options = MemoryOptions {
            globals_size: 0,
            stack_size: u64::from(crate::memory::DEFAULT_STACK_SIZE).min(room) as u32 & !15,
            max_memory: crate::memory::MAX_MEMORY,
        };
        Machine::with_memory(program, max_depth, options)
            .expect("a verified program's globals fit in the address space")
    }

    /// A machine for a verified `program` with the array stack size and memory limit of
    /// `options` (its `globals_size` is the program's); the error if the program's globals
    /// and the stack do not fit in the limit.
    pub fn with_memory(
        program: &'p Program,
        max_depth: u32,
        options: MemoryOptions,
    ) -> Result<Machine<'p>, String> {
        let branch_counts = BranchCounts::new(program);
        let versions: Vec<Box<Version>> = program
            .functions
            .iter()
            .enumerate()
            .map(|(i, f)| {
                Box::new(Version {
                    func: FuncIdx(i as u16),
                    code: f.code.clone().into_boxed_slice(),
                    locs: f.locs.clone().into_boxed_slice(),
                    tables: f.tables.clone().into_boxed_slice(),
                    probe_consts: Box::new([]),
                    path_end_pairs: Box::new([]),
                    instrumented: false,
                    tier0: false,
                    calls_hooked: false,
                    block_start: Box::new([]),
                    counters: branch_counts.of(FuncIdx(i as u16)).clone(),
                    dense: Default::default(),
                })
            })
            .collect();
        let entry = (0..versions.len() as u32).collect();
        let options = MemoryOptions {
            globals_size: program.globals_end.saturating_sub(crate::memory::RESERVED),
            ..options
        };
        let mut memory =
            Memory::with_image(&program.memory_init, options).map_err(|f| f.to_string())?;
        let objects = &mut memory.objects;
        for (i, o) in program.static_objects.iter().enumerate() {
            let kind = if i < program.globals.len() {
                DeclKind::Global
            } else {
                DeclKind::StringLiteral
            };
            let decl = objects.declare(Decl {
                kind,
                name: o.name.clone(),
            });
            let p = objects.add_static(decl, o.addr, o.size);
            debug_assert_eq!(
                p.ok(),
                Some(lang::bytecode::static_pointer(i, o.addr)),
                "static objects are registered in the compiler's order"
            );
        }
        let frame_decls = program
            .functions
            .iter()
            .map(|f| {
                f.frame_objects
                    .iter()
                    .map(|o| {
                        objects.declare(Decl {
                            kind: DeclKind::Local {
                                function: f.name.clone(),
                            },
                            name: o.name.clone(),
                        })
                    })
                    .collect()
            })
            .collect();
        let callees = program
            .functions
            .iter()
            .zip(&versions)
            .map(|(f, v)| Callee {
                version: &**v,
                num_params: f.num_params,
                num_locals: f.num_locals,
                num_regs: f.num_regs,
                array_bytes: f.array_bytes,
            })
            .collect();
        Ok(Machine {
            program,
            versions,
            entry,
            callees,
            branch_counts,
            max_depth: max_depth.max(1),
            out: Vec::with_capacity(OUT_FLUSH * 2),
            stack: Vec::new(),
            memory,
            frame_decls,
            frame_marks: Vec::new(),
            alloc_sites: AllocSites::default(),
            indirect_calls: HashMap::new(),
            steps_left: u64::MAX,
            max_steps: u64::MAX,
            frames: Vec::new(),
            base: 0,
            abase: 0,
            atop: 0,
            write_failed: false,
            rand: crate::rand::GlibcRand::default(),
            path: 0,
            pending: false,
            mode: ModeFlags::default(),
            stopped_at: None,
            resume: None,
            dangling_arrays: Default::default(),
            step_cursor: std::ptr::null_mut(),
        })
    }

    /// The memory's bytes (globals, then the array stack as far as it ever grew), each value
    /// in its C representation.
    pub fn memory(&self) -> &[u8] {
        self.memory.store.bytes()
    }

    /// The heap blocks never freed, as a report naming where they were allocated (`None`
    /// if every block was freed).
    pub fn leak_report(&self) -> Option<String> {
        let leaks = self.memory.leaks();
        (leaks.blocks > 0)
            .then(|| leaks.render(&|site| self.alloc_sites.describe(self.program, site)))
    }

    /// The calls through function pointers so far (profiling modes only): calling function,
    /// call site, callee and count, in that order.
    pub fn indirect_calls(&self) -> Vec<(FuncIdx, Loc, FuncIdx, u64)> {
        let mut calls: Vec<_> = self
            .indirect_calls
            .iter()
            .map(|(&(caller, loc, callee), &n)| (caller, loc, callee, n))
            .collect();
        calls.sort_unstable();
        calls
    }

    /// The branch counters of the compiled versions (shared: they keep counting).
    pub fn branch_counts(&self) -> &BranchCounts {
        &self.branch_counts
    }

    /// The version new calls of `f` run.
    pub fn entry(&self, f: FuncIdx) -> u32 {
        self.entry[f.index()]
    }

    /// Adds a code version of `version.func` and returns its index; it keeps its counters if
    /// they cover its code (else gets fresh ones). The version is verified
    /// with the function's frame layout (registers, arrays, constants, shapes, sites), the
    /// program's functions and globals and its own probe constants, so the loop may trust it
    /// like the compiled code.
    pub fn add_version(&mut self, mut version: Version) -> Result<u32, VerifyError> {
        let func = self
            .program
            .functions
            .get(version.func.index())
            .ok_or_else(|| VerifyError {
                function: format!("{}", version.func),
                pc: None,
                message: "no such function".into(),
            })?;
        let body = Body {
            code: &version.code,
            locs: &version.locs,
            tables: &version.tables,
        };
        let tables = ProbeTables {
            consts: version.probe_consts.len(),
            pairs: version.path_end_pairs.len(),
        };
        verify_instrumented(self.program, func, body, Some(tables))?;
        // Counters made for this code stay (a mode may keep a handle to read them); any other
        // size is replaced by fresh ones.
        if version.counters.len() != 2 * version.code.len() {
            version.counters = Counters::new(version.code.len());
        }
        version.tier0 = self.mode.tier0_hooks(version.instrumented);
        version.calls_hooked = self.mode.call_hooks(version.instrumented);
        self.versions.push(Box::new(version));
        Ok((self.versions.len() - 1) as u32)
    }

    /// Prepares the machine for a run under the mode whose flags are `mode`: every version
    /// gets its tier-0 hook flags, and in a mode that counts branch outcomes every conditional
    /// branch of the compiled versions becomes its counted twin (in any other mode, its plain
    /// self again). Called before the loop starts ([`execute`] does).
    pub fn set_mode(&mut self, mode: ModeFlags) {
        self.mode = mode;
        self.stopped_at = None;
        self.step_cursor = std::ptr::null_mut();
        for v in &mut self.versions {
            v.tier0 = mode.tier0_hooks(v.instrumented);
            v.calls_hooked = mode.call_hooks(v.instrumented);
            if !v.instrumented {
                for ins in v.code.iter_mut() {
                    let twin = if mode.counts {
                        ins.counted()
                    } else {
                        ins.uncounted()
                    };
                    if let Some(twin) = twin {
                        *ins = twin;
                    }
                }
            }
        }
    }

    /// Makes new calls of `f` run version `v` (frames already running keep theirs until an
    /// on-stack replacement).
    pub fn set_entry(&mut self, f: FuncIdx, v: u32) {
        self.entry[f.index()] = v;
        self.callees[f.index()].version = &*self.versions[v as usize];
    }

    /// Limits the run to `max` instructions (`--max-steps`); the program must have been
    /// metered ([`lang::bytecode::meter::meter`]), whose `Fuel` instructions charge them.
    pub fn set_max_steps(&mut self, max: u64) {
        self.steps_left = max;
        self.max_steps = max;
    }

    /// Writes the buffered output to `w` and flushes it.
    pub fn flush(&mut self, w: &mut dyn Write) {
        if !self.write_failed && (w.write_all(&self.out).is_err() || w.flush().is_err()) {
            self.write_failed = true;
        }
        self.out.clear();
    }

    fn flush_if_full(&mut self, w: &mut dyn Write) {
        if self.out.len() >= OUT_FLUSH {
            if !self.write_failed && w.write_all(&self.out).is_err() {
                self.write_failed = true;
            }
            self.out.clear();
        }
    }

    /// The frames still running when the run ended, innermost first: after `exit` the callers
    /// of the frame that called it (that frame reached its exit), after a trap also the
    /// trapping frame; none after `main` returned. Each with the version it runs and where it
    /// stands: the block of [`LiveFrame::pc`] is the one it entered last (a caller's call
    /// instruction; for the trapping frame the instruction that trapped, or the target of the
    /// backward jump it was taking when a signal stopped it).
    pub fn live_frames(&self) -> Vec<LiveFrame> {
        let index_of = |v: *const Version| {
            self.versions
                .iter()
                .position(|x| std::ptr::eq(&**x, v))
                .expect("frames run versions of this machine") as u32
        };
        let mut out = Vec::with_capacity(self.frames.len() + 1);
        let mut push = |v: *const Version, pc: usize| {
            // SAFETY: versions are boxed in `self.versions` and never freed while running.
            let func = unsafe { (*v).func };
            out.push(LiveFrame {
                func,
                version: index_of(v),
                pc: Pc(pc as u16),
            });
        };
        if let Some((v, pc)) = self.stopped_at {
            push(v, pc);
        }
        for f in self.frames.iter().rev() {
            push(f.version, f.ret_pc - 1);
        }
        out
    }

    /// The stack trace for a trap at `pc` of `version` (the running frame), innermost first.
    fn trace(&self, version: *const Version, pc: usize) -> Vec<TraceEntry> {
        let mut out = Vec::with_capacity(self.frames.len() + 1);
        let mut push = |v: *const Version, pc: usize| {
            // SAFETY: versions are boxed in `self.versions` and never freed while running.
            let v = unsafe { &*v };
            out.push(TraceEntry {
                function: self.program.functions[v.func.index()].name.clone(),
                file: self.program.file_of(v.func).to_string(),
                loc: v.locs.get(pc).copied().unwrap_or_default(),
            });
        };
        push(version, pc);
        for f in self.frames.iter().rev() {
            push(f.version, f.ret_pc - 1);
        }
        out
    }
}

/// Runs `main` to completion, a trap or `exit`, under the mode whose probes are `probes`.
/// Output goes to `machine.out` and is flushed to `w` whenever the buffer fills (the caller
/// flushes the rest).
///
/// Every mode runs the same instance of the loop ([`Shared`]): the probes stand behind a `dyn`
/// reference, and the mode's constants become the machine's mode flags ([`Machine::set_mode`]).
/// So the modes differ only by their probes' work, not by how the build laid out a copy of the
/// loop of their own (measured: one copy per mode made `edge` run 17% faster than `none` in one
/// build and 41% slower in the next; `docs/design/dispatch.md`).
///
/// Probes that need every branch (`P::BRANCHES`) or every instruction (`P::WATCH`) get the
/// loop compiled for them alone instead ([`execute_dedicated`]).
pub fn execute<P: Probes>(
    m: &mut Machine<'_>,
    probes: &mut P,
    w: &mut dyn Write,
) -> Result<Exit, Trap> {
    if P::BRANCHES || P::WATCH {
        return execute_dedicated(m, probes, w);
    }
    m.set_mode(ModeFlags::of::<P>());
    resuming(m, |m| execute_shared(m, probes, w))
}

/// Runs the loop (`run`) until the run ends, doing the work the loop leaves to the machine
/// when it stops for it ([`array_params`]) and resuming it at the next instruction.
fn resuming(
    m: &mut Machine<'_>,
    mut run: impl FnMut(&mut Machine<'_>) -> Result<Exit, Trap>,
) -> Result<Exit, Trap> {
    loop {
        let trap = match run(m) {
            Err(trap) => trap,
            done => return done,
        };
        let Some((version, pc)) = m.stopped_at else {
            return Err(trap);
        };
        // SAFETY: versions are boxed in `m.versions` and never freed while running.
        let v = unsafe { &*version };
        let outcome = match trap.kind {
            TrapKind::Suspended => {
                array_params::poison_freed(m, v);
                Ok(true)
            }
            TrapKind::Index { .. } => array_params::negative_index(m, v, pc),
            _ => return Err(trap),
        };
        match outcome {
            Ok(true) => {
                m.stopped_at = None;
                m.resume = Some((version, pc + 1));
            }
            Ok(false) => {
                return Err(Trap {
                    trace: m.trace(version, pc),
                    ..trap
                })
            }
            Err(kind) => {
                return Err(Trap {
                    kind,
                    trace: m.trace(version, pc),
                })
            }
        }
    }
}

/// The one loop of every mode, out of line. The loop runs on a copy of the machine that is a
/// local of this function (put back when it ends, also by unwinding), so that the machine's
/// fields are stack slots of the loop's own frame rather than fields behind a pointer: one
/// host register more for the loop (measured with callgrind, together with testing the mode
/// once per call and return: `fib(27)` under `none` 110.7 M -> 106.2 M instructions).
#[inline(never)]
fn execute_shared(
    m: &mut Machine<'_>,
    hooks: &mut dyn Hooks,
    w: &mut dyn Write,
) -> Result<Exit, Trap> {
    let mut local = LocalMachine::take(m);
    let machine = &mut *local.machine;
    let program = machine.program;
    let main = program.main;
    let mut stack = std::mem::take(&mut machine.stack);
    machine.step_cursor = hooks.step_cursor();
    let result = run_loop_inlined(
        machine,
        &mut Shared::new(hooks),
        w,
        &mut stack,
        program,
        main,
    );
    machine.step_cursor = std::ptr::null_mut();
    machine.stack = stack;
    result
}

/// A machine moved out of its owner for the length of a run, and moved back when dropped
/// (also while unwinding from a panic, so the owner never sees a moved-out machine).
struct LocalMachine<'m, 'p> {
    owner: &'m mut Machine<'p>,
    machine: std::mem::ManuallyDrop<Machine<'p>>,
}

impl<'m, 'p> LocalMachine<'m, 'p> {
    fn take(owner: &'m mut Machine<'p>) -> Self {
        // SAFETY: the bits are copied out; `owner` is not used again until `drop` copies them
        // back (it is borrowed by `self` until then), and only one of the two copies is ever
        // dropped: the owner's, after the copy back.
        let machine = std::mem::ManuallyDrop::new(unsafe { std::ptr::read(owner) });
        LocalMachine { owner, machine }
    }
}

impl Drop for LocalMachine<'_, '_> {
    fn drop(&mut self) {
        // SAFETY: `self.machine` holds the only live copy (see `take`); it is moved back into
        // the owner's place without dropping the stale bits there, and never used again.
        unsafe { std::ptr::write(self.owner, std::mem::ManuallyDrop::take(&mut self.machine)) };
    }
}

/// [`execute`] with the loop compiled for `P` alone, with every hook `P` has, `on_branch`
/// and `on_instr` included: for a watched run ([`Probes::WATCH`]) and for probes that record
/// every branch ([`Probes::BRANCHES`]). Not for timing: the profiling modes share one loop.
pub fn execute_dedicated<P: Probes>(
    m: &mut Machine<'_>,
    probes: &mut P,
    w: &mut dyn Write,
) -> Result<Exit, Trap> {
    m.set_mode(ModeFlags::of::<P>());
    resuming(m, |m| {
        let program = m.program;
        let main = program.main;
        let mut stack = std::mem::take(&mut m.stack);
        let result = run_loop(m, probes, w, &mut stack, program, main);
        m.stack = stack;
        result
    })
}

/// The loop as a function of its own (LLVM decides whether to inline it).
fn run_loop<P: Probes>(
    m: &mut Machine<'_>,
    probes: &mut P,
    w: &mut dyn Write,
    stack: &mut Vec<u64>,
    program: &Program,
    main: FuncIdx,
) -> Result<Exit, Trap> {
    run_loop_inlined(m, probes, w, stack, program, main)
}

/// A path instruction in a mode without paths: impossible (only the tier-up of a mode with
/// `P::PATHS` makes versions holding them). Out of line, so that such a mode's loop keeps no
/// code for them.
#[cold]
#[inline(never)]
fn no_paths_here() -> ! {
    panic!("a path instruction ran in a mode that does not profile paths")
}

/// A completed path without a dense counter (`P::DENSE_PATHS`): a path of a function with
/// too many paths for dense counters, which goes to the sink, or the path a frame entered
/// mid-way by on-stack replacement, which is dropped. Out of line, so that the loop's copies
/// of the common case (one increment) stay small.
#[inline(never)]
fn count_undense<P: Probes>(m: &mut Machine<'_>, probes: &mut P, func: FuncIdx, id: u64) {
    if m.pending {
        m.pending = false;
    } else {
        probes.on_path(func, id);
    }
}

/// Installs the code versions the probes made, each as the version new calls of its function
/// run.
#[inline(never)]
#[cold]
fn install_versions<P: Probes>(m: &mut Machine<'_>, probes: &mut P) -> Result<(), Trap> {
    while let Some(v) = probes.take_version() {
        install_version(m, v)?;
    }
    Ok(())
}

/// Installs one version as the one new calls of its function run.
fn install_version(m: &mut Machine<'_>, v: Version) -> Result<(), Trap> {
    let func = v.func;
    let index = m.add_version(v).map_err(|e| Trap {
        kind: TrapKind::Internal(e.to_string()),
        trace: Vec::new(),
    })?;
    m.set_entry(func, index);
    Ok(())
}

/// The trap `kind` raised by the instruction at `pc` of `version` (the running frame), which
/// stands at `stands_at` (see [`Machine::live_frames`]; `pc` but for a signal at a backward
/// jump, whose frame stands at the jump's target).
#[inline(never)]
#[cold]
fn make_trap(
    m: &mut Machine<'_>,
    version: *const Version,
    pc: usize,
    stands_at: usize,
    kind: TrapKind,
) -> Trap {
    m.stopped_at = Some((version, stands_at));
    // The traps the machine may resume from get their trace if they stay traps (`resuming`).
    let trace = match kind {
        TrapKind::Index { .. } | TrapKind::Suspended => Vec::new(),
        _ => m.trace(version, pc),
    };
    Trap { kind, trace }
}

/// Starts a run: installs the versions made before it (every function at `--tier-up 0`) and
/// enters `main`'s frame; returns the version `main` runs.
///
/// The running frame's path register and pending flag (see `Osr::path`) live in the machine,
/// not in the loop's locals: kept in host registers they made LLVM spill the pc and the code
/// pointer in every mode that profiles paths (measured with callgrind).
#[inline(never)]
fn start_main<P: Probes>(
    m: &mut Machine<'_>,
    probes: &mut P,
    stack: &mut Vec<u64>,
    main: FuncIdx,
) -> Result<*const Version, Trap> {
    m.atop = m.memory.layout().stack.start as usize;
    if P::TIERS {
        install_versions(m, probes)?;
    }
    let version: *const Version = &*m.versions[m.entry[main.index()] as usize];
    m.base = 0;
    let main_callee = m.callees[main.index()];
    m.abase = match enter_frame(stack, &mut m.memory, &main_callee, 0, &mut m.atop) {
        Ok(abase) => abase,
        Err(()) => {
            let size = m.memory.layout().stack.len() as u32;
            return Err(make_trap(m, version, 0, 0, TrapKind::StackOverflow(size)));
        }
    };
    m.path = 0;
    m.pending = false;
    // SAFETY: `version` is one of the machine's versions.
    if P::ENABLED && m.mode.hooks && unsafe { (*version).calls_hooked } {
        probes.on_entry(main);
    }
    Ok(version)
}

/// Sets up a frame for `callee` with its window at `base`; returns its array base, or `Err` if
/// its arrays would take the array stack past the 4 GiB of byte addresses.
#[inline(always)]
fn enter_frame(
    stack: &mut Vec<u64>,
    mem: &mut Memory,
    callee: &Callee,
    base: usize,
    atop: &mut usize,
) -> Result<usize, ()> {
    let need = base + usize::from(callee.num_regs);
    if stack.len() < need {
        grow(stack, need);
    }
    // Zero the non-parameter locals; a short loop beats a memset call for the usual few.
    for i in base + usize::from(callee.num_params)..base + usize::from(callee.num_locals) {
        // SAFETY: i < base + num_locals <= base + num_regs <= stack.len().
        unsafe { *stack.get_unchecked_mut(i) = 0 };
    }
    let abase = *atop;
    if callee.array_bytes > 0 && !enter_arrays(mem, callee.array_bytes as usize, atop) {
        return Err(());
    }
    Ok(abase)
}

#[cold]
#[inline(never)]
fn grow(stack: &mut Vec<u64>, need: usize) {
    let grown = need.max(stack.len() * 2).max(1024);
    stack.resize(grown, 0);
}

/// Reserves and zeroes `bytes` of local arrays on top of the array stack; false if they would
/// not fit in the stack region ([`crate::memory::Layout::stack`]).
#[inline(never)]
fn enter_arrays(mem: &mut Memory, bytes: usize, atop: &mut usize) -> bool {
    let abase = *atop;
    let top = abase + bytes;
    if top > mem.layout().stack.end as usize {
        return false;
    }
    // The store spans the whole stack region from the start (zero pages the system maps only
    // when touched): only the frame's own bytes are written.
    let zeroed = mem.store.zero(abase, bytes);
    debug_assert!(zeroed);
    *atop = top;
    true
}

/// The trap of a call whose locals do not fit in the array stack.
#[cold]
#[inline(never)]
fn stack_overflow(m: &Machine<'_>) -> TrapKind {
    TrapKind::StackOverflow(m.memory.layout().stack.len() as u32)
}

/// `ZeroArr`: zeroes the array `aref` of `shape` (out of line: it is rare, and a memset).
#[inline(never)]
fn zero_array(mem: &mut Store, aref: u64, shape: Shape) {
    let r = ArrayRef::unpack(aref);
    let len = r.dim as usize * shape.stride as usize;
    if !mem.zero(r.base as usize, len) {
        memory_fault(r.base as usize);
    }
}

/// A memory access outside the VM's memory: a compiler or VM bug (the language's own index
/// checks come first), so a panic, as an out-of-bounds slice index would be.
#[cold]
#[inline(never)]
fn memory_fault(addr: usize) -> ! {
    panic!("memory access at byte {addr} outside the VM's memory")
}

/// The register form of a float: the bits of the double equal to it.
#[inline(always)]
fn f32_bits(x: f32) -> u64 {
    f64::from(x).to_bits()
}

fn f2i64(x: f64) -> i64 {
    // x86-64 cvttsd2si: NaN and out-of-range values give i64::MIN.
    if x > -9_223_372_036_854_777_856.0 && x < 9_223_372_036_854_775_808.0 {
        x as i64
    } else {
        i64::MIN
    }
}

fn f2i32(x: f64) -> i32 {
    if x > -2_147_483_649.0 && x < 2_147_483_648.0 {
        x as i32
    } else {
        i32::MIN
    }
}

fn f2u64(x: f64) -> u64 {
    // gcc's x86-64 sequence: values below 2^63 (and NaN) convert directly; others are offset.
    const TWO63: f64 = 9_223_372_036_854_775_808.0;
    if x >= TWO63 {
        (f2i64(x - TWO63) as u64) ^ (1 << 63)
    } else {
        f2i64(x) as u64
    }
}

/// A one-argument `math.h` call at run time, by the library's one definition
/// ([`lang::builtins::Builtin::eval1`]). The compiler emits `Math1` only for one-argument
/// functions and `Math2` only for two-argument ones; any other pairing yields NaN.
fn math1(f: MathFn, x: f64) -> f64 {
    f.builtin().eval1(x).unwrap_or(f64::NAN)
}

/// A two-argument `math.h` call at run time ([`lang::builtins::Builtin::eval2`]).
fn math2(f: MathFn, x: f64, y: f64) -> f64 {
    f.builtin().eval2(x, y).unwrap_or(f64::NAN)
}

/// `FrameObj`: registers frame object `imm` of the running function `f` (whose frame's
/// array area starts at `m.abase`); returns the pointer to it. With [`SCOPE_BEGIN`] or
/// [`SCOPE_END`] in `imm`, the object (registered by the prologue) comes back to life or goes
/// out of scope, and the pointer to it is returned as the prologue made it.
#[inline(never)]
fn frame_object(
    m: &mut Machine<'_>,
    fdef: &lang::bytecode::Function,
    f: usize,
    imm: i32,
) -> Result<u64, String> {
    if imm & (SCOPE_BEGIN | SCOPE_END) != 0 {
        return Ok(scope_mark(m, imm));
    }
    let depth = m.frames.len();
    if m.frame_marks.last().is_none_or(|&(d, _)| d != depth) {
        m.frame_marks.push((depth, m.memory.objects.local_depth()));
    }
    let o = &fdef.frame_objects[imm as usize];
    let decl = m.frame_decls[f][imm as usize];
    m.memory
        .objects
        .push_local(decl, (m.abase + o.offset as usize) as u32, o.size)
        .map_err(|fault| fault.to_string())
}

/// `FrameObj` with [`SCOPE_BEGIN`] or [`SCOPE_END`]: the running frame's object
/// `imm & FRAME_OBJECT_INDEX` enters or leaves its scope; returns the pointer to it.
fn scope_mark(m: &mut Machine<'_>, imm: i32) -> u64 {
    let first = match m.frame_marks.last() {
        Some(&(depth, first)) if depth == m.frames.len() => first,
        // The prologue registers every frame object first: a frame without them has none.
        _ => return 0,
    };
    let index = first + (imm & FRAME_OBJECT_INDEX) as usize;
    let live = imm & SCOPE_BEGIN != 0;
    m.memory.objects.mark_scope(index, live).unwrap_or(0)
}

/// The address of an access of `width` bytes at `p + offset`, checked against `p`'s object.
/// Out of line: the check inlined into each of the loop's pointer loads and stores made the
/// loop's code larger and the other instructions slower (measured with callgrind).
#[inline(never)]
fn check_pointer(
    m: &Machine<'_>,
    p: u64,
    offset: i64,
    width: u32,
    kind: AccessKind,
) -> Result<usize, String> {
    m.memory
        .objects
        .check(p, offset, width, kind)
        .map_err(|fault| m.alloc_sites.render(m.program, &fault))
}

/// `Lib`: the library function `f` at `pc` of `version`, on the argument registers `args`.
#[inline(never)]
fn library_call(
    m: &mut Machine<'_>,
    version: *const Version,
    pc: usize,
    f: MemFn,
    args: &mut [u64],
) -> Result<(), TrapKind> {
    let fault = |m: &Machine<'_>, fault| TrapKind::Memory(m.alloc_sites.render(m.program, &fault));
    if f == MemFn::Abort {
        return Err(TrapKind::Aborted);
    }
    if f == MemFn::AssertFail {
        return Err(match crate::memory_calls::assertion(&m.memory, args) {
            Ok(message) => TrapKind::Assertion(message),
            Err(e) => fault(m, e),
        });
    }
    // SAFETY: the running version lives as long as the machine.
    let version = unsafe { &*version };
    let site = match f {
        MemFn::Malloc | MemFn::Calloc | MemFn::Realloc | MemFn::Free => m.alloc_sites.id(
            version.func,
            version.locs.get(pc).copied().unwrap_or_default(),
        ),
        _ => 0,
    };
    crate::memory_calls::call(&mut m.memory, &mut m.out, f, args, site).map_err(|e| fault(m, e))?;
    if m.memory.objects.has_freed_arrayed() {
        // A block an array parameter may refer to was freed: the parameters are found once
        // the loop has stopped (`array_params`). Tested on `m` alone, which is live here
        // anyway: keeping `f` or `version` for it made every library call's frame larger.
        return Err(TrapKind::Suspended);
    }
    Ok(())
}

/// `PtrToArr`: the array reference of the rows of `stride` bytes from pointer `p`.
#[inline(never)]
fn pointer_to_array(m: &mut Machine<'_>, p: u64, stride: u64) -> Result<u64, String> {
    let (base, dim) = m
        .memory
        .objects
        .array_at(p, stride)
        .map_err(|fault| m.alloc_sites.render(m.program, &fault))?;
    Ok(ArrayRef { base, dim }.pack())
}

/// `ArrToPtr`: the pointer to the first element of the array reference `aref`.
#[inline(never)]
fn array_to_pointer(m: &Machine<'_>, aref: u64) -> Result<u64, String> {
    let r = ArrayRef::unpack(aref);
    if r.base == 0 && r.dim == 0 {
        // An array parameter given a null pointer.
        return Ok(0);
    }
    if let Some(p) = m.dangling_arrays.pointer(aref) {
        // A parameter whose block was freed: its (dangling) pointer.
        return Ok(p);
    }
    m.memory.objects.pointer_at(r.base).ok_or_else(|| {
        format!(
            "the array at address {:#x} is in no live object (it was freed or its function returned)",
            r.base
        )
    })
}

/// `CallInd`: the function the pointer `p` points to, if it takes `n` arguments.
#[inline(never)]
fn callee_of(program: &Program, p: u64, n: u16) -> Result<FuncIdx, TrapKind> {
    let Some(f) = lang::bytecode::pointer_function(p, program.functions.len()) else {
        return Err(TrapKind::Memory(if p == 0 {
            "call through a null function pointer".to_string()
        } else {
            format!("call through pointer {p:#x}, which does not point to a function")
        }));
    };
    let func = &program.functions[f.index()];
    if func.num_params != n {
        return Err(TrapKind::Memory(format!(
            "call of function `{}` through a pointer with {n} argument{}, but it takes {}",
            func.name,
            if n == 1 { "" } else { "s" },
            func.num_params
        )));
    }
    Ok(f)
}

/// Counts an indirect call from `pc` of `version` to `callee` (profiling modes).
#[inline(never)]
fn count_indirect_call(m: &mut Machine<'_>, version: *const Version, pc: usize, callee: FuncIdx) {
    // SAFETY: the running version lives as long as the machine.
    let version = unsafe { &*version };
    let loc = version.locs.get(pc).copied().unwrap_or_default();
    *m.indirect_calls
        .entry((version.func, loc, callee))
        .or_insert(0) += 1;
}

/// On a return: the frame objects of the returning frame (if it registered any) die.
#[inline(never)]
fn release_frame_objects(m: &mut Machine<'_>) {
    if let Some(&(depth, objects)) = m.frame_marks.last() {
        if depth == m.frames.len() {
            m.memory.objects.pop_locals_to(objects);
            m.frame_marks.pop();
        }
    }
}

/// `Copy`: `len` bytes from the object `from` points to, to the one `to` points to.
#[inline(never)]
fn copy_object(m: &mut Machine<'_>, to: u64, from: u64, len: u64) -> Result<(), String> {
    let access = |kind| crate::memory::Access {
        kind,
        size: crate::memory::AccessSize::Bytes(len),
        by: Some("structure assignment"),
    };
    let to = m
        .memory
        .objects
        .check_range(to, 0, len, access(AccessKind::Write))
        .map_err(|f| f.to_string())?;
    let from = m
        .memory
        .objects
        .check_range(from, 0, len, access(AccessKind::Read))
        .map_err(|f| f.to_string())?;
    m.memory
        .store
        .bytes_mut()
        .copy_within(from..from + len as usize, to);
    Ok(())
}

// `!(a < b)` on doubles is deliberate: it is true for NaN operands, unlike `a >= b`.
#[allow(clippy::too_many_lines, clippy::neg_cmp_op_on_partial_ord)]
#[inline(always)]
fn run_loop_inlined<P: Probes>(
    m: &mut Machine<'_>,
    probes: &mut P,
    w: &mut dyn Write,
    stack: &mut Vec<u64>,
    program: &Program,
    main: FuncIdx,
) -> Result<Exit, Trap> {
    // SAFETY (for every `&*version` below): versions are boxed in `m.versions`, which only
    // grows, so the pointee lives and stays put for the whole run.
    let (mut version, mut pc): (*const Version, usize) = match m.resume.take() {
        Some(at) => at,
        None => (start_main(m, probes, stack, main)?, 0),
    };
    let mut fdef: &Function = &program.functions[unsafe { (*version).func }.index()];
    let mut code: *const Instr = unsafe { (*version).code.as_ptr() };
    // The running frame's register window: `stack.as_mut_ptr() + base`, recomputed whenever
    // `base` changes or the stack is reallocated (only `enter_frame` grows it).
    // SAFETY: the running frame's window lies inside the stack.
    let mut regs: *mut u64 = unsafe { stack.as_mut_ptr().add(m.base) };
    // The running mode's hooks and whether frames keep their own path register (constant
    // for a loop compiled for one mode; read from the mode flags by the shared loop).
    // Read from the machine where they are needed (calls, returns), not kept in locals, so
    // that they claim no host register of the loop's hot values.
    macro_rules! hooks {
        () => {
            P::ENABLED && m.mode.hooks
        };
    }
    macro_rules! frame_paths {
        () => {
            P::PATHS && m.mode.frame_paths
        };
    }
    // Whether the running version's calls and returns are hooked (see `Version::calls_hooked`).
    macro_rules! calls_hooked {
        () => {
            hooks!() && unsafe { (*version).calls_hooked }
        };
    }
    macro_rules! trap {
        ($kind:expr) => {{
            return Err(make_trap(m, version, pc - 1, pc - 1, $kind));
        }};
    }
    // Register access. SAFETY: see the module docs (verified operands, window kept allocated).
    macro_rules! r {
        ($reg:expr) => {{
            let i = ($reg).index();
            debug_assert!(m.base + i < stack.len());
            unsafe { *regs.add(i) }
        }};
    }
    macro_rules! set {
        ($reg:expr, $v:expr) => {{
            let v: u64 = $v;
            let i = ($reg).index();
            debug_assert!(m.base + i < stack.len());
            unsafe { *regs.add(i) = v }
        }};
    }
    macro_rules! ri {
        ($reg:expr) => {
            r!($reg) as i64
        };
    }
    macro_rules! rf {
        ($reg:expr) => {
            f64::from_bits(r!($reg))
        };
    }
    macro_rules! func_id {
        () => {
            // SAFETY: see `version` above.
            unsafe { (*version).func }
        };
    }
    // Installs the versions the probes made; a version that fails verification stops the run.
    // Evaluates to whether any version was installed.
    macro_rules! install {
        () => {{
            if probes.version_ready() {
                if let Err(mut trap) = install_versions(m, probes) {
                    trap.trace = m.trace(version, pc - 1);
                    return Err(trap);
                }
                true
            } else {
                false
            }
        }};
    }
    // Every loop iteration and every call polls for SIGINT/SIGTERM. `$at` is where a frame
    // stopped here stands: the target of a backward jump (its edge was taken, and counted
    // where it is counted), the call instruction itself.
    macro_rules! poll_signal {
        ($at:expr) => {{
            let signal = crate::signals::pending();
            if signal != 0 {
                let at: Pc = $at;
                let kind = TrapKind::of_pending(signal);
                return Err(make_trap(m, version, pc - 1, at.index(), kind));
            }
        }};
    }
    // Counts a completed path in the version's dense counters (modes with dense counts, ids
    // with a cell) or hands it to the sink, unless the frame entered this path mid-way by OSR
    // (whose register, in a dense mode, never gives an id with a cell: `UNKNOWN_PATH`).
    macro_rules! count {
        ($id:expr) => {{
            let id: u64 = $id;
            if P::DENSE_PATHS {
                // SAFETY: see `version` above.
                if !unsafe { (*version).dense.bump(id) } {
                    count_undense(m, probes, func_id!(), id);
                }
            } else if m.pending {
                m.pending = false;
            } else {
                probes.on_path(func_id!(), id);
            }
        }};
    }
    // The same for an id known without the register (`PathCountK`): the pending flag first.
    macro_rules! count_known {
        ($id:expr) => {{
            let id: u64 = $id;
            if m.pending {
                m.pending = false;
            } else if !(P::DENSE_PATHS && unsafe { (*version).dense.bump(id) }) {
                probes.on_path(func_id!(), id);
            }
        }};
    }
    // A probe constant of the running version. SAFETY: indices are verified against the
    // version's constants (`add_version`).
    macro_rules! q {
        ($k:expr) => {
            unsafe { *(&(*version).probe_consts).get_unchecked(($k).index()) }
        };
    }
    // A backward jump from `pc - 1` to `t`: poll for signals, run the back-edge hook and
    // perform the on-stack replacement it asks for (then `continue` the loop).
    // Whether the running version gets the tier-0 hooks (see `Version::instrumented`).
    macro_rules! tier0_hooks {
        () => {
            P::ENABLED && unsafe { (*version).tier0 }
        };
    }
    macro_rules! back_edge {
        ($t:expr) => {{
            let t: Pc = $t;
            poll_signal!(t);
            if tier0_hooks!() {
                let osr = probes.on_back_edge(func_id!(), Pc((pc - 1) as u16), t);
                if P::TIERS {
                    install!();
                }
                if let Some(osr) = osr {
                    switch_to!(osr);
                    continue;
                }
            }
        }};
    }
    macro_rules! switch_to {
        ($osr:expr) => {{
            let osr: Osr = $osr;
            // A version of another function, or a pc outside the code, would break the loop's
            // invariants: refuse it loudly (a profiler bug, never a program's fault).
            let next: &Version = &m.versions[osr.version as usize];
            assert!(
                next.func == func_id!() && osr.pc.index() < next.code.len(),
                "invalid on-stack replacement {osr:?}"
            );
            version = next;
            code = unsafe { (*version).code.as_ptr() };
            pc = osr.pc.index();
            if frame_paths!() {
                match osr.path {
                    Some(start) => {
                        m.path = start;
                        m.pending = false;
                    }
                    None => {
                        m.pending = true;
                        if P::DENSE_PATHS {
                            m.path = crate::path_counts::UNKNOWN_PATH;
                        }
                    }
                }
            }
        }};
    }
    macro_rules! branch {
        ($cond:expr, $t:expr) => {{
            let taken: bool = $cond;
            let t: Pc = $t;
            if P::ENABLED {
                probes.on_branch(func_id!(), Pc((pc - 1) as u16), taken);
            }
            if taken {
                if t.index() < pc {
                    back_edge!(t);
                }
                pc = t.index();
            }
        }};
    }
    // A counted twin (tier 0 of a mode that counts branch outcomes): the branch, with its
    // outcome counted in the running version's counters.
    macro_rules! counted_branch {
        ($cond:expr, $t:expr) => {{
            let taken: bool = $cond;
            // SAFETY: `pc - 1` is this version's instruction; its counters cover them all.
            unsafe { (*version).counters.bump(pc - 1, taken) };
            let t: Pc = $t;
            if taken {
                if t.index() < pc {
                    back_edge!(t);
                }
                pc = t.index();
            }
        }};
    }
    // Path-end branches and counting returns exist only in the versions a mode with
    // `P::PATHS` makes: every other mode's loop keeps a call of one cold function for each of
    // them, nothing else (measured: without it `none` ran up to 1.8% more instructions on the
    // twins; the older path instructions are left as they were, guarding them too cost `none`
    // 1.7%).
    macro_rules! paths_only {
        () => {
            if !P::PATHS {
                no_paths_here();
            }
        };
    }
    // A branch of instrumented code whose taken edge ends a path (`JLePe` and the others):
    // when taken, the path ends (`count(P + c)`) and the next starts (`P := s`, `E[k] = (c, s)`)
    // in the branch itself, where a plain branch would jump to a `PathEndJmp` stub: one
    // dispatch less per path. Only instrumented versions hold these, so no tier-0 counting or
    // hook.
    macro_rules! path_branch {
        ($cond:expr, $t:expr, $k:expr) => {{
            paths_only!();
            if $cond {
                let k: PairIdx = $k;
                // SAFETY: the verifier checked that pair `k` exists.
                let [c, s] = unsafe { *(&(*version).path_end_pairs).get_unchecked(k.index()) };
                count!(m.path.wrapping_add(c));
                m.path = s;
                let t: Pc = $t;
                if t.index() < pc {
                    poll_signal!(t);
                }
                pc = t.index();
            }
        }};
    }
    // The byte address of element R[C] of the array R[B] (elements of `$width` bytes), after
    // checking the index against the dimension.
    macro_rules! elem_addr {
        ($b:expr, $c:expr, $width:expr) => {{
            let r = ArrayRef::unpack(r!($b));
            let i: u64 = r!($c);
            if i >= u64::from(r.dim) {
                trap!(TrapKind::Index {
                    index: i as i64,
                    dim: r.dim
                });
            }
            r.base as usize + i as usize * $width
        }};
    }
    // Memory access at a byte address from a register: bounds-checked (one comparison, see
    // `crate::byte_memory`).
    // The address of an access through the pointer R[b] plus imm, checked against its object.
    macro_rules! ptr_addr {
        ($b:expr, $imm:expr, $width:expr, $kind:ident) => {{
            match check_pointer(m, r!($b), i64::from($imm), $width, AccessKind::$kind) {
                Ok(addr) => addr,
                Err(fault) => trap!(TrapKind::Memory(fault)),
            }
        }};
    }
    macro_rules! load {
        ($t:ty, $addr:expr) => {{
            let addr: usize = $addr;
            match m.memory.store.load::<$t>(addr) {
                Some(v) => v,
                None => memory_fault(addr),
            }
        }};
    }
    macro_rules! store {
        ($addr:expr, $v:expr) => {{
            let addr: usize = $addr;
            if !m.memory.store.store(addr, $v) {
                memory_fault(addr);
            }
        }};
    }
    // A global scalar. SAFETY: the verifier checked that `g .. g + width` lies inside the
    // globals, which the memory always holds.
    macro_rules! get_global {
        ($t:ty, $g:expr) => {
            unsafe { m.memory.store.load_unchecked::<$t>(($g).index()) }
        };
    }
    macro_rules! set_global {
        ($g:expr, $v:expr) => {{
            let v = $v;
            unsafe { m.memory.store.store_unchecked(($g).index(), v) }
        }};
    }
    macro_rules! shift_check {
        ($c:expr, $bits:expr) => {{
            let c: u64 = $c;
            if c >= $bits {
                trap!(TrapKind::Shift {
                    count: c as i64,
                    bits: $bits
                });
            }
            c as u32
        }};
    }
    // A call of `f` with its window at `R[a]` (`Call`, `CallInd`).
    macro_rules! call {
        ($a:expr, $f:expr) => {{
            let (a, f): (lang::bytecode::Reg, FuncIdx) = ($a, $f);
            if m.frames.len() >= m.max_depth as usize - 1 {
                trap!(TrapKind::Depth(m.max_depth));
            }
            poll_signal!(Pc((pc - 1) as u16));
            let base = m.base + a.index();
            // SAFETY: function indices are verified.
            let callee = *unsafe { m.callees.get_unchecked(f.index()) };
            // Before the frame record is pushed, so a trap here is the caller's.
            let abase = match enter_frame(stack, &mut m.memory, &callee, base, &mut m.atop) {
                Ok(abase) => abase,
                Err(()) => trap!(stack_overflow(m)),
            };
            m.frames.push(Frame {
                version,
                ret_pc: pc,
                base: m.base,
                abase: m.abase,
                path: m.path,
                pending: m.pending,
            });
            m.base = base;
            m.abase = abase;
            // SAFETY: `enter_frame` made the stack hold the callee's whole window.
            regs = unsafe { stack.as_mut_ptr().add(base) };
            version = callee.version;
            code = unsafe { (*version).code.as_ptr() };
            fdef = unsafe { program.functions.get_unchecked(f.index()) };
            pc = 0;
            // One test of the mode per call in `none` (`frame_paths` implies `hooks`).
            if hooks!() {
                if unsafe { (*version).calls_hooked } {
                    probes.on_entry(f);
                    // The call may have tiered `f` up: it starts in the new version at once.
                    if P::TIERS && install!() {
                        // SAFETY: function indices are verified.
                        version = unsafe { m.callees.get_unchecked(f.index()) }.version;
                        code = unsafe { (*version).code.as_ptr() };
                    }
                }
                if frame_paths!() {
                    // The callee's first path starts at 0: Ball-Larus numberings start every
                    // activation at `r = 0`, so instrumented code has no `PathSet` for it.
                    m.path = 0;
                    m.pending = false;
                }
            }
        }};
    }
    macro_rules! ret {
        () => {{
            m.atop = m.abase;
            match m.frames.pop() {
                None => {
                    if calls_hooked!() {
                        probes.on_return(func_id!());
                    }
                    return Ok(Exit::Return(unsafe { *regs } as i32));
                }
                Some(fr) => {
                    // One test of the mode per return in `none` (`frame_paths` implies
                    // `hooks`).
                    if hooks!() {
                        if unsafe { (*version).calls_hooked } {
                            probes.on_return(func_id!());
                        }
                        if frame_paths!() {
                            m.path = fr.path;
                            m.pending = fr.pending;
                        }
                    }
                    version = fr.version;
                    code = unsafe { (*version).code.as_ptr() };
                    fdef = &program.functions[func_id!().index()];
                    pc = fr.ret_pc;
                    m.base = fr.base;
                    m.abase = fr.abase;
                    // SAFETY: the caller's window lies inside the stack.
                    regs = unsafe { stack.as_mut_ptr().add(fr.base) };
                }
            }
        }};
    }

    loop {
        // SAFETY: pc is always a valid index: it starts at 0, targets are verified, and the
        // last instruction of every version never falls through.
        if P::WATCH {
            probes.on_instr(unsafe { &*version }, Pc(pc as u16), m.path);
        }
        // A reference, not a copy: each arm loads only the operands it uses (see the module
        // docs).
        let ins = unsafe { &*code.add(pc) };
        pc += 1;
        match *ins {
            Instr::Mov { a, b } => set!(a, r!(b)),
            Instr::LoadI { a, imm } => set!(a, i64::from(imm) as u64),
            Instr::LoadK { a, k } => {
                // SAFETY: constant indices are verified.
                set!(a, unsafe { *fdef.consts.get_unchecked(k.index()) })
            }
            Instr::GetG8S { a, g } => set!(a, get_global!(u8, g) as i8 as i64 as u64),
            Instr::GetG8U { a, g } => set!(a, u64::from(get_global!(u8, g))),
            Instr::GetG16S { a, g } => set!(a, get_global!(u16, g) as i16 as i64 as u64),
            Instr::GetG16U { a, g } => set!(a, u64::from(get_global!(u16, g))),
            Instr::GetG32S { a, g } => set!(a, get_global!(u32, g) as i32 as i64 as u64),
            Instr::GetG32U { a, g } => set!(a, u64::from(get_global!(u32, g))),
            Instr::GetG64 { a, g } => set!(a, get_global!(u64, g)),
            Instr::GetGF32 { a, g } => set!(a, f32_bits(f32::from_bits(get_global!(u32, g)))),
            Instr::SetG8 { a, g } => set_global!(g, r!(a) as u8),
            Instr::SetG16 { a, g } => set_global!(g, r!(a) as u16),
            Instr::SetG32 { a, g } => set_global!(g, r!(a) as u32),
            Instr::SetG64 { a, g } => set_global!(g, r!(a)),
            Instr::SetGF32 { a, g } => set_global!(g, (rf!(a) as f32).to_bits()),

            Instr::LocalArr { a, k } => {
                let mut r = ArrayRef::unpack(fdef.consts[k.index()]);
                r.base += m.abase as u32;
                set!(a, r.pack())
            }
            Instr::Row { a, b, c, s } => {
                let aref = r!(b);
                let i = r!(c);
                let dim_ok = ArrayRef::unpack(aref);
                if i >= u64::from(dim_ok.dim) {
                    trap!(TrapKind::Index {
                        index: i as i64,
                        dim: dim_ok.dim
                    });
                }
                let shape = fdef.shapes[s.index()];
                let row = ArrayRef {
                    base: dim_ok.base + (i as u32) * shape.stride,
                    dim: shape.inner,
                };
                set!(a, row.pack())
            }
            Instr::LdE8S { a, b, c } => set!(a, load!(u8, elem_addr!(b, c, 1)) as i8 as i64 as u64),
            Instr::LdE8U { a, b, c } => set!(a, u64::from(load!(u8, elem_addr!(b, c, 1)))),
            Instr::LdE16S { a, b, c } => {
                set!(a, load!(u16, elem_addr!(b, c, 2)) as i16 as i64 as u64)
            }
            Instr::LdE16U { a, b, c } => set!(a, u64::from(load!(u16, elem_addr!(b, c, 2)))),
            Instr::LdE32S { a, b, c } => {
                set!(a, load!(u32, elem_addr!(b, c, 4)) as i32 as i64 as u64)
            }
            Instr::LdE32U { a, b, c } => set!(a, u64::from(load!(u32, elem_addr!(b, c, 4)))),
            Instr::LdE64 { a, b, c } => set!(a, load!(u64, elem_addr!(b, c, 8))),
            Instr::LdEF32 { a, b, c } => {
                set!(a, f32_bits(f32::from_bits(load!(u32, elem_addr!(b, c, 4)))))
            }
            Instr::StE8 { a, b, c } => store!(elem_addr!(b, c, 1), r!(a) as u8),
            Instr::StE16 { a, b, c } => store!(elem_addr!(b, c, 2), r!(a) as u16),
            Instr::StE32 { a, b, c } => store!(elem_addr!(b, c, 4), r!(a) as u32),
            Instr::StE64 { a, b, c } => store!(elem_addr!(b, c, 8), r!(a)),
            Instr::StEF32 { a, b, c } => store!(elem_addr!(b, c, 4), (rf!(a) as f32).to_bits()),
            Instr::StEI8 { imm, b, c } => store!(elem_addr!(b, c, 1), imm as u8),
            Instr::StEI16 { imm, b, c } => store!(elem_addr!(b, c, 2), imm as u16),
            Instr::StEI32 { imm, b, c } => store!(elem_addr!(b, c, 4), i32::from(imm) as u32),
            Instr::StEI64 { imm, b, c } => store!(elem_addr!(b, c, 8), i64::from(imm) as u64),
            Instr::ZeroArr { a, s } => {
                zero_array(&mut m.memory.store, r!(a), fdef.shapes[s.index()])
            }

            Instr::FrameObj { a, imm } => match frame_object(m, fdef, func_id!().index(), imm) {
                Ok(p) => set!(a, p),
                Err(fault) => trap!(TrapKind::Memory(fault)),
            },
            Instr::Copy { a, b, c } => {
                if let Err(fault) = copy_object(m, r!(a), r!(b), r!(c)) {
                    trap!(TrapKind::Memory(fault));
                }
            }
            Instr::PtrToArr { a, b, c } => match pointer_to_array(m, r!(b), r!(c)) {
                Ok(v) => set!(a, v),
                Err(message) => trap!(TrapKind::Memory(message)),
            },
            Instr::ArrToPtr { a, b } => match array_to_pointer(m, r!(b)) {
                Ok(v) => set!(a, v),
                Err(message) => trap!(TrapKind::Memory(message)),
            },
            Instr::PtrAdd { a, b, c } => set!(a, crate::memory::ptr_add(r!(b), r!(c) as i64)),
            Instr::PtrAddI { a, b, imm } => {
                set!(a, crate::memory::ptr_add(r!(b), i64::from(imm)))
            }
            Instr::PtrDiff { a, b, c } => {
                let (p, q) = (r!(b), r!(c));
                if p >> 32 != q >> 32 {
                    trap!(TrapKind::Memory(
                        "subtraction of pointers into different objects".to_string()
                    ));
                }
                set!(a, (i64::from(p as u32) - i64::from(q as u32)) as u64)
            }
            Instr::LdP8S { a, b, imm } => {
                set!(a, load!(u8, ptr_addr!(b, imm, 1, Read)) as i8 as i64 as u64)
            }
            Instr::LdP8U { a, b, imm } => set!(a, u64::from(load!(u8, ptr_addr!(b, imm, 1, Read)))),
            Instr::LdP16S { a, b, imm } => {
                set!(
                    a,
                    load!(u16, ptr_addr!(b, imm, 2, Read)) as i16 as i64 as u64
                )
            }
            Instr::LdP16U { a, b, imm } => {
                set!(a, u64::from(load!(u16, ptr_addr!(b, imm, 2, Read))))
            }
            Instr::LdP32S { a, b, imm } => {
                set!(
                    a,
                    load!(u32, ptr_addr!(b, imm, 4, Read)) as i32 as i64 as u64
                )
            }
            Instr::LdP32U { a, b, imm } => {
                set!(a, u64::from(load!(u32, ptr_addr!(b, imm, 4, Read))))
            }
            Instr::LdP64 { a, b, imm } => set!(a, load!(u64, ptr_addr!(b, imm, 8, Read))),
            Instr::LdPF32 { a, b, imm } => {
                set!(
                    a,
                    f32_bits(f32::from_bits(load!(u32, ptr_addr!(b, imm, 4, Read))))
                )
            }
            Instr::StP8 { a, b, imm } => store!(ptr_addr!(b, imm, 1, Write), r!(a) as u8),
            Instr::StP16 { a, b, imm } => store!(ptr_addr!(b, imm, 2, Write), r!(a) as u16),
            Instr::StP32 { a, b, imm } => store!(ptr_addr!(b, imm, 4, Write), r!(a) as u32),
            Instr::StP64 { a, b, imm } => store!(ptr_addr!(b, imm, 8, Write), r!(a)),
            Instr::StPF32 { a, b, imm } => {
                store!(ptr_addr!(b, imm, 4, Write), (rf!(a) as f32).to_bits())
            }
            Instr::Add32 { a, b, c } => set!(a, ri!(b).wrapping_add(ri!(c)) as i32 as i64 as u64),
            Instr::AddU32 { a, b, c } => set!(a, r!(b).wrapping_add(r!(c)) as u32 as u64),
            Instr::Add64 { a, b, c } => set!(a, r!(b).wrapping_add(r!(c))),
            Instr::AddI32 { a, b, imm } => {
                set!(a, ri!(b).wrapping_add(i64::from(imm)) as i32 as i64 as u64)
            }
            Instr::AddIU32 { a, b, imm } => {
                set!(a, ri!(b).wrapping_add(i64::from(imm)) as u32 as u64)
            }
            Instr::AddI64 { a, b, imm } => set!(a, ri!(b).wrapping_add(i64::from(imm)) as u64),
            Instr::MulI32 { a, b, imm } => {
                set!(a, ri!(b).wrapping_mul(i64::from(imm)) as i32 as i64 as u64)
            }
            Instr::MulIU32 { a, b, imm } => {
                set!(a, ri!(b).wrapping_mul(i64::from(imm)) as u32 as u64)
            }
            Instr::MulI64 { a, b, imm } => set!(a, ri!(b).wrapping_mul(i64::from(imm)) as u64),
            // The compiler emits the immediate divisions only for non-zero constants; a zero
            // would still not be undefined behaviour here (`checked_*` falls back to a trap).
            Instr::DivI32 { a, b, imm } => match ri!(b).checked_div(i64::from(imm)) {
                Some(v) => set!(a, v as i32 as i64 as u64),
                None => trap!(TrapKind::DivByZero),
            },
            Instr::DivI64 { a, b, imm } => {
                if imm == 0 {
                    trap!(TrapKind::DivByZero);
                }
                set!(a, ri!(b).wrapping_div(i64::from(imm)) as u64)
            }
            Instr::DivIU { a, b, imm } => match r!(b).checked_div(i64::from(imm) as u64) {
                Some(v) => set!(a, v),
                None => trap!(TrapKind::DivByZero),
            },
            Instr::RemIS { a, b, imm } => {
                if imm == 0 {
                    trap!(TrapKind::RemByZero);
                }
                set!(a, ri!(b).wrapping_rem(i64::from(imm)) as u64)
            }
            Instr::RemIU { a, b, imm } => match r!(b).checked_rem(i64::from(imm) as u64) {
                Some(v) => set!(a, v),
                None => trap!(TrapKind::RemByZero),
            },
            Instr::AndI { a, b, imm } => set!(a, r!(b) & (i64::from(imm) as u64)),
            Instr::ShlI32 { a, b, imm } => set!(a, (r!(b) << (imm & 31)) as i32 as i64 as u64),
            Instr::ShlIU32 { a, b, imm } => set!(a, (r!(b) << (imm & 31)) as u32 as u64),
            Instr::ShlI64 { a, b, imm } => set!(a, r!(b) << (imm & 63)),
            Instr::SarI { a, b, imm } => set!(a, (ri!(b) >> (imm & 63)) as u64),
            Instr::ShrI { a, b, imm } => set!(a, r!(b) >> (imm & 63)),
            Instr::Sub32 { a, b, c } => set!(a, ri!(b).wrapping_sub(ri!(c)) as i32 as i64 as u64),
            Instr::SubU32 { a, b, c } => set!(a, r!(b).wrapping_sub(r!(c)) as u32 as u64),
            Instr::Sub64 { a, b, c } => set!(a, r!(b).wrapping_sub(r!(c))),
            Instr::Mul32 { a, b, c } => set!(a, ri!(b).wrapping_mul(ri!(c)) as i32 as i64 as u64),
            Instr::MulU32 { a, b, c } => set!(a, r!(b).wrapping_mul(r!(c)) as u32 as u64),
            Instr::Mul64 { a, b, c } => set!(a, r!(b).wrapping_mul(r!(c))),
            Instr::Div32 { a, b, c } => {
                let d = ri!(c);
                if d == 0 {
                    trap!(TrapKind::DivByZero);
                }
                set!(a, ri!(b).wrapping_div(d) as i32 as i64 as u64)
            }
            Instr::Div64 { a, b, c } => {
                let d = ri!(c);
                if d == 0 {
                    trap!(TrapKind::DivByZero);
                }
                set!(a, ri!(b).wrapping_div(d) as u64)
            }
            Instr::DivU { a, b, c } => {
                let d = r!(c);
                if d == 0 {
                    trap!(TrapKind::DivByZero);
                }
                set!(a, r!(b) / d)
            }
            Instr::RemS { a, b, c } => {
                let d = ri!(c);
                if d == 0 {
                    trap!(TrapKind::RemByZero);
                }
                set!(a, ri!(b).wrapping_rem(d) as u64)
            }
            Instr::RemU { a, b, c } => {
                let d = r!(c);
                if d == 0 {
                    trap!(TrapKind::RemByZero);
                }
                set!(a, r!(b) % d)
            }
            Instr::Neg32 { a, b } => set!(a, ri!(b).wrapping_neg() as i32 as i64 as u64),
            Instr::NegU32 { a, b } => set!(a, r!(b).wrapping_neg() as u32 as u64),
            Instr::Neg64 { a, b } => set!(a, r!(b).wrapping_neg()),
            Instr::And { a, b, c } => set!(a, r!(b) & r!(c)),
            Instr::Or { a, b, c } => set!(a, r!(b) | r!(c)),
            Instr::Xor { a, b, c } => set!(a, r!(b) ^ r!(c)),
            Instr::Not { a, b } => set!(a, !r!(b)),
            Instr::NotU32 { a, b } => set!(a, !r!(b) as u32 as u64),
            Instr::Shl32 { a, b, c } => {
                let n = shift_check!(r!(c), 32);
                set!(a, (r!(b) << n) as i32 as i64 as u64)
            }
            Instr::ShlU32 { a, b, c } => {
                let n = shift_check!(r!(c), 32);
                set!(a, (r!(b) << n) as u32 as u64)
            }
            Instr::Shl64 { a, b, c } => {
                let n = shift_check!(r!(c), 64);
                set!(a, r!(b) << n)
            }
            Instr::Sar32 { a, b, c } => {
                let n = shift_check!(r!(c), 32);
                set!(a, (ri!(b) >> n) as u64)
            }
            Instr::Sar64 { a, b, c } => {
                let n = shift_check!(r!(c), 64);
                set!(a, (ri!(b) >> n) as u64)
            }
            Instr::Shr32 { a, b, c } => {
                let n = shift_check!(r!(c), 32);
                set!(a, r!(b) >> n)
            }
            Instr::Shr64 { a, b, c } => {
                let n = shift_check!(r!(c), 64);
                set!(a, r!(b) >> n)
            }

            Instr::AddF { a, b, c } => set!(a, (rf!(b) + rf!(c)).to_bits()),
            Instr::SubF { a, b, c } => set!(a, (rf!(b) - rf!(c)).to_bits()),
            Instr::MulF { a, b, c } => set!(a, (rf!(b) * rf!(c)).to_bits()),
            Instr::DivF { a, b, c } => set!(a, (rf!(b) / rf!(c)).to_bits()),
            Instr::NegF { a, b } => set!(a, (-rf!(b)).to_bits()),
            // Float registers hold the double equal to the float: narrowing is exact, and the
            // operation itself is binary32 (see `lang::bytecode::ops`).
            Instr::AddF32 { a, b, c } => set!(a, f32_bits(rf!(b) as f32 + rf!(c) as f32)),
            Instr::SubF32 { a, b, c } => set!(a, f32_bits(rf!(b) as f32 - rf!(c) as f32)),
            Instr::MulF32 { a, b, c } => set!(a, f32_bits(rf!(b) as f32 * rf!(c) as f32)),
            Instr::DivF32 { a, b, c } => set!(a, f32_bits(rf!(b) as f32 / rf!(c) as f32)),

            Instr::Eq { a, b, c } => set!(a, u64::from(r!(b) == r!(c))),
            Instr::Ne { a, b, c } => set!(a, u64::from(r!(b) != r!(c))),
            Instr::Lt { a, b, c } => set!(a, u64::from(ri!(b) < ri!(c))),
            Instr::Le { a, b, c } => set!(a, u64::from(ri!(b) <= ri!(c))),
            Instr::LtU { a, b, c } => set!(a, u64::from(r!(b) < r!(c))),
            Instr::LeU { a, b, c } => set!(a, u64::from(r!(b) <= r!(c))),
            Instr::EqF { a, b, c } => set!(a, u64::from(rf!(b) == rf!(c))),
            Instr::NeF { a, b, c } => set!(a, u64::from(rf!(b) != rf!(c))),
            Instr::LtF { a, b, c } => set!(a, u64::from(rf!(b) < rf!(c))),
            Instr::LeF { a, b, c } => set!(a, u64::from(rf!(b) <= rf!(c))),
            Instr::IsZero { a, b } => set!(a, u64::from(r!(b) == 0)),
            Instr::IsZeroF { a, b } => set!(a, u64::from(rf!(b) == 0.0)),

            Instr::Sext8 { a, b } => set!(a, r!(b) as i8 as i64 as u64),
            Instr::Zext8 { a, b } => set!(a, r!(b) as u8 as u64),
            Instr::Sext16 { a, b } => set!(a, r!(b) as i16 as i64 as u64),
            Instr::Zext16 { a, b } => set!(a, r!(b) as u16 as u64),
            Instr::ToBool { a, b } => set!(a, u64::from(r!(b) != 0)),
            Instr::ToBoolF { a, b } => set!(a, u64::from(rf!(b) != 0.0)),
            Instr::Sext32 { a, b } => set!(a, r!(b) as i32 as i64 as u64),
            Instr::Zext32 { a, b } => set!(a, r!(b) as u32 as u64),
            Instr::I2F { a, b } => set!(a, (ri!(b) as f64).to_bits()),
            Instr::U2F { a, b } => set!(a, (r!(b) as f64).to_bits()),
            Instr::F2F32 { a, b } => set!(a, f32_bits(rf!(b) as f32)),
            Instr::I2F32 { a, b } => set!(a, f32_bits(ri!(b) as f32)),
            Instr::U2F32 { a, b } => set!(a, f32_bits(r!(b) as f32)),
            Instr::F2I32 { a, b } => set!(a, i64::from(f2i32(rf!(b))) as u64),
            Instr::F2U32 { a, b } => set!(a, f2i64(rf!(b)) as u32 as u64),
            Instr::F2I64 { a, b } => set!(a, f2i64(rf!(b)) as u64),
            Instr::F2U64 { a, b } => set!(a, f2u64(rf!(b))),

            Instr::Jmp { t } => {
                if t.index() < pc {
                    back_edge!(t);
                }
                pc = t.index();
            }
            Instr::Jnz { a, t } => branch!(r!(a) != 0, t),
            Instr::Jz { a, t } => branch!(r!(a) == 0, t),
            Instr::JEq { a, b, t } => branch!(r!(a) == r!(b), t),
            Instr::JNe { a, b, t } => branch!(r!(a) != r!(b), t),
            Instr::JLt { a, b, t } => branch!(ri!(a) < ri!(b), t),
            Instr::JLe { a, b, t } => branch!(ri!(a) <= ri!(b), t),
            Instr::JLtU { a, b, t } => branch!(r!(a) < r!(b), t),
            Instr::JLeU { a, b, t } => branch!(r!(a) <= r!(b), t),
            Instr::JEqI { a, imm, t } => branch!(ri!(a) == i64::from(imm), t),
            Instr::JNeI { a, imm, t } => branch!(ri!(a) != i64::from(imm), t),
            Instr::JLtI { a, imm, t } => branch!(ri!(a) < i64::from(imm), t),
            Instr::JLeI { a, imm, t } => branch!(ri!(a) <= i64::from(imm), t),
            Instr::JGtI { a, imm, t } => branch!(ri!(a) > i64::from(imm), t),
            Instr::JGeI { a, imm, t } => branch!(ri!(a) >= i64::from(imm), t),
            Instr::JEqF { a, b, t } => branch!(rf!(a) == rf!(b), t),
            Instr::JNeF { a, b, t } => branch!(rf!(a) != rf!(b), t),
            Instr::JLtF { a, b, t } => branch!(rf!(a) < rf!(b), t),
            Instr::JLeF { a, b, t } => branch!(rf!(a) <= rf!(b), t),
            Instr::JNLtF { a, b, t } => branch!(!(rf!(a) < rf!(b)), t),
            Instr::JNLeF { a, b, t } => branch!(!(rf!(a) <= rf!(b)), t),
            Instr::IncJLt32 { a, b, t } => {
                let v = ri!(a).wrapping_add(1) as i32 as i64;
                set!(a, v as u64);
                branch!(v < ri!(b), t)
            }
            Instr::IncJLe32 { a, b, t } => {
                let v = ri!(a).wrapping_add(1) as i32 as i64;
                set!(a, v as u64);
                branch!(v <= ri!(b), t)
            }
            Instr::IncJLt64 { a, b, t } => {
                let v = ri!(a).wrapping_add(1);
                set!(a, v as u64);
                branch!(v < ri!(b), t)
            }
            Instr::IncJLtI32 { a, imm, t } => {
                let v = ri!(a).wrapping_add(1) as i32 as i64;
                set!(a, v as u64);
                branch!(v < i64::from(imm), t)
            }
            Instr::JnzC { a, t } => counted_branch!(r!(a) != 0, t),
            Instr::JzC { a, t } => counted_branch!(r!(a) == 0, t),
            Instr::JEqC { a, b, t } => counted_branch!(r!(a) == r!(b), t),
            Instr::JNeC { a, b, t } => counted_branch!(r!(a) != r!(b), t),
            Instr::JLtC { a, b, t } => counted_branch!(ri!(a) < ri!(b), t),
            Instr::JLeC { a, b, t } => counted_branch!(ri!(a) <= ri!(b), t),
            Instr::JLtUC { a, b, t } => counted_branch!(r!(a) < r!(b), t),
            Instr::JLeUC { a, b, t } => counted_branch!(r!(a) <= r!(b), t),
            Instr::JEqIC { a, imm, t } => counted_branch!(ri!(a) == i64::from(imm), t),
            Instr::JNeIC { a, imm, t } => counted_branch!(ri!(a) != i64::from(imm), t),
            Instr::JLtIC { a, imm, t } => counted_branch!(ri!(a) < i64::from(imm), t),
            Instr::JLeIC { a, imm, t } => counted_branch!(ri!(a) <= i64::from(imm), t),
            Instr::JGtIC { a, imm, t } => counted_branch!(ri!(a) > i64::from(imm), t),
            Instr::JGeIC { a, imm, t } => counted_branch!(ri!(a) >= i64::from(imm), t),
            Instr::JEqFC { a, b, t } => counted_branch!(rf!(a) == rf!(b), t),
            Instr::JNeFC { a, b, t } => counted_branch!(rf!(a) != rf!(b), t),
            Instr::JLtFC { a, b, t } => counted_branch!(rf!(a) < rf!(b), t),
            Instr::JLeFC { a, b, t } => counted_branch!(rf!(a) <= rf!(b), t),
            Instr::JNLtFC { a, b, t } => counted_branch!(!(rf!(a) < rf!(b)), t),
            Instr::JNLeFC { a, b, t } => counted_branch!(!(rf!(a) <= rf!(b)), t),
            Instr::IncJLt32C { a, b, t } => {
                let v = ri!(a).wrapping_add(1) as i32 as i64;
                set!(a, v as u64);
                counted_branch!(v < ri!(b), t)
            }
            Instr::IncJLe32C { a, b, t } => {
                let v = ri!(a).wrapping_add(1) as i32 as i64;
                set!(a, v as u64);
                counted_branch!(v <= ri!(b), t)
            }
            Instr::IncJLt64C { a, b, t } => {
                let v = ri!(a).wrapping_add(1);
                set!(a, v as u64);
                counted_branch!(v < ri!(b), t)
            }
            Instr::IncJLtI32C { a, imm, t } => {
                let v = ri!(a).wrapping_add(1) as i32 as i64;
                set!(a, v as u64);
                counted_branch!(v < i64::from(imm), t)
            }
            Instr::JnzPe { a, t, k } => path_branch!(r!(a) != 0, t, k),
            Instr::JzPe { a, t, k } => path_branch!(r!(a) == 0, t, k),
            Instr::JEqPe { a, b, t, k } => path_branch!(r!(a) == r!(b), t, k),
            Instr::JNePe { a, b, t, k } => path_branch!(r!(a) != r!(b), t, k),
            Instr::JLtPe { a, b, t, k } => path_branch!(ri!(a) < ri!(b), t, k),
            Instr::JLePe { a, b, t, k } => path_branch!(ri!(a) <= ri!(b), t, k),
            Instr::JLtUPe { a, b, t, k } => path_branch!(r!(a) < r!(b), t, k),
            Instr::JLeUPe { a, b, t, k } => path_branch!(r!(a) <= r!(b), t, k),
            Instr::JEqIPe { a, imm, t, k } => path_branch!(ri!(a) == i64::from(imm), t, k),
            Instr::JNeIPe { a, imm, t, k } => path_branch!(ri!(a) != i64::from(imm), t, k),
            Instr::JLtIPe { a, imm, t, k } => path_branch!(ri!(a) < i64::from(imm), t, k),
            Instr::JLeIPe { a, imm, t, k } => path_branch!(ri!(a) <= i64::from(imm), t, k),
            Instr::JGtIPe { a, imm, t, k } => path_branch!(ri!(a) > i64::from(imm), t, k),
            Instr::JGeIPe { a, imm, t, k } => path_branch!(ri!(a) >= i64::from(imm), t, k),
            Instr::JEqFPe { a, b, t, k } => path_branch!(rf!(a) == rf!(b), t, k),
            Instr::JNeFPe { a, b, t, k } => path_branch!(rf!(a) != rf!(b), t, k),
            Instr::JLtFPe { a, b, t, k } => path_branch!(rf!(a) < rf!(b), t, k),
            Instr::JLeFPe { a, b, t, k } => path_branch!(rf!(a) <= rf!(b), t, k),
            Instr::JNLtFPe { a, b, t, k } => path_branch!(!(rf!(a) < rf!(b)), t, k),
            Instr::JNLeFPe { a, b, t, k } => path_branch!(!(rf!(a) <= rf!(b)), t, k),
            Instr::IncJLt32Pe { a, b, t, k } => {
                let v = ri!(a).wrapping_add(1) as i32 as i64;
                set!(a, v as u64);
                path_branch!(v < ri!(b), t, k)
            }
            Instr::IncJLe32Pe { a, b, t, k } => {
                let v = ri!(a).wrapping_add(1) as i32 as i64;
                set!(a, v as u64);
                path_branch!(v <= ri!(b), t, k)
            }
            Instr::IncJLt64Pe { a, b, t, k } => {
                let v = ri!(a).wrapping_add(1);
                set!(a, v as u64);
                path_branch!(v < ri!(b), t, k)
            }
            Instr::IncJLtI32Pe { a, imm, t, k } => {
                let v = ri!(a).wrapping_add(1) as i32 as i64;
                set!(a, v as u64);
                path_branch!(v < i64::from(imm), t, k)
            }
            Instr::JTab { a, tab } => {
                // SAFETY: see `version` above; the table index is verified.
                let tables: &[JumpTable] = unsafe { &(*version).tables };
                // SAFETY: the table index is verified.
                let table = unsafe { tables.get_unchecked(tab.index()) };
                let v = ri!(a).wrapping_sub(table.low) as u64;
                let t = table
                    .targets
                    .get(v as usize)
                    .filter(|_| v <= u32::MAX as u64)
                    .copied()
                    .unwrap_or(table.default);
                if tier0_hooks!() {
                    probes.on_switch(func_id!(), Pc((pc - 1) as u16), t);
                }
                if t.index() < pc {
                    back_edge!(t);
                }
                pc = t.index();
            }

            Instr::Call { a, f } => call!(a, f),
            Instr::CallInd { a, b, n } => {
                let f = match callee_of(program, r!(b), n) {
                    Ok(f) => f,
                    Err(kind) => trap!(kind),
                };
                if hooks!() {
                    count_indirect_call(m, version, pc - 1, f);
                }
                call!(a, f)
            }
            Instr::Ret { a } => {
                let v = r!(a);
                // SAFETY: r0 of the window exists (num_regs >= 1).
                unsafe { *regs = v };
                ret!();
            }
            Instr::RetV {} => ret!(),
            Instr::RetPc { a, c } => {
                paths_only!();
                count!(m.path.wrapping_add(q!(c)));
                let v = r!(a);
                // SAFETY: r0 of the window exists (num_regs >= 1).
                unsafe { *regs = v };
                ret!();
            }
            Instr::RetVPc { c } => {
                paths_only!();
                count!(m.path.wrapping_add(q!(c)));
                ret!()
            }
            Instr::RetF { a } => {
                let v = r!(a);
                // SAFETY: r0 of the window exists (num_regs >= 1).
                unsafe { *regs = v };
                release_frame_objects(m);
                ret!();
            }
            Instr::RetVF {} => {
                release_frame_objects(m);
                ret!()
            }
            Instr::Exit { a } => {
                if calls_hooked!() {
                    probes.on_return(func_id!());
                }
                return Ok(Exit::Exit(r!(a) as i32));
            }
            Instr::Rand { a } => set!(a, m.rand.rand() as u64),
            Instr::Srand { a } => m.rand.srand(r!(a) as u32),
            Instr::Putchar { a, b } => {
                let byte = r!(b) as u8;
                m.out.push(byte);
                set!(a, u64::from(byte));
                m.flush_if_full(w);
            }
            Instr::Printf { a, p } => {
                let site = &fdef.sites[p.index()];
                // SAFETY: the verifier checked that the site's argument registers
                // `a .. a + reg_args` lie inside the window, which lies inside the stack.
                let args = unsafe {
                    std::slice::from_raw_parts(
                        regs.add(a.index()),
                        usize::from(fdef.num_regs) - a.index(),
                    )
                };
                let before = m.out.len();
                if let Err(fault) = crate::memory_calls::printf(&m.memory, site, args, &mut m.out) {
                    trap!(TrapKind::Memory(m.alloc_sites.render(program, &fault)));
                }
                set!(a, (m.out.len() - before) as u64);
                m.flush_if_full(w);
            }
            Instr::Lib { f, a } => {
                // SAFETY: the verifier checked that the arguments `a .. a + nargs(f)` lie
                // inside the window, which lies inside the stack.
                let args = unsafe {
                    std::slice::from_raw_parts_mut(
                        regs.add(a.index()),
                        usize::from(fdef.num_regs) - a.index(),
                    )
                };
                if let Err(kind) = library_call(m, version, pc - 1, f, args) {
                    trap!(kind);
                }
                m.flush_if_full(w);
            }
            Instr::Sprintf { a, p } => {
                let site = &fdef.sites[p.index()];
                // SAFETY: as for `Printf`.
                let args = unsafe {
                    std::slice::from_raw_parts_mut(
                        regs.add(a.index()),
                        usize::from(fdef.num_regs) - a.index(),
                    )
                };
                if let Err(fault) = crate::memory_calls::sprintf(&mut m.memory, site, args) {
                    trap!(TrapKind::Memory(m.alloc_sites.render(program, &fault)));
                }
            }
            Instr::Puts { a, p } => {
                if let Site::Puts(text) = &fdef.sites[p.index()] {
                    m.out.extend_from_slice(text);
                    m.out.push(b'\n');
                    // glibc's `puts` returns the number of bytes written.
                    set!(a, text.len() as u64 + 1);
                }
                m.flush_if_full(w);
            }
            Instr::Abs32 { a, b } => set!(a, (r!(b) as i32).wrapping_abs() as i64 as u64),
            Instr::Abs64 { a, b } => set!(a, ri!(b).wrapping_abs() as u64),
            Instr::Sqrt { a, b } => set!(a, rf!(b).sqrt().to_bits()),
            Instr::Fabs { a, b } => set!(a, rf!(b).abs().to_bits()),
            Instr::Math1 { f, a, b } => set!(a, math1(f, rf!(b)).to_bits()),
            Instr::Math2 { f, a, b, c } => set!(a, math2(f, rf!(b), rf!(c)).to_bits()),

            Instr::PathSet { k } => m.path = q!(k),
            Instr::PathAdd { k } => m.path = m.path.wrapping_add(q!(k)),
            Instr::PathJmp { k, t } => {
                m.path = m.path.wrapping_add(q!(k));
                if t.index() < pc {
                    poll_signal!(t);
                }
                pc = t.index();
            }
            Instr::PathEnd { c, s } => {
                count!(m.path.wrapping_add(q!(c)));
                m.path = q!(s);
            }
            Instr::PathEndJmp { c, s, t } => {
                count!(m.path.wrapping_add(q!(c)));
                m.path = q!(s);
                if t.index() < pc {
                    poll_signal!(t);
                }
                pc = t.index();
            }
            Instr::PathCount { c } => count!(m.path.wrapping_add(q!(c))),
            Instr::PathCountK { c } => count_known!(q!(c)),
            Instr::Probe { k } => {
                // SAFETY: a non-null cursor is the mode's, valid for the run and touched by
                // nothing else between its hooks (`Probes::step_cursor`).
                if P::ENABLED
                    && (m.step_cursor.is_null()
                        || !unsafe { crate::step_table::try_step(m.step_cursor, k.0) })
                {
                    probes.on_probe(func_id!(), k);
                }
            }
            Instr::CountEdge {} => {
                // SAFETY: `pc - 1` is this version's instruction; its counters cover them all.
                unsafe { (*version).counters.bump(pc - 1, true) };
            }
            Instr::Fuel { imm } => {
                let charge = imm as u64;
                if m.steps_left < charge {
                    trap!(TrapKind::Steps(m.max_steps));
                }
                m.steps_left -= charge;
            }
            Instr::ProbePath { k } => {
                if P::ENABLED {
                    let path = m.path;
                    m.path = 0;
                    probes.on_probe_path(func_id!(), k, path);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probes::NoProbes;

    #[test]
    fn only_a_counting_mode_runs_counted_branches() {
        let program = lang::compile_source(
            "t.c",
            "int main(void) { int s = 0; for (int i = 0; i < 9; i++) if (i % 3) s++; return s; }",
        )
        .unwrap();
        let mut m = Machine::new(&program, 16);
        let counted = |m: &Machine<'_>| {
            m.versions[0]
                .code
                .iter()
                .filter(|i| i.uncounted().is_some())
                .count()
        };
        let plain = |m: &Machine<'_>| {
            m.versions[0]
                .code
                .iter()
                .filter(|i| i.counted().is_some())
                .count()
        };
        let branches = plain(&m);
        assert!(branches >= 2, "the loop test and the if");
        m.set_mode(ModeFlags {
            hooks: true,
            counts: true,
            ..ModeFlags::default()
        });
        assert_eq!((counted(&m), plain(&m)), (branches, 0));
        assert!(m.versions[0].tier0 && m.versions[0].calls_hooked);
        m.set_mode(ModeFlags::default());
        assert_eq!(
            (counted(&m), plain(&m)),
            (0, branches),
            "none: the plain branches"
        );
        assert!(!m.versions[0].tier0 && !m.versions[0].calls_hooked);
        // The same program's output under both.
        let mut out = Vec::new();
        assert_eq!(
            execute(&mut m, &mut NoProbes, &mut out).ok(),
            Some(Exit::Return(6))
        );
    }

    #[test]
    fn local_arrays_beyond_the_stack_region_are_refused() {
        let mut mem = Memory::new(MemoryOptions {
            globals_size: 0,
            stack_size: 64,
            max_memory: 1 << 20,
        })
        .unwrap();
        let stack = mem.layout().stack.clone();
        let mut atop = stack.end as usize - 8;
        // Refused before any byte is touched: the stack top unchanged.
        assert!(!enter_arrays(&mut mem, 16, &mut atop));
        assert_eq!(atop, stack.end as usize - 8);
        let mut atop = stack.start as usize;
        assert!(enter_arrays(&mut mem, 24, &mut atop));
        assert_eq!(atop, stack.start as usize + 24);
    }
}
