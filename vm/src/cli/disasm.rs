//! `vmrun disasm FILE`: print the compiled bytecode.

use std::path::PathBuf;

use clap::Args;
use vm::EXIT_COMPILE_ERROR;

/// Arguments of `vmrun disasm`.
#[derive(Args, Debug)]
pub struct DisasmArgs {
    /// The program to compile and disassemble.
    #[arg(value_name = "FILE")]
    file: PathBuf,
}

/// Compiles the file and prints its bytecode; returns the exit status.
pub fn run(args: &DisasmArgs) -> i32 {
    let source = match super::read_source(&args.file) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let name = args.file.display().to_string();
    match lang::compile_source(&name, &source) {
        Ok(program) => {
            print!("{}", lang::bytecode::disasm::disassemble(&program));
            0
        }
        Err(diags) => {
            eprint!("{}", diags.render(&name, &source));
            EXIT_COMPILE_ERROR
        }
    }
}
