#!/usr/bin/env bash
# Users' manifests on the command line (bench --manifest): every file of tests/manifests/bad/ is
# refused with exit 2 and one line on stderr naming the file and the error its first line
# expects ("# expect: <text>"); the examples run and pass on the machine's device (lavapipe in the
# build roots) at small domains, and the scripts read their JSON; a variant that is wrong on
# purpose (tests/manifests/wrong/) fails its check, naming the buffer, the index and both values.
set -uo pipefail
bench=$1
. "$(dirname "$0")/check.sh"
manifests=$root/tests/manifests

# refused <description> <expected text> <name the line must hold> -- bench arguments...
# Passes when the bench exits 2, prints nothing on stdout and exactly one line on stderr, which
# starts "csbench: " and holds both texts (compared literally, not as patterns).
refused() {
  local what=$1 want=$2 name=$3
  shift 4
  "$bench" "$@" >"$dir/out" 2>"$dir/err"
  local rc=$? lines
  lines=$(grep -c '' "$dir/err")
  local line
  line=$(head -1 "$dir/err")
  if [[ $rc -eq 2 && $lines -eq 1 && ! -s $dir/out && $line == "csbench: "* && $line == *"$name"* &&
        $line == *"$want"* ]]; then
    echo "ok: $what"
  else
    echo "FAIL: $what (exit $rc, want 2; $lines stderr lines, want 1; want '$name' and '$want'):"
    head -c 2000 "$dir/err"
    head -5 "$dir/out"
    fail=1
  fi
}

