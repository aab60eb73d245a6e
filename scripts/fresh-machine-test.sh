#!/usr/bin/env bash
# Runs the README's commands on a fresh Debian 12 machine: bootstraps a minimal bookworm root
# (debootstrap --variant=minbase), clones this repository's HEAD into it (committed files only) and
# runs there, through chroot and as root: scripts/setup.sh, scripts/build.sh, scripts/test.sh, a
# short lavapipe run of scripts/bench.sh, and compare.py --report-only on that run's JSON.
#
# Only the minimal system is cached between runs (a tarball keyed by mirror, architecture,
# debootstrap version and month); csbench's packages are installed by scripts/setup.sh inside the
# root on every run, so no package installed by hand on this machine can hide a missing step.
# The Debian mirror and apt sources are this machine's own (/etc/apt/sources.list and
# /etc/apt/sources.list.d/*.list, *.sources).
#
# Usage: sudo scripts/fresh-machine-test.sh [options] [-- bench flags]
#   --out DIR        each phase's log and the bench run's JSON (default: build/fresh-machine)
#   --cache-dir DIR  where the minimal root's tarball is kept (default: /var/cache/csbench-fresh-root)
#   --no-cache       bootstrap anew and store nothing
#   --ccache DIR     compile through ccache, its cache in DIR on this machine. ccache is installed
#                    in the root after scripts/setup.sh has run, and ccache compiles from the
#                    headers present, so it cannot stand in for a missing package.
#   --mirror URL     the Debian mirror, where this machine's apt sources name none for bookworm
#   --work-dir DIR   where the root is unpacked (default: a new folder under /var/tmp)
#   --keep           leave the root on disk after the run (its mounts are removed all the same)
#   --verbose        print every phase's whole output, not only its closing lines
#   bench flags after -- replace the short run's default filter and minimum time
#
# Exit codes: 0 every phase passed; 1 a phase in the root failed (set-up, build, tests, bench or
# compare; its log's last lines are printed); 2 usage error (unknown option, not root);
# 3 the root could not be made (no mirror, debootstrap, apt sources, mount or clone failed);
# 130/143 interrupted.
set -euo pipefail

readonly suite=bookworm
# The quick set's reductions at 1080p: entries that the lavapipe baseline holds.
readonly default_bench_flags=(
  "--benchmark_filter=^reduction/((interleaved|sequential|unrolled)/wg16x16|prefetch2/wg8x16|prefetch4/wg4x16|subgroup/wg8x32|plain_loop)/domain1920x1080$"
  --benchmark_min_time=0.05)
readonly cache_format=1 # bump when the way the root is made changes
readonly root_checkout=/root/csbench

repo=$(cd "$(dirname "$0")/.." && pwd)
out_dir=$repo/build/fresh-machine
cache_dir=/var/cache/csbench-fresh-root
use_cache=1
ccache_dir=
mirror=
work_parent=/var/tmp
work_dir=
keep=0
verbose=0
bench_flags=("${default_bench_flags[@]}")

say() { echo "fresh-machine-test: $*"; }
die() { # die CODE MESSAGE
  echo "fresh-machine-test: error: $2" >&2
  exit "$1"
}
usage_error() {
  echo "fresh-machine-test: $1" >&2
  echo "usage: sudo $0 [--out DIR] [--cache-dir DIR] [--no-cache] [--ccache DIR] [--mirror URL]" \
    "[--work-dir DIR] [--keep] [--verbose] [-- bench flags]" >&2
  exit 2
}

