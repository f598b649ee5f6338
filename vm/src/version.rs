//! A code version: one executable copy of a function's code, as the interpreter runs it. The
//! compiled code of every function is its first version; tier-up adds instrumented copies
//! (`crate::tier::codegen`), which the probes hand to the loop ([`crate::probes::Probes`]) and
//! the loop installs ([`crate::interp::Machine`]). Its own module, so that the interpreter and
//! the probes both use it without importing each other.

use lang::bytecode::{FuncIdx, Function, Instr, JumpTable, Loc};

use crate::branch_counts::Counters;

/// One executable version of a function's code.
#[derive(Clone, Debug)]
pub struct Version {
    /// The function this is a version of.
    pub func: FuncIdx,
    /// The instructions (verified).
    pub code: Box<[Instr]>,
    /// Source location of each instruction.
    pub locs: Box<[Loc]>,
    /// Jump tables of the `JTab` instructions of this version.
    pub tables: Box<[JumpTable]>,
    /// The constants of its path instructions (`PathSet q3` reads `probe_consts[3]`); empty
    /// for compiled code.
    pub probe_consts: Box<[u64]>,
    /// The path-end pairs `E[k] = [c, s]` of its branches with a path end on their taken edge
    /// (`JLePe` and the others: `count(P + c); P := s`); empty for compiled code.
    pub path_end_pairs: Box<[[u64; 2]]>,
    /// Whether this is an instrumented copy: the tier-0 hooks (jump tables, backward jumps)
    /// are not called for it in modes that tier up, since its probes replace them.
    pub instrumented: bool,
    /// Whether the loop calls the running mode's tier-0 hooks (jump tables, backward jumps) in
    /// this version: set by the machine from its mode ([`crate::probes::ModeFlags`]) when the
    /// version is installed, false until then.
    pub tier0: bool,
    /// Whether the loop calls the running mode's entry and return hooks for activations of
    /// this version (set with `tier0`: [`crate::probes::ModeFlags::call_hooks`]).
    pub calls_hooked: bool,
    /// Instrumented copies: the pc where each CFG block starts in this version, by block id
    /// (`None` for the virtual blocks); empty for compiled code, whose blocks are its CFG's.
    /// Read when a run is watched, to say which block the frame is in.
    pub block_start: Box<[Option<lang::bytecode::Pc>]>,
    /// Its branch and edge counters (see [`crate::branch_counts`]);
    /// [`crate::interp::Machine::add_version`] keeps them when they cover the code (the `edge`
    /// mode reads them) and gives fresh ones otherwise.
    pub counters: Counters,
    /// Its dense path counters (see [`crate::path_counts`]): one cell per path id for an
    /// instrumented version of a function with few enough paths in a mode that counts densely;
    /// none otherwise.
    pub dense: crate::path_counts::DenseCounts,
}

impl Version {
    /// This version's code as `vmrun disasm` prints a function (`func` is the function it is
    /// a version of, `index` its index), without the probe constants.
    pub fn disassemble(&self, func: &Function, index: usize) -> String {
        let mut copy = func.clone();
        copy.code = self.code.to_vec();
        copy.locs = self.locs.to_vec();
        copy.tables = self.tables.to_vec();
        let mut out = String::new();
        lang::bytecode::disasm::disassemble_function(&copy, index, &mut out);
        out
    }

    /// Its probe constants and path-end pairs as the listing names them:
    /// ` q0=5 q1=2 e0=(0,4)` (empty for compiled code).
    pub fn probe_constants(&self) -> String {
        let consts = self
            .probe_consts
            .iter()
            .enumerate()
            .map(|(k, c)| format!(" q{k}={}", *c as i64));
        let pairs = self
            .path_end_pairs
            .iter()
            .enumerate()
            .map(|(k, [c, s])| format!(" e{k}=({},{})", *c as i64, *s as i64));
        consts.chain(pairs).collect()
    }
}
