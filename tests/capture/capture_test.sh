#!/usr/bin/env bash
# csbench-capture on tests/capture/capture_demo: the default selection writes one folder per
# compute pipeline at its most frequent workgroup counts, whose files hold exactly the demo's
# data before and after its dispatch; the manifests load and run in bench (their data keys
# replaced by checks, and as written once bench reads data files, where an altered expected file
# must fail); a kernel of fixed-size arrays; the other selections; and every error path with its
# exit code (docs/capture.md).
set -uo pipefail
capture=$1
demo=$2
bench=$3
. "$(dirname "$0")/../bench/check.sh"

# A device to run on: without one the demo cannot run, and the test is skipped.
if ! "$demo" >/dev/null 2>&1; then
  echo "skip: the demo does not run here (no Vulkan device)"
  exit 77
fi

check "default selection: the five pipelines captured, the indirect one too" 0 '5 of 5 selected dispatches written' -- \
  "$capture" -o "$dir/c" -- "$demo" --indirect
for f in p0_64x1x1/p0_64x1x1.toml p0_64x1x1/shader.spv p0_64x1x1/in0.bin p0_64x1x1/in1.bin p0_64x1x1/out1.bin \
         p1_128x1x1/p1_128x1x1.toml p1_128x1x1/in0.bin p1_128x1x1/in1.bin p1_128x1x1/out1.bin \
         p2_8x2x1/p2_8x2x1.toml p2_8x2x1/in0.bin p2_8x2x1/out0.bin report.txt; do
  [[ -s $dir/c/$f ]] || { echo "FAIL: $f was not written"; fail=1; }
done
[[ ! -e $dir/c/p0_64x1x1/out0.bin ]] || { echo "FAIL: a readonly binding got an expected file"; fail=1; }
[[ ! -e $dir/c/.raw ]] || { echo "FAIL: the layer's raw files were left behind"; fail=1; }
check "the report counts each pipeline's sizes" 0 '64x1x1 workgroups: 3 dispatches, first as dispatch 1' -- \
  cat "$dir/c/report.txt"
check "the report counts indirect dispatches by the counts they read" 0 \
  '32x1x1 workgroups: 3 dispatches \(3 indirect\), first as dispatch 5 \(indirect\)$' -- cat "$dir/c/report.txt"

