#!/usr/bin/env bash
# Installs every Debian package sassim needs (Debian 12), makes the Python package
# (python/) importable in .venv (scripts/install-python.sh), then configures and builds
# sassim in build/. Idempotent: packages already present are not fetched again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build pkg-config git
  libprotobuf-dev protobuf-compiler
  libhdf5-dev libfmt-dev libboost-graph-dev libcli11-dev
  liblzma-dev libzstd-dev xz-utils time
  libgtest-dev libgmock-dev
  python3 python3-h5py python3-numpy python3-matplotlib python3-pandas
  python3-venv python3-setuptools python3-wheel
  slurm-wlm munge
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

scripts/install-python.sh

build_type="${SASSIM_BUILD_TYPE:-Release}"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="$build_type" >/dev/null
cmake --build build -j"$(nproc)"
