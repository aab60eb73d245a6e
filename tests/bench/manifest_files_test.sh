#!/usr/bin/env bash
# Data files (docs/your-own-kernels.md, "Contents from files"): a manifest whose input comes from a
# file and whose expected output comes from a file passes; one element of the expected file
# altered fails the check (exit 1) naming the element, both values and the file, and passes again
# within an `expect` tolerance that covers it; the same for a texel of an image and for a header's
# member (an integer, exactly); a --domain whose size a file does not hold fails its benchmark
# naming the file and both sizes; the run's JSON hashes the data files with the manifest; NaNs and
# infinities match their like in the file; the example replay.toml passes. The data is written
# here, by Python's struct, not kept in the tree.
set -uo pipefail
bench=$1
. "$(dirname "$0")/check.sh"
shaders=$root/tests/manifests/bad/shaders

# x[i] = i / 8 - 40 over 1000 floats, out = 2 * x (copy.comp); an r32f image of 37 x 23 texels, row
# by row, src(x, y) = x + 100 y, and dst = src (image_copy.comp).
$python - "$dir" <<'PY'
import struct, sys
d = sys.argv[1]
x = [i / 8 - 40 for i in range(1000)]
open(f"{d}/x.bin", "wb").write(struct.pack("<1000f", *x))
open(f"{d}/out.bin", "wb").write(struct.pack("<1000f", *[2 * v for v in x]))
src = [x + 100 * y for y in range(23) for x in range(37)]
open(f"{d}/src.bin", "wb").write(struct.pack(f"<{len(src)}f", *src))
open(f"{d}/dst.bin", "wb").write(struct.pack(f"<{len(src)}f", *src))
PY
cp "$dir/out.bin" "$dir/out_right.bin"
cp "$dir/dst.bin" "$dir/dst_right.bin"

# buffer_manifest <expect table>: the manifest of x and out, written beside the data.
buffer_manifest() {
  cat >"$dir/buffer.toml" <<TOML
[family]
name = "files_buffer"
domains = ["1000"]
workgroups = ["64"]
bytes = "8 * W"

[[buffer]]
name = "x"
binding = 0
type = "float"
count = "W"
init = { file = "x.bin" }

[[buffer]]
name = "out"
binding = 1
type = "float"
count = "W"
output = true
expect = $1

[push]
constants = ["W"]

[dispatch]
groups = ["ceil(W / WG_X)", "1", "1"]

[[variant]]
name = "plain"
source = "$shaders/copy.comp"
TOML
}

image_manifest() {
  cat >"$dir/image.toml" <<TOML
[family]
name = "files_image"
domains = ["37x23"]
workgroups = ["8x8"]
bytes = "8 * W * H"

[[image]]
name = "src"
binding = 0
format = "r32f"
init = { file = "src.bin" }

[[image]]
name = "dst"
binding = 1
format = "r32f"
output = true
expect = $1

[push]
constants = ["W", "H"]

[dispatch]
groups = ["ceil(W / WG_X)", "ceil(H / WG_Y)", "1"]

[[variant]]
name = "plain"
source = "$shaders/image_copy.comp"
TOML
}

# run <name> <bench arguments...>: the bench on the given manifests, its exit code in rc, its
# output in $dir/<name>.out, .err and .json.
run() {
  local name=$1
  shift
  "$bench" "$@" --benchmark_min_time=0.01 --benchmark_out="$dir/$name.json" --benchmark_out_format=json \
    >"$dir/$name.out" 2>"$dir/$name.err"
  rc=$?
}

# sha <json>: the manifest's hash the run recorded.
sha() { $python -c 'import json, sys; print(json.load(open(sys.argv[1]))["context"]["manifest_sources"][0]["sha256"])' "$1"; }

# A replay that matches: both outputs compared with their files, on the host.
buffer_manifest '{ file = "out.bin" }'
image_manifest '{ file = "dst.bin" }'
run right --manifest="$dir/buffer.toml" --manifest="$dir/image.toml"
if [[ $rc -eq 0 ]] && $python - "$dir/right.json" <<'PY'
import json, sys
results = {b["name"]: b for b in json.load(open(sys.argv[1]))["benchmarks"]}
assert sorted(results) == ["files_buffer/plain/wg64x1/domain1000x1", "files_image/plain/wg8x8/domain37x23"], results
for b in results.values():
    assert not b.get("error_occurred") and b["Gelem/s"] > 0 and b["checks_on_host"] == 1, b
