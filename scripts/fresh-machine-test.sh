#!/usr/bin/env bash
# Runs the README's commands on a fresh Debian machine of either supported release: bootstraps a
# minimal root (debootstrap --variant=minbase), clones this repository's HEAD into it (committed
# files only) and runs there, through chroot and as root: scripts/setup.sh, scripts/build.sh,
# scripts/test.sh, a short lavapipe run of scripts/bench.sh, compare.py --report-only on that
# run's JSON, then the installed copy: `cmake --install` into a prefix, run from /tmp, and the
# Debian package CPack builds, installed with apt into a second fresh root of the same release
# (so that its dependencies are the package's own, not what the build installed) and run there.
#
# Only the minimal system is cached between runs (a tarball keyed by release, mirror,
# architecture, debootstrap version and month); csbench's packages are installed by
# scripts/setup.sh inside the root on every run, so no package installed by hand on this machine
# can hide a missing step. The root's apt sources name the release's main, updates and security
# suites on this machine's Debian mirrors (the first http(s) URI of its apt sources that serves a
# Debian suite, and the one that serves its security suite).
#
# Usage: sudo scripts/fresh-machine-test.sh [options] [-- bench flags]
#   --release R      the Debian release: 12 or bookworm (default), 13 or trixie
#   --no-devpts      no /dev/pts in the root, as in many containers: no pseudo-terminal can be
#                    made there, and the tests that need one must skip, saying why
#   --no-package     skip the CPack package and its second root
#   --out DIR        each phase's log and the bench run's JSON (default: build/fresh-machine)
#   --cache-dir DIR  where the minimal root's tarball is kept (default: /var/cache/csbench-fresh-root)
#   --no-cache       bootstrap anew and store nothing
#   --ccache DIR     compile through ccache, its cache in DIR on this machine. ccache is installed
#                    in the root after scripts/setup.sh has run, and ccache compiles from the
#                    headers present, so it cannot stand in for a missing package.
#   --mirror URL     the Debian mirror, where this machine's apt sources name none
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

# The quick set's reductions at 1080p: entries that the lavapipe baselines hold.
readonly default_bench_flags=(
  "--benchmark_filter=^reduction/((interleaved|sequential|unrolled)/wg16x16|prefetch2/wg8x16|prefetch4/wg4x16|subgroup/wg8x32|plain_loop)/domain1920x1080$"
  --benchmark_min_time=0.05)
# What the installed copies run from /tmp: one GPU benchmark and its check.
readonly installed_filter='^reduction/sequential/wg16x16/domain1920x1080$'
readonly cache_format=1 # bump when the way the root is made changes
readonly root_checkout=/root/csbench
readonly install_prefix=/opt/csbench

