# Sourced by the command-line tests: check <description> <expected exit code> <pattern> -- command...
# runs the command, and prints "ok: ..." when it exits with that code and its output (stdout and
# stderr) matches the extended regex; otherwise "FAIL: ...", the output's end, and sets fail=1.
fail=0
# Besides check, what each of these tests has: root, the checkout; python, the interpreter the
# scripts are tested with; dir, a scratch folder removed when the test exits.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
python=/usr/bin/python3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
check() {
  local what=$1 want_rc=$2 pattern=$3
  shift 4
  out=$("$@" 2>&1)
  rc=$?
  if [[ $rc -ne $want_rc ]] || ! grep -qE -- "$pattern" <<<"$out"; then
    echo "FAIL: $what (exit $rc, want $want_rc; want /$pattern/):"
    echo "$out" | tail -20
    fail=1
  else
    echo "ok: $what"
  fi
}
# add_one FILE BYTE: the little-endian 32-bit float at BYTE of FILE made one larger, in place (an
# expected file altered by one element, which a replay must fail on).
add_one() {
  $python -c "
import struct, sys
path, at = sys.argv[1], int(sys.argv[2])
data = bytearray(open(path, 'rb').read())
data[at:at + 4] = struct.pack('<f', struct.unpack('<f', data[at:at + 4])[0] + 1.0)
open(path, 'wb').write(data)" "$1" "$2"
}
