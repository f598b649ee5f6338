//! Step metering for `vmrun --max-steps`: a `Fuel` instruction in front of every basic block.
//!
//! Counting every instruction as it runs would cost the dispatch loop an increment per
//! instruction in every run. Instead, as wasmi meters fuel, the charge is made once per basic
//! block: [`meter`] rewrites each function so that every block starts with `Fuel n`, where `n`
//! is the number of the block's own instructions. The interpreter subtracts `n` from the steps
//! left and stops the run before the block when fewer than `n` are left, so a run never executes
//! more than its limit and stops at the first block that would take it past the limit. Programs
//! run without `--max-steps` are not rewritten and pay nothing.
//!
//! The count is of the program's own instructions: `Fuel` itself is not counted, nor are the
//! probes a profiling mode adds when it instruments a function (the instrumented versions keep
//! the `Fuel` instructions of the code they copy), so a limit stops the same run at the same
//! place under every mode. A call charges the caller's whole block on entry, the callee's
//! blocks as they run.

use super::{Function, Instr, Loc, Pc, Program};

/// Rewrites every function of `program` so that each basic block starts with a `Fuel`
/// instruction charging the block's length. Fails, naming the function, when a function's
/// metered code would not fit in the 65,536 instructions a `Pc` can address.
pub fn meter(program: &mut Program) -> Result<(), String> {
    for function in &mut program.functions {
        meter_function(function)?;
    }
    Ok(())
}

/// [`meter`] for one function: the blocks' lengths, the new code with each instruction's new
/// index, then every jump target (in instructions and jump tables) moved to its block's `Fuel`.
fn meter_function(function: &mut Function) -> Result<(), String> {
    let leaders = function.leaders();
    let n = function.code.len();
    let mut new_index = vec![0usize; n];
    let mut code = Vec::with_capacity(n + n / 4);
    let mut locs: Vec<Loc> = Vec::with_capacity(n + n / 4);
    let mut start = 0;
    while start < n {
        let end = (start + 1..n).find(|&i| leaders[i]).unwrap_or(n);
        let length = i32::try_from(end - start).map_err(|_| too_large(function))?;
        code.push(Instr::Fuel { imm: length });
        locs.push(function.locs[start]);
        for (old, index) in new_index.iter_mut().enumerate().take(end).skip(start) {
            *index = code.len();
            code.push(function.code[old]);
            locs.push(function.locs[old]);
        }
        start = end;
    }
    if code.len() > usize::from(u16::MAX) + 1 {
        return Err(too_large(function));
    }
    // A jump to a leader goes to its `Fuel`, just before it.
    let retarget = |t: &mut Pc| *t = Pc((new_index[t.index()] - 1) as u16);
    for ins in &mut code {
        if !matches!(ins, Instr::Fuel { .. }) {
            ins.for_each_target_mut(retarget);
        }
    }
    for table in &mut function.tables {
        table.targets.iter_mut().for_each(retarget);
        retarget(&mut table.default);
    }
    function.code = code;
    function.locs = locs;
    Ok(())
}

fn too_large(function: &Function) -> String {
    format!(
        "function '{}' is too large to be metered for --max-steps (more than 65,536 \
         instructions with its step charges)",
        function.name
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytecode::Flow;

    fn compile(src: &str) -> Program {
        crate::compile_source("t.c", src).expect("compiles")
    }

    #[test]
    fn every_block_starts_with_a_charge_of_its_length_and_jumps_land_on_charges() {
        let src = "int main(void) {\n    int s = 0;\n    for (int i = 0; i < 10; i++) {\n        \
                   switch (i % 3) {\n        case 0: s += 1; break;\n        case 1: s += 2; \
                   break;\n        default: s -= 1;\n        }\n    }\n    return s;\n}\n";
        let plain = compile(src);
        let mut metered = plain.clone();
        meter(&mut metered).unwrap();
        for (before, after) in plain.functions.iter().zip(&metered.functions) {
            let leaders = before.leaders();
            let blocks = leaders.iter().filter(|&&l| l).count();
            assert_eq!(after.code.len(), before.code.len() + blocks);
            assert_eq!(after.locs.len(), after.code.len());
            // Dropping the charges gives back the original instruction sequence (targets aside).
            let kept: Vec<_> = after
                .code
                .iter()
                .filter(|i| !matches!(i, Instr::Fuel { .. }))
                .map(|i| i.name())
                .collect();
            let original: Vec<_> = before.code.iter().map(|i| i.name()).collect();
            assert_eq!(kept, original);
            // Every charge is followed by exactly that many instructions before the next charge
            // or the end, and every target is a charge.
            let mut i = 0;
            while i < after.code.len() {
                let Instr::Fuel { imm } = after.code[i] else {
                    panic!("block without a charge at {i}");
                };
                let len = after.code[i + 1..]
                    .iter()
                    .position(|x| matches!(x, Instr::Fuel { .. }))
                    .unwrap_or(after.code.len() - i - 1);
                assert_eq!(imm as usize, len);
                i += 1 + len;
            }
            for ins in &after.code {
                if let Some(t) = ins.target() {
                    assert!(matches!(after.code[t.index()], Instr::Fuel { .. }));
                }
                if ins.flow() == Flow::Table {
                    let Instr::JTab { tab, .. } = ins else {
                        unreachable!()
                    };
                    let table = &after.tables[tab.index()];
                    for t in table.targets.iter().chain([&table.default]) {
                        assert!(matches!(after.code[t.index()], Instr::Fuel { .. }));
                    }
                }
            }
            crate::bytecode::verify::verify(&metered).expect("metered code verifies");
        }
    }
}
