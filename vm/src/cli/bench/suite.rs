//! Which programs a benchmark run measures: the PATH arguments of `vmrun bench`, and what the
//! suite's manifest (`suite.json`) says about them.
//!
//! A PATH is a program file, or a directory in which
//! - each `.c` file directly inside is a program (named by its file stem), and
//! - each subdirectory holding `.c` files is one program made of all of them, in name order
//!   (named by the subdirectory), so that a benchmark suite laid out one program per directory
//!   can be pointed at as it is.
//!
//! Other files and subdirectories without `.c` files are ignored. Programs are listed in the
//! order of the PATHs, each directory's in name order. Two programs may not share a name (the
//! tables are keyed by it).
//!
//! A directory may hold a manifest, `suite.json` (schema in `docs/bench.md`), that marks its
//! programs' family and whether they are loop-heavy (at least half of the Ball-Larus paths
//! they complete end at a loop header): the tables and the goals of `vmrun bench` are read off
//! the loop-heavy ones. It applies to the programs of its directory, also when a file of the
//! directory is given as a PATH.

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The manifest's file name.
pub const MANIFEST: &str = "suite.json";

/// One program of the suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Its name in the tables: the file stem, or the directory's name.
    pub name: String,
    /// Its source files (one, or all the `.c` files of its directory).
    pub files: Vec<PathBuf>,
    /// What the manifest says about it, if it is listed.
    pub info: ProgramInfo,
}

/// What a manifest says about a program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProgramInfo {
    /// Which papers' suite it is in the spirit of (`wcet`: Roy & Srikant's; `kblpp`: the k-BLPP
    /// paper's), or any other grouping.
    pub family: Option<String>,
    /// Whether most of its time is spent in loops.
    pub loop_heavy: Option<bool>,
    /// One line on what it does.
    pub about: Option<String>,
}

/// The manifest of a directory.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    /// What the suite is.
    #[serde(default)]
    #[allow(dead_code)]
    description: Option<String>,
    /// Its programs.
    programs: Vec<ManifestEntry>,
}

/// One program of a manifest.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ManifestEntry {
    name: String,
    #[serde(default)]
    family: Option<String>,
    #[serde(default)]
    loop_heavy: Option<bool>,
    #[serde(default)]
    about: Option<String>,
}

/// The programs named by `paths`, with their manifests applied; the error names the path and
/// what is wrong.
pub fn discover(paths: &[PathBuf]) -> Result<Vec<Program>, String> {
    let mut programs: Vec<Program> = Vec::new();
    for path in paths {
        let found = if path.is_dir() {
            directory_programs(path)?
        } else if path.is_file() {
            let mut program = vec![Program {
                name: stem(path),
                files: vec![path.clone()],
                info: ProgramInfo::default(),
            }];
            let manifest = path.parent().unwrap_or(Path::new(".")).join(MANIFEST);
            if manifest.is_file() {
                apply_manifest(&manifest, &mut program, Listed::MayBeElsewhere)?;
            }
            program
        } else {
            return Err(format!("{}: no such file or directory", path.display()));
        };
        for program in found {
            if let Some(other) = programs.iter().find(|p| p.name == program.name) {
                return Err(format!(
                    "two programs are named '{}': {} and {} (rename one: the tables are keyed by name)",
                    program.name,
                    other.files[0].display(),
                    program.files[0].display()
                ));
            }
            programs.push(program);
        }
    }
    Ok(programs)
}

/// The programs of one directory, in name order, with its manifest applied.
fn directory_programs(dir: &Path) -> Result<Vec<Program>, String> {
    let mut programs = Vec::new();
    for entry in sorted_entries(dir)? {
        if entry.is_dir() {
            let files: Vec<PathBuf> = sorted_entries(&entry)?
                .into_iter()
                .filter(|f| f.is_file() && is_c_file(f))
                .collect();
            if !files.is_empty() {
                programs.push(Program {
                    name: file_name(&entry),
                    files,
                    info: ProgramInfo::default(),
                });
            }
        } else if is_c_file(&entry) {
            programs.push(Program {
                name: stem(&entry),
                files: vec![entry],
                info: ProgramInfo::default(),
            });
        }
    }
    if programs.is_empty() {
        return Err(format!(
            "{}: no programs here (a program is a .c file, or a subdirectory holding .c files)",
            dir.display()
        ));
    }
    let manifest = dir.join(MANIFEST);
    if manifest.is_file() {
        apply_manifest(&manifest, &mut programs, Listed::AllHere)?;
    }
    Ok(programs)
}

/// Whether every program a manifest lists must be among those it is applied to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Listed {
    /// Applied to its whole directory: a name without a program is an error.
    AllHere,
    /// Applied to one file of its directory: the other names are not checked.
    MayBeElsewhere,
}

