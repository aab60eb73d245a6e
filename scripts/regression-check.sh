#!/usr/bin/env bash
# Shows that the compare workflow separates noise from a regression on this machine:
#   1. run A and run B of the same build, back to back, N repetitions each, random interleaving;
#   2. run C with every reduction kernel slowed (CSBENCH_EXTRA_DEFINES=SLOWDOWN=n);
#   3. compare.py B against A (expected: exit 0, no SLOWER) and C against A (expected: exit 1).
# Usage: scripts/regression-check.sh OUTDIR [bench flags, e.g. --benchmark_filter=...]
# Environment: BENCH (default build/bench), REPETITIONS (default 9), SLOWDOWN (default 4000).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: regression-check.sh OUTDIR [bench flags]}
shift
bench=${BENCH:-$root/build/bench}
reps=${REPETITIONS:-9}
mkdir -p "$out"
run() {  # run NAME [env...]
  local name=$1
  shift
  env "$@" "$bench" --benchmark_repetitions="$reps" --benchmark_enable_random_interleaving=true \
    --benchmark_out="$out/$name.json" --benchmark_out_format=json "${flags[@]}" >"$out/$name.txt" 2>&1
}
flags=("$@")
run a && run b && run slowed CSBENCH_EXTRA_DEFINES="SLOWDOWN=${SLOWDOWN:-4000}" || { echo "a bench run failed"; exit 2; }
/usr/bin/python3 "$root/scripts/compare.py" "$out/b.json" --baseline "$out/a.json" >"$out/b-vs-a.txt"
same=$?
/usr/bin/python3 "$root/scripts/compare.py" "$out/slowed.json" --baseline "$out/a.json" >"$out/slowed-vs-a.txt"
slowed=$?
echo "B vs A: exit $same (want 0, no SLOWER); slowed vs A: exit $slowed (want 1)"
grep -h "geomean" "$out/b-vs-a.txt" "$out/slowed-vs-a.txt" || true
# The summaries: verdict counts per device, then each SLOWER benchmark with its device.
grep -h -E "^(summary|SLOWER on|exit status)" "$out/b-vs-a.txt" "$out/slowed-vs-a.txt" || true
[[ $same -eq 0 && $slowed -eq 1 ]]
