#!/usr/bin/env bash
# The bash completion (scripts/sassim-completion.bash): subcommands, options, preset
# names and --format values; and every option a command's --help lists is completed.
# Usage: completion.sh SASSIM_BINARY REPO_ROOT
set -uo pipefail
sassim="$1"
root="$2"

# shellcheck source=SCRIPTDIR/../expect.sh
source "$(dirname "${BASH_SOURCE[0]}")/../expect.sh"
make_work_dir
cd "$work" || exit 1  # no files in the folder to complete
# shellcheck source=/dev/null
source "$root/scripts/sassim-completion.bash"

# completes WANTED WORD...: completes the last word of `sassim WORD...` and compares
# COMPREPLY, sorted and space-separated, with WANTED.
completes() {
  local wanted="$1" got
  shift
  COMP_WORDS=("$sassim" "$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _sassim 2>/dev/null
  got="$(printf '%s\n' "${COMPREPLY[@]}" | sort | xargs)"
  if [[ "$got" == "$wanted" ]]; then
    echo "ok: sassim $* -> $got"
  else
    fail "sassim $*<TAB>: got '$got', wanted '$wanted'"
  fi
}

[[ "$(complete -p sassim)" == "complete -F _sassim sassim" ]] || fail "no completion for sassim"
completes "collective config correlate" co
completes "run" r
completes "--config" run --con
completes "h100 h200" run -c h
completes "h100" run -c h1
completes "h100 h200" run mytrace --config h
completes "h100 h200" config show h
completes "a100 a100-pcie" run --set num_sms=4 -c a1
completes "json" run --format j
completes "csv" config show h100 --format c
completes "table" trace info --format t
completes "ctas" run --sample c
completes "--sample --sass" run --sa
completes "capture collective config correlate help run sweep trace workload" ""
completes "--help --version -h" -
completes "list show" config ""
completes "--help -h" config -
completes "info" trace i
completes "local" sweep --backend l
completes "--format" trace info --fo
completes "--sample --sass --set --system --system-set" run --s
completes "run" help ru
completes "dense-layer" workload d
completes "decode" workload dense-layer --phase d
completes "tc" workload dense-layer --attention t
completes "ws" workload dense-layer --gemm w
completes "--kv-heads" workload dense-layer --kv
completes "h200x16-2node h200x8" collective --system h2
completes "all_gather all_reduce alltoall" collective --system h100x8 --op a
completes "ll ll128" collective --proto l
# A word with a '/' or a '.' is a config file: files complete, not presets.
mkdir -p "$work/cfg" && touch "$work/cfg/mine.txtpb"
completes "cfg/mine.txtpb" run -c cfg/m
completes "cfg/mine.txtpb" run -c cfg/mine.txtpb -o cfg/m

# Every option of each command's --help is in its list, and nothing more.
for cmd in run "config show" "config list" "trace info" sweep correlate capture workload collective; do
  # shellcheck disable=SC2086
  listed="$("$sassim" $cmd --help | grep -oE '^  +-[-a-z0-9,]+' | tr ', ' '\n' | grep . | sort | xargs)"
  var="_sassim_options_${cmd// /_}"
  have="$(tr ' ' '\n' <<<"${!var}" | sort | xargs)"
  [[ "$listed" == "$have" ]] || fail "$cmd: --help lists '$listed', the completion '$have'"
done
[[ "$("$sassim" --help | sed -n '/^Subcommands:/,$p' | grep -oE '^  [a-z]+' | xargs)" == \
  "run config trace sweep correlate capture workload collective help" ]] || fail "subcommands changed: update the completion"

finish
