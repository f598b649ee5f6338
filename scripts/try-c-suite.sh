#!/usr/bin/env bash
# Runs every program of a C benchmark suite under vmrun and gcc and compares stdout and exit
# status, as a new user would try the VM on the C they already have.
#
#   scripts/try-c-suite.sh SUITE_DIR [VMRUN]
#
# A program is a directory holding .c files (all compiled and linked together, as
# `gcc -std=c99 -fwrapv -O0 *.c -lm` and `vmrun *.c`), found at any depth under SUITE_DIR
# (TACLeBench's bench/kernel/*, Mälardalen's directory of single files works too: each .c
# file directly in SUITE_DIR is a program of its own). Prints one line per program: PASS, FAIL
# with vmrun's first error, or SKIP when gcc cannot build it; then the counts.
set -u
suite=${1:?usage: try-c-suite.sh SUITE_DIR [VMRUN]}
vm=${2:-target/release/vmrun}
[ -x "$vm" ] || { echo "no vmrun at $vm (cargo build --release, or give its path)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0; fail=0; skip=0
programs() {
    find "$suite" -maxdepth 1 -type f -name '*.c' | sort | while read -r f; do echo "file:$f"; done
    find "$suite" -mindepth 1 -type d | sort | while read -r d; do
        ls "$d"/*.c >/dev/null 2>&1 && echo "dir:$d"
    done
}
while read -r entry; do
    case $entry in
        file:*) files=("${entry#file:}"); name=${entry#file:} ;;
        dir:*) d=${entry#dir:}; files=("$d"/*.c); name=$d ;;
    esac
    if ! gcc -std=c99 -fwrapv -O0 -w "${files[@]}" -lm -o "$work/prog" 2>"$work/gcc.err"; then
        echo "SKIP $name (gcc: $(head -c 120 "$work/gcc.err" | tr '\n' ' '))"; skip=$((skip + 1)); continue
    fi
    timeout 10 "$work/prog" >"$work/gcc.out" 2>/dev/null; g=$?
    timeout 60 "$vm" "${files[@]}" >"$work/vm.out" 2>"$work/vm.err"; v=$?
    if [ "$g" -eq "$v" ] && cmp -s "$work/gcc.out" "$work/vm.out"; then
        echo "PASS $name"; pass=$((pass + 1))
    else
        why=$(grep -m1 -E 'error|runtime' "$work/vm.err" | cut -c1-160)
        [ -z "$why" ] && why="output or status differs (gcc $g, vmrun $v)"
        echo "FAIL $name: $why"; fail=$((fail + 1))
    fi
done < <(programs)
echo "pass $pass, fail $fail, skipped $skip"