PY
then
  echo "ok: an input from a file and an output checked against a file pass, a buffer and an image"
else
  echo "FAIL: the replay from files (exit $rc, want 0):"; tail -n 5 "$dir/right.out" "$dir/right.err"; fail=1
fi
right_sha=$(sha "$dir/right.json")

# One float of the expected file off by 0.5: x[777] = 57.125, so out[777] is 114.25, the file 114.75.
$python - "$dir/out.bin" 777 0.5 <<'PY'
import struct, sys
path, k, by = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
data = bytearray(open(path, "rb").read())
struct.pack_into("<f", data, 4 * k, struct.unpack_from("<f", data, 4 * k)[0] + by)
open(path, "wb").write(data)
PY
run wrong --manifest="$dir/buffer.toml"
if [[ $rc -eq 1 ]] &&
   grep -qF "files_buffer/plain/wg64x1/domain1000x1: output 'out' index 777: got 114.25, want 114.75 ([[buffer]] 'out'.expect.file $dir/out.bin): relative error 0.00436, tolerance 1e-05" "$dir/wrong.err" &&
   grep -q "1 benchmark(s) FAILED" "$dir/wrong.err" &&
   $python -c 'import json, sys; (b,) = json.load(open(sys.argv[1]))["benchmarks"]; assert b["error_occurred"], b' "$dir/wrong.json" &&
   [[ $(sha "$dir/wrong.json") != "$right_sha" ]]; then
  echo "ok: an element off in the expected file fails the check (exit 1) naming it, both values and the file; the manifest's hash changes with the file"
else
  echo "FAIL: the altered expected file (exit $rc, want 1):"; tail -n 5 "$dir/wrong.out" "$dir/wrong.err"; fail=1
fi

# Within the file's own tolerance (a relative 1e-2 covers 0.5 in 114.75) it passes.
buffer_manifest '{ file = "out.bin", tolerance = 1e-2 }'
run tolerated --manifest="$dir/buffer.toml"
if [[ $rc -eq 0 ]] && grep -q "^\[1/1\] files_buffer/plain/wg64x1/domain1000x1 .*Gelem/s=" "$dir/tolerated.out"; then
  echo "ok: expect's tolerance covers the element off"
else
  echo "FAIL: expect's tolerance (exit $rc, want 0):"; tail -n 5 "$dir/tolerated.out" "$dir/tolerated.err"; fail=1
fi

# One texel of the expected image off by 1: texel (5, 3) holds 305, the file 306; an abs_tolerance
# of 2 covers it.
$python - "$dir/dst.bin" $((3 * 37 + 5)) 1 <<'PY'
import struct, sys
path, k, by = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
data = bytearray(open(path, "rb").read())
struct.pack_into("<f", data, 4 * k, struct.unpack_from("<f", data, 4 * k)[0] + by)
open(path, "wb").write(data)
PY
run wrong_image --manifest="$dir/image.toml"
rc_wrong=$rc
image_manifest '{ file = "dst.bin", abs_tolerance = 2 }'
run tolerated_image --manifest="$dir/image.toml"
if [[ $rc_wrong -eq 1 && $rc -eq 0 ]] &&
   grep -qF "files_image/plain/wg8x8/domain37x23: output image 'dst' texel (5, 3): got 305, want 306 ([[image]] 'dst'.expect.file $dir/dst.bin)" "$dir/wrong_image.err"; then
  echo "ok: a texel off in the expected image fails naming the texel, and passes within abs_tolerance"
else
  echo "FAIL: the altered expected image (exit $rc_wrong, want 1; then $rc, want 0):"
  tail -n 5 "$dir/wrong_image.err" "$dir/tolerated_image.err"; fail=1
fi