# Every bad manifest, refused at load (--benchmark_list_tests: nothing runs).
count=0
for file in "$manifests"/bad/*.toml; do
  want=$(sed -n '1s/^# expect: //p' "$file")
  if [[ -z $want ]]; then
    echo "FAIL: $file does not begin with '# expect: <text of its error>'"
    fail=1
    continue
  fi
  refused "bad/$(basename "$file")" "$want" "$(basename "$file")" -- \
    --manifest="$file" --benchmark_list_tests
  count=$((count + 1))
done
if ((count >= 25)); then echo "ok: $count bad manifests"; else echo "FAIL: only $count bad manifests"; fail=1; fi

refused "a --manifest that does not exist" "no such file or folder" "no_such_manifest.toml" -- \
  --manifest="$dir/no_such_manifest.toml" --benchmark_list_tests
refused "a --manifest folder with no *.toml" "the folder holds no *.toml manifest" "bad/shaders" -- \
  --manifest="$manifests/bad/shaders" --benchmark_list_tests
refused "one family loaded twice" "both declare the family manifest_test_copy" "copy.toml" -- \
  --manifest="$manifests/good/copy.toml" --manifest="$manifests/good" --benchmark_list_tests

# The manifest the bad ones break loads: each bad one fails for its own reason. A folder loads
# its *.toml, and with no filter only the manifests' families are listed.
copy_name='^manifest_test_copy/plain/wg64(x1)?/domain1024(x1)?$'
check "the good manifest lists its one benchmark" 0 "$copy_name" -- \
  "$bench" --manifest="$manifests/good" --benchmark_list_tests
listed=$("$bench" --manifest="$manifests/good" --benchmark_list_tests 2>/dev/null)
if [[ $(grep -c . <<<"$listed") -eq 1 ]] && grep -qE "$copy_name" <<<"$listed"; then
  echo "ok: only the manifest's family is listed"
else
  echo "FAIL: the listing holds more than the manifest's family:"; head -5 <<<"$listed"; fail=1
fi

# Every example runs at small domains in one process (4099 for the 1-D families, 67x61 for the
# 2-D one: partial workgroups everywhere): exit 0, every benchmark listed has its result, none
# failed and none skipped except as unsupported by the device. Not smaller: under --cache=cold an
# input of a few KiB rotates through 256 MiB of copies, over 60000 of them, and Mesa 25's lavapipe
# crashes on such a command buffer (built-in families too, e.g. neighborhood at --domain=37x1).
domains=4099,67x61
# tiled_matmul's axes narrowed to one point a workgroup: its whole space is the tuner's (bench_tune_cli).
narrow=(--axis=TM=2 --axis=TN=4 --axis=TK=16 --axis=PAD=1 --axis=VEC=4)
"$bench" --manifest="$root/examples" --domain=$domains "${narrow[@]}" --benchmark_list_tests >"$dir/examples.list" 2>/dev/null
"$bench" --manifest="$root/examples" --domain=$domains --benchmark_min_time=0.01 "${narrow[@]}" \
  --benchmark_out="$dir/examples.json" --benchmark_out_format=json >"$dir/examples.txt" 2>&1
rc=$?
if [[ $rc -eq 0 ]] && $python - "$dir/examples.json" "$dir/examples.list" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
listed = open(sys.argv[2]).read().split()
families = {name.split("/")[0] for name in listed}
assert families == {"blur", "saxpy", "stream_manifest", "tile_sum", "histogram", "in_place", "copy_per_thread",
                    "scale_hlsl", "triad_spv", "matvec_f16", "particles", "image_blur", "image_sum",
                    "grayscott_image", "radix_sort", "tiled_matmul", "bitonic_sort", "row_sum", "preamble", "header",
                    "buffer_array", "image_array", "texture_array", "bindless", "image_layers",
                    "mip_chain", "replay", "separate_sampler"}, families
assert any(name.endswith("/domain67x61") for name in listed), listed
assert any(name.endswith("/domain4099") or name.endswith("/domain4099x1") for name in listed), listed
results = {b["name"]: b for b in run["benchmarks"]}
assert sorted(results) == sorted(listed), (sorted(results), listed)
for name, b in results.items():
    if b.get("error_occurred"):
        assert b["error_message"].startswith("unsupported:"), (name, b["error_message"])
    else:
        assert b["Gelem/s"] > 0 and b["GB/s"] > 0, b
PY
then
  echo "ok: the examples run and pass at --domain=$domains ($(grep -c . "$dir/examples.list") benchmarks)"
else
  echo "FAIL: the examples' run (exit $rc):"; tail -20 "$dir/examples.txt"; fail=1
fi

# The scripts read the examples' JSON: families they do not know are compared, plotted and
# left out of the findings without an error.
check "compare.py reads the examples' run" 0 "SAME" -- \
  $python "$root/scripts/compare.py" "$dir/examples.json" --baseline "$dir/examples.json"
check "plot.py draws the examples' run" 0 "" -- $python "$root/scripts/plot.py" -o "$dir/plots" "$dir/examples.json"
if compgen -G "$dir/plots/saxpy*.png" >/dev/null && compgen -G "$dir/plots/blur*.png" >/dev/null; then
  echo "ok: plot.py wrote the families' charts"
else
  echo "FAIL: plot.py's charts: $(ls "$dir/plots" 2>&1)"; fail=1
fi
check "findings.py reads the examples' run" 0 "" -- $python "$root/scripts/findings.py" "$dir/examples.json"

# A variant wrong at one index fails: exit 1, naming the buffer, the index, and the value got
# against the value wanted (1e-3 apart); the right variant of the same family passes.
"$bench" --manifest="$manifests/wrong/saxpy_off.toml" --benchmark_min_time=0.01 \
  --benchmark_out="$dir/wrong.json" --benchmark_out_format=json >"$dir/wrong.out" 2>"$dir/wrong.err"
rc=$?
message=$(grep -oE "manifest_test_wrong/off_at_1234/[^ :]+: output 'out' index 1234: got [-0-9.e]+, want [-0-9.e]+" \
  "$dir/wrong.err")
if [[ $rc -eq 1 && -n $message ]] && $python - "$dir/wrong.json" "$message" <<'PY'
import json, re, sys
got, want = map(float, re.search(r"got (\S+), want (\S+)", sys.argv[2]).groups())
assert abs((got - want) - 1e-3) < 1e-5, (got, want)
results = json.load(open(sys.argv[1]))["benchmarks"]
(exact,) = [b for b in results if b["name"].startswith("manifest_test_wrong/exact/")]
(off,) = [b for b in results if b["name"].startswith("manifest_test_wrong/off_at_1234/")]
assert not exact.get("error_occurred") and exact["Gelem/s"] > 0, exact
assert off["error_occurred"], off
PY
then
  echo "ok: a variant wrong at one index exits 1 and names out, the index and both values"
else
  echo "FAIL: the wrong variant (exit $rc, want 1):"; tail -5 "$dir/wrong.err"; fail=1
fi
# A separate sampler ([[sampler]]) other than the one the check is written for fails the check of
# the image read through it: a nearest filter, and a repeating address at the image's edges.
for kind in nearest repeat; do
  "$bench" --manifest="$manifests/wrong/separate_$kind.toml" --benchmark_min_time=0.01 \
    >"$dir/separate.out" 2>"$dir/separate.err"
  rc=$?
  if [[ $rc -eq 1 ]] && grep -qE "manifest_test_wrong_separate_$kind/linear/[^ :]+: output image 'dst'" "$dir/separate.err"; then
    echo "ok: a [[sampler]] with the wrong $kind fails the check of dst"
  else
    echo "FAIL: the wrong separate sampler ($kind; exit $rc, want 1):"; tail -5 "$dir/separate.err"; fail=1
  fi
done
# Writes where the manifest does not let them fail the check run: an overrun of out by its guard
# region (bound inside the range by --guard=auto, the default, since the shader reads no .length():
# lavapipe drops writes past a bound range, so a guard after it cannot see them there), a write into
# an input by the comparison of the inputs afterwards. The right variant passes.
"$bench" --manifest="$manifests/wrong/guards.toml" --benchmark_min_time=0.01 \
  >"$dir/guards.out" 2>"$dir/guards.err"
rc=$?
if [[ $rc -eq 1 ]] && grep -q "2 benchmark(s) FAILED" "$dir/guards.err" &&
   grep -q "manifest_test_guards/overrun/wg64x1/domain4096x1: wrote past the end of 'out' (first changed byte +396," \
     "$dir/guards.err" &&
   grep -q "manifest_test_guards/writes_input/wg64x1/domain4096x1: changed input 'x' at index 7:" "$dir/guards.err" &&
   grep -q "note: .*guards.toml:[0-9]*: \[\[buffer\]\] 'x' (variant 'writes_input'): an input, but its shader has instructions that write it" "$dir/guards.err" &&
   grep -q "^\[1/3\] manifest_test_guards/exact/.*Gelem/s=" "$dir/guards.out"; then
  echo "ok: an overrun of an output and a write into an input fail their check run (--guard=auto)"
else
  echo "FAIL: the guards' run (exit $rc, want 1):"; tail -n 5 "$dir/guards.out" "$dir/guards.err"; fail=1
fi

# The shader's own constants reach the pipeline, typed by the shader, by id and by name, family-wide
# and per variant (constant 0 is not a workgroup size there and keeps its default); a uniform buffer
# in set 1 and push constants by member name are laid out by the shader's offsets. Each variant's
# check depends on every value.
"$bench" --manifest="$manifests/constants" \
  --benchmark_min_time=0.01 >"$dir/constants.out" 2>"$dir/constants.err"
rc=$?
if [[ $rc -eq 0 ]] && grep -q "manifest_test_constants/defaults/wg32x1/domain1000x1 .*Gelem/s=" "$dir/constants.out" &&
   grep -q "manifest_test_constants/set/wg32x1/domain1000x1 .*Gelem/s=" "$dir/constants.out" &&
   grep -q "manifest_test_constants/own_domains/wg32x1/domain500x1 .*Gelem/s=" "$dir/constants.out" &&
   ! grep -q "manifest_test_constants/own_domains/wg32x1/domain1000x1" "$dir/constants.out" &&
   grep -q "manifest_test_blocks/named/wg64x1/domain1000x1 .*Gelem/s=" "$dir/constants.out" &&
   grep -q "manifest_test_blocks/own_push/wg64x1/domain1000x1 .*Gelem/s=" "$dir/constants.out" &&
   grep -q "manifest_test_subgroup/sized/wg64x1/domain1000x1 .*Gelem/s=" "$dir/constants.out" &&
   grep -q "manifest_test_init/expressions/wg64x1/domain1000x1 .*Gelem/s=" "$dir/constants.out" &&
   grep -q "manifest_test_length/sized_by_length/wg64x1/domain1000x1 .*Gelem/s=" "$dir/constants.out" &&
   grep -q "manifest_test_total/atomics/wg64x1/domain1000x1 .*Gelem/s=" "$dir/constants.out" &&
   grep -q "manifest_test_fixed_array/conjugate/wg64x1/domain1000x1 .*Gelem/s=" "$dir/constants.out" &&
   grep -qE "manifest_test_sgsizes/each/wg64x1/domain1000x1/sg(8|16|32) .*Gelem/s=" "$dir/constants.out" &&
   grep -q "manifest_test_three_d/index/wg4x4x2/domain33x17x5 .*Gelem/s=" "$dir/constants.out" &&
   grep -q "manifest_test_three_d/index_deep/wg8x2x4/domain33x17x5 .*Gelem/s=" "$dir/constants.out" &&
   grep -q "manifest_test_slots/both_views/wg64x1/domain1000x1 .*Gelem/s=" "$dir/constants.out" &&
   grep -q "manifest_test_image3d/doubled/wg4x4x2/domain9x7x3 .*Gelem/s=" "$dir/constants.out" &&
   subgroup=$(grep -oE "manifest_test_sgworkgroups/sized/wg[0-9]+x1/domain1000x1 .*Gelem/s=" "$dir/constants.out" |
              sed -E 's|.*/wg([0-9]+)x1/.*|\1|' | sort -n | head -1) && [[ -n $subgroup ]] &&
   grep -q "manifest_test_sgworkgroups/sized/wg$((2 * subgroup))x1/domain1000x1 .*Gelem/s=" "$dir/constants.out" &&
   grep -q "manifest_test_sgsizes/only32/wg64x1/domain1000x1/sg8: variant only32 does not list subgroup size 8" "$dir/constants.err"; then
  echo "ok: specialization constants, a uniform buffer, push constants by name, SUBGROUP_SIZE (workgroups of it too), subgroup_sizes, 3-D workgroups and init expressions reach the kernel, a buffer and an image at two slots each, a 3-D image; a kernel sized by .length() keeps its guard after the range; blocks of one fixed-size array"
