#!/usr/bin/env bash
# The console a person reads, from the real binary on the machine's Vulkan device (lavapipe
# without a GPU): counters once-suffixed, [k/N] before every result line, the min/median/max
# lines of repetitions, tabular counters, errors, the live status line on a terminal only, and
# the JSON of the same run unaffected.
set -uo pipefail
bench=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; [[ $# -gt 1 ]] && head -40 "$2"; fail=1; }

gpu='reduction/subgroup/wg8x8/domain640x480'
cpu='reduction/plain_loop/domain640x480'
filter="^($gpu|$cpu)"  # no "$": Google Benchmark matches the name with its /manual_time
quick=(--benchmark_filter="$filter" --benchmark_min_time=0.01)
# A result line names a benchmark of the filter (an aggregate adds _mean, _median, ...).
result_line="(${gpu}|${cpu})(_[a-z]+)?( |\$)"

# One run, console to a pipe and JSON to a file.
if ! "$bench" "${quick[@]}" --benchmark_repetitions=3 --benchmark_out="$dir/run.json" \
     --benchmark_out_format=json >"$dir/reps.txt" 2>"$dir/reps.err"; then
  cat "$dir/reps.err"; bad "the run with repetitions exited non-zero" "$dir/reps.txt"; exit 1
fi
out="$dir/reps.txt"

# Rates carry their unit in the name: no second "/s", and roofline% is not a rate.
if grep -qE '/s=[^ ]*/s' "$out"; then bad "a rate printed with a second /s" "$out"; else ok "no second /s"; fi
if grep -qE '%=[^ ]*/s' "$out"; then bad "a percentage printed as a rate" "$out"; else ok "no %=.../s"; fi
if grep -qE "(^| )Gelem/s=[0-9.]+ GB/s=[0-9.]+ roofline%=[0-9.]+ dispatches/sample=[0-9]+" "$out"; then
  ok "GPU counters in their own units"
else
  bad "GPU counters as Gelem/s=x GB/s=y roofline%=z dispatches/sample=n" "$out"
fi
# Three significant digits: no counter value with more than three after the leading zeros,
# beyond its integer part.
if grep -oE '(Gelem/s|GB/s|roofline%)=[0-9.]+' "$out" | cut -d= -f2 |
   grep -vqE '^([1-9][0-9]{2,}|[1-9][0-9](\.[0-9])?|[1-9](\.[0-9]{1,2})?|0\.0*[1-9][0-9]{0,2})$'; then
  bad "a counter with more than three significant digits" "$out"
else
  ok "three significant digits"
fi
if grep -q manual_time "$out"; then bad "the /manual_time suffix printed" "$out"; else ok "designed names"; fi

# [k/N] before every result line; k runs 1..2 with N = 2 benchmarks selected.
lines=$(grep -cE "$result_line" "$out")
prefixed=$(grep -cE "^\[[12]/2\] $result_line" "$out")
if [[ $lines -eq 14 && $prefixed -eq $lines ]]; then
  ok "[k/N] on all $lines result lines (3 repetitions and 4 aggregates per benchmark)"
else
  bad "[k/N]: $prefixed of $lines result lines prefixed, want 14 of 14" "$out"
fi
if grep -qE "^\[1/2\] $gpu " "$out" && grep -qE "^\[2/2\] $cpu " "$out"; then
  ok "k counts benchmarks, not repetitions"
else
  bad "k per benchmark" "$out"
fi
if grep -q $'\r' "$out"; then bad "a carriage return in a pipe" "$out"; else ok "no status line in a pipe"; fi

# The chapter's lines, once per benchmark, after its aggregates.
time_re='time: +\[[0-9.]+ (ns|us|ms|s) [0-9.]+ (ns|us|ms|s) [0-9.]+ (ns|us|ms|s)\]$'
thrpt_re='thrpt: +\[[0-9.]+ Gelem/s [0-9.]+ Gelem/s [0-9.]+ Gelem/s\]$'
if [[ $(grep -cE "^ +$time_re" "$out") -eq 2 && $(grep -cE "^ +$thrpt_re" "$out") -eq 2 ]]; then
  ok "time: and thrpt: lines with repetitions"
else
  bad "time: [min median max] and thrpt: [min median max Gelem/s], one each per benchmark" "$out"
fi
if grep -A1 -E "^\[1/2\] ${gpu}_cv " "$out" | grep -qE "time: +\["; then
  ok "the chapter's lines follow the aggregates"
else
  bad "time: line right after ${gpu}_cv" "$out"
fi
# min <= median <= max, and the throughput's min is the time's max.
if /usr/bin/python3 - "$out" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
unit = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
assert len(re.findall(r"time: +\[", text)) == 2 and len(re.findall(r"thrpt: +\[", text)) == 2
for times in re.findall(r"time: +\[(.*)\]", text):
    v = [float(n) * unit[u] for n, u in re.findall(r"([0-9.]+) (ns|us|ms|s)", times)]
    assert len(v) == 3 and v[0] <= v[1] <= v[2], times
for rates in re.findall(r"thrpt: +\[(.*)\]", text):
    v = [float(n) for n in re.findall(r"([0-9.]+) Gelem/s", rates)]
    assert len(v) == 3 and 0 < v[0] <= v[1] <= v[2], rates
PY
then ok "min <= median <= max"; else bad "the order of min, median, max" "$out"; fi

# The JSON of the same run keeps Google Benchmark's names and keys: each entry has exactly the
# JSON reporter's own fields, csbench's description of the benchmark and the benchmark's counters,
# and the designed names.
if /usr/bin/python3 - "$dir/run.json" "$gpu" "$cpu" <<'PY'
import json, sys
gpu, cpu = sys.argv[2], sys.argv[3]
run = ["name", "csbench", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
       "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit"]
aggregate = ["name", "csbench", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
             "threads", "aggregate_name", "aggregate_unit", "iterations", "real_time", "cpu_time", "time_unit"]
counters = {gpu: ["Gelem/s", "GB/s", "dispatches/sample", "roofline%", "bound%", "tiles"], cpu: ["Gelem/s", "GB/s"]}
want = []
for base in (gpu, cpu):
    want += [(base, sorted(run + counters[base]))] * 3
    want += [(f"{base}_{s}", sorted(aggregate + counters[base])) for s in ("mean", "median", "stddev", "cv")]
got = [(b["name"], sorted(b)) for b in json.load(open(sys.argv[1]))["benchmarks"]]
for g, w in zip(got, want):
    if g != w:
        print("JSON entry:", g, "\nexpected:  ", w)
assert got == want
PY
then ok "JSON names and keys as Google Benchmark writes them"; else bad "JSON names or keys differ"; fi

# An error keeps its [k/N]: without the kernels, the GPU benchmark cannot compile its shader.
CSBENCH_KERNEL_DIR="$dir/no-kernels" "$bench" "${quick[@]}" >"$dir/err.txt" 2>&1
if grep -qE "^\[1/2\] $gpu +ERROR OCCURRED: '.+'" "$dir/err.txt" && grep -qE "^\[2/2\] $cpu " "$dir/err.txt"; then
  ok "an error prints with its [k/N]"
else
  bad "error line" "$dir/err.txt"
fi

# On a terminal (script gives the run one): a status line rewritten in place and cleared. With
# tabular counters: a header per counter set, values in columns. Where no pseudo-terminal can be
# made (no 'script', or a chroot or container without a devpts mount), these checks are skipped
# and say why; the checks above have run all the same.
terminal_checks=("live status line on a terminal" "tabular counters" "tabular columns line up")
no_terminal=
if ! command -v script >/dev/null; then
  no_terminal="no 'script' (util-linux) to give the run a terminal"
elif ! probe=$(script -qec true /dev/null 2>&1 </dev/null); then
  no_terminal="no pseudo-terminal: $(echo "$probe" | head -n 1)"
fi
if [[ -n $no_terminal ]]; then
  for check in "${terminal_checks[@]}"; do echo "skip: $check ($no_terminal)"; done
  exit $fail
fi
script -qec "$(printf '%q ' "$bench" "${quick[@]}" --benchmark_counters_tabular=true --benchmark_color=false)" \
  /dev/null >"$dir/tty.txt" 2>&1
if grep -q $'\r\033\[K' "$dir/tty.txt" && grep -qE "\[1/2\] $gpu +~[0-9]+ (s|min) left" "$dir/tty.txt"; then
  ok "live status line on a terminal"
else
  bad "live status line" "$dir/tty.txt"
fi
# What stays on the screen once each status line is cleared.
tr -d '\r' <"$dir/tty.txt" | sed 's/\x1b\[K/\n/g' | grep -vE '(left|starting)$' >"$dir/tab.txt"
if grep -qE "Benchmark +Device +Gelem/s +GB/s +roofline% +dispatches/sample +bound% +tiles$" "$dir/tab.txt" &&
   grep -qE "Benchmark +Time +CPU +Gelem/s +GB/s$" "$dir/tab.txt" &&
   [[ $(grep -cE "^\[[12]/2\] $result_line" "$dir/tab.txt") -eq 2 ]] &&
   ! grep -E "^\[[12]/2\] $result_line" "$dir/tab.txt" | grep -q '='; then
  ok "--benchmark_counters_tabular=true: a header per counter set, values in columns"
else
  bad "tabular counters" "$dir/tab.txt"
fi
# The columns line up: each value ends where its header does.
if /usr/bin/python3 - "$dir/tab.txt" <<'PY'
import re, sys
header, checked = None, 0
for line in open(sys.argv[1]).read().splitlines():
    if re.match(r" +Benchmark ", line):
        header = [m.end() for m in re.finditer(r"\S+", line)][1:]
    elif re.match(r"\[\d+/\d+\] ", line):
        ends = [m.end() for m in re.finditer(r"\S+(?: (?:ns|us|ms|s)\b)?", line)][2:]
        assert header and ends == header, (line, ends, header)
        checked += 1
assert checked == 2, checked
PY
then ok "tabular columns line up"; else bad "tabular columns misaligned" "$dir/tab.txt"; fi
exit $fail
