#!/bin/sh
# Checks C test programs: builds each with the sanitizer flags (-Wall -Wextra must be silent),
# runs it (stderr must be empty), builds it plainly and with -O2 (same stdout and status),
# runs the plain build under valgrind (no errors, no leaks), then writes NAME.expected (stdout)
# and NAME.status (exit code) beside the source. Usage: check_programs.sh FILE.c...
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for src in "$@"; do
    name=$(basename "$src" .c)
    dir=$(dirname "$src")
    bad=""
    if ! gcc -std=c99 -fwrapv -O0 -Wall -Wextra -fsanitize=address,undefined -g "$src" -lm -o "$tmp/san" 2>"$tmp/warn"; then bad="$bad san-build"; fi
    [ -s "$tmp/warn" ] && bad="$bad warnings"
    gcc -std=c99 -fwrapv -O0 "$src" -lm -o "$tmp/plain" 2>>"$tmp/warn" || bad="$bad plain-build"
    gcc -std=c99 -fwrapv -O2 -Wall -Wextra "$src" -lm -o "$tmp/opt" 2>>"$tmp/warn" || bad="$bad O2-build"
    gcc -std=c99 -fwrapv -O0 -pedantic -Wall -Wextra -fsyntax-only "$src" 2>"$tmp/ped" || true
    [ -s "$tmp/ped" ] && bad="$bad pedantic"
    "$tmp/san" >"$tmp/san.out" 2>"$tmp/san.err"; s1=$?
    [ -s "$tmp/san.err" ] && bad="$bad san-stderr"
    "$tmp/plain" >"$tmp/plain.out" 2>/dev/null; s2=$?
    "$tmp/opt" >"$tmp/opt.out" 2>/dev/null; s3=$?
    cmp -s "$tmp/san.out" "$tmp/plain.out" || bad="$bad san-vs-plain"
    cmp -s "$tmp/opt.out" "$tmp/plain.out" || bad="$bad O2-vs-plain"
    [ "$s1" = "$s2" ] && [ "$s2" = "$s3" ] || bad="$bad status($s1/$s2/$s3)"
    valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 "$tmp/plain" >"$tmp/vg.out" 2>"$tmp/vg.err"; s4=$?
    { [ "$s4" = 99 ] || [ -s "$tmp/vg.err" ]; } && bad="$bad valgrind"
    lines=$(wc -l < "$src")
    if [ -z "$bad" ]; then
        cp "$tmp/plain.out" "$dir/$name.expected"
        echo "$s2" > "$dir/$name.status"
        echo "ok   $name status=$s2 lines=$lines out=$(wc -l < "$tmp/plain.out")"
    else
        fail=1
        echo "FAIL $name:$bad"
        cat "$tmp/warn" "$tmp/ped" "$tmp/san.err" | head -20
        head -20 "$tmp/vg.err"
    fi
done
exit $fail