else
  echo "FAIL: the constants' run (exit $rc, want 0):"; tail -n 5 "$dir/constants.out" "$dir/constants.err"; fail=1
fi

# Struct buffers: members from the shader (a vec2, a uint, a float[3], a nested struct), an input
# initialised member by member, checks member by member. The right variant passes; a variant wrong
# at one element fails naming the element and the member; one that leaves a member unwritten too.
"$bench" --manifest="$manifests/wrong/structs.toml" --benchmark_min_time=0.01 >"$dir/structs.out" 2>"$dir/structs.err"
rc=$?
if [[ $rc -eq 1 ]] && grep -q "2 benchmark(s) FAILED" "$dir/structs.err" &&
   grep -q "^\[1/3\] manifest_test_structs/exact/.*Gelem/s=" "$dir/structs.out" &&
   grep -q "manifest_test_structs/off_at_5/wg64x1/domain4096x1: output 'out' element 5 member inner.k: got -1, want -2" "$dir/structs.err" &&
   grep -q "manifest_test_structs/skips_w/wg64x1/domain4096x1: output 'out' element 0 member w component 0: unwritten" "$dir/structs.err"; then
  echo "ok: struct buffers are filled and checked member by member, and a wrong member fails naming it"
else
  echo "FAIL: the structs' run (exit $rc, want 1):"; tail -n 5 "$dir/structs.out" "$dir/structs.err"; fail=1
