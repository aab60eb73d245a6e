#!/usr/bin/env bash
# Finds the first csbench revision that made benchmarks slower, with git bisect and compare.py.
#
# Usage: scripts/bisect.sh [options] GOOD BAD FILTER [bench flags]
#   Run it inside the checkout whose history to search. GOOD and BAD are revisions (GOOD an
#   ancestor of BAD); FILTER is the bench's --benchmark_filter (a regular expression); bench flags
#   go to every bench run (e.g. --benchmark_min_time=0.01).
#   GOOD is built and run first, then BAD, which must be slower than GOOD by compare.py's verdict.
#   Then git bisect visits the revisions between them: each is built, run with FILTER and compared
#   with GOOD's run (compare.py RUN --baseline GOOD-RUN). A revision is bad when compare.py says
#   SLOWER for a matching benchmark (exit 1), good when it says none is (exit 0), and skipped
#   (git bisect skip, and said so) when it does not build, its bench fails or compare.py finds
#   bad input. The end names the first slow revision: its hash, subject and SLOWER benchmarks.
#   Everything happens in a temporary worktree (git worktree add --detach) with its own build/:
#   the checkout's files, index, branch and bisect state are never touched; the worktree is
#   removed at the end, also after an error or Ctrl-C. The worktree's build/ is reused from one
#   revision to the next, so each step rebuilds only what changed. The worktree lies in $TMPDIR
#   (/tmp where unset): point TMPDIR at a disk with room for a build.
#
# Options:
#   --repetitions N      repetitions of each benchmark in every run (default 9; at least 4, below
#                        which compare.py has no U test and cannot say SLOWER)
#   --build-cmd CMD      how to build a revision: a bash command run in the worktree's top folder
#                        (default $CSBENCH_BISECT_BUILD, else csbench's Release build of the bench
#                        target into build/ with cmake, as scripts/build.sh builds it, less
#                        scripts/setup.sh: install the packages once beforehand, since a step
#                        must never stop at sudo's password prompt)
#   --bench-cmd CMD      how to run it: a bash command run in the worktree's top folder, to which
#                        the bench flags are appended (--benchmark_filter=FILTER
#                        --benchmark_repetitions=N --benchmark_out=FILE
#                        --benchmark_out_format=json, then yours); default $CSBENCH_BISECT_BENCH,
#                        else build/bench. It exits 0, or 1 where a benchmark failed its check
#                        (the others are measured); anything else counts as a failed run.
#   --compare-flags FLAGS  more compare.py flags, split at spaces, e.g. "--fail-on device-timed"
#                        or "--threshold 3"
#   --out DIR            keep every run (good.json, bad.json, <12-digit hash>.json), build and
#                        bench log, compare.py report and the bisect log in DIR (default: a
#                        temporary folder, removed; without it a failure shows its log's last lines)
#   -h, --help           this text
# Both commands get CSBENCH_BISECT_REVISION (the full hash being built or run) and
# CSBENCH_BISECT_WORKTREE in their environment; the bench also gets CSBENCH_KERNEL_DIR set to the
# worktree's kernels/, so that a CSBENCH_KERNEL_DIR of your shell never feeds it another
# revision's kernels (a bench command can set it otherwise). Their stdin is /dev/null, git runs
# with no pager, editor, hooks or terminal prompts: nothing waits for an answer. compare.py is
# this checkout's own, and so are the stored baselines it takes a process spread from.
#
# Exit status: 0 the first slow revision was found (named on the last lines);
#   1 no single revision: skipped revisions (unbuildable or failing) next to the change leave
#     several candidates, listed; or git bisect stopped in a way this script does not know;
#   2 bad usage or input: an unknown option or revision, GOOD not an ancestor of BAD, not in a
#     git checkout, FILTER matching no benchmark at GOOD, the bench refusing its flags (exit 2),
#     or compare.py finding bad input between GOOD and BAD;
#   3 BAD is not slower than GOOD: compare.py finds no SLOWER benchmark, nothing to bisect;
#   4 GOOD or BAD does not build, or its bench run fails;
#   130 (143) stopped by Ctrl-C (SIGTERM), after cleaning up.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
me=bisect
compare=(/usr/bin/python3 "$root/scripts/compare.py")

