//! The library functions written in C (`lang/src/prelude/`) behave as glibc's: `qsort` is
//! glibc 2.36's merge sort, so on random arrays (with many equal keys) a counting, tracing
//! comparison function sees the same calls in the same order, and the sorted bytes are the
//! same, as with the C library gcc links (`lang/tests/prelude/qsort_calls.c` runs both).

use std::process::Command;

#[test]
fn qsort_calls_the_comparison_as_glibc_does() {
    let dir = std::env::temp_dir().join(format!("prelude-gcc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let prelude = include_str!("../src/prelude/qsort.c").replace("void qsort(", "void vm_qsort(");
    let ours = dir.join("vm_qsort.c");
    std::fs::write(&ours, prelude).expect("write");
    let exe = dir.join("qsort_calls");
    let tests = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/prelude/qsort_calls.c");
    let built = Command::new("gcc")
        .args(["-std=c99", "-O0", "-o"])
        .arg(&exe)
        .arg(tests)
        .arg(&ours)
        .output()
        .expect("gcc is required by this test (the reference) but could not be run");
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let run = Command::new(&exe).output().expect("run");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(String::from_utf8_lossy(&run.stdout), "same\n");
}