# The data: the demo's x and y around its first full-size scale (SCALE 2.5, add 0), its
# accumulator around the first accumulate (7 before, 7 + 2 i + 1 after), and its picture around
# the first invert (byte k holds 7 k mod 256 before, 255 minus that after).
check "the captured bytes and texels are the demo's" 0 '^data ok$' -- $python - "$dir/c" <<'PY'
import struct, sys
root = sys.argv[1]
def floats(path): data = open(path, 'rb').read(); return struct.unpack('<%df' % (len(data) // 4), data)
def uints(path): data = open(path, 'rb').read(); return struct.unpack('<%dI' % (len(data) // 4), data)
x = floats(root + '/p0_64x1x1/in0.bin'); y = floats(root + '/p0_64x1x1/out1.bin')
src = uints(root + '/p1_128x1x1/in0.bin'); before = uints(root + '/p1_128x1x1/in1.bin')
after = uints(root + '/p1_128x1x1/out1.bin')
f32 = lambda v: struct.unpack('<f', struct.pack('<f', v))[0]
assert len(x) == len(y) == 4096, (len(x), len(y))
assert all(x[i] == 1 + 0.25 * (i % 1000) for i in range(4096)), 'x'
assert all(y[i] == f32(x[i] * 2.5) for i in range(4096)), 'y'
assert src == tuple(range(4096)), 'src'
assert before == (7,) * 4096, 'acc before'
assert after == tuple(7 + 2 * i + 1 for i in range(4096)), 'acc after'
before = open(root + '/p2_8x2x1/in0.bin', 'rb').read(); after = open(root + '/p2_8x2x1/out0.bin', 'rb').read()
assert len(before) == len(after) == 64 * 16 * 4, 'picture size'
assert all(before[k] == 7 * k % 256 and after[k] == 255 - before[k] for k in range(len(before))), 'picture'
print('data ok')
PY
check "the manifest names where its values came from" 0 '1 = "2.5"  # SCALE: the program' -- \
  cat "$dir/c/p0_64x1x1/p0_64x1x1.toml"
check "the push constants are the program's" 0 'constants = \["4096", "0"\]' -- \
  cat "$dir/c/p0_64x1x1/p0_64x1x1.toml"
check "a uniform buffer's members are the program's" 0 '"pair" = \["0.25", "0.75"\]' -- \
  cat "$dir/c/p1_128x1x1/p1_128x1x1.toml"
check "a buffer the shader reads and writes is restored before each timed dispatch" 0 \
  '^binding = 1 output = true restore = true$' -- \
  $python -c 'import sys; t=open(sys.argv[1]).read()
for b in t.split("[[buffer]]")[1:]:
    lines = [l.split("  #")[0] for l in b.splitlines()]
    if "binding = 1" in lines: print(" ".join(l for l in lines if l in ("binding = 1", "output = true", "restore = true")))' \
  "$dir/c/p1_128x1x1/p1_128x1x1.toml"
check "a writeonly output is not restored (its batches stay batches)" 1 '^$' -- \
  grep restore "$dir/c/p0_64x1x1/p0_64x1x1.toml"

# Everything but the data keys, through bench: the same manifests with random inputs and the
# demo's arithmetic as checks (y poisoned, as an output without init; acc from random values).
mkdir -p "$dir/keys"
cp -r "$dir/c/p0_64x1x1" "$dir/c/p1_128x1x1" "$dir/c/p2_8x2x1" "$dir/keys/"
for m in "$dir"/keys/*/*.toml; do
  sed -i -e '/^expect = /d' -e 's/^init = { file = .*/init = "random"/' "$m"
done
sed -i '/^name = "Out"/,/^init/{/^init/d}' "$dir/keys/p0_64x1x1/p0_64x1x1.toml"
printf '\n[check]\nOut = "In * 2.5"\n' >>"$dir/keys/p0_64x1x1/p0_64x1x1.toml"
printf '\n[check]\nAcc = "Acc + 2 * Src + 1"\n' >>"$dir/keys/p1_128x1x1/p1_128x1x1.toml"
printf '\n[check]\npicture = "1 - picture"\n' >>"$dir/keys/p2_8x2x1/p2_8x2x1.toml"
check "the captured manifests' other keys load and run in bench" 0 '\[3/3\] capture_demo_p2_8x2x1/captured/wg8x8/domain1024x1 ' -- \
  "$bench" --manifest="$dir/keys/p0_64x1x1" --manifest="$dir/keys/p1_128x1x1" --manifest="$dir/keys/p2_8x2x1" \
  --benchmark_min_time=0.01

# The manifests as written, once bench reads data files (init = { file }, expect = { file }).
if "$bench" --manifest="$dir/c/p0_64x1x1" --benchmark_list_tests >/dev/null 2>&1; then
  replay_with_data=1
  check "replay: the capture passes against the program's own output" 0 '\[3/3\] capture_demo_p2_8x2x1/captured' -- \
    "$bench" --manifest="$dir/c/p0_64x1x1" --manifest="$dir/c/p1_128x1x1" --manifest="$dir/c/p2_8x2x1" \
    --benchmark_min_time=0.01
  # A 1-D dispatch's workgroups are the domain over the workgroup's width: other widths replay it too.
  check "replay: other workgroups of a 1-D dispatch cover it and pass" 0 \
    '\[3/3\] capture_demo_p0_64x1x1/captured/wg128x1/domain4096x1 .*Gelem/s' -- \
    "$bench" --manifest="$dir/c/p0_64x1x1" --workgroup=16,32,128 --benchmark_min_time=0.01
  cp -r "$dir/c/p0_64x1x1" "$dir/altered"
  add_one "$dir/altered/out1.bin" 400
  check "replay: an expected file altered by one element fails" 1 'Out' -- \
    "$bench" --manifest="$dir/altered" --benchmark_min_time=0.01
  cp -r "$dir/c/p2_8x2x1" "$dir/altered_image"
  printf '\x10' | dd of="$dir/altered_image/out0.bin" bs=1 seek=100 conv=notrunc status=none
  check "replay: an expected image altered by one texel fails" 1 "picture" -- \
    "$bench" --manifest="$dir/altered_image" --benchmark_min_time=0.01
else
  echo "skip: bench does not read init = { file } and expect = { file } yet; the replay with data waits for them"
fi

# The copies and barriers the layer records pass the validation layer's synchronization checks.
. "$(dirname "$0")/synchronized.sh"
if [[ -e /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ]]; then
  synchronized "the capture's copies" "3 of 3 selected" -o "$dir/sync" -- "$demo"
  # The reads of indirect dispatches' counts too, in both passes.
  synchronized "the reads of indirect dispatches' counts" "2 of 2 selected" -o "$dir/sync_indirect" \
    --dispatches=pipeline:4,sequence:1-5 -- "$demo" --indirect
fi

# csbench itself is a Vulkan program: a run of an example is captured, every dispatch it selects
# written as a manifest (and replayed once bench reads data files).
# --guard=outside: the check run's guard is not inside the bound range, so the output the
# dispatch writes is the whole range. Outputs that hold bytes that are not finite floats (the
# poison of elements the kernel never writes) are noted by the report and replayed too: each
# matches its like in the expected file.
# The ceilings are measured once before, and reused by both of the capture's runs: their copies
# are sized to the time they take, so measuring them in each run would make the two runs differ.
bench_args=(--manifest="$root/examples/saxpy.toml" --domain=4096 --benchmark_filter=saxpy/scalar/wg64x1
            --benchmark_min_time=0.01 --guard=outside --ceilings=reuse)
export XDG_CACHE_HOME="$dir/cache"
"$bench" "${bench_args[@]}" > /dev/null 2>&1
check "capturing csbench running an example" 0 'selected dispatches written as manifests' -- \
  "$capture" -o "$dir/bench" -- "$bench" "${bench_args[@]}"
unset XDG_CACHE_HOME
replayable=$($python - "$dir/bench/report.txt" <<'PY'
import re, sys
sections = open(sys.argv[1]).read().split('\n\n')
for s in sections:
    m = re.match(r'(p\S+): ', s)
    if m and '  written: ' in s:
        print(m.group(1))
PY
)
[[ -n $replayable ]] || { echo "FAIL: no dispatch of csbench's run is replayable"; fail=1; }
if [[ -n ${replay_with_data:-} ]]; then
  for name in $replayable; do
    check "replay of csbench's own dispatch $name" 0 'captured' -- \
      "$bench" --manifest="$dir/bench/$name" --benchmark_min_time=0.01
  done
fi

# A kernel whose blocks are each one fixed-size array (as generated code declares its buffers,
# VkFFT's among them), bound by bench over more bytes than the array: captured as the array's 256
# elements, the rest said left out, and replayed. Only bench's first pipeline, the kernel's: the
# copies that size its ceilings follow timings, so a second pass may not dispatch them alike.
check "capturing a kernel of fixed-size arrays" 0 '1 of 1 selected dispatches written as manifests' -- \
  "$capture" -o "$dir/short" --dispatches=pipeline:0 -- "$bench" --manifest="$root/tests/capture/short_array.toml" \
  --benchmark_min_time=0.01 --guard=outside
short=$(grep -l '^count = "256"' "$dir"/short/p*/p*.toml | head -1)
if [[ -z $short ]] || [[ $(grep -c '^count = "256"' "$short") -ne 2 ]] ||
   ! grep -q "past the shader's array, are left out" "$short"; then
  echo "FAIL: the fixed-size arrays were not captured as their 256 elements"; fail=1
elif [[ -n ${replay_with_data:-} ]]; then
  check "replay of the kernel of fixed-size arrays" 0 'captured' -- \
    "$bench" --manifest="$(dirname "$short")" --benchmark_min_time=0.01
fi

# The other selections.
check "--dispatches=N: the Nth dispatch, from 0" 0 'captured d0_p0_16x1x1' -- \
  "$capture" -o "$dir/nth" --dispatches=0 -- "$demo"
check "--dispatches=pipeline:K" 0 '1 of 1 selected' -- "$capture" -o "$dir/pipe" --dispatches=pipeline:1 -- "$demo"
check "--dispatches=all: every pipeline and size" 0 '4 of 4 selected' -- "$capture" -o "$dir/all" --dispatches=all -- "$demo"
[[ -d $dir/pipe/p1_128x1x1 && ! -e $dir/pipe/p0_64x1x1 ]] || { echo "FAIL: pipeline:1 wrote other folders"; fail=1; }
hash=$(sed -n 's/.*pipeline 0: entry main, SPIR-V SHA-256 \(........\).*/\1/p' "$dir/c/report.txt")
check "--dispatches=hash:HEX" 0 'captured p0_64x1x1' -- "$capture" -o "$dir/hash" --dispatches=hash:$hash -- "$demo"

# Indirect dispatches: the demo's --indirect ends each round with the counts kernel writing (32, 1,
# 1) into a buffer the host filled with (1, 1, 1), then, behind a barrier, spread dispatched
# indirectly from that buffer (which it binds as a storage buffer too). The capture has the counts
# the dispatch read, not the host's.
ind=$dir/c/p4_32x1x1
check "the report says the indirect dispatch was captured with its counts" 0 \
  'note: indirect: captured with the counts it had \(32, 1, 1\)$' -- cat "$dir/c/report.txt"
check "the manifest says where the counts came from" 0 \
  'VkDispatchIndirectCommand at offset 0 of a buffer of 12 bytes\) as the dispatch ran' -- cat "$ind/p4_32x1x1.toml"
check "the indirect buffer, bound as a storage buffer too, is an ordinary input" 0 '^counts ok$' -- \
  $python - "$ind" <<'PY'
import re, struct, sys
root = sys.argv[1]
text = open(root + '/p4_32x1x1.toml').read()
assert re.search(r'^groups = \["32", "1", "1"\]$', text, re.M), 'groups'
assert struct.unpack('<3I', open(root + '/in0.bin', 'rb').read()) == (32, 1, 1), 'Args before'
values = struct.unpack('<4096f', open(root + '/out1.bin', 'rb').read())
assert all(values[i] == (0.5 * i + 32 if i < 2048 else -1) for i in range(4096)), 'values'
print('counts ok')
PY
if [[ -n ${replay_with_data:-} ]]; then
  check "replay: the indirect dispatch passes against the program's own output" 0 \
    '\[1/1\] capture_demo_p4_32x1x1/captured/wg64x1/domain2048x1 ' -- \
    "$bench" --manifest="$ind" --benchmark_min_time=0.01
  cp -r "$ind" "$dir/altered_indirect"
  add_one "$dir/altered_indirect/out1.bin" 400
  check "replay: the indirect dispatch with an expected element altered fails" 1 'Values' -- \
    "$bench" --manifest="$dir/altered_indirect" --benchmark_min_time=0.01
fi
check "--dispatches=N selects an indirect dispatch by its place" 0 'captured d10_p4_32x1x1: ' -- \
  "$capture" -o "$dir/indirect_nth" --dispatches=10 -- "$demo" --indirect
check "a sequence with an indirect dispatch, written with the counts it read" 0 'captured s1-5: ' -- \
  "$capture" -o "$dir/indirect_seq" --dispatches=sequence:1-5 -- "$demo" --indirect
if [[ -n ${replay_with_data:-} ]]; then
  check "replay: the sequence with an indirect dispatch passes" 0 '\[1/1\] capture_demo_s1-5/captured' -- \
    "$bench" --manifest="$dir/indirect_seq/s1-5" --benchmark_min_time=0.01
fi
check "an indirect dispatch of 0 workgroups is written with its SPIR-V, not replayed" 1 \
  'not replayable p4_0x1x1: an indirect dispatch read workgroup counts 0 x 1 x 1: a count of 0 runs no workgroup' -- \
  "$capture" -o "$dir/indirect_zero" --dispatches=pipeline:4 -- "$demo" --indirect-zero
[[ -s $dir/indirect_zero/p4_0x1x1/shader.spv && ! -e $dir/indirect_zero/p4_0x1x1/p4_0x1x1.toml ]] ||
  { echo "FAIL: an indirect dispatch of 0 workgroups got a manifest, or no SPIR-V"; fail=1; }
check "--max-bytes: a dispatch over it is left out, and said" 1 'over --max-bytes=1024' -- \
  "$capture" -o "$dir/small" --max-bytes=1K -- "$demo"
check "each reason a dispatch is left out is said once in the report" 0 '^0$' -- \
  sh -c 'grep -q "left out: the bindings hold .* over --max-bytes=1024" "$1" && uniq -d "$1" | grep "left out" | wc -l' sh \
  "$dir/small/report.txt"

# A sequence: the demo's --chain records three dependent dispatches in one command buffer
# (dispatches 10 to 12: scale writes y, then chain adds 0.5 y and 0.25 y into total, barriers
# between), which the report lists and --dispatches=sequence:10-12 writes as one variant of passes.
check "a sequence of three dispatches of one recording, written as passes" 0 'captured s10-12: ' -- \
  "$capture" -o "$dir/seq" --dispatches=sequence:10-12 -- "$demo" --chain
check "the report lists the recordings of several dispatches" 0 \
  'dispatches 10-12: pipelines 0, 3, 3 \(1 submission like it\): --dispatches=sequence:10-12$' -- cat "$dir/seq/report.txt"
# One dispatch selected alone and as a sequence's first: both are captured (each its own copies).
check "a dispatch selected alone and as the first of a sequence gives both" 0 '^2 of 2 selected dispatches written' -- \
  "$capture" -o "$dir/seq_both" --dispatches=10,sequence:10-12 -- "$demo" --chain
check "the report lists the rounds too" 0 'dispatches 1-3: pipelines 0, 1, 2 \(3 submissions like it\)' -- \
  cat "$dir/seq/report.txt"
seq_toml=$dir/seq/s10-12/s10-12.toml
[[ $(grep -c '^\[\[variant.pass\]\]' "$seq_toml") -eq 3 && $(grep -c '^source = "shader3.spv"' "$seq_toml") -eq 2 &&
   -s $dir/seq/s10-12/shader0.spv && -s $dir/seq/s10-12/shader3.spv ]] ||
  { echo "FAIL: the sequence's manifest is not three passes of shader0.spv and shader3.spv"; fail=1; }
check "each pass has the program's push constants" 0 'float weight at byte 4: 0.25' -- cat "$seq_toml"
# The restore rule in a sequence: total, which the chain passes read and add into, is restored
# before each iteration; y, which scale only writes and the chain passes only read, is not.
check "a sequence restores what it reads before writing, not its work buffer" 0 '^In Out Sum restore$' -- \
  $python -c '
import sys
blocks = open(sys.argv[1]).read().split("[[buffer]]")[1:]
def field(b, key): return next((l.split("=")[1].strip() for l in b.splitlines() if l.startswith(key + " =")), "-")
print(" ".join(field(b, "name").strip("\"") + (" restore" if "restore = true" in b else "") for b in blocks))' "$seq_toml"
# The data: x, y and total before the sequence, y and total after its last dispatch.
check "the sequence's bytes are the demo's" 0 '^data ok$' -- $python - "$dir/seq/s10-12" <<'PY'
import struct, sys
root = sys.argv[1]
def floats(path): data = open(path, 'rb').read(); return struct.unpack('<%df' % (len(data) // 4), data)
f32 = lambda v: struct.unpack('<f', struct.pack('<f', v))[0]
x = floats(root + '/in0.bin'); y = floats(root + '/out1.bin'); total0 = floats(root + '/in2.bin')
total = floats(root + '/out2.bin')
assert len(x) == len(y) == len(total) == 4096
assert all(y[i] == f32(x[i] * 2.5 + 3) for i in range(4096)), 'y'
assert all(total0[i] == 0.5 * i for i in range(4096)), 'total before'
assert all(abs(total[i] - (0.5 * i + 0.75 * y[i])) <= 1e-4 * abs(total[i]) + 1e-6 for i in range(4096)), 'total'
print('data ok')
PY
if [[ -n ${replay_with_data:-} ]]; then
  check "replay: the sequence passes against the program's own output" 0 '\[1/1\] capture_demo_s10-12/captured' -- \
    "$bench" --manifest="$dir/seq/s10-12" --benchmark_min_time=0.01
  # An intermediate result (y, which the second and third dispatches read) and a final one altered.
  for altered in out1.bin:Out out2.bin:Sum; do
    cp -r "$dir/seq/s10-12" "$dir/seq_altered_${altered%%.*}"
    add_one "$dir/seq_altered_${altered%%.*}/${altered%%:*}" 400
    check "replay: the sequence with ${altered%%:*} altered by one element fails" 1 "${altered##*:}" -- \
      "$bench" --manifest="$dir/seq_altered_${altered%%.*}" --benchmark_min_time=0.01
  done
fi
check "a sequence with a transfer command between its dispatches is refused" 1 \
  'not replayable s10-12: dispatch 2 of the sequence: 1 transfer command\(s\)' -- \
  "$capture" -o "$dir/seq_fill" --dispatches=sequence:10-12 -- "$demo" --chain-fill
[[ ! -e $dir/seq_fill/s10-12/s10-12.toml ]] || { echo "FAIL: a refused sequence got a manifest"; fail=1; }
# The rounds bind other resources at one slot from one dispatch to the next (scale: x at 0, y at
# 1; accumulate: src at 0, acc at 1; invert: the picture at 0): each is declared once, at a free
# binding where its first slot is an earlier one's, and a pass that binds it elsewhere says so.
check "a sequence whose dispatches rebind slots is written with binds" 0 'captured s1-3: ' -- \
  "$capture" -o "$dir/seq_slots" --dispatches=sequence:1-3 -- "$demo"
check "its second pass binds src and acc at slots 0 and 1" 0 \
  '^bind = \{"Src" = \{ set = 0, binding = 0 \}, "Acc" = \{ set = 0, binding = 1 \}\}$' -- \
  cat "$dir/seq_slots/s1-3/s1-3.toml"
check "its third pass binds the picture at slot 0" 0 '^bind = \{"picture" = \{ set = 0, binding = 0 \}\}$' -- \
  cat "$dir/seq_slots/s1-3/s1-3.toml"
check "src is declared at a free binding (3: past the uniform's 2)" 0 '^binding = 3$' -- \
  grep -A2 '^name = "Src"$' "$dir/seq_slots/s1-3/s1-3.toml"
if [[ -n ${replay_with_data:-} ]]; then
  check "replay: the rebinding sequence passes against the program's own output" 0 '\[1/1\] capture_demo_s1-3/captured' -- \
    "$bench" --manifest="$dir/seq_slots/s1-3" --benchmark_min_time=0.01
fi
# Still refused: a range of a buffer that overlaps another range an earlier dispatch bound without
# being it (the chain's y, bound as its first 4032 elements after the scale wrote it whole).
check "a sequence whose dispatches bind overlapping ranges of one buffer is refused" 1 \
  'not replayable s10-12: dispatch 1 of the sequence: set 0 binding 1 element 0 holds memory of the buffer an earlier dispatch of the sequence bound at set 0 binding 1 element 0, another range of it: aliasing' -- \
  "$capture" -o "$dir/seq_alias" --dispatches=sequence:10-12 -- "$demo" --chain-alias
[[ ! -e $dir/seq_alias/s10-12/s10-12.toml ]] || { echo "FAIL: an aliasing sequence got a manifest"; fail=1; }
check "a sequence over two recordings: exit 2" 2 "'sequence:9-10' spans two recordings: dispatch 9 ran in recording" -- \
  "$capture" -o "$dir/seq_e1" --dispatches=sequence:9-10 -- "$demo" --chain
check "a sequence past the program's dispatches: exit 2" 2 "'sequence:11-13' runs past the program's dispatches: it submitted 13" -- \
  "$capture" -o "$dir/seq_e2" --dispatches=sequence:11-13 -- "$demo" --chain
check "a sequence whose first dispatch comes after its last: exit 2" 2 "'sequence:12-10': the first dispatch comes after the last" -- \
  "$capture" -o "$dir/seq_e3" --dispatches=sequence:12-10 -- "$demo" --chain

# A program started by a wrapper, beside another Vulkan process: the first to make an instance is
# captured, and the other writes nothing over it.
check "a program behind a wrapper script" 0 '3 of 3 selected' -- \
  "$capture" -o "$dir/wrapped" -- sh -c '"$1"; "$1" --no-dispatch' sh "$demo"

# A command buffer recorded six times before it runs: the copies of the recordings begun again
# are dropped, and the one that runs is captured.
check "a command buffer recorded again before it runs" 0 '3 of 3 selected' -- \
  "$capture" -o "$dir/rerecorded" -- "$demo" --rerecord=6

# Errors, each with its exit code.
check "a program that fails: its exit code, exit 4" 4 'capture_demo exited with code 3' -- \
  "$capture" -o "$dir/e1" -- "$demo" --exit=3
check "a program with no dispatch: exit 3" 3 'made no compute dispatch' -- \
  "$capture" -o "$dir/e2" -- "$demo" --no-dispatch
check "a program that is not a Vulkan program: exit 3" 3 'no Vulkan instance with the capture layer' -- \
  "$capture" -o "$dir/e3" -- true
check "a program that does not start: exit 4" 4 'cannot run ./no-such-program' -- \
  "$capture" -o "$dir/e4" -- ./no-such-program
check "a program past --timeout: exit 5" 5 'ran past --timeout=1 s' -- \
  "$capture" -o "$dir/e5" --timeout=1 -- "$demo" --sleep=30
[[ ! -e $dir/e5/.raw && ! -e $dir/e1/.raw ]] || { echo "FAIL: a failed capture left the layer's raw files"; fail=1; }
check "a program killed by a signal: exit 4" 4 'was killed by signal 9' -- \
  "$capture" -o "$dir/e10" -- sh -c 'kill -9 $$'
check "a bad selection: exit 2" 2 "'pipeline:x' is not a selection" -- \
  "$capture" -o "$dir/e6" --dispatches=pipeline:x -- "$demo"
check "a selection of nothing: exit 2" 2 "'pipeline:7' selects no dispatch" -- \
  "$capture" -o "$dir/e7" --dispatches=pipeline:7 -- "$demo"
check "a folder that is not empty: exit 2" 2 'the folder is not empty' -- "$capture" -o "$dir/c" -- "$demo"
check "no program: exit 2" 2 'no program' -- "$capture" -o "$dir/e8"
check "a bad --max-bytes: exit 2" 2 "--max-bytes: '12Q'" -- "$capture" -o "$dir/e9" --max-bytes=12Q -- "$demo"
exit $fail