usage() {  # the header's comment from Usage on
  sed -n '/^# Usage/,/^[^#]/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
}
fail() {  # fail STATUS MESSAGE...: the message on stderr, then exit
  local status=$1
  shift
  printf '%s: %s\n' "$me" "$*" >&2
  exit "$status"
}
say() { printf '%s: %s\n' "$me" "$*"; }

# ---------------------------------------------------------------- command line
reps=9
build_cmd=${CSBENCH_BISECT_BUILD:-}
bench_cmd=${CSBENCH_BISECT_BENCH:-}
compare_flags=()
out=
while (($# > 0)); do
  case $1 in
    -h | --help) usage; exit 0 ;;
    --repetitions | --build-cmd | --bench-cmd | --compare-flags | --out)
      (($# >= 2)) || fail 2 "$1 needs a value (--help)"
      set -- "$1=$2" "${@:3}"
      continue ;;
    --repetitions=*) reps=${1#*=} ;;
    --build-cmd=*) build_cmd=${1#*=} ;;
    --bench-cmd=*) bench_cmd=${1#*=} ;;
    --compare-flags=*) read -ra compare_flags <<<"${1#*=}" ;;
    --out=*) out=${1#*=} ;;
    --) shift; break ;;
    -*) fail 2 "unknown option $1 (--help); bench flags go after FILTER" ;;
    *) break ;;
  esac
  shift
