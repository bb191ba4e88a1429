#!/usr/bin/env bash
# Fetches CUDA 11.8's nvdisasm, cuobjdump and ptxas (they need only libc) from Debian 12's
# non-free package nvidia-cuda-toolkit into DIR, with apt reading private lists: the
# machine's apt configuration and installed packages are left as they are.
#   scripts/fetch-cuda-11.8-tools.sh DIR
set -euo pipefail
dir="${1:?usage: scripts/fetch-cuda-11.8-tools.sh DIR}"
[[ -x "$dir/ptxas" && -x "$dir/nvdisasm" && -x "$dir/cuobjdump" ]] && exit 0
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "fetch-cuda-11.8-tools: fetching Debian's nvidia-cuda-toolkit 11.8 (non-free, 84 MB)" >&2
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/deb"
cat >"$work/debian-non-free.sources" <<'SOURCES'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
options=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$work"
  -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" -o "Debug::NoLocking=1"
  -o "APT::Sandbox::User=root")
apt-get "${options[@]}" update -qq >&2
(cd "$work/deb" && apt-get "${options[@]}" download -qq nvidia-cuda-toolkit >&2)
dpkg-deb -x "$work"/deb/nvidia-cuda-toolkit_*.deb "$work/root"
mkdir -p "$dir"
cp "$work/root/usr/bin/nvdisasm" "$work/root/usr/bin/cuobjdump" "$work/root/usr/bin/ptxas" "$dir/"
