#!/usr/bin/env bash
# Listings of the microbenchmarks (kernels/ubench/*.cu) for sm_70 (Volta, the QV100 of
# the hardware record), written to kernels/sass/sm_70/KERNEL.sass.
#
# CUDA 13 no longer targets sm_70, and CUDA 11.8's nvcc (Debian 12's nvidia-cuda-toolkit)
# cannot compile these sources: they are C++20, which CUDA 11 does not know. So the PTX
# comes from CUDA 13's nvcc for compute_75 (the oldest target it has), its header is
# retargeted to sm_70 and PTX ISA 7.8, and CUDA 11.8's ptxas compiles it for sm_70; the
# PTX uses nothing sm_75 added. ptxas and nvdisasm 11.8 come from Debian's package
# (scripts/fetch-cuda-11.8-tools.sh: 84 MB, nothing installed system-wide).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.venv-cuda-tools/debian-11.8"
out="$root/kernels/sass/sm_70"
nvcc="${NVCC:-}"
for candidate in "${CUDA_HOME:-}/bin/nvcc" /usr/local/cuda/bin/nvcc "$(command -v nvcc || true)"; do
  [[ -z "$nvcc" && -x "$candidate" ]] && nvcc="$candidate"
done
[[ -n "$nvcc" ]] || { echo "ubench-sm70: no nvcc found (set NVCC)" >&2; exit 1; }

mkdir -p "$root/.venv-cuda-tools"
[[ -f "$root/.venv-cuda-tools/.gitignore" ]] || echo '*' >"$root/.venv-cuda-tools/.gitignore"
"$root/scripts/fetch-cuda-11.8-tools.sh" "$tools"

version() { "$1" --version | sed -n 's/.*release \([0-9.]*\), V\([0-9.]*\).*/\2/p'; }
nvcc_flags=(-std=c++20 -O3 -ptx -gencode=arch=compute_75,code=compute_75)
compiler="nvcc $(version "$nvcc"): ${nvcc_flags[*]}, retargeted to sm_70 (PTX ISA 7.8); ptxas $(version "$tools/ptxas") -O3 -arch=sm_70"
tool="nvdisasm $(version "$tools/nvdisasm") -c -hex"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
rm -rf "$out"
mkdir -p "$out"
for source in "$root"/kernels/ubench/*.cu; do
  family="$(basename "$source" .cu)"
  "$nvcc" "${nvcc_flags[@]}" -I"$root" -o "$work/$family.ptx" "$source"
  sed -e 's/^\.version [0-9.]*$/.version 7.8/' -e 's/^\.target sm_75$/.target sm_70/' \
    "$work/$family.ptx" >"$work/$family.sm_70.ptx"
  "$tools/ptxas" -O3 -arch=sm_70 -o "$work/$family.cubin" "$work/$family.sm_70.ptx"
  "$tools/nvdisasm" -c -hex "$work/$family.cubin" >"$work/$family.sass"
  awk -v dir="$out" -v source="kernels/ubench/$family.cu" -v compiler="$compiler" -v tool="$tool" '
    /^\/\/-+ \.text\./ {
      name = $2; sub(/^\.text\./, "", name)
      if (file != "") close(file)
      file = dir "/" name ".sass"
      printf "// sassim kernel listing: %s for sm_70\n// source: %s\n// compiler: %s\n// disassembler: %s\n", \
        name, source, compiler, tool > file
      next
    }
    file != "" { print > file }
  ' "$work/$family.sass"
done
for listing in "$out"/*.sass; do
  sed -i -e :a -e '/^[[:space:]]*$/{$d;N;ba' -e '}' "$listing"
done
echo "ubench-sm70: $(ls "$out" | wc -l) listings in $out"