done
(($# >= 3)) || fail 2 "usage: scripts/bisect.sh [options] GOOD BAD FILTER [bench flags] (--help)"
good_arg=$1 bad_arg=$2 filter=$3
shift 3
bench_flags=("$@")
if ! [[ $reps =~ ^[0-9]+$ ]] || ((reps < 4)); then
  fail 2 "--repetitions $reps: want a whole number of at least 4 (compare.py's U test needs 4)"
fi
[[ -n $filter ]] || fail 2 "FILTER is empty: name the benchmarks to compare"
# shellcheck disable=SC2016  # expanded by the bash that runs the build, in the worktree
default_build='cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null &&
  cmake --build build --target bench -j "$(nproc)"'
[[ -n $build_cmd ]] || build_cmd=$default_build
[[ -n $bench_cmd ]] || bench_cmd=build/bench

# Nothing may wait for a person: no pager, editor, hooks (their own prompts) or credentials.
export GIT_PAGER=cat PAGER=cat GIT_EDITOR=true GIT_TERMINAL_PROMPT=0 GIT_ASKPASS=true
g() { LC_ALL=C git -c core.hooksPath=/dev/null -c advice.detachedHead=false "$@" </dev/null; }

repo=$(g rev-parse --show-toplevel 2>/dev/null) ||
  fail 2 "$(pwd) is not in a git checkout: run scripts/bisect.sh inside the one to search"
# From here on git is told where to work (-C): a GIT_INDEX_FILE or GIT_DIR of the caller (a hook,
# say) must not lead the worktree's commands to the checkout's own index.
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
resolve() {  # resolve REV: its full commit hash, or exit 2
  g -C "$repo" rev-parse --verify --quiet --end-of-options "$1^{commit}" ||
    fail 2 "unknown revision '$1' (not a commit of $repo)"
}
good=$(resolve "$good_arg") || exit
bad=$(resolve "$bad_arg") || exit
[[ $good != "$bad" ]] || fail 2 "GOOD and BAD are the same commit ($good)"
g -C "$repo" merge-base --is-ancestor "$good" "$bad" ||
  fail 2 "GOOD ($good_arg) is not an ancestor of BAD ($bad_arg): give an older GOOD"
describe() {  # describe REV: short hash and subject, cut to one line of a terminal
  local line
  line=$(g -C "$repo" log -1 --format='%h %s' "$1")
  ((${#line} > 80)) && line="${line:0:77}..."
  printf '%s\n' "$line"
}

# ---------------------------------------------------------------- worktree and cleanup
work=$(mktemp -d "${TMPDIR:-/tmp}/csbench-bisect.XXXXXX") || fail 2 "cannot make a temporary folder"
tree=$work/tree
keep=false
if [[ -n $out ]]; then
  mkdir -p "$out" || fail 2 "cannot make --out $out"
  out=$(cd "$out" && pwd)
  keep=true
else
  out=$work/runs
  mkdir -p "$out"
fi
bisecting=false
# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() {
  trap '' INT TERM  # a second Ctrl-C must not leave the worktree half removed
  if [[ -d $tree ]]; then
    $bisecting && g -C "$tree" bisect reset >/dev/null 2>&1
    g -C "$repo" worktree remove --force "$tree" >/dev/null 2>&1 ||
      { rm -rf "$tree"; g -C "$repo" worktree prune >/dev/null 2>&1; }
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'echo >&2; fail 130 "stopped (Ctrl-C); the worktree is removed, the checkout untouched"' INT
trap 'fail 143 "stopped (SIGTERM); the worktree is removed, the checkout untouched"' TERM

g -C "$repo" worktree add --detach "$tree" "$good" >"$out/worktree.log" 2>&1 ||
  fail 2 "git worktree add failed: $(tail -n 3 "$out/worktree.log")"

# ---------------------------------------------------------------- one revision
# A step that fails sets `why` to a one-line reason and `log` to the file that says more.
why=
log=
tell() {  # tell: the last lines of `log`, and where it is kept (a temporary one is removed)
  [[ -s $log ]] && tail -n 5 "$log" | sed 's/^/  | /'
  $keep && echo "  (all of it in $log)"
  return 0
}
build() {  # build LABEL: build the worktree's revision, log in OUT/LABEL-build.log
  local rev
  log=$out/$1-build.log
  rev=$(g -C "$tree" rev-parse HEAD)
  (cd "$tree" && CSBENCH_BISECT_REVISION=$rev CSBENCH_BISECT_WORKTREE=$tree \
    bash -c "$build_cmd") </dev/null >"$log" 2>&1
  local rc=$?
  ((rc == 0)) && return 0
  why="does not build (exit $rc)"
  return 1
}

run_bench() {  # run_bench LABEL: OUT/LABEL.json of the worktree's revision; 2 when the bench refused its flags
  local json=$out/$1.json rev rc
  log=$out/$1-bench.log
  rev=$(g -C "$tree" rev-parse HEAD)
  rm -f "$json"
  (cd "$tree" && CSBENCH_BISECT_REVISION=$rev CSBENCH_BISECT_WORKTREE=$tree \
    CSBENCH_KERNEL_DIR=$tree/kernels bash -c "$bench_cmd"' "$@"' bench \
    --benchmark_filter="$filter" --benchmark_repetitions="$reps" \
    --benchmark_out="$json" --benchmark_out_format=json "${bench_flags[@]}") </dev/null >"$log" 2>&1
  rc=$?
  if ((rc != 0 && rc != 1)); then
    why="its bench failed (exit $rc)"
    ((rc == 2)) && return 2
    return 1
  fi
  # A run is usable when it is a JSON with a measured benchmark and was not interrupted.
  why=$(/usr/bin/python3 -c '
import json, sys
try:
    with open(sys.argv[1], encoding="utf-8") as f:
        data = json.load(f)
    entries = [b for b in data["benchmarks"] if b.get("run_type") != "aggregate"]
    interrupted = str(data.get("context", {}).get("interrupted", "false")).lower() == "true"
except FileNotFoundError:
    sys.exit("its bench wrote no run (no --benchmark_out file)")
except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
    sys.exit(f"its bench wrote no readable run ({type(e).__name__}: {e})")
if interrupted:
    sys.exit("its bench run was interrupted")
if not entries:
    sys.exit("its bench ran no benchmark")' "$json" 2>&1)
}

slower=()
verdict() {  # verdict LABEL: compare OUT/LABEL.json with GOOD's run; compare.py's exit status
  local report=$out/$1-vs-good.txt rc
  log=$report
  "${compare[@]}" "$out/$1.json" --baseline "$out/good.json" "${compare_flags[@]}" \
    </dev/null >"$report" 2>&1
  rc=$?
  # The summary's "SLOWER on DEVICE [KEY]: NAME ..." lines of a failing class name the benchmarks.
  mapfile -t slower < <(grep -E '^SLOWER on ' "$report" | grep -v '; not failing: ' |
    sed -E 's/^SLOWER on .*\]: ([^ ]+) .*/\1/')
  ((rc == 2)) && why="compare.py found bad input"
  return "$rc"
}
slower_list() {
  local IFS=,
  printf '%s' "${slower[*]}" | sed 's/,/, /g'
}

# ---------------------------------------------------------------- GOOD and BAD
die() {  # die STATUS MESSAGE...: fail, with the last lines of the step's log
  printf '%s: %s\n' "$me" "${*:2}" >&2
  tell >&2
  exit "$1"
}
say "GOOD $(describe "$good")"
say "BAD  $(describe "$bad")"
say "FILTER $filter, $reps repetitions"
$keep && say "runs and logs in $out"
say "building and running GOOD"
build good || die 4 "GOOD $why"
run_bench good
case $? in
  0) ;;
  2) die 2 "GOOD: $why: check FILTER and the bench flags" ;;
  *) [[ $why == "its bench ran no benchmark" ]] && die 2 "FILTER '$filter' matches no benchmark at GOOD"
     die 4 "GOOD: $why" ;;
esac

say "building and running BAD"
log=$out/worktree.log
g -C "$tree" checkout -q --detach "$bad" >>"$log" 2>&1 || die 4 "cannot check BAD out in the worktree"
build bad || die 4 "BAD $why"
run_bench bad || die 4 "BAD: $why"
verdict bad
case $? in
  1) say "BAD is slower than GOOD: $(slower_list)" ;;
  0) printf '%s: %s\n' "$me" "BAD is not slower than GOOD: compare.py finds no SLOWER benchmark matching '$filter'; nothing to bisect" >&2
     grep -E '^(verdicts|process spread|UNSURE|FASTER)' "$out/bad-vs-good.txt" | sed 's/^/  | /' >&2
     $keep && echo "  (all of it in $out/bad-vs-good.txt)" >&2
     exit 3 ;;
  *) die 2 "BAD against GOOD: $why" ;;
