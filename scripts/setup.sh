#!/usr/bin/env bash
# Installs the Debian packages csbench needs, only those missing. Safe to run again.
set -euo pipefail
packages=(
  cmake g++ pkg-config git
  libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers
  libshaderc-dev glslang-dev spirv-tools libfmt-dev
  libbenchmark-dev libbenchmark-tools libgtest-dev
  python3 python3-scipy python3-matplotlib
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
echo "csbench setup: installing ${missing[*]}"
sudo_cmd=()
if ((EUID != 0)); then
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
