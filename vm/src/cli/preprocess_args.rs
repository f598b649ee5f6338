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
    /// The options as one argument each (`-DN=3`, `-UX`, `-Iinc`), as a profile records them
    /// ([`vm::profile::Profile::preprocess`]).
    pub fn as_args(&self) -> Vec<String> {
        let d = self.define.iter().map(|d| format!("-D{d}"));
        let u = self.undefine.iter().map(|u| format!("-U{u}"));
        let i = self
            .include_dir
            .iter()
            .map(|i| format!("-I{}", i.display()));
        d.chain(u).chain(i).collect()
    }

    /// The options recorded by [`PreprocessArgs::as_args`], read back; an argument that is
    /// not one of them is an error naming it.
    pub fn from_args(args: &[String]) -> Result<PreprocessArgs, String> {
        let mut parsed = PreprocessArgs::default();
        for a in args {
            if let Some(d) = a.strip_prefix("-D").filter(|d| !d.is_empty()) {
                parsed.define.push(d.to_string());
            } else if let Some(u) = a.strip_prefix("-U").filter(|u| !u.is_empty()) {
                parsed.undefine.push(u.to_string());
            } else if let Some(i) = a.strip_prefix("-I").filter(|i| !i.is_empty()) {
                parsed.include_dir.push(PathBuf::from(i));
            } else {
                return Err(format!("'{a}' is not a preprocessor option (-D, -U or -I)"));
            }
        }
        Ok(parsed)
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_options_read_back_to_the_same_options() {
        let args = PreprocessArgs {
            define: vec!["N=3".into(), "F(x)=((x)+1)".into(), "DEBUG".into()],
            undefine: vec!["NDEBUG".into()],
            include_dir: vec![PathBuf::from("inc"), PathBuf::from("/opt/h")],
        };
        let recorded = args.as_args();
        assert_eq!(
            recorded,
            [
                "-DN=3",
                "-DF(x)=((x)+1)",
                "-DDEBUG",
                "-UNDEBUG",
                "-Iinc",
                "-I/opt/h"
            ]
        );
        let back = PreprocessArgs::from_args(&recorded).unwrap();
        assert_eq!(back.options(), args.options());
        assert!(PreprocessArgs::from_args(&["-X".into()]).is_err());
        assert!(PreprocessArgs::from_args(&["-D".into()]).is_err());
    }
}