esac
bad_slower=$(slower_list)

# ---------------------------------------------------------------- the bisection
# git bisect's own words (LC_ALL=C) say when it is done; anything else leaves HEAD on the next
# revision to test, named on the output's last line.
bisecting=true
output=$(g -C "$tree" bisect start "$bad" "$good" 2>&1)
declare -A slower_at=(["$bad"]=$bad_slower) skipped=()
skipped_in_order=()
step=0
while :; do
  if grep -q 'is the first bad commit' <<<"$output"; then
    culprit=$(grep -m1 'is the first bad commit' <<<"$output" | cut -d' ' -f1)
    break
  fi
  if grep -q "only 'skip'ped commits left" <<<"$output"; then
    g -C "$tree" bisect log >"$out/bisect.log" 2>&1
    say "no single revision: skipped revisions leave several candidates for the first slow one:"
    sed -n '/could be any of:/,$p' <<<"$output" | sed 1d | grep -oE '^[0-9a-f]{40}' |
      while read -r hash; do
        if [[ -n ${skipped[$hash]:-} ]]; then
          echo "  $(describe "$hash") (skipped: ${skipped[$hash]})"
        elif [[ -n ${slower_at[$hash]:-} ]]; then
          echo "  $(describe "$hash") (SLOWER: ${slower_at[$hash]})"
        else
          echo "  $(describe "$hash") (not tested)"
        fi
      done
    exit 1
  fi
  rev=$(g -C "$tree" rev-parse HEAD)
  if ! grep -q "^\[$rev\]" <<<"$output"; then
    say "git bisect stopped unexpectedly:"
    printf '%s\n' "$output" | sed 's/^/  /'
    exit 1
  fi
  step=$((step + 1))
  label=${rev:0:12}
  what="step $step: $(describe "$rev")"
  mark=skip
  if build "$label" && run_bench "$label"; then
    verdict "$label"
    case $? in
      1) mark=bad
         slower_at[$rev]=$(slower_list)
         say "$what: SLOWER ($(slower_list)): bad" ;;
      0) mark=good
         say "$what: not slower: good" ;;
    esac
  fi
  if [[ $mark == skip ]]; then
    say "$what: $why: skipped (git bisect skip)"
    tell
    skipped[$rev]=$why
    skipped_in_order+=("$rev")
  fi
  # A build may touch tracked files; the next checkout must not stop at them.
  g -C "$tree" reset -q --hard >/dev/null 2>&1
  output=$(g -C "$tree" bisect "$mark" 2>&1)
done

g -C "$tree" bisect log >"$out/bisect.log" 2>&1
for rev in "${skipped_in_order[@]}"; do
  say "skipped on the way: $(describe "$rev") (${skipped[$rev]})"
done
say "first slow revision: $(g -C "$repo" log -1 --format='%H %s' "$culprit")"
say "SLOWER there than GOOD: ${slower_at[$culprit]:-}"
exit 0