/// Reads `path` and sets the info of the programs it lists.
fn apply_manifest(path: &Path, programs: &mut [Program], listed: Listed) -> Result<(), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let manifest: Manifest = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}:{}:{}: {}",
            path.display(),
            e.line(),
            e.column(),
            strip_position(&e.to_string())
        )
    })?;
    for entry in manifest.programs {
        let Some(program) = programs.iter_mut().find(|p| p.name == entry.name) else {
            if listed == Listed::MayBeElsewhere {
                continue;
            }
            return Err(format!(
                "{}: program '{}' is listed but there is no {}.c or {}/ beside it",
                path.display(),
                entry.name,
                entry.name,
                entry.name
            ));
        };
        program.info = ProgramInfo {
            family: entry.family,
            loop_heavy: entry.loop_heavy,
            about: entry.about,
        };
    }
    Ok(())
}

/// serde_json's message without its trailing " at line L column C" (the position is put in
/// front, as `file:line:col`).
fn strip_position(message: &str) -> &str {
    match message.rfind(" at line ") {
        Some(i) => &message[..i],
        None => message,
    }
}

fn sorted_entries(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("{}: cannot read: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = entries
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{}: cannot read: {e}", dir.display()))?;
    paths.sort();
    Ok(paths)
}

fn is_c_file(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "c")
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh directory under the system's temporary directory.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("vmrun-suite-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn touch(path: &Path) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "int main(void) { return 0; }\n").unwrap();
    }

    fn names(programs: &[Program]) -> Vec<&str> {
        programs.iter().map(|p| p.name.as_str()).collect()
    }

    #[test]
    fn a_directory_holds_files_and_subdirectory_programs() {
        let dir = scratch("layout");
        touch(&dir.join("zeta.c"));
        touch(&dir.join("alpha.c"));
        touch(&dir.join("notes.txt"));
        touch(&dir.join("multi/main.c"));
        touch(&dir.join("multi/util.c"));
        touch(&dir.join("multi/util.h"));
        touch(&dir.join("multi/deeper/ignored.c"));
        std::fs::create_dir_all(dir.join("empty")).unwrap();
        touch(&dir.join("docs/readme.md"));
        let programs = discover(std::slice::from_ref(&dir)).unwrap();
        assert_eq!(names(&programs), ["alpha", "multi", "zeta"]);
        let multi = &programs[1];
        assert_eq!(
            multi.files,
            [dir.join("multi/main.c"), dir.join("multi/util.c")],
            "all .c files directly in the subdirectory, in name order"
        );
        assert_eq!(programs[0].files, [dir.join("alpha.c")]);
    }

    #[test]
    fn a_file_is_one_program_whatever_its_extension() {
        let dir = scratch("file");
        touch(&dir.join("prog.src"));
        touch(&dir.join("b.c"));
        let programs = discover(&[dir.join("prog.src"), dir.join("b.c")]).unwrap();
        assert_eq!(names(&programs), ["prog", "b"], "in the order given");
        assert_eq!(programs[0].files, [dir.join("prog.src")]);
    }

    #[test]
    fn missing_paths_empty_directories_and_clashing_names_are_errors() {
        let dir = scratch("errors");
        let missing = discover(&[dir.join("nope")]).unwrap_err();
        assert!(
            missing.contains("nope") && missing.contains("no such file"),
            "{missing}"
        );
        std::fs::create_dir_all(dir.join("empty")).unwrap();
        touch(&dir.join("empty/readme.txt"));
        let empty = discover(&[dir.join("empty")]).unwrap_err();
        assert!(empty.contains("no programs"), "{empty}");
        touch(&dir.join("one/x.c"));
        touch(&dir.join("two/x.c"));
        let clash = discover(&[dir.join("one"), dir.join("two")]).unwrap_err();
        assert!(clash.contains("two programs are named 'x'"), "{clash}");
    }

    #[test]
    fn the_manifest_marks_programs_and_its_errors_name_file_line_and_column() {
        let dir = scratch("manifest");
        touch(&dir.join("loops.c"));
        touch(&dir.join("calls.c"));
        std::fs::write(
            dir.join(MANIFEST),
            r#"{"description": "test", "programs": [
                {"name": "loops", "family": "wcet", "loop_heavy": true, "about": "a loop"}
            ]}"#,
        )
        .unwrap();
        let programs = discover(std::slice::from_ref(&dir)).unwrap();
        assert_eq!(names(&programs), ["calls", "loops"]);
        assert_eq!(programs[0].info, ProgramInfo::default(), "not listed");
        assert_eq!(programs[1].info.loop_heavy, Some(true));
        assert_eq!(programs[1].info.family.as_deref(), Some("wcet"));
        let alone = discover(&[dir.join("loops.c")]).unwrap();
        assert_eq!(
            alone[0].info.loop_heavy,
            Some(true),
            "a file gets its directory's mark"
        );

        std::fs::write(
            dir.join(MANIFEST),
            "{\"programs\": [\n  {\"name\": \"loops\", \"loopy\": true}\n]}",
        )
        .unwrap();
        let typo = discover(std::slice::from_ref(&dir)).unwrap_err();
        let expected = format!("{}:2:", dir.join(MANIFEST).display());
        assert!(
            typo.starts_with(&expected) && typo.contains("loopy"),
            "{typo}"
        );

        std::fs::write(dir.join(MANIFEST), r#"{"programs": [{"name": "gone"}]}"#).unwrap();
        let gone = discover(std::slice::from_ref(&dir)).unwrap_err();
        assert!(gone.contains("'gone' is listed"), "{gone}");
    }
}
