#!/usr/bin/env bash
# Builds the cubins of the kernel suite and disassembles them, with instruction
# encodings, into kernels/sass/ARCH/KERNEL.sass: the listings are committed, so that
# everything downstream (SASS execution, tests) works on machines without CUDA.
# Run with --help for the options and where the disassembler comes from.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build"
out="$root/kernels/sass"
tools="auto"
do_build=1
venv="$root/.venv-cuda-tools"

usage() {
  cat <<EOF
Usage: scripts/disassemble-kernels.sh [OPTIONS]

Builds the suite (cmake --build BUILD --target kernels, which needs nvcc) and writes
one listing per kernel and architecture, kernels/sass/ARCH/KERNEL.sass, replacing the
old ones. Each listing is the kernel's code section as 'nvdisasm -c -hex' prints it
(or 'cuobjdump -sass' when only that is found), under a header naming its source,
compiler and disassembler.

Options:
  --build DIR     CMake build folder (default: build)
  --out DIR       listings folder (default: kernels/sass)
  --tools ROUTE   where the disassembler comes from (default: auto, the first that
                  works of):
                    toolkit  nvdisasm or cuobjdump of the CUDA toolkit: \$CUDA_HOME/bin,
                             the folder of the nvcc CMake found, /usr/local/cuda/bin, PATH
                    venv     NVIDIA's wheels from PyPI (nvidia-cuda-nvdisasm,
                             nvidia-cuda-cuobjdump) in .venv-cuda-tools, created if needed
                    debian   Debian 12's CUDA 11.8 nvdisasm (from the non-free package
                             nvidia-cuda-toolkit, fetched with apt-get download into
                             private lists, kept in .venv-cuda-tools/debian-11.8), each
                             cubin's ELF header rewritten to the ABI 11.8 knows; decodes
                             sm_80 to sm_90a, not Blackwell
  --skip-build    use the cubins already in BUILD/kernels/cubin
  -h, --help      this text
EOF
}

die() {
  echo "disassemble-kernels: error: $*" >&2
  exit 1
}

while (($#)); do
  case "$1" in
    --build) build="${2:?--build needs a folder}"; shift 2 ;;
    --out) out="${2:?--out needs a folder}"; shift 2 ;;
    --tools) tools="${2:?--tools needs a route}"; shift 2 ;;
    --skip-build) do_build=0; shift ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
done
case "$tools" in auto | toolkit | venv | debian) ;; *) die "--tools: expected auto, toolkit, venv or debian, found '$tools'" ;; esac

if ((do_build)); then
  cmake -S "$root" -B "$build" -DSASSIM_BUILD_KERNELS=ON >/dev/null
  cmake --build "$build" --target kernels ||
    die "building target 'kernels' failed (it exists only when CMake finds nvcc: see kernels/CMakeLists.txt)"
