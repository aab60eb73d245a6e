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