suite=bookworm
devpts=1
package=1

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
  echo "usage: sudo $0 [--release 12|13] [--no-devpts] [--no-package] [--out DIR] [--cache-dir DIR]" \
    "[--no-cache] [--ccache DIR] [--mirror URL] [--work-dir DIR] [--keep] [--verbose] [-- bench flags]" >&2
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
    --release)
      (($# >= 2)) && [[ -n $2 ]] || usage_error "$1 needs a value"
      case $2 in
        12 | bookworm) suite=bookworm ;;
        13 | trixie) suite=trixie ;;
        *) usage_error "--release: '$2' is not a supported release (12, bookworm, 13, trixie)" ;;
      esac
      shift 2
      ;;
    --no-devpts) devpts=0 && shift ;;
    --no-package) package=0 && shift ;;
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
root=     # the root the README's commands run in
pkg_root= # the second root, where the package is installed (empty until made)
mounts=() # mount points in the roots, in the order they were made
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
mounts_under() { # mounts_under ROOT
  # Field 5 of mountinfo is the mount point (spaces escaped as \040, which a work dir never has).
  [[ -n $1 ]] && awk -v r="$1" '$5 == r || index($5, r "/") == 1 { print $5 }' /proc/self/mountinfo
}
stop_processes_in() { # stop_processes_in ROOT
  # Processes left running in the root (an interrupted build or test): only ours live there.
  local pid link pids=()
  for link in /proc/[0-9]*/root; do
    pid=${link#/proc/}
    pid=${pid%/root}
    [[ $(readlink "$link" 2>/dev/null) == "$1" ]] && pids+=("$pid")
  done
  ((${#pids[@]})) || return 0
  say "stopping ${#pids[@]} process(es) still running in $1"
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
    local r i m left=
    for r in "$root" "$pkg_root"; do
      [[ -n $r && -d $r ]] && stop_processes_in "$r"
    done
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
      umount -R "${mounts[i]}" 2>/dev/null || umount -R -l "${mounts[i]}" 2>/dev/null
    done
    for r in "$root" "$pkg_root"; do
      for m in $(mounts_under "$r" | sort -r); do # anything else, deepest first
        umount -l "$m" 2>/dev/null
      done
      left+=$(mounts_under "$r")
    done
    if [[ -n $left ]]; then
      echo "fresh-machine-test: error: still mounted, so $work_dir is left on disk:" >&2
      echo "$left" >&2
      ((rc == 0)) && rc=3
    elif ((keep)); then
      say "roots kept in $work_dir"
    else
      begin_phase clean-up "remove $work_dir"
      rm -rf --one-file-system "$work_dir"
      end_phase clean-up ok
    fi
  fi
  print_timings
  if ((rc == 0)); then
    say "PASSED ($suite)"
  else
    say "FAILED ($suite, exit $rc)$([[ -d $out_dir ]] && echo "; logs in $out_dir")"
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

# Debian's release names, to find this machine's Debian mirrors among its apt sources whatever
# release it runs itself.
readonly debian_suites=(bullseye bookworm trixie forky sid stable testing oldstable unstable)
first_http_mirror() { # first_http_mirror SUFFIX: the first http(s) URI serving <release>SUFFIX
  local s
  for s in "${debian_suites[@]}"; do
    host_mirrors "$s$1"
  done | grep -E '^https?://' | head -n 1 || true
}
if [[ -z $mirror ]]; then
  mirror=$(first_http_mirror "")
  [[ -n $mirror ]] || die 3 "no enabled 'deb' source of a Debian release over http(s) in /etc/apt/sources.list or /etc/apt/sources.list.d/; pass --mirror URL"
fi
security_mirror=$(first_http_mirror -security)
arch=$(dpkg --print-architecture 2>/dev/null || true)
[[ -n $arch ]] || die 3 "dpkg not found: this script bootstraps Debian from a Debian-like machine"
say "Debian $suite ($arch) from $mirror${security_mirror:+, security updates from $security_mirror}; repository $repo at $(git -C "$repo" rev-parse --short=12 HEAD)"
if [[ -n $(git -C "$repo" status --porcelain --untracked-files=no) ]]; then
  say "note: uncommitted changes are not tested (the root gets a clone of HEAD)"
fi

# --- host tools -----------------------------------------------------------------------------------
# The keyring that signs the release: debian-archive-keyring of an older machine may predate it.
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
if ! command -v debootstrap >/dev/null || [[ ! -e $keyring ]] ||
  [[ ! -e /usr/share/keyrings/debian-archive-$suite-stable.gpg && $suite != bookworm ]]; then
  command -v apt-get >/dev/null || die 3 "debootstrap is missing and apt-get is not there to install it"
  say "installing debootstrap and debian-archive-keyring on this machine"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq || die 3 "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    debootstrap debian-archive-keyring || die 3 "could not install debootstrap"
fi
[[ -e /usr/share/debootstrap/scripts/$suite ]] || die 3 "this machine's debootstrap does not know $suite; update debootstrap"
for tool in chroot git mount tar; do
  command -v "$tool" >/dev/null || die 3 "$tool not found on this machine"
done

mkdir -p "$out_dir" "$work_parent" || die 3 "cannot create $out_dir or $work_parent"
out_dir=$(cd "$out_dir" && pwd)
rm -f "$out_dir"/*.log "$out_dir"/bench.json
work_dir=$(mktemp -d "$work_parent/csbench-fresh.XXXXXX") || die 3 "cannot create a folder in $work_parent"
root=$(cd "$work_dir" && pwd -P)/root # as /proc/PID/root shows it (see stop_processes_in)
mkdir "$root"

# --- the minimal root: from the cache, else debootstrap ------------------------------------------
debootstrap_flags=(--variant=minbase "--arch=$arch" "--keyring=$keyring")
# minbase has no CA certificates, which apt needs to fetch over https.
[[ $mirror == https://* || $security_mirror == https://* ]] && debootstrap_flags+=(--include=ca-certificates)
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
if ((package)); then
  # The package's root starts from the same minimal system, before csbench's set-up touches it.
  pkg_root=$(cd "$work_dir" && pwd -P)/package-root
  cp -a "$root" "$pkg_root" || die 3 "cannot copy the minimal root to $pkg_root"
fi

# --- apt sources, DNS, mounts, the clone -----------------------------------------------------------
begin_phase prepare "apt sources, mounts, clone of HEAD"
# prepare_root ROOT: the release's apt sources on this machine's mirrors, DNS, /proc, /dev, /sys.
prepare_root() {
  local r=$1
  rm -f "$r/etc/apt/sources.list" "$r"/etc/apt/sources.list.d/*
  {
    printf 'Types: deb\nURIs: %s\nSuites: %s %s-updates\nComponents: main\nSigned-By: %s\n' \
      "$mirror" "$suite" "$suite" "$keyring"
    [[ -n $security_mirror ]] &&
      printf '\nTypes: deb\nURIs: %s\nSuites: %s-security\nComponents: main\nSigned-By: %s\n' \
        "$security_mirror" "$suite" "$keyring"
  } >"$r/etc/apt/sources.list.d/debian.sources"
  if [[ ! -e $r$keyring ]]; then
    mkdir -p "$(dirname "$r$keyring")" && cp -p "$keyring" "$r$keyring"
  fi
  # The root is thrown away, so dpkg need not sync every file it unpacks (minutes on a busy disk).
  echo force-unsafe-io >"$r/etc/dpkg/dpkg.cfg.d/fresh-machine-test-unsafe-io"
  cp -L /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null || say "warning: no /etc/resolv.conf to copy"
  mount_in "$r" /proc -t proc proc
  if ((devpts)); then
    mount_in "$r" /dev --rbind /dev
    mount --make-rslave "$r/dev" || die 3 "cannot make $r/dev a slave mount"
  else
    # As a container without a devpts mount: a /dev of its own with the usual nodes, /dev/ptmx
    # pointing into an empty /dev/pts, so that no pseudo-terminal can be made (the host's /dev,
    # even without its pts mount, would still hand out ptys through its ptmx node).
    mount_in "$r" /dev -t tmpfs -o mode=755,nosuid dev
    local node
    for node in "null 1 3" "zero 1 5" "full 1 7" "random 1 8" "urandom 1 9" "tty 5 0"; do
      set -- $node
      mknod -m 666 "$r/dev/$1" c "$2" "$3" || die 3 "cannot make $r/dev/$1"
    done
    ln -s /proc/self/fd "$r/dev/fd" && ln -s /proc/self/fd/0 "$r/dev/stdin" &&
      ln -s /proc/self/fd/1 "$r/dev/stdout" && ln -s /proc/self/fd/2 "$r/dev/stderr" &&
      ln -s pts/ptmx "$r/dev/ptmx" && mkdir "$r/dev/pts" "$r/dev/shm" || die 3 "cannot fill $r/dev"
    mount_in "$r" /dev/shm -t tmpfs -o mode=1777,nosuid,nodev shm
  fi
  mount_in "$r" /sys --rbind /sys
  mount --make-rslave "$r/sys" || die 3 "cannot make $r/sys a slave mount"
}
mount_in() { # mount_in ROOT TARGET MOUNT-ARGS...
  local target=$1$2
  shift 2
  mkdir -p "$target"
  mount "$@" "$target" || die 3 "mount $* $target failed"
  mounts+=("$target")
}
prepare_root "$root"
chroot_env=(HOME=/root "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
  LANG=C.UTF-8 TERM=dumb "CI=${CI:-}")
for v in http_proxy https_proxy no_proxy; do
  [[ -n ${!v:-} ]] && chroot_env+=("$v=${!v}")
done
if [[ -n $ccache_dir ]]; then
  # One cache per release: the compilers differ, so nothing would be shared.
  mkdir -p "$ccache_dir/$suite" || die 3 "cannot create $ccache_dir/$suite"
  mount_in "$root" /var/cache/csbench-ccache --bind "$ccache_dir/$suite"
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
in_pkg_root() { # in_pkg_root COMMAND...: the same in the package's root, from /tmp
  chroot "$pkg_root" /usr/bin/env -i "${chroot_env[@]}" /bin/bash -c 'cd /tmp && exec "$@"' in_pkg_root "$@" </dev/null
}
teed() { # teed LOG COMMAND...: COMMAND's output on the console and in LOG; COMMAND's status
  local log=$1
  shift
  "$@" 2>&1 | tee "$log"
  return "${PIPESTATUS[0]}"
}
# run_phase NAME SHOWN RUNNER COMMAND...: runs COMMAND through RUNNER (in_root, in_pkg_root), its
# output in $out_dir/NAME.log. SHOWN says what of the log is printed on success: "tail", "all" or a
# sed address range.
run_phase() {
  local name=$1 shown=$2 log=$out_dir/$1.log rc=0
  shift 2
  begin_phase "$name" "${*:2}"
  if ((verbose)); then
    run_waiting - teed "$log" "$@" || rc=$?
  else
    run_waiting "$log" "$@" || rc=$?
  fi
  if ((rc != 0)); then
    ((verbose)) || { echo "--- last lines of $log:"; tail -n 150 "$log"; echo "---"; }
    end_phase "$name" "FAILED (exit $rc)"
    say "error: '${*:2}' failed in the fresh $suite root with exit $rc"
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

run_phase setup tail in_root scripts/setup.sh
if [[ -n $ccache_dir ]]; then
  # After set-up, so that nothing ccache brings with it can stand in for a package setup.sh lacks.
  run_phase ccache tail in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ccache
  in_root ccache --zero-stats >/dev/null
fi
run_phase build tail in_root scripts/build.sh
if [[ -n $ccache_dir ]]; then
  in_root ccache --show-stats | grep -iE '^ *(hits|misses|cache hit|cache miss)' | sed 's/^/  ccache: /' || true
fi
# Warning-free on every release: the build's log is read, not trusted.
if grep -E '(^|: )warning: ' "$out_dir/build.log"; then
  say "error: the build printed warnings in the fresh $suite root (log: $out_dir/build.log)"
  exit 1
fi
# test.sh runs setup.sh and build.sh again (both must then have nothing to do) and ctest.
run_phase test '/tests passed/,$p' in_root scripts/test.sh
if ((!devpts)); then
  # The console test's terminal checks must have been skipped, and said why.
  in_root grep -q 'skip: .*(no pseudo-terminal' build/Testing/Temporary/LastTest.log ||
    { say "error: without /dev/pts the console test did not say it skipped its terminal checks"; exit 1; }
  in_root grep -h 'skip: ' build/Testing/Temporary/LastTest.log | sort -u | sed 's/^/  /'
fi
run_phase bench tail in_root scripts/bench.sh "${bench_flags[@]}" \
  --benchmark_out=build/fresh-machine-bench.json --benchmark_out_format=json
cp "$root$root_checkout/build/fresh-machine-bench.json" "$out_dir/bench.json"
run_phase compare all in_root python3 scripts/compare.py build/fresh-machine-bench.json --report-only --markdown

# --- the installed copy ----------------------------------------------------------------------------
# From /tmp, so that nothing is found through the working directory: the binary lists the devices,
# runs one benchmark (its check passes or the exit code says not), and the installed compare.py
# reads that run against the installed baselines; an installed example manifest runs and passes
# its checks (toml++ and muparser at run time, the examples where the package puts them).
installed_checks() { # installed_checks PREFIX: the commands, as one bash -c script
  printf '%s\n' "set -e" "cd /tmp" "$1/bin/csbench --list-devices" \
    "$1/bin/csbench --benchmark_filter='$installed_filter' --benchmark_min_time=0.01 --benchmark_out=/tmp/installed.json --benchmark_out_format=json" \
    "$1/bin/csbench-compare /tmp/installed.json --report-only" \
    "$1/bin/csbench-findings --help >/dev/null" \
    "test -f $1/share/csbench/kernels/reduction/tree.comp" \
    "$1/bin/csbench --manifest=$1/share/csbench/examples/saxpy.toml --domain=1000 --benchmark_min_time=0.01"
}
run_phase install tail in_root cmake --install build --prefix "$install_prefix"
run_phase installed all in_root bash -c "$(installed_checks "$install_prefix")"

if ((package)); then
  run_phase package tail in_root bash -c 'cd build && cpack -G DEB'
  deb=$(cd "$root$root_checkout/build" && ls csbench_*.deb | head -n 1)
  [[ -n $deb ]] || { say "error: cpack made no .deb"; exit 1; }
  cp "$root$root_checkout/build/$deb" "$out_dir/" && cp "$out_dir/$deb" "$pkg_root/tmp/$deb"
  say "$deb: $(du -h "$out_dir/$deb" | cut -f1); depends: $(dpkg-deb -f "$out_dir/$deb" Depends)"
  prepare_root "$pkg_root"
  run_phase package-install tail in_pkg_root bash -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ./$deb"
  run_phase package-run all in_pkg_root bash -c "$(installed_checks /usr)"
fi