fi
cubins="$build/kernels/cubin"
mapfile -t cubin_files < <(cd "$cubins" 2>/dev/null && find . -name '*.cubin' | sed 's|^\./||' | sort)
((${#cubin_files[@]})) || die "no cubins under $cubins (build the 'kernels' target first)"

nvcc="$(sed -n 's/^CMAKE_CUDA_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null || true)"
nvcc_version="unknown nvcc"
if [[ -x "$nvcc" ]]; then
  nvcc_version="nvcc $("$nvcc" --version | sed -n 's/.*release \([0-9.]*\), V\([0-9.]*\).*/\2/p')"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# --- Finding a disassembler: each route sets disassembler, disassembler_kind (nvdisasm
# or cuobjdump) and rewrite_header (1 for CUDA 11.8 tools).
disassembler=""
disassembler_kind=""
rewrite_header=0

pick() {  # pick DIR: the nvdisasm, else the cuobjdump, in DIR
  if [[ -x "$1/nvdisasm" ]]; then
    disassembler="$1/nvdisasm" disassembler_kind=nvdisasm
  elif [[ -x "$1/cuobjdump" ]]; then
    disassembler="$1/cuobjdump" disassembler_kind=cuobjdump
  else
    return 1
  fi
}

route_toolkit() {
  local dir
  for dir in "${CUDA_HOME:-}" "${CUDA_PATH:-}"; do
    [[ -n "$dir" ]] && pick "$dir/bin" && return 0
  done
  [[ -n "$nvcc" ]] && pick "$(dirname "$nvcc")" && return 0
  pick /usr/local/cuda/bin && return 0
  local found
  found="$(command -v nvdisasm || command -v cuobjdump || true)"
  [[ -n "$found" ]] && pick "$(dirname "$found")"
}

route_venv() {
  local bin
  bin="$(find "$venv" -path '*/nvidia/*/bin/nvdisasm' 2>/dev/null | head -1 || true)"
  if [[ -z "$bin" ]]; then
    echo "disassemble-kernels: installing nvidia-cuda-nvdisasm and nvidia-cuda-cuobjdump into $venv" >&2
    python3 -m venv "$venv" || return 1
    echo '*' >"$venv/.gitignore"
    "$venv/bin/pip" install -q nvidia-cuda-nvdisasm nvidia-cuda-cuobjdump >&2 || return 1
    bin="$(find "$venv" -path '*/nvidia/*/bin/nvdisasm' | head -1)"
  fi
  [[ -n "$bin" ]] && pick "$(dirname "$bin")"
}

route_debian() {
  local dir="$venv/debian-11.8"
  mkdir -p "$venv"
  [[ -f "$venv/.gitignore" ]] || echo '*' >"$venv/.gitignore"
  "$root/scripts/fetch-cuda-11.8-tools.sh" "$dir" || return 1
  pick "$dir" && rewrite_header=1
}

# CUDA 13 writes ELF ABI version 8 (SM number in e_flags bits 8-15); 11.8 reads only
# ABI 7 (SM in the low byte and bits 16-23, plus 0x100, 0x400, and 0x800 for the
# accelerator bit 0x8). Code bytes are untouched.
rewrite_cubin() {  # rewrite_cubin IN OUT
  python3 - "$1" "$2" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
if data[:4] != b"\x7fELF" or data[4] != 2:
    sys.exit(f"{sys.argv[1]}: not a 64-bit ELF file")
if data[8] >= 8:
    flags = int.from_bytes(data[48:52], "little")
    sm = (flags >> 8) & 0xFF
    data[8] = 7
    data[48:52] = (sm | 0x100 | 0x400 | (sm << 16) | (0x800 if flags & 0x8 else 0)).to_bytes(4, "little")
open(sys.argv[2], "wb").write(data)
PY
}

disassemble() {  # disassemble CUBIN: the listing on stdout
  local cubin="$1"
  if ((rewrite_header)); then
    rewrite_cubin "$cubin" "$work/rewritten.cubin" || return 1
    cubin="$work/rewritten.cubin"
  fi
  if [[ "$disassembler_kind" == nvdisasm ]]; then
    "$disassembler" -c -hex "$cubin"
  else
    "$disassembler" -sass "$cubin"
  fi
}

# A route works when it decodes the first cubin into instructions.
works() {
  disassemble "$cubins/${cubin_files[0]}" >"$work/probe.txt" 2>/dev/null && grep -q '/\*0000\*/' "$work/probe.txt"
}

routes=("$tools")
[[ "$tools" == auto ]] && routes=(toolkit venv debian)
chosen=""
for route in "${routes[@]}"; do
  disassembler="" rewrite_header=0
  if "route_$route" && works; then
    chosen="$route"
    break
  fi
  echo "disassemble-kernels: route '$route' gave no working disassembler" >&2
done
[[ -n "$chosen" ]] || die "no disassembler works (tried: ${routes[*]}); see --help"
tool_version="$("$disassembler" --version | sed -n 's/.*release \([0-9.]*\), V\([0-9.]*\).*/\2/p')"
tool_flags="-c -hex"
[[ "$disassembler_kind" == cuobjdump ]] && tool_flags="-sass"
header_note=""
((rewrite_header)) && header_note=" (cubin ELF header rewritten to ABI 7)"
echo "disassemble-kernels: $disassembler_kind $tool_version from the $chosen route: $disassembler"

# --- Disassembling: one listing per kernel (code section) of every cubin.
staged="$work/sass"
start_ns="$(date +%s%N)"
for file in "${cubin_files[@]}"; do
  arch="${file%%/*}"
  family="${file#*/}"
  family="${family%.cubin}"
  mkdir -p "$staged/$arch"
  disassemble "$cubins/$file" >"$work/listing.txt" || die "$disassembler_kind failed on $cubins/$file"
  number="${arch#sm_}"
  awk -v dir="$staged/$arch" -v kind="$disassembler_kind" \
    -v source="kernels/$family.cu" -v arch="$arch" \
    -v compiler="$nvcc_version: -std=c++20 -O3 -cubin -gencode=arch=compute_$number,code=$arch" \
    -v tool="$disassembler_kind $tool_version $tool_flags$header_note" '
    function start(name) {
      if (file != "") close(file)
      file = dir "/" name ".sass"
      printf "// sassim kernel listing: %s for %s\n// source: %s\n// compiler: %s\n// disassembler: %s\n", \
        name, arch, source, compiler, tool > file
    }
    kind == "nvdisasm" && /^\/\/-+ \.text\./ { name = $2; sub(/^\.text\./, "", name); start(name); next }
    kind == "cuobjdump" && /^[ \t]*Function : / { start($3) }
    file != "" { print > file }
  ' "$work/listing.txt"
done
# Constant bank 2 (the compiler's constants, which nvdisasm does not print) of each
# function that has one, from the cubin's .nv.constant2.NAME section, as KERNEL.const2
# beside its listing: 'OFFSET VALUE' lines of 64-bit little-endian words.
for file in "${cubin_files[@]}"; do
  arch="${file%%/*}"
  family="${file#*/}"
  family="${family%.cubin}"
  for section in $(readelf -SW "$cubins/$file" 2>/dev/null |
    sed -n 's/.*\] \.nv\.constant2\.\([A-Za-z0-9_]*\) .*/\1/p'); do
    [[ -f "$staged/$arch/$section.sass" ]] || continue
    {
      printf "# Constant bank 2 of %s for %s: the .nv.constant2.%s section of the cubin of\n" \
        "$section" "$arch" "$section"
      printf "# kernels/%s.cu (written by scripts/disassemble-kernels.sh).\n" "$family"
      readelf -x ".nv.constant2.$section" "$cubins/$file" 2>/dev/null |
        awk '/^ *0x[0-9a-f]+ / {
          for (i = 2; i <= 5 && $i ~ /^[0-9a-f]+$/ && length($i) == 8; ++i) bytes = bytes $i
        }
        END {
          for (o = 0; o + 16 <= length(bytes); o += 16) {
            v = ""
            for (b = 14; b >= 0; b -= 2) v = v substr(bytes, o + b + 1, 2)
            printf "0x%x 0x%s\n", o / 2, v
          }
        }'
    } >"$staged/$arch/$section.const2"
  done
done
# Blank lines at the ends of listings carry nothing.
for listing in "$staged"/*/*.sass; do
  sed -i -e :a -e '/^[[:space:]]*$/{$d;N;ba' -e '}' "$listing"
done
elapsed_ms=$((($(date +%s%N) - start_ns) / 1000000))

# The listings of each architecture built are replaced (stale ones removed) and their
# KERNEL.const2 files written; other architectures (kernels/sass/sm_70, written by
# scripts/ubench-sm70.sh) and other files are kept.
mkdir -p "$out"
for dir in "$staged"/*/; do
  arch="$(basename "$dir")"
  mkdir -p "$out/$arch"
  find "${out:?}/$arch" -maxdepth 1 -name '*.sass' -delete
  cp "$dir"*.sass "$out/$arch/"
  compgen -G "$dir*.const2" >/dev/null && cp "$dir"*.const2 "$out/$arch/"
done
count="$(find "$out" -name '*.sass' | wc -l)"
bytes="$(du -sb "$out" | cut -f1)"
echo "disassemble-kernels: $count listings from ${#cubin_files[@]} cubins in ${elapsed_ms} ms, $bytes bytes, in $out"