fi

# Blocks with headers: the input's header gives the kernel its length and factor, the outputs'
# headers hold counters (one beside an array of structs), checked as out.member and read by
# [require]. The right variant passes; a count one short fails naming the header member; a struct
# element off by one fails naming the element and member.
"$bench" --manifest="$manifests/wrong/header.toml" --benchmark_min_time=0.01 >"$dir/header.out" 2>"$dir/header.err"
rc=$?
if [[ $rc -eq 1 ]] && grep -q "2 benchmark(s) FAILED" "$dir/header.err" &&
   grep -q "^\[1/3\] manifest_test_header/exact/.*Gelem/s=" "$dir/header.out" &&
   grep -q "manifest_test_header/one_short/wg64x1/domain4096x1: output 'y' header member written: got 4095, want 4096" "$dir/header.err" &&
   grep -q "manifest_test_header/off_at_7/wg64x1/domain4096x1: output 'states' element 7 member value: got 1.875, want 0.875" "$dir/header.err"; then
  echo "ok: header buffers are sized and checked from their arrays' offsets, and a wrong header member or element fails naming it"
else
  echo "FAIL: the headers' run (exit $rc, want 1):"; tail -n 5 "$dir/header.out" "$dir/header.err"; fail=1
fi

# An output the kernel adds into without an init comes back as the poison's NaN: a second run from
# zeros shows the kernel reads it, and the message says what the manifest needs.
"$bench" --manifest="$manifests/wrong/accumulate.toml" --benchmark_min_time=0.01 >/dev/null 2>"$dir/accumulate.err"
rc=$?
if [[ $rc -eq 1 ]] && grep -q "manifest_test_accumulate/adds/wg64x1/domain4096x1: output 'out' index 0: .*; started from zeros it holds [-0-9.e]*: the kernel reads the output before writing it, and an output the kernel accumulates into needs \`init\`" "$dir/accumulate.err"; then
  echo "ok: an output accumulated into the poison says it needs init"
