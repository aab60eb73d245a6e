#!/usr/bin/env bash
# bench --tune and --axis on the machine's device (lavapipe in the build roots), on
# tests/manifests/tune/scale.toml (10 points, 5 of which are wrong on purpose) and on
# examples/tiled_matmul.toml narrowed by --axis:
# - a point that fails its check never wins, and is counted as failed;
# - a widened search takes what it had measured from the cache; an exhaustive one over a measured
#   space measures nothing new; a search stopped by SIGINT resumes from what it had stored;
# - --tune-out is this format's JSON, --tune-header compiles as C;
# - bad axes, restrictions and tune flags exit 2 with one line naming the key or flag.
set -uo pipefail
bench=$1
. "$(dirname "$0")/check.sh"
export XDG_CACHE_HOME=$dir/cache XDG_DATA_HOME=$dir/data
scale=$root/tests/manifests/tune/scale.toml
fast=(--benchmark_min_time=0.002 --ceilings=reuse)

# Every look of the exhaustive search: the five SKIP=1 points fail their check; the winner is a
# SKIP=0 point.
check "exhaustive search: wrong points fail, a right one wins" 0 \
  'looked at 10 of 10 points \(0 from the cache, 5 failed' -- \
  "$bench" --manifest="$scale" --tune --tune-strategy=exhaustive "${fast[@]}" --tune-cache="$dir/a.sqlite" \
  --tune-out="$dir/best.json" --tune-header="$dir/best.h"
if grep -q 'winner .*SKIP=1' <<<"$out" || ! grep -q 'winner .*SKIP=0' <<<"$out"; then
  echo "FAIL: the winner is not a point that passed its check:"; echo "$out" | tail -8; fail=1
else
  echo "ok: the winner passed its check"
fi
# The JSON: one device, the family's domain, a winner with an interval and repetitions.
if "$python" - "$dir/best.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["csbench_tune"] == 1, d
(device,) = d["devices"].values()
domain = device["families"]["tune_scale"]["65536x1"]
w = domain["winner"]
assert w["point"]["SKIP"] == "0", w
assert w["low"] <= w["gelems"] <= w["high"] and w["repetitions"] >= 5, w
assert domain["spread"]["failed"] == 5 and domain["spread"]["evaluated"] == 10, domain["spread"]
assert len(domain["looked"]) == 5, domain["looked"]
# The device's work of the looks and the race (lavapipe has timestamps): each stage's busy seconds
# above its samples', every look measured (the cache was empty), the checks among the phases.
work = domain["device_work"]
looks, race = work["looks"], work["race"]
assert looks["measured"] == 10 and race["measured"] >= 5, work
for w in (looks, race):
    assert 0 < w["samples_s"] < w["device_s"], w
    assert abs(w["beyond_samples_each_s"] - (w["device_s"] - w["samples_s"]) / w["measured"]) < 1e-9, w
    assert w["phases"]["check_s"] > 0, w
    assert abs(sum(w["phases"].values()) - w["device_s"]) < 1e-6, w
EOF
then echo "ok: --tune-out holds the winner, its interval, the spread and the device's work"; else echo "FAIL: --tune-out"; fail=1; fi
if grep -qE '^  device: looks [0-9.]+ m?s \(samples [0-9.e-]+ m?s; [0-9.e-]+ m?s a look beyond its samples: .*check' <<<"$out"; then
  echo "ok: the console says the device's work of the looks and the race"
else
  echo "FAIL: no line of the device's work:"; echo "$out" | tail -8; fail=1
fi
if command -v cc >/dev/null; then
  printf '#include "best.h"\nint main(void) { return 0; }\n' >"$dir/use.c"
  if cc -std=c11 -Wall -Werror -fsyntax-only -I"$dir" "$dir/use.c"; then echo "ok: --tune-header compiles as C11"
  else echo "FAIL: --tune-header does not compile"; fail=1; fi
fi

# A widened random search with the same seed looks at the same points first: taken from the cache.
check "random search, 4 looks" 0 'looked at 4 of 10 points \(0 from the cache' -- \
  "$bench" --manifest="$scale" --tune --tune-strategy=random --tune-seed=2 --tune-budget=4 "${fast[@]}" \
  --tune-cache="$dir/b.sqlite"
check "widened to 8 looks: the first 4 from the cache" 0 'looked at 8 of 10 points \(4 from the cache' -- \
  "$bench" --manifest="$scale" --tune --tune-strategy=random --tune-seed=2 --tune-budget=8 "${fast[@]}" \
  --tune-cache="$dir/b.sqlite"
check "exhaustive over it: 8 of 10 from the cache" 0 'looked at 10 of 10 points \(8 from the cache' -- \
  "$bench" --manifest="$scale" --tune --tune-strategy=exhaustive "${fast[@]}" --tune-cache="$dir/b.sqlite"
check "exhaustive again: all from the cache" 0 'looked at 10 of 10 points \(10 from the cache' -- \
  "$bench" --manifest="$scale" --tune --tune-strategy=exhaustive "${fast[@]}" --tune-cache="$dir/b.sqlite"