while (($#)); do
  case $1 in
    --out | --cache-dir | --ccache | --mirror | --work-dir)
      (($# >= 2)) && [[ -n $2 ]] || usage_error "$1 needs a value"
      case $1 in
        --out) out_dir=$2 ;;
        --cache-dir) cache_dir=$2 ;;
        --ccache) ccache_dir=$2 ;;
        --mirror) mirror=$2 ;;
        --work-dir) work_parent=$2 ;;
      esac
      shift 2
      ;;
    --no-cache) use_cache=0 && shift ;;
    --keep) keep=1 && shift ;;
    --verbose) verbose=1 && shift ;;
    -h | --help)
      sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
      exit 0
      ;;
    --)
      shift
      (($#)) && bench_flags=("$@")
      break
      ;;
    *) usage_error "unknown option '$1'" ;;
  esac
done

((EUID == 0)) || usage_error "must run as root (debootstrap, mount and chroot need it): sudo $0"
[[ $(uname -s) == Linux ]] || die 3 "needs Linux (chroot, bind mounts)"

# --- timing -----------------------------------------------------------------------------------
timings=()
phase_start=0
phase_name= # the phase in progress
begin_phase() { # begin_phase NAME WHAT
  phase_start=$(date +%s)
  phase_name=$1
  say "== $1: $2"
}
end_phase() { # end_phase NAME RESULT
  local secs=$(($(date +%s) - phase_start))
  phase_name=
  timings+=("$(printf '%-12s %6d s  %s' "$1" "$secs" "$2")")
  say "phase $1: $2 in $secs s"
}
print_timings() {
  ((${#timings[@]})) || return 0
  say "phase timings:"
  printf '  %s\n' "${timings[@]}"
  say "total: $(($(date +%s) - script_start)) s"
}
script_start=$(date +%s)

# --- clean-up on every exit path ---------------------------------------------------------------
root=
mounts=() # mount points in the root, in the order they were made
bg_pid=   # the long-running command now in progress (see run_waiting)
# run_waiting LOG COMMAND...: runs COMMAND in the background, its output in LOG ("-": this
# script's output), and waits for it, so that SIGINT and SIGTERM reach this script's traps at
# once, not when COMMAND ends.
run_waiting() {
  local rc=0 log=$1
  shift
  if [[ $log == - ]]; then
    "$@" &
  else
    "$@" >"$log" 2>&1 &
  fi
  bg_pid=$!
  wait "$bg_pid" || rc=$?
  bg_pid=
  return "$rc"
}
mounts_under_root() {
  # Field 5 of mountinfo is the mount point (spaces escaped as \040, which a work dir never has).
  [[ -n $root ]] && awk -v r="$root" '$5 == r || index($5, r "/") == 1 { print $5 }' /proc/self/mountinfo
}
stop_root_processes() {
  # Processes left running in the root (an interrupted build or test): only ours live there.
  local pid link pids=()
  for link in /proc/[0-9]*/root; do
    pid=${link#/proc/}
    pid=${pid%/root}
    [[ $(readlink "$link" 2>/dev/null) == "$root" ]] && pids+=("$pid")
  done
  ((${#pids[@]})) || return 0
  say "stopping ${#pids[@]} process(es) still running in the root"
  kill -TERM "${pids[@]}" 2>/dev/null || true
  sleep 2
  for pid in "${pids[@]}"; do
    kill -KILL "$pid" 2>/dev/null || true
  done
}
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  set +e
  [[ -n $phase_name ]] && end_phase "$phase_name" "stopped (exit $rc)"
  if [[ -n $bg_pid ]]; then
    # debootstrap unmounts what it mounted in the root when it ends.
    kill -TERM "$bg_pid" 2>/dev/null
    wait "$bg_pid" 2>/dev/null
  fi
  if [[ -n $root && -d $root ]]; then
    stop_root_processes
    local i m
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
      umount -R "${mounts[i]}" 2>/dev/null || umount -R -l "${mounts[i]}" 2>/dev/null
    done
    for m in $(mounts_under_root | sort -r); do # anything else, deepest first
      umount -l "$m" 2>/dev/null
    done
    local left
    left=$(mounts_under_root)
    if [[ -n $left ]]; then
      echo "fresh-machine-test: error: still mounted, so $work_dir is left on disk:" >&2
      echo "$left" >&2
      ((rc == 0)) && rc=3
    elif ((keep)); then
      say "root kept in $root"
    else
      begin_phase clean-up "remove $work_dir"
      rm -rf --one-file-system "$work_dir"
      end_phase clean-up ok
    fi
  fi
  print_timings
  if ((rc == 0)); then
    say "PASSED"
  else
    say "FAILED (exit $rc)$([[ -d $out_dir ]] && echo "; logs in $out_dir")"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the mirror ---------------------------------------------------------------------------------
# Prints the URI of each enabled "deb" source of this machine that serves suite $1, one-line format
# (sources.list, *.list) first, then deb822 (*.sources).
host_mirrors() {
  local files=() f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [[ -r $f ]] && files+=("$f")
  done
  ((${#files[@]})) && awk -v suite="$1" '
    { sub(/#.*/, "") }
    $1 == "deb" {
      i = 2
      if ($i ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
      if ($(i + 1) == suite) print $i
    }' "${files[@]}"
  files=()
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -r $f ]] && files+=("$f")
  done
  ((${#files[@]})) && awk -v suite="$1" '
    function flush(   n, i, s, u) {
      if (types ~ /(^| )deb( |$)/ && tolower(enabled) != "no") {
        n = split(suites, s, " ")
        for (i = 1; i <= n; i++) if (s[i] == suite) { split(uris, u, " "); print u[1]; break }
      }
      types = uris = suites = enabled = ""; key = ""
    }
    /^[ \t]*#/ { next }
    /^[ \t]*$/ { flush(); next }
    /^[ \t]/ { if (key == "types") types = types " " $0; else if (key == "uris") uris = uris " " $0;
               else if (key == "suites") suites = suites " " $0; next }
    {
      key = tolower($0); sub(/:.*/, "", key)
      value = $0; sub(/^[^:]*:[ \t]*/, "", value)
      if (key == "types") types = value; else if (key == "uris") uris = value
      else if (key == "suites") suites = value; else if (key == "enabled") enabled = value
    }
    END { flush() }' "${files[@]}"
  return 0
}

if [[ -z $mirror ]]; then
  mirror=$(host_mirrors "$suite" | grep -E '^https?://' | head -n 1 || true)
  [[ -n $mirror ]] || die 3 "no enabled 'deb' source for $suite over http(s) in /etc/apt/sources.list or /etc/apt/sources.list.d/; pass --mirror URL"
fi
arch=$(dpkg --print-architecture 2>/dev/null || true)
[[ -n $arch ]] || die 3 "dpkg not found: this script bootstraps Debian from a Debian-like machine"
say "mirror $mirror ($suite, $arch); repository $repo at $(git -C "$repo" rev-parse --short=12 HEAD)"
if [[ -n $(git -C "$repo" status --porcelain --untracked-files=no) ]]; then
  say "note: uncommitted changes are not tested (the root gets a clone of HEAD)"
fi

# --- host tools -----------------------------------------------------------------------------------
if ! command -v debootstrap >/dev/null || [[ ! -e /usr/share/keyrings/debian-archive-keyring.gpg ]]; then
  command -v apt-get >/dev/null || die 3 "debootstrap is missing and apt-get is not there to install it"
  say "installing debootstrap and debian-archive-keyring on this machine"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq || die 3 "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    debootstrap debian-archive-keyring || die 3 "could not install debootstrap"
fi
for tool in chroot git mount tar; do
  command -v "$tool" >/dev/null || die 3 "$tool not found on this machine"
done

mkdir -p "$out_dir" "$work_parent" || die 3 "cannot create $out_dir or $work_parent"
out_dir=$(cd "$out_dir" && pwd)
rm -f "$out_dir"/*.log "$out_dir"/bench.json
work_dir=$(mktemp -d "$work_parent/csbench-fresh.XXXXXX") || die 3 "cannot create a folder in $work_parent"
root=$(cd "$work_dir" && pwd -P)/root # as /proc/PID/root shows it (see stop_root_processes)
mkdir "$root"

# --- the minimal root: from the cache, else debootstrap ------------------------------------------
debootstrap_flags=(--variant=minbase "--arch=$arch")
# minbase has no CA certificates, which apt needs to fetch over https.
[[ $mirror == https://* ]] && debootstrap_flags+=(--include=ca-certificates)
key=$(printf '%s\n' "$cache_format" "$suite" "$arch" "$mirror" "${debootstrap_flags[*]}" \
  "$(debootstrap --version 2>/dev/null)" | sha256sum | cut -c1-12)
tarball=$cache_dir/minbase-$suite-$arch-$(date +%Y-%m)-$key.tar
if ((use_cache)) && [[ -f $tarball ]]; then
  begin_phase restore "$tarball"
  run_waiting "$out_dir/restore.log" tar -xpf "$tarball" -C "$root" --numeric-owner || die 3 "cannot unpack $tarball (log: $out_dir/restore.log; delete the tarball to bootstrap anew)"
  find "$root/var/cache/apt/archives" -maxdepth 1 -name '*.deb' -delete # from older tarballs
  end_phase restore ok
else
  begin_phase debootstrap "${debootstrap_flags[*]} $suite $mirror"
  if ! run_waiting "$out_dir/debootstrap.log" debootstrap "${debootstrap_flags[@]}" "$suite" "$root" "$mirror"; then
    tail -n 30 "$out_dir/debootstrap.log" >&2
    die 3 "debootstrap failed (log: $out_dir/debootstrap.log)"
  fi
  # debootstrap leaves the packages it installed in apt's cache; the root needs none of them.
  find "$root/var/cache/apt/archives" -maxdepth 1 -name '*.deb' -delete
  if ((use_cache)); then
    # The tarball holds the minimal system only, written before anything of csbench's is added.
    mkdir -p "$cache_dir" || die 3 "cannot create $cache_dir"
    tmp_tar=$(mktemp "$cache_dir/.partial.XXXXXX")
    if run_waiting "$out_dir/cache.log" tar -cpf "$tmp_tar" -C "$root" --numeric-owner . && mv "$tmp_tar" "$tarball"; then
      find "$cache_dir" -maxdepth 1 -name "minbase-$suite-$arch-*.tar" ! -path "$tarball" -delete
      say "cached the minimal root as $tarball"
    else
      rm -f "$tmp_tar"
      say "warning: could not cache the minimal root in $cache_dir"
    fi
  fi
  end_phase debootstrap ok
fi

# --- apt sources, DNS, mounts, the clone -----------------------------------------------------------
begin_phase prepare "apt sources, mounts, clone of HEAD"
# apt in the root uses this machine's sources, and the keyrings they name.
rm -f "$root/etc/apt/sources.list" "$root"/etc/apt/sources.list.d/*
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources \
  /etc/apt/trusted.gpg /etc/apt/trusted.gpg.d/*; do
  if [[ -f $f ]]; then
    mkdir -p "$(dirname "$root$f")" && cp -p "$f" "$root$f"
  fi
done
for keyring in $(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
  grep -oiE '(signed-by[:=][[:space:]]*)/[^] ,]+' | sed -E 's/^[^/]*//' | sort -u); do
  if [[ -f $keyring && ! -e $root$keyring ]]; then
    mkdir -p "$(dirname "$root$keyring")" && cp -p "$keyring" "$root$keyring"
  fi
done
# The root is thrown away, so dpkg need not sync every file it unpacks (minutes on a busy disk).
echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/fresh-machine-test-unsafe-io"
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || say "warning: no /etc/resolv.conf to copy"

mount_in_root() { # mount_in_root TARGET MOUNT-ARGS...
  local target=$root$1
  shift
  mkdir -p "$target"
  mount "$@" "$target" || die 3 "mount $* $target failed"
  mounts+=("$target")
}
mount_in_root /proc -t proc proc
mount_in_root /dev --rbind /dev
mount --make-rslave "$root/dev" || die 3 "cannot make $root/dev a slave mount"
mount_in_root /sys --rbind /sys
mount --make-rslave "$root/sys" || die 3 "cannot make $root/sys a slave mount"
chroot_env=(HOME=/root "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
  LANG=C.UTF-8 TERM=dumb "CI=${CI:-}")
for v in http_proxy https_proxy no_proxy; do
  [[ -n ${!v:-} ]] && chroot_env+=("$v=${!v}")
done
if [[ -n $ccache_dir ]]; then
  mkdir -p "$ccache_dir" || die 3 "cannot create $ccache_dir"
  mount_in_root /var/cache/csbench-ccache --bind "$ccache_dir"
  chroot_env+=(CCACHE_DIR=/var/cache/csbench-ccache CCACHE_MAXSIZE=2G CMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

head=$(git -C "$repo" rev-parse HEAD)
git clone -q --no-hardlinks "$repo" "$root$root_checkout" >"$out_dir/clone.log" 2>&1 &&
  git -C "$root$root_checkout" checkout -q --detach "$head" >>"$out_dir/clone.log" 2>&1 ||
  die 3 "git clone of $repo into the root failed: $(cat "$out_dir/clone.log")"
end_phase prepare ok

# --- the phases inside the root ------------------------------------------------------------------
in_root() { # in_root COMMAND...: runs in the clone, as root, with a clean environment and no stdin
  chroot "$root" /usr/bin/env -i "${chroot_env[@]}" /bin/bash -c 'cd "$0" && exec "$@"' \
    "$root_checkout" "$@" </dev/null
}
in_root_teed() { # in_root_teed LOG COMMAND...
  local log=$1
  shift
  in_root "$@" 2>&1 | tee "$log"
}
# run_phase NAME SHOWN COMMAND...: runs COMMAND in the root, its output in $out_dir/NAME.log.
# SHOWN says what of the log is printed on success: "tail", "all" or a sed address range.
run_phase() {
  local name=$1 shown=$2 log=$out_dir/$1.log rc=0
  shift 2
  begin_phase "$name" "$*"
  if ((verbose)); then
    run_waiting - in_root_teed "$log" "$@" || rc=$?
  else
    run_waiting "$log" in_root "$@" || rc=$?
  fi
  if ((rc != 0)); then
    ((verbose)) || { echo "--- last lines of $log:"; tail -n 150 "$log"; echo "---"; }
    end_phase "$name" "FAILED (exit $rc)"
    say "error: '$*' failed in the fresh root with exit $rc"
    exit 1
  fi
  if ((!verbose)); then
    case $shown in
      all) cat "$log" ;;
      tail) tail -n 3 "$log" ;;
      *) sed -n "$shown" "$log" ;;
    esac
  fi
  end_phase "$name" ok
}

run_phase setup tail scripts/setup.sh
if [[ -n $ccache_dir ]]; then
  # After set-up, so that nothing ccache brings with it can stand in for a package setup.sh lacks.
  run_phase ccache tail env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ccache
  in_root ccache --zero-stats >/dev/null
fi
run_phase build tail scripts/build.sh
if [[ -n $ccache_dir ]]; then
  in_root ccache --show-stats | grep -iE '^ *(hits|misses|cache hit|cache miss)' | sed 's/^/  ccache: /' || true
fi
# test.sh runs setup.sh and build.sh again (both must then have nothing to do) and ctest.
run_phase test '/tests passed/,$p' scripts/test.sh
run_phase bench tail scripts/bench.sh "${bench_flags[@]}" \
  --benchmark_out=build/fresh-machine-bench.json --benchmark_out_format=json
cp "$root$root_checkout/build/fresh-machine-bench.json" "$out_dir/bench.json"
run_phase compare all python3 scripts/compare.py build/fresh-machine-bench.json --report-only --markdown
