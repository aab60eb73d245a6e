#!/usr/bin/env bash
# --dispatch-timeout on a CPU device (lavapipe): tests/manifests/slow/'s variant "slow" runs for
# seconds in one dispatch there (about 3-5 s at its domain of 16384 on two cores). Run 1: with
# --dispatch-timeout=0.5 its check's dispatch outlasts the timeout, and its benchmark fails naming
# the timeout and the flag once the device has finished it, within a bounded wall time; exit 1.
# Run 2: the suite goes on after such a failure: at --domain=65536 (4 times as long) and a
# timeout of 4 s, which the ceilings' submissions (measured for roofline%) stay under while 0.5 s
# is too short for them on a loaded machine, the family's next variant and the next manifest's
# family run and pass, and the JSON is whole, not marked stopped.
# Exit 77 (skipped) on a GPU, which finishes the slow dispatch within the timeout.
set -uo pipefail
bench=$1
. "$(dirname "$0")/check.sh"

SECONDS=0
"$bench" --manifest="$root/tests/manifests/slow/slow.toml" --benchmark_filter='^manifest_test_slow/slow/' \
  --dispatch-timeout=0.5 --cache=warm --benchmark_min_time=0.01 --benchmark_out="$dir/run.json" \
  --benchmark_out_format=json >"$dir/out" 2>"$dir/err"
rc=$?
seconds=$SECONDS
echo "run 1 took $seconds s (exit $rc)"

if ! $python -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["context"]["device_type"] != "cpu")' \
    "$dir/run.json" 2>/dev/null; then
  echo "skipped: the device is not a CPU device (or the run wrote no JSON: exit $rc)"
  tail -5 "$dir/err"
  exit 77
fi

# The run waits only for the device to finish the one dispatch, nowhere near the default 300 s.
if ((seconds < 60)); then
  echo "ok: run 1 ended within 60 s"
else
  echo "FAIL: run 1 took $seconds s"; fail=1
fi

message='a submission did not finish within 0.5 s (--dispatch-timeout)'
if [[ $rc -eq 1 ]] && grep -qF "manifest_test_slow/slow/wg64x1/domain16384x1: $message" "$dir/err" &&
   grep -qF 'a submission has run for 0.5 s (--dispatch-timeout); waiting for the device to finish it' "$dir/err" &&
   $python - "$dir/run.json" "$message" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
(slow,) = run["benchmarks"]
assert slow["error_occurred"] and sys.argv[2] in slow["error_message"], slow
PY
then
  echo "ok: the slow benchmark fails naming the timeout and the flag, exit 1"
else
  echo "FAIL: the slow benchmark's failure (exit $rc, want 1; want '$message' in the summary and the JSON):"
  tail -20 "$dir/err"; fail=1
fi

SECONDS=0
"$bench" --manifest="$root/tests/manifests/slow/slow.toml" --manifest="$root/tests/manifests/good/copy.toml" \
  --domain=65536 --dispatch-timeout=4 --cache=warm --benchmark_min_time=0.01 --benchmark_out="$dir/run2.json" \
  --benchmark_out_format=json >"$dir/out2" 2>"$dir/err2"
rc=$?
echo "run 2 took $SECONDS s (exit $rc)"
if [[ $rc -eq 1 ]] && $python - "$dir/run2.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
assert "stopped" not in run["context"] and "interrupted" not in run["context"], run["context"]
results = {b["name"]: b for b in run["benchmarks"]}
names = ["manifest_test_copy/plain/wg64x1/domain65536x1", "manifest_test_slow/quick/wg64x1/domain65536x1",
         "manifest_test_slow/slow/wg64x1/domain65536x1"]
assert sorted(results) == names, sorted(results)
slow = results[names[2]]
assert slow["error_occurred"] and "did not finish within 4 s (--dispatch-timeout)" in slow["error_message"], slow
for name in names[:2]:
    assert not results[name].get("error_occurred") and results[name]["Gelem/s"] > 0, results[name]
PY
then
  echo "ok: after the timeout the suite goes on: the next variant and the next family pass, exit 1"
else
  echo "FAIL: run 2 (exit $rc, want 1):"; tail -20 "$dir/err2"; fail=1
fi
exit $fail