else
  echo "FAIL: the accumulating output's run (exit $rc, want 1):"; tail -3 "$dir/accumulate.err"; fail=1
fi

# Images, passes and [require] (one run of three manifests, which pays the device's ceiling once):
# - neighbour: a check reading each texel's 3x3 neighbourhood passes the right blur and fails
#   off_by_one (its left neighbour read from the right) naming the output image and a texel;
# - skipped_pass: two passes in sequence pass (the second sees what the first wrote); first_only
#   leaves c unwritten, and fails naming it;
# - require: a [require] that out is sorted passes sorted and fails reversed, naming [require] out;
#   a check reading out(i + 1) with no guard fails at the last index, reading outside the buffer.
"$bench" --manifest="$manifests/wrong/neighbour.toml" --manifest="$manifests/wrong/skipped_pass.toml" \
  --manifest="$manifests/wrong/require.toml" --benchmark_min_time=0.01 >"$dir/passes.out" 2>"$dir/passes.err"
rc=$?
if [[ $rc -eq 1 ]] && grep -q "4 benchmark(s) FAILED" "$dir/passes.err" &&
   grep -q "^\[[0-9]*/7\] manifest_test_neighbour/right/wg8x8/domain61x47 .*Gelem/s=" "$dir/passes.out" &&
   grep -q "manifest_test_neighbour/off_by_one/wg8x8/domain61x47: output image 'dst' texel (" "$dir/passes.err"; then
  echo "ok: a check reading an image's neighbours passes the right blur and fails one reading (x + 1, y) for (x - 1, y)"
else
  echo "FAIL: the neighbours' run (exit $rc, want 1):"; tail -n 5 "$dir/passes.out" "$dir/passes.err"; fail=1
fi
if [[ $rc -eq 1 ]] &&
   grep -q "^\[[0-9]*/7\] manifest_test_skipped_pass/both/wg64x1/domain4096x1 .*Gelem/s=" "$dir/passes.out" &&
   grep -q "manifest_test_skipped_pass/first_only/wg64x1/domain4096x1: output 'c' index 0: unwritten (still the poison 0x7fc0dead); it stays 0 when the output starts from zeros: the kernel never writes it" "$dir/passes.err" &&
   grep -q "note: .*skipped_pass.toml:[0-9]*: \[\[buffer\]\] 'c' (variant 'first_only'): an output without an init, but no instruction of its shader writes it" "$dir/passes.err"; then
  echo "ok: a variant of two passes runs them in order, and one that skips the second fails naming its output"
else
  echo "FAIL: the passes' run (exit $rc, want 1):"; tail -n 5 "$dir/passes.out" "$dir/passes.err"; fail=1
fi
if [[ $rc -eq 1 ]] &&
   grep -q "^\[[0-9]*/7\] manifest_test_require/sorted/wg64x1/domain4096x1 .*Gelem/s=" "$dir/passes.out" &&
   grep -q "manifest_test_require/reversed/wg64x1/domain4096x1: \[require\] out = \"i + 1 >= W ? 1 : out(i) <= out(i + 1)\" is false at index 0" "$dir/passes.err" &&
   grep -q "manifest_test_require/reads_outside/wg64x1/domain4096x1: .*out(i + 1) - 1.*reads out(4096), outside its 4096 values" "$dir/passes.err"; then
  echo "ok: [require] passes a sorted output and fails a reversed one; a check reading past its buffer fails naming the read"
