#!/usr/bin/env bash
# Installs the Debian packages csbench needs (build, tests, scripts and packaging), only those
# missing. Safe to run again. The names are the same on Debian 12 (bookworm) and Debian 13
# (trixie); scripts/fresh-machine-test.sh checks this list on a minimal root of each.
# Exit codes: 0 installed or nothing missing; 2 no apt-get, or not root and no sudo; else apt's.
set -euo pipefail
packages=(
  # build: cmake's Makefile generator needs make, which cmake only recommends; glslang's CMake
  # config imports /usr/bin/glslangValidator from glslang-tools; spirv-tools holds the headers and
  # static libraries of SPIRV-Tools' optimizer and of the validator users' .spv modules go through.
  cmake make g++ pkg-config git
  libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers
  libshaderc-dev glslang-dev glslang-tools spirv-tools libfmt-dev
  libbenchmark-dev libbenchmark-tools libgtest-dev
  # users' manifests: TOML and the expressions in it
  libtomlplusplus-dev libmuparser-dev
  # the tuner's cache of measured points (bench --tune)
  libsqlite3-dev
  # the run's JSON report
  nlohmann-json3-dev
  # tests: the capture of a program no one here wrote (tests/capture/vkfft_driver, VkFFT's header:
  # 1.2.26 on Debian 12, 1.3.4 on Debian 13)
  libvkfft-dev
  # scripts: compare.py, plot.py, table.py and their tests
  python3 python3-scipy python3-matplotlib python3-statsmodels
  # tests: the report page in a real browser (history.py report, headless chromium)
  chromium chromium-driver python3-selenium
  # packaging: CPack's DEB generator finds the binary's library dependencies with dpkg-shlibdeps,
  # and finds the binaries with file
  dpkg-dev file
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
echo "csbench setup: installing ${missing[*]}"
if ! command -v apt-get >/dev/null; then
  echo "csbench setup: apt-get not found; install these packages (Debian 12 and 13 names) by hand" >&2
  exit 2
fi
sudo_cmd=()
if ((EUID != 0)); then
  if ! command -v sudo >/dev/null; then
    echo "csbench setup: not root and sudo not found; run scripts/setup.sh as root once" >&2
    exit 2
  fi
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
