//! `vmrun disasm FILE`: print the compiled bytecode, or (`--instrumented`) the copy that
//! Ball-Larus tier-up makes of every function, with its path instructions and probe constants.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use lang::bytecode::{FuncIdx, Program};
use profiler::PathEnds;
use vm::modes::bl::tierup::tier_up_bl;
use vm::EXIT_RUNTIME_ERROR;

/// Arguments of `vmrun disasm`.
#[derive(Args, Debug)]
pub struct DisasmArgs {
    /// The program to compile and disassemble: one or more source files, linked as by
    /// `vmrun FILE...`.
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// Show the instrumented copies `--profile=bl` runs (canonical numbering, as with
    /// `--tier-up 0`): path-register instructions on the CFG edges, path ends at the cuts.
    #[arg(long)]
    instrumented: bool,
    /// Where paths end in the instrumented copies: `header` or `backedge`.
    #[arg(long, value_name = "STRATEGY", default_value = "header", value_parser = parse_path_ends)]
    path_ends: PathEnds,
    #[command(flatten)]
    preprocess: super::preprocess_args::PreprocessArgs,
}

fn parse_path_ends(s: &str) -> Result<PathEnds, String> {
    s.parse()
}

/// The instrumented copy of every function, disassembled.
fn disassemble_instrumented(program: &Program, path_ends: PathEnds) -> Result<String, String> {
    let mut out = String::new();
    for (i, func) in program.functions.iter().enumerate() {
        let (tiered, version) = tier_up_bl(FuncIdx(i as u16), func, path_ends, None, 0, 0)
            .map_err(|e| format!("function {}: {e}", func.name))?;
        out.push_str(&version.disassemble(func, i));
        let _ = write!(
            out,
            "  {} static paths ({path_ends} path ends); probe constants:{}",
            tiered.bl.num_paths(),
            version.probe_constants()
        );
        out.push_str("\n\n");
    }
    Ok(out)
}

/// Compiles the file and prints its bytecode; returns the exit status.
pub fn run(args: &DisasmArgs) -> i32 {
    let sources = match super::Sources::read(&args.files) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let name = sources.name();
    match sources.compile(&args.preprocess.options()) {
        Ok(program) if args.instrumented => {
            match disassemble_instrumented(&program, args.path_ends) {
                Ok(text) => {
                    print!("{text}");
                    0
                }
                Err(e) => {
                    eprintln!("vmrun: {name}: cannot instrument: {e}");
                    EXIT_RUNTIME_ERROR
                }
            }
        }
        Ok(program) => {
            print!("{}", lang::bytecode::disasm::disassemble(&program));
            0
        }
        Err(code) => code,
    }
}
