#!/usr/bin/env bash
# Runs over several devices (--device=all, --device=a,b): one output file per device, the
# placeholders, the choice of parallel or sequential, the combined exit code, and interrupts.
# Two lavapipe devices stand in for two GPUs: a second loader manifest names a copy of
# lavapipe's library. Exit 77 (skipped) where no lavapipe manifest exists.
set -uo pipefail
bench=$1
. "$(dirname "$0")/check.sh"
manifest=
for m in /usr/share/vulkan/icd.d/lvp_icd.*.json; do [[ -e $m ]] && manifest=$m; done
[[ -n $manifest ]] || { echo "skipped: no lavapipe loader manifest"; exit 77; }
library=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ICD"]["library_path"])' "$manifest")
cp "$library" "$dir/libvulkan_lvp_twin.so"
/usr/bin/python3 - "$manifest" "$dir" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["ICD"]["library_path"] = sys.argv[2] + "/libvulkan_lvp_twin.so"
json.dump(m, open(sys.argv[2] + "/twin.json", "w"))
PY
export VK_ICD_FILENAMES="$manifest:$dir/twin.json" VK_DRIVER_FILES="$manifest:$dir/twin.json"
[[ $("$bench" --list-devices | grep -c '^[0-9]*: llvmpipe') -eq 2 ]] ||
  { echo "FAIL: two lavapipe devices expected"; "$bench" --list-devices; exit 1; }

# Plain loops only where results must come: any kernel's first result measures the device's
# roofline, about 40 s on lavapipe. A kernel that fails its check stops before that.
filter='^(reduction|stream)/plain_loop/domain(640x480|65536x1)$'
check "one file for two devices is a usage error" 2 "names the same file for two of the 2 devices" -- \
  "$bench" --device=all --benchmark_filter="$filter" --benchmark_out="$dir/run.json"
check "twins share a device key" 2 "put \{device\}" -- \
  "$bench" --device=0,1 --benchmark_filter="$filter" --benchmark_out="$dir/run-{device_key}.json"
check "a list item that names nothing" 2 "no device name contains it" -- "$bench" --device=0,radeon
check "an unknown --parallel" 2 "valid choices: yes, no" -- "$bench" --device=all --parallel=sometimes
check "devices run one after another by default" 0 "2 devices, one after another" -- \
  "$bench" --device=all --benchmark_min_time=0.01 --benchmark_filter="$filter" --benchmark_out="$dir/seq-{device}-{device_key}.json"
/usr/bin/python3 - "$dir"/seq-0-*.json "$dir"/seq-1-*.json <<'PY' && echo "ok: one JSON per device" || { echo "FAIL: one JSON per device"; fail=1; }
import json, sys
for index, path in enumerate(sys.argv[1:]):
    d = json.load(open(path))
    assert d["context"]["device_index"] == str(index), (path, d["context"].get("device_index"))
    assert path.endswith(d["context"]["device_key"] + ".json"), path
    names = sorted(b["name"] for b in d["benchmarks"])
    assert names == ["reduction/plain_loop/domain640x480", "stream/plain_loop/domain65536x1"], names
PY
check "--parallel=yes prefixes each device's lines" 0 "^\[device 1\] \[[12]/2\] reduction/" -- \
  "$bench" --device=all --parallel=yes --benchmark_min_time=0.01 --benchmark_filter="$filter"
check "a failed check on the devices: exit 1" 1 "device 1 \(llvmpipe.*\): exit code 1" -- \
  env CSBENCH_EXTRA_DEFINES=INJECT_ERROR "$bench" --device=all --benchmark_min_time=0.01 \
  --benchmark_filter='^reduction/(sequential/wg16x16|plain_loop)/domain640x480$'

# SIGTERM to the launcher: each device's run writes what finished, marked interrupted; exit 143.
"$bench" --device=all --parallel=yes --benchmark_min_time=0.01 \
  --benchmark_filter='^(reduction|stream)/plain_loop/domain(640x480|7680x4320|65536x1|134217728x1)$' \
  --benchmark_out="$dir/cut-{device}.json" >"$dir/cut.txt" 2>&1 &
pid=$!
for _ in $(seq 3000); do
  [[ $(grep -c '^\[device [01]\] \[1/' "$dir/cut.txt") -ge 2 ]] && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.1
done
kill -TERM $pid
wait $pid
rc=$?
if [[ $rc -eq 143 ]] && /usr/bin/python3 - "$dir/cut-0.json" "$dir/cut-1.json" <<'PY'
import json, sys
for path in sys.argv[1:]:
    d = json.load(open(path))
    assert d["context"].get("interrupted") is True, path
    assert 1 <= len(d["benchmarks"]) < 4, (path, len(d["benchmarks"]))
PY
then echo "ok: SIGTERM reaches every device's run"; else echo "FAIL: SIGTERM (exit $rc)"; tail "$dir/cut.txt"; fail=1; fi
exit $fail
