#!/usr/bin/env bash
# Checks that two vmrun binaries write byte-identical profiles: every program under programs/
# (twins and the benchmark suite included, the textual CFGs of programs/cfgs/ excepted), under
# every profiling mode, with the default tier-up and with --tier-up 0; also their stdout and
# exit status. For refactorings that must not change behaviour (issue 13).
#
# Usage: scripts/compare-profiles.sh OLD_VMRUN NEW_VMRUN [OUT_DIR]
#   MODES="edge bl trace kiter:2 kiter:3 kbl:2 kbl:8"   the modes compared (default: these)
#   PROGRAMS="programs/a.c programs/dir/main.c"   the programs compared (default: all; a
#                directory of several files is named by its main.c)
#   IDS=ignore   compare the profiles with every path id replaced by its path
#                (scripts/profile-without-ids.py): for a change of numbering, which may give
#                paths other ids but must not change a count
# Prints one line per difference and a summary; exits 1 if anything differs.
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1 new=$2 out=${3:-$(mktemp -d)}
modes=${MODES:-"edge bl trace kiter:2 kiter:3 kbl:2 kbl:8"}
mkdir -p "$out/old" "$out/new"
programs=${PROGRAMS:-$(find programs -name '*.c' -not -path 'programs/cfgs/*' | sort)}
compared=0 differ=0
for p in $programs; do
  # A directory with a main.c is one program of several files (run with all its files).
  dir=$(dirname "$p")
  files=$p
  if [ -f "$dir/main.c" ] && [ "$dir" != programs ]; then
    [ "$(basename "$p")" = main.c ] || continue
    files=$(ls "$dir"/*.c)
  fi
  name=$(echo "$p" | sed 's|^programs/||; s|/|_|g; s|\.c$||')
  for m in $modes; do
    for t in 1000 0; do
      # The trace mode records every block: on the benchmark suite only with --tier-up 0 (the
      # mode ignores the threshold anyway).
      if [ "$m" = trace ] && [ "$t" != 0 ]; then continue; fi
      key="$name.${m/:/-}.t$t"
      for side in old new; do
        bin=$old; [ $side = new ] && bin=$new
        status=0
        "$bin" --profile="$m" --tier-up="$t" --profile-out "$out/$side/$key.json" $files \
          > "$out/$side/$key.stdout" 2> /dev/null < /dev/null || status=$?
        echo "$status" >> "$out/$side/$key.stdout"
      done
      compared=$((compared + 1))
      if [ "${IDS:-}" = ignore ]; then
        for side in old new; do
          if [ -s "$out/$side/$key.json" ]; then
            scripts/profile-without-ids.py "$out/$side/$key.json" > "$out/$side/$key.noids"
            mv "$out/$side/$key.noids" "$out/$side/$key.json"
          fi
        done
      fi
      for ext in json stdout; do
        if ! cmp -s "$out/old/$key.$ext" "$out/new/$key.$ext"; then
          echo "DIFFERS: $p --profile=$m --tier-up=$t ($ext)"
          differ=$((differ + 1))
        fi
      done
    done
  done
done
echo "$compared runs compared ($(echo $programs | wc -w) programs, modes: $modes), $differ differences; files in $out"
[ "$differ" -eq 0 ]