else
  echo "FAIL: the [require] run (exit $rc, want 1):"; tail -n 5 "$dir/passes.out" "$dir/passes.err"; fail=1
fi

# A pass's bind: one shader run twice, the second time with its input and output rebound, passes
# (c = 4 * a); the variant that binds only its output reads a again and fails naming c.
"$bench" --manifest="$manifests/wrong/rebind.toml" --benchmark_min_time=0.01 >"$dir/rebind.out" 2>"$dir/rebind.err"
rc=$?
if [[ $rc -eq 1 ]] && grep -q "1 benchmark(s) FAILED" "$dir/rebind.err" &&
   grep -q "^\[1/2\] manifest_test_rebind/rebound/wg64x1/domain4096x1 .*Gelem/s=" "$dir/rebind.out" &&
   grep -q "manifest_test_rebind/not_rebound/wg64x1/domain4096x1: output 'c' index 0: got .*\[check\] c = \"4 \* a\"" "$dir/rebind.err"; then
  echo "ok: a pass's bind rebinds its input and output for that pass; without the input's bind the check of c fails"
else
  echo "FAIL: the rebind run (exit $rc, want 1):"; tail -n 5 "$dir/rebind.out" "$dir/rebind.err"; fail=1
fi

# Mip levels bound as views: levels 1 and 2 of one image, each an [[image]] with `view`, checked by
# its name. The right variant passes; one with a texel of level 2 one too large fails naming the
# view, its level and the texel.
"$bench" --manifest="$manifests/wrong/mip_level.toml" --benchmark_min_time=0.01 >"$dir/mip.out" 2>"$dir/mip.err"
rc=$?
if [[ $rc -eq 1 ]] && grep -q "1 benchmark(s) FAILED" "$dir/mip.err" &&
   grep -q "^\[1/2\] manifest_test_mip/right/wg8x8/domain64x64 .*Gelem/s=" "$dir/mip.out" &&
   grep -q "manifest_test_mip/off_at_1_2/wg8x8/domain64x64: output image 'l2' (level 2 of 'tex') texel (1, 2): got [-0-9.e]*, want [-0-9.e]*" "$dir/mip.err"; then
  echo "ok: views of an image's levels are checked by their names, and a wrong texel of level 2 fails naming the view and its level"
else
  echo "FAIL: the mip levels' run (exit $rc, want 1):"; tail -n 5 "$dir/mip.out" "$dir/mip.err"; fail=1
fi

# Uniform contents per dispatch: a bitonic sort whose pass gives its uniform buffer each
# repetition's step (k, j) as expressions of P passes; the same pass given one content for every
# dispatch by its variant's own uniform table fails naming the keys.
"$bench" --manifest="$manifests/wrong/uniform_per_pass.toml" --benchmark_min_time=0.01 \
  >"$dir/uniform.out" 2>"$dir/uniform.err"
rc=$?
if [[ $rc -eq 1 ]] && grep -q "1 benchmark(s) FAILED" "$dir/uniform.err" &&
   grep -q "^\[[0-9]*/2\] manifest_test_uniform_per_pass/sorted/wg64x1/domain4096x1 .*Gelem/s=" "$dir/uniform.out" &&
   grep -q "manifest_test_uniform_per_pass/one_step/wg64x1/domain4096x1: output 'keys' index 1: got" "$dir/uniform.err"; then
  echo "ok: each dispatch of a pass is bound to its own uniform contents (P), and one content for all fails"
else
  echo "FAIL: the per-pass uniform run (exit $rc, want 1):"; tail -n 5 "$dir/uniform.out" "$dir/uniform.err"; fail=1
fi

# Three dimensions from the command line: --domain=WxHxD and --workgroup=XxYxZ reach a 3-D manifest
# (checked and measured there), and a 2-D family keeps none of a depth. --test-domains puts a
# manifest and a built-in family at their test_domains.
# (three_d.toml's checks name its own workgroups, so the run keeps them; the listing takes one.)
"$bench" --manifest="$manifests/constants/three_d.toml" --domain=19x11x7,64x40 \
  --benchmark_min_time=0.01 >"$dir/three_d.out" 2>"$dir/three_d.err"