check "another minimum time is another measurement" 0 'looked at 10 of 10 points \(0 from the cache' -- \
  "$bench" --manifest="$scale" --tune --tune-strategy=exhaustive --benchmark_min_time=0.003 --ceilings=reuse \
  --tune-cache="$dir/b.sqlite"

# Interrupted: SIGINT once the cache holds two looks, then the same search again resumes. Looks of
# 0.1 s, so that the signal comes while the looks go on (33 points: 32 of tiled, one of naive).
matmul=(--manifest="$root/examples/tiled_matmul.toml" --domain=64x64 --workgroup=8x8 --axis=TM=1,2 --axis=TN=1,2
        --axis=TK=4,8 --axis=PAD=0,1 --axis=VEC=1,4)
slow=(--benchmark_min_time=0.1 --ceilings=reuse)
"$bench" "${matmul[@]}" --tune --tune-strategy=exhaustive "${slow[@]}" --tune-cache="$dir/c.sqlite" \
  >"$dir/interrupted.out" 2>&1 &
pid=$!
looks=0
for _ in $(seq 1 600); do
  looks=$("$python" -c "
import sqlite3, sys
try:
    print(sqlite3.connect('file:$dir/c.sqlite?mode=ro', uri=True).execute(
        \"select count(*) from measurements where stage = 'look'\").fetchone()[0])
except Exception:
    print(0)")
  [[ $looks -ge 2 ]] && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.05
done
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
if [[ $looks -ge 2 && $rc -ne 0 ]]; then echo "ok: interrupted after $looks looks (exit $rc)"
else echo "FAIL: the search was not interrupted mid-way (looks $looks, exit $rc)"; tail -5 "$dir/interrupted.out"; fail=1; fi
check "the interrupted search resumes from its cache" 0 'looked at 33 of 33 points \(([2-9]|[12][0-9]|3[0-2]) from the cache' -- \
  "$bench" "${matmul[@]}" --tune --tune-strategy=exhaustive "${slow[@]}" --tune-cache="$dir/c.sqlite"
check "--axis narrows the names" 0 'tiled_matmul/tiled/wg8x8/domain64x64/TM2/TN1/TK8/PAD1/VEC4' -- \
  "$bench" "${matmul[@]}" --benchmark_list_tests

# Bad input: exit 2, one line naming the flag or key.
check "--axis of no manifest's axis" 2 '^csbench: --axis=NOPE: no manifest of this run has an axis NOPE' -- \
  "$bench" --manifest="$scale" --axis=NOPE=1 --benchmark_list_tests
check "--axis of the wrong kind" 2 "^csbench: --axis=FACTOR: 'two' is not a number" -- \
  "$bench" --manifest="$scale" --axis=FACTOR=two --benchmark_list_tests
check "--axis without values" 2 "^csbench: bad value 'FACTOR' for --axis" -- \
  "$bench" --manifest="$scale" --axis=FACTOR --benchmark_list_tests
check "--axis value of no use at a point" 2 'groups\[0\]' -- \
  "$bench" --manifest="$scale" --axis=FACTOR=-1 --benchmark_list_tests
sed 's/restrict = \["WG_X \* FACTOR <= 256"\]/restrict = ["WG_X * FACTOR <= NOPE"]/' "$scale" >"$dir/bad_restrict.toml"
cp "$root/tests/manifests/tune/scale.comp" "$dir/"
check "a restriction of an unknown name" 2 "bad_restrict.toml:[0-9]+: \[tune\].restrict\[0\] .*unknown name 'NOPE'" -- \
  "$bench" --manifest="$dir/bad_restrict.toml" --benchmark_list_tests
sed 's/restrict = \["WG_X \* FACTOR <= 256"\]/restrict = ["WG_X < 0"]/' "$scale" >"$dir/empty.toml"
check "a restriction that leaves nothing" 2 'no point satisfies every restriction' -- \
  "$bench" --manifest="$dir/empty.toml" --benchmark_list_tests
sed 's/^SKIP = \[0, 1\]/SKIP = [0, "one"]/' "$scale" >"$dir/mixed.toml"
check "an axis of numbers and names" 2 '\[axes\].SKIP: the values of one axis are all numbers or all names' -- \
  "$bench" --manifest="$dir/mixed.toml" --benchmark_list_tests
check "--tune with nothing to search" 2 '^csbench: --tune searches the points of a selection' -- "$bench" --tune
check "--tune with repetitions" 2 '^csbench: --tune races its finalists' -- \
  "$bench" --manifest="$scale" --tune --benchmark_repetitions=3
check "--tune-out without --tune" 2 '^csbench: --tune-out and --tune-header write a search' -- \
  "$bench" --manifest="$scale" --tune-out="$dir/x.json"
check "--tune-strategy unknown" 2 "tune-strategy" -- "$bench" --manifest="$scale" --tune --tune-strategy=annealing
echo '{"something": "else"}' >"$dir/other.json"
check "--tune-out onto another file's JSON" 2 'other.json' -- \
  "$bench" --manifest="$scale" --tune --tune-budget=2 "${fast[@]}" --tune-cache=off --tune-out="$dir/other.json"
exit $fail
