#!/usr/bin/env bash
# Shows that the compare verdicts separate noise from a regression on this machine:
#   1. a baseline: RUNS processes of REPETITIONS/RUNS repetitions each, joined (compare.py join),
#      so that its spread holds what changes from one process to the next;
#   2. run A: the same build, one process, REPETITIONS repetitions;
#   3. run "slowed": the same with one reduction variant slowed (CSBENCH_EXTRA_DEFINES=SLOWDOWN=n
#      for the kernels of SLOWED_VARIANT only);
#   4. compare.py A against the baseline (want: exit 0, no SLOWER) and slowed against it (want:
#      exit 1, and every SLOWER benchmark is one of SLOWED_VARIANT).
# Each step writes OUTDIR/<step>.json and is skipped when that file exists and is complete, so
# the procedure can be run in several sittings (a machine lent for 30 minutes, say): run the same
# command again and it goes on where it stopped. A step stopped by Ctrl-C or SIGTERM leaves a
# partial file, which the next sitting runs again.
# Usage: scripts/regression-check.sh OUTDIR [bench flags, e.g. --benchmark_filter=... or
#        --benchmark_min_time=0.01]
# Environment: BENCH (default build/bench), REPETITIONS (9), RUNS (3), INTERLEAVING (false: the
# repetitions of a benchmark back to back, its case made once per process, what a whole-suite
# run needs; true for a family or two), SLOWED_VARIANT (prefetch4), SLOWDOWN (800: about +10% for
# prefetch4 on an H100 at 8x32, +12.7% on an H200), STEPS (what to do: "base a slowed compare"),
# COMPARE_FLAGS (extra compare.py flags, e.g. "--fail-on device-timed" on a shared host: then a
# SLOWER verdict of another class is listed but does not fail the check).
# Exit status: 0 both verdicts as wanted, 1 a verdict not as wanted, 2 a bench run or the input
# failed, 3 stopped before every step was done (STEPS left some out).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: regression-check.sh OUTDIR [bench flags]}
shift
flags=("$@")
bench=${BENCH:-$root/build/bench}
reps=${REPETITIONS:-9}
runs=${RUNS:-3}
interleaving=${INTERLEAVING:-false}
variant=${SLOWED_VARIANT:-prefetch4}
slowdown=${SLOWDOWN:-800}
steps=" ${STEPS:-base a slowed compare} "
compare=("/usr/bin/python3" "$root/scripts/compare.py")
compare_flags=()
[[ -n ${COMPARE_FLAGS:-} ]] && read -ra compare_flags <<<"$COMPARE_FLAGS"
if ((runs < 1 || reps % runs != 0)); then
  echo "regression-check: RUNS=$runs must be at least 1 and divide REPETITIONS=$reps" >&2
  exit 2
fi
mkdir -p "$out"

complete() {  # complete FILE: a JSON that a run finished (not interrupted)
  [[ -s $1 ]] && /usr/bin/python3 -c '
import json, sys
ctx = json.load(open(sys.argv[1]))["context"]
sys.exit(1 if str(ctx.get("interrupted", "false")).lower() == "true" else 0)' "$1" 2>/dev/null
}

run() {  # run NAME REPETITIONS [env...]: bench into OUTDIR/NAME.json unless done already
  local name=$1 n=$2
  shift 2
  if complete "$out/$name.json"; then
    echo "regression-check: $name.json is there, not run again"
    return 0
  fi
  echo "regression-check: $name ($n repetitions) from $(date +%T)"
  env "$@" "$bench" --benchmark_repetitions="$n" --benchmark_enable_random_interleaving="$interleaving" \
    --benchmark_out="$out/$name.json" --benchmark_out_format=json "${flags[@]}" >"$out/$name.txt" 2>&1
  local rc=$?
  # 1: a benchmark failed its check; the others are measured and the compare names it.
  if ((rc != 0 && rc != 1)); then
    echo "regression-check: $name: the bench exited with $rc (see $out/$name.txt)" >&2
    return 2
  fi
}

if [[ $steps == *" base "* ]] && ! complete "$out/base.json"; then
  parts=()
  for ((i = 1; i <= runs; ++i)); do
    run "base-part$i" $((reps / runs)) || exit 2
    parts+=("$out/base-part$i.json")
  done
  "${compare[@]}" join "$out/base.json" "${parts[@]}" || exit 2
fi
if [[ $steps == *" a "* ]]; then run a "$reps" || exit 2; fi
if [[ $steps == *" slowed "* ]]; then
  run slowed "$reps" CSBENCH_EXTRA_DEFINES_VARIANT="$variant" CSBENCH_EXTRA_DEFINES="SLOWDOWN=$slowdown" || exit 2
fi
[[ $steps == *" compare "* ]] || exit 3
for f in base a slowed; do
  complete "$out/$f.json" || { echo "regression-check: $f.json is missing or partial: run the steps first" >&2; exit 3; }
done

"${compare[@]}" "$out/a.json" --baseline "$out/base.json" "${compare_flags[@]}" >"$out/a-vs-base.txt"
same=$?
"${compare[@]}" "$out/slowed.json" --baseline "$out/base.json" "${compare_flags[@]}" >"$out/slowed-vs-base.txt"
slowed=$?
((same == 2 || slowed == 2)) && { echo "regression-check: compare.py found bad input (see $out/*-vs-base.txt)" >&2; exit 2; }
# Every failing SLOWER benchmark of the slowed run (the summary's "SLOWER on DEVICE [KEY]: NAME"
# lines, less those of a class --fail-on leaves out) must be one of the slowed variant's.
failing=$(grep -E "^SLOWER on " "$out/slowed-vs-base.txt" | grep -v "; not failing: " |
  sed -E 's/^SLOWER on .*\]: ([^ ]+) .*/\1/')
others=$(grep -v "^reduction/$variant/" <<<"$failing" | grep .)
caught=$(grep -c "^reduction/$variant/" <<<"$failing")
not_failing=$(grep -E "^SLOWER on " "$out/slowed-vs-base.txt" | grep -c "; not failing: ")
echo "A vs baseline: exit $same (want 0, no SLOWER)"
n_others=0
[[ -n $others ]] && n_others=$(grep -c . <<<"$others")
echo "slowed vs baseline: exit $slowed (want 1): $caught $variant benchmark(s) SLOWER, $n_others other(s)"
[[ -n $others ]] && echo "$others" | sed 's/^/  also SLOWER: /'
((not_failing > 0)) && echo "slowed vs baseline: $not_failing SLOWER of a class that does not fail (COMPARE_FLAGS=$COMPARE_FLAGS), listed below"
grep -h -E "^(summary|SLOWER on|exit status|verdicts)" "$out/a-vs-base.txt" "$out/slowed-vs-base.txt" || true
[[ $same -eq 0 && $slowed -eq 1 && -z $others && $caught -gt 0 ]]