rc=$?
"$bench" --manifest="$manifests/constants/three_d.toml" --domain=19x11x7 --workgroup=4x4x4 \
  --benchmark_list_tests >"$dir/three_d.list" 2>&1 || rc=1
"$bench" --test-domains --manifest="$root/examples/saxpy.toml" --benchmark_list_tests >"$dir/test_domains.list" 2>&1
rc_list=$?
"$bench" --test-domains --benchmark_filter='^neighborhood3d/direct/' --benchmark_list_tests >"$dir/test_domains3d.list" 2>&1
rc_3d=$?
if [[ $rc -eq 0 && $rc_list -eq 0 && $rc_3d -eq 0 ]] &&
   grep -q "manifest_test_three_d/index/wg4x4x2/domain19x11x7 .*Gelem/s=" "$dir/three_d.out" &&
   grep -q "manifest_test_three_d/index_deep/wg8x2x4/domain64x40 .*Gelem/s=" "$dir/three_d.out" &&
   grep -q "^manifest_test_three_d/index/wg4x4x4/domain19x11x7$" "$dir/three_d.list" &&
   grep -q "^saxpy/.*/domain100003x1$" "$dir/test_domains.list" && grep -q "^saxpy/.*/domain37x1$" "$dir/test_domains.list" &&
   ! grep -q "^saxpy/.*/domain16777216x1$" "$dir/test_domains.list" &&
   grep -q "^neighborhood3d/direct/wg4x4x4/domain19x11x7$" "$dir/test_domains3d.list" &&
   grep -q "^neighborhood3d/direct/wg8x8x8/domain3x5x2$" "$dir/test_domains3d.list"; then
  echo "ok: --domain=WxHxD and --workgroup=XxYxZ run a 3-D manifest; --test-domains takes a manifest's and a built-in family's test domains"
else
  echo "FAIL: three dimensions or --test-domains (exit $rc, $rc_list, $rc_3d):"
  tail -n 5 "$dir/three_d.out" "$dir/three_d.err" "$dir/test_domains.list" "$dir/test_domains3d.list"; fail=1
fi

# A filter with --manifest selects among the manifests' benchmarks; the built-in ones join by
# --with-built-ins (counted with grep -c: a `grep -q` at a pipe's end may stop the grep before it,
# which pipefail then reports as a failure); a filter that matches none of the manifests' is a usage error that says so.
"$bench" --manifest="$root/examples/saxpy.toml" --benchmark_filter=wg256 --benchmark_list_tests >"$dir/among.list" 2>/dev/null
rc_among=$?
"$bench" --manifest="$root/examples/saxpy.toml" --with-built-ins --benchmark_filter=wg256 --benchmark_list_tests \
  >"$dir/with_built_ins.list" 2>&1
rc_with=$?
"$bench" --manifest="$root/examples/saxpy.toml" --benchmark_filter='^stream/' --benchmark_list_tests >/dev/null \
  2>"$dir/among_none.err"
rc_none=$?
"$bench" --with-built-ins --benchmark_list_tests >/dev/null 2>"$dir/with_alone.err"
rc_alone=$?
if [[ $rc_among -eq 0 && $rc_with -eq 0 && $rc_none -eq 2 && $rc_alone -eq 2 ]] &&
   [[ -s $dir/among.list ]] && ! grep -qv "^saxpy/" "$dir/among.list" &&
   grep -q "^saxpy/.*wg256" "$dir/with_built_ins.list" &&
   (($(grep -v "^saxpy/" "$dir/with_built_ins.list" | grep -c "wg256") > 0)) &&
   grep -q "matches none of the manifests' benchmarks .*--with-built-ins" "$dir/among_none.err" &&
   grep -q "give --manifest as well" "$dir/with_alone.err"; then
  echo "ok: a filter with --manifest selects the manifests' benchmarks only; --with-built-ins adds the built-in ones"
else
  echo "FAIL: a filter with --manifest (exit $rc_among, $rc_with, $rc_none, $rc_alone, want 0, 0, 2, 2):"
  head -n 5 "$dir/among.list" "$dir/with_built_ins.list" "$dir/among_none.err" "$dir/with_alone.err"; fail=1
fi