# A --domain the files do not hold: the benchmark fails naming the file and both sizes, at load a
# declared domain would be refused (tests/manifests/bad/data_file_size.toml).
cp "$dir/out_right.bin" "$dir/out.bin"
buffer_manifest '{ file = "out.bin" }'
run other_domain --manifest="$dir/buffer.toml" --domain=2000
if [[ $rc -eq 1 ]] &&
   grep -qF "files_buffer/plain/wg64x1/domain2000x1: [[buffer]] 'x'.init: $dir/x.bin is 4000 bytes, but buffer 'x' is 8000 bytes at this point (2000 elements of float, 4 bytes each)" "$dir/other_domain.err"; then
  echo "ok: a --domain the data files do not fit fails its benchmark naming the file and both sizes"
else
  echo "FAIL: a --domain of another size (exit $rc, want 1):"; tail -n 5 "$dir/other_domain.err"; fail=1
fi

# A block with a header (header_array.comp: `{ uint count; float result[]; }`, count = n): the file
# holds the header's bytes before the elements, and a count off by one fails naming the member.
$python - "$dir" <<'PY'
import struct, sys
d = sys.argv[1]
x = [i / 8 - 40 for i in range(1000)]
open(f"{d}/counted.bin", "wb").write(struct.pack("<I1000f", 1001, *[2 * v for v in x]))
PY
sed -e 's/files_buffer/files_header/' -e 's|copy.comp|header_array.comp|' -e 's|"out.bin"|"counted.bin"|' \
  "$dir/buffer.toml" >"$dir/header.toml"
run header --manifest="$dir/header.toml"
if [[ $rc -eq 1 ]] &&
   grep -qF "files_header/plain/wg64x1/domain1000x1: output 'out' header member count: got 1000, want 1001 ([[buffer]] 'out'.expect.file $dir/counted.bin)" "$dir/header.err"; then
  echo "ok: a header's member in the expected file is compared, an integer exactly"
else
  echo "FAIL: the header's expected count (exit $rc, want 1):"; tail -n 5 "$dir/header.err"; fail=1
fi

# NaNs and infinities the program's own output holds: x[5] NaN, x[6] +inf, x[7] -inf, so out holds
# NaN, +inf, -inf there. An output checked against a file that holds the same passes (such values
# fail an output checked only by an expression); one infinity of the wrong sign fails naming it.
$python - "$dir" <<'PY'
import struct, sys
d = sys.argv[1]
x = [i / 8 - 40 for i in range(1000)]
x[5], x[6], x[7] = float("nan"), float("inf"), float("-inf")
open(f"{d}/x.bin", "wb").write(struct.pack("<1000f", *x))
open(f"{d}/out.bin", "wb").write(struct.pack("<1000f", *[2 * v for v in x]))
out = [2 * v for v in x]
out[6] = float("-inf")
open(f"{d}/out_sign.bin", "wb").write(struct.pack("<1000f", *out))
PY
buffer_manifest '{ file = "out.bin" }'
run not_finite --manifest="$dir/buffer.toml"
rc_same=$rc
buffer_manifest '{ file = "out_sign.bin" }'
run not_finite_sign --manifest="$dir/buffer.toml"
if [[ $rc_same -eq 0 && $rc -eq 1 ]] &&
   grep -qF "files_buffer/plain/wg64x1/domain1000x1: output 'out' index 6: got inf, want -inf" "$dir/not_finite_sign.err"; then
  echo "ok: NaNs and infinities match their like in the expected file, and an infinity of the other sign fails"
else
  echo "FAIL: non-finite values against the file (exit $rc_same, want 0; then $rc, want 1):"
  tail -n 5 "$dir/not_finite.err" "$dir/not_finite_sign.err"; fail=1
fi

# The example: a captured dispatch's floats and an rgba8 picture from files, checked against files.
run example --manifest="$root/examples/replay.toml"
if [[ $rc -eq 0 ]] && grep -q "^\[1/1\] replay/captured/wg64x1/domain256x1 .*checks_on_host=2" "$dir/example.out"; then
  echo "ok: examples/replay.toml replays its files and passes"
else
  echo "FAIL: examples/replay.toml (exit $rc, want 0):"; tail -n 5 "$dir/example.out" "$dir/example.err"; fail=1
fi
exit $fail
