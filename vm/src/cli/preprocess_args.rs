//! The preprocessor's options on the command line: `-D NAME[=VALUE]`, `-U NAME`, `-I DIR`, as
//! gcc spells them, shared by every command that compiles a program.

use std::path::PathBuf;

use clap::Args;

/// `-D`, `-U` and `-I`.
#[derive(Args, Debug, Clone, Default)]
pub struct PreprocessArgs {
    /// Define a macro: `-D NAME` (as 1), `-D NAME=VALUE`, `-D 'F(x)=...'`.
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    define: Vec<String>,
    /// Undefine a macro (after every -D).
    #[arg(short = 'U', value_name = "NAME")]
    undefine: Vec<String>,
    /// Look for `#include "..."` files here too (after the including file's directory).
    #[arg(short = 'I', value_name = "DIR")]
    include_dir: Vec<PathBuf>,
}

impl PreprocessArgs {
    /// The options for `lang`.
    pub fn options(&self) -> lang::PreprocessOptions {
        let mut options = lang::PreprocessOptions {
            defines: Vec::new(),
            undefines: self.undefine.clone(),
            include_dirs: self.include_dir.clone(),
        };
        for d in &self.define {
            options.define(d);
        }
        options
    }
}