# Checks computed on the device give the host's verdicts and messages: the wrong manifests run with
# --checks=auto (the device lists, the host judges) and --checks=host (the host alone), and every
# failure line is the same; the JSON counts each benchmark's checks where they ran. Every wrong
# manifest of the folder is run both ways, so each planted fault (a wrong value, an unwritten
# element, a NaN, an overrun, a changed input, a wrong header, a neighbour, a [require]) fails
# alike. device_check.toml's near_tolerance variant passes through the host's judgement of the
# floats the device listed, all_off through the host's whole check (its message names the float
# off by most, relative to its value); image_off.toml is checked
# on the device texel by texel; reference_kept.toml's variants find the reference's outputs kept at
# each workgroup, the wrong one failing against them at both.
device_ok=1
for mode in auto host; do
  "$bench" $(for f in "$manifests"/wrong/*.toml; do printf -- '--manifest=%s ' "$f"; done) \
    --checks=$mode --benchmark_min_time=0.01 --benchmark_out="$dir/checks_$mode.json" --benchmark_out_format=json \
    >"$dir/checks_$mode.out" 2>"$dir/checks_$mode.err"
  rc=$?
  [[ $rc -eq 1 ]] || { echo "checks=$mode: exit $rc, want 1"; device_ok=0; }
  grep -oE "manifest_test_[a-z_0-9]+/[^ ]+: .*" "$dir/checks_$mode.err" | sort -u >"$dir/checks_$mode.failures"
done
if ((device_ok)) && [[ -s $dir/checks_auto.failures ]] && cmp -s "$dir/checks_auto.failures" "$dir/checks_host.failures" &&
   grep -q "^manifest_test_device_check/off_at_777/wg64x1/domain65536x1: output 'out' index 777: got" "$dir/checks_auto.failures" &&
   grep -q "^manifest_test_device_check/all_off/wg64x1/domain65536x1: output 'out' index [0-9]*: got" "$dir/checks_auto.failures" &&
   grep -q "^manifest_test_image_off/wrong/wg8x8/domain67x45: output image 'dst' texel (5, 3): got" "$dir/checks_auto.failures" &&
   grep -q "^manifest_test_image_off/unwritten/wg8x8/domain67x45: output image 'dst' texel (3, 1): unwritten (still the poison" "$dir/checks_auto.failures" &&
   grep -q "^manifest_test_image_off/writes_input/wg8x8/domain67x45: changed input image 'src' at texel (9, 4): the kernel wrote" "$dir/checks_auto.failures" &&
   grep -q "^manifest_test_reference_kept/wrong/wg8x8/domain67x45: output image 'dst' texel (5, 3): got .* (the reference variant right)" "$dir/checks_auto.failures" &&
   grep -q "^manifest_test_reference_kept/wrong/wg16x4/domain67x45: output image 'dst' texel (5, 3): got .* (the reference variant right)" "$dir/checks_auto.failures" &&
   ! grep -q "^manifest_test_reference_kept/same/" "$dir/checks_auto.failures" &&
   $python - "$dir/checks_auto.json" "$dir/checks_host.json" <<'PY'
import json, sys
auto = {b["name"]: b for b in json.load(open(sys.argv[1]))["benchmarks"]}
host = {b["name"]: b for b in json.load(open(sys.argv[2]))["benchmarks"]}
assert sorted(auto) == sorted(host)
for name in ("manifest_test_device_check/right/wg64x1/domain65536x1",
             "manifest_test_device_check/near_tolerance/wg64x1/domain65536x1",
             "manifest_test_image_off/right/wg8x8/domain67x45"):
    assert not auto[name].get("error_occurred") and not host[name].get("error_occurred"), name
    assert auto[name]["checks_on_device"] >= 1 and auto[name]["checks_on_host"] == 0, auto[name]
    assert host[name]["checks_on_device"] == 0 and host[name]["checks_on_host"] >= 1, host[name]
assert auto["manifest_test_image_off/right/wg8x8/domain67x45"]["checks_on_device"] == 2
for name in auto:
    assert bool(auto[name].get("error_occurred")) == bool(host[name].get("error_occurred")), name
PY
then
  echo "ok: checks computed on the device fail and pass exactly as the host's, with the same messages"
else
  echo "FAIL: checks on the device and on the host differ:"
  diff "$dir/checks_auto.failures" "$dir/checks_host.failures" | head -n 20; tail -n 5 "$dir/checks_auto.err"; fail=1
fi
exit $fail
