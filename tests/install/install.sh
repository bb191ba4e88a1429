#!/usr/bin/env bash
# `cmake --install BUILD --prefix DIR` gives a sassim that runs on its own: DIR/bin/sassim
# finds its presets, its default trace and the SASS listings in DIR/share/sassim, from
# another directory, with SASSIM_HOME unset, after DIR is moved, and (where `unshare -m`
# is allowed) with the source tree hidden behind an empty folder.
# Usage: install.sh CMAKE BUILD_DIR REPO_ROOT
set -uo pipefail
cmake="$1"
build="$2"
root="$3"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
unset SASSIM_HOME

# shellcheck source=SCRIPTDIR/../expect.sh
source "$(dirname "${BASH_SOURCE[0]}")/../expect.sh"

expect 0 "Installing: .*/bin/sassim" -- "$cmake" --install "$build" --prefix "$work/staged"
# Moved after installing: the binary may not depend on where it was installed either.
mv "$work/staged" "$work/prefix"
prefix="$work/prefix"
share="$prefix/share/sassim"
for f in bin/sassim share/sassim/configs/presets/h100.txtpb share/sassim/configs/presets/gtx1080.txtpb \
  share/sassim/traces/reference/v100-rodinia-bfs/util/tracer_nvbit/traces/bfs-rodinia-3.1/kernelslist.g \
  share/sassim/kernels/sass/sm_80/vectoradd.sass share/bash-completion/completions/sassim; do
  [[ -e "$prefix/$f" ]] || fail "not installed: $f"
done
cp -r "$root/traces/reference/gtx1080-microgpusim/test-apps/vectoradd/traces/vectoradd-100-32-trace" \
  "$work/vectoradd"

# isolated COMMAND...: runs the command from / with the source tree (and the build
# folder inside it) hidden, where the system allows a private mount namespace.
if unshare -m --propagation private true 2>/dev/null; then
  isolated() {
    # shellcheck disable=SC2016
    unshare -m --propagation private bash -c \
      'mount -t tmpfs sassim-hidden "$1" && shift && cd / && exec "$@"' isolated "$root" "$@"
  }
  expect 1 "" -- isolated test -e "$root/CMakeLists.txt"
else
  echo "note: unshare -m is not permitted here: the source tree stays visible"
  isolated() { (cd / && "$@"); }
fi

sassim="$prefix/bin/sassim"
expect 0 "^h100 +NVIDIA H100" -- isolated "$sassim" config list
expect 0 "name: \"NVIDIA H100" -- isolated "$sassim" config show h100
expect 1 "read from $share/configs/presets" -- isolated "$sassim" config show nosuch
expect 0 "total \(1 kernels\)" -- \
  isolated "$sassim" run -q -c gtx1080 "$work/vectoradd"
expect 0 "trace $share/traces/reference/v100-rodinia-bfs/.*using preset 'v100'" -- \
  isolated "$sassim" run -q
expect 0 "captured vectoradd \(sm_80\) from $share/kernels/sass/sm_80/vectoradd.sass" -- \
  isolated "$sassim" capture -q vectoradd 1024
# The installed completion asks the installed binary for the preset names.
# shellcheck disable=SC2016
expect 0 "^h100 h200$" -- isolated bash -c 'source "$1"; COMP_WORDS=("$2" run -c h); COMP_CWORD=3
  _sassim; echo "${COMPREPLY[*]}"' completion "$prefix/share/bash-completion/completions/sassim" "$sassim"

finish
