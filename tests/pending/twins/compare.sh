#!/bin/sh
# Checks that every twin benchmark prints the same bytes in all its versions:
# NAME.c compiled with gcc (the reference), NAME.lua under lua5.4, NAME.py
# under python3 (and under `luajit -joff` when luajit is installed: the Lua twins avoid
# Lua 5.3+ integer operators), and NAME.c under vmrun when VMRUN names the binary
# (e.g. VMRUN=target/release/vmrun). Prints one line per twin and exits
# non-zero if any version differs.
# Usage: programs/twins/compare.sh [NAME...]
set -u
dir=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v gcc >/dev/null || { echo "compare.sh: gcc not found" >&2; exit 2; }
command -v lua5.4 >/dev/null || { echo "compare.sh: lua5.4 not found" >&2; exit 2; }
command -v python3 >/dev/null || { echo "compare.sh: python3 not found" >&2; exit 2; }
if [ $# -eq 0 ]; then
    set -- $(cd "$dir" && ls *.c | sed 's/\.c$//')
fi
status=0
for name in "$@"; do
    gcc -std=c99 -fwrapv -O0 -x c "$dir/$name.c" -lm -o "$tmp/$name" || { echo "$name: gcc failed"; status=1; continue; }
    "$tmp/$name" > "$tmp/$name.gcc"
    result="$name: gcc=$(cksum < "$tmp/$name.gcc" | cut -d' ' -f1)"
    lua5.4 "$dir/$name.lua" > "$tmp/$name.lua.out"
    python3 "$dir/$name.py" > "$tmp/$name.py.out"
    if command -v luajit >/dev/null; then
        luajit -joff "$dir/$name.lua" > "$tmp/$name.luajit.out"
        versions="lua luajit py"
    else
        versions="lua py"
    fi
    for v in $versions; do
        if cmp -s "$tmp/$name.gcc" "$tmp/$name.$v.out"; then result="$result $v=same"
        else result="$result $v=DIFFERENT"; status=1; diff "$tmp/$name.gcc" "$tmp/$name.$v.out" | head -5; fi
    done
    if [ -n "${VMRUN:-}" ]; then
        "$VMRUN" "$dir/$name.c" > "$tmp/$name.vm.out"
        if cmp -s "$tmp/$name.gcc" "$tmp/$name.vm.out"; then result="$result vmrun=same"
        else result="$result vmrun=DIFFERENT"; status=1; diff "$tmp/$name.gcc" "$tmp/$name.vm.out" | head -5; fi
    fi
    echo "$result"
done
exit $status
