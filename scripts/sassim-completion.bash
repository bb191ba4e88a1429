# Bash completion for sassim: subcommands, each one's options, preset names after
# --config (and `config show`), --format, --backend and --sample values, files elsewhere.
# Load it with `source scripts/sassim-completion.bash`; `cmake --install` puts it in
# PREFIX/share/bash-completion/completions/sassim, where bash-completion finds it.
# shellcheck shell=bash

# The options of each command (tests/cli/completion.sh checks them against --help).
_sassim_options_run="-h --help -c --config -s --set --sass -o --out -t --threads -q --quiet --format --progress-every --sample --system --system-set"
_sassim_options_config_show="-h --help -s --set --format"
_sassim_options_config_list="-h --help"
_sassim_options_trace_info="-h --help --top --format"
_sassim_options_sweep="-h --help -b --backend -j --jobs --threads-per-run -n --dry-run -o --out --no-progress"
_sassim_options_correlate="-h --help --sim --hw -o --out --metric --hw-metric --clock-mhz --num-sms --run --point"
_sassim_options_capture="-h --help --listing -o --out --plain --check -q --quiet"
_sassim_options_collective="-h --help --system --system-set --op --bytes --step-factor --dtype --algo --proto --gpus --format"
_sassim_options_workload="-h --help --phase --batch --context --draft --hidden --heads --kv-heads --ffn --experts --top-k --model-layers --gemm --attention --tp --ep --arch --listings -o --out --plain --check --plan -q --quiet"

# Preset names: what `sassim config list` prints, else the presets folder of SASSIM_HOME.
_sassim_presets() {
  local sassim="$1" names
  names="$("$sassim" config list 2>/dev/null | cut -d' ' -f1)"
  if [[ -z "$names" && -n "${SASSIM_HOME:-}" ]]; then
    names="$(cd "$SASSIM_HOME/configs/presets" 2>/dev/null && for f in *.txtpb; do
      [[ -e "$f" ]] && echo "${f%.txtpb}"
    done)"
  fi
  printf '%s\n' "$names"
}

# System preset names (configs/systems of SASSIM_HOME, else of the source tree sassim reads).
_sassim_system_presets() {
  local dir="${SASSIM_HOME:-}/configs/systems" f
  [[ -d "$dir" ]] || dir="$(dirname "${BASH_SOURCE[0]}")/../configs/systems"
  for f in "$dir"/*.txtpb; do [[ -e "$f" ]] && basename "$f" .txtpb; done
}

# COMPREPLY: the names (or, for a word starting with '-', the options) matching the word.
_sassim_words() {
  local cur="$1" names="$2" options="$3"
  [[ "$cur" == -* ]] && names="$options"
  mapfile -t COMPREPLY < <(compgen -W "$names" -- "$cur")
}

# COMPREPLY: the files and folders matching the word.
_sassim_files() {
  compopt -o filenames 2>/dev/null
  mapfile -t COMPREPLY < <(compgen -f -- "$1")
}

_sassim() {
  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD - 1]}"
  local sassim="${COMP_WORDS[0]}" command="" sub="" i word
  COMPREPLY=()
  # The command and, for config and trace, its subcommand: the first words that are no
  # option and no option's value.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="${COMP_WORDS[i]}"
    case "$word" in
      -*) continue ;;
    esac
    case "${COMP_WORDS[i - 1]}" in
      -c | --config | -s | --set | --sass | -o | --out | -t | --threads | --format | --sample | \
        --progress-every | --top | -b | --backend | -j | --jobs | --threads-per-run | --sim | \
        --hw | --metric | --hw-metric | --clock-mhz | --num-sms | --run | --point | --listing | \
        --phase | --batch | --context | --draft | --hidden | --heads | --kv-heads | --ffn | --experts | --top-k | --model-layers | --gemm | --attention | --tp | --ep | --arch | --listings | \
        --system | --system-set | --op | --bytes | --step-factor | --dtype | --algo | --proto | --gpus)
        continue
        ;;
    esac
    if [[ -z "$command" ]]; then
      command="$word"
    elif [[ -z "$sub" && ("$command" == config || "$command" == trace) ]]; then
      sub="$word"
    fi
  done

  if [[ -z "$command" ]]; then
    _sassim_words "$cur" "run config trace sweep correlate capture workload collective help" "-h --help --version"
    return
  fi

  # Values of options.
  case "$prev" in
    -c | --config)
      if [[ "$command" == run ]]; then
        _sassim_config_value "$sassim" "$cur"
        return
      fi
      ;;
    --format)
      mapfile -t COMPREPLY < <(compgen -W "table json csv" -- "$cur")
      return
      ;;
    -b | --backend)
      mapfile -t COMPREPLY < <(compgen -W "local slurm" -- "$cur")
      return
      ;;
    --sample)
      mapfile -t COMPREPLY < <(compgen -W "off kernels ctas all" -- "$cur")
      return
      ;;
    --phase)
      mapfile -t COMPREPLY < <(compgen -W "decode prefill" -- "$cur")
      return
      ;;
    --gemm)
      mapfile -t COMPREPLY < <(compgen -W "auto tiled skinny ws" -- "$cur")
      return
      ;;
    --attention)
      mapfile -t COMPREPLY < <(compgen -W "cuda tc" -- "$cur")
      return
      ;;
    --arch)
      mapfile -t COMPREPLY < <(compgen -W "sm_80 sm_86 sm_89 sm_90" -- "$cur")
      return
      ;;
    --batch | --context | --draft | --hidden | --heads | --kv-heads | --ffn | --experts | --top-k | \
      --model-layers | --bytes | --step-factor | --gpus)
      return
      ;;
    --system)
      if [[ "$cur" == */* || "$cur" == *.* ]]; then _sassim_files "$cur"; else
        mapfile -t COMPREPLY < <(compgen -W "$(_sassim_system_presets)" -- "$cur"); fi
      return
      ;;
    --op)
      mapfile -t COMPREPLY < <(compgen -W "all_reduce all_gather reduce_scatter alltoall sendrecv" -- "$cur")
      return
      ;;
    --dtype)
      mapfile -t COMPREPLY < <(compgen -W "bf16 fp16 fp32" -- "$cur")
      return
      ;;
    --algo)
      mapfile -t COMPREPLY < <(compgen -W "auto ring tree nvls" -- "$cur")
      return
      ;;
    --proto)
      mapfile -t COMPREPLY < <(compgen -W "auto ll ll128 simple" -- "$cur")
      return
      ;;
    -s | --set | -t | --threads | --progress-every | --top | -j | --jobs | --threads-per-run | \
      --metric | --hw-metric | --clock-mhz | --num-sms | --run | --point)
      return
      ;;
    -o | --out | --sass | --sim | --hw | --listing | --listings)
      _sassim_files "$cur"
      return
      ;;
  esac

  local options
  case "$command" in
    config)
      if [[ -z "$sub" ]]; then
        _sassim_words "$cur" "show list" "-h --help"
        return
      fi
      options="${_sassim_options_config_show}"
      [[ "$sub" == list ]] && options="${_sassim_options_config_list}"
      ;;
    trace)
      if [[ -z "$sub" ]]; then
        _sassim_words "$cur" "info" "-h --help"
        return
      fi
      options="${_sassim_options_trace_info}"
      ;;
    help)
      mapfile -t COMPREPLY < <(compgen -W "run config trace sweep correlate capture workload collective" -- "$cur")
      return
      ;;
    workload)
      if [[ "$cur" != -* ]]; then
        # The workload's name first; after it, files.
        local named=0
        for ((i = 2; i < COMP_CWORD; i++)); do [[ "${COMP_WORDS[i]}" == *-layer ]] && named=1; done
        if ((named == 0)); then
          mapfile -t COMPREPLY < <(compgen -W "dense-layer moe-layer" -- "$cur")
          return
        fi
      fi
      options="${_sassim_options_workload}"
      ;;
    run | sweep | correlate | capture | collective)
      local name="_sassim_options_${command}"
      options="${!name}"
      ;;
    *)
      return
      ;;
  esac

  if [[ "$cur" == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
  elif [[ "$command" == config && "$sub" == show ]]; then
    _sassim_config_value "$sassim" "$cur"
  else
    _sassim_files "$cur"
  fi
}

# A config: a preset name, or a file when the word has a '/' or a '.' (as sassim reads it).
_sassim_config_value() {
  local sassim="$1" cur="$2"
  if [[ "$cur" == */* || "$cur" == *.* ]]; then
    _sassim_files "$cur"
  else
    mapfile -t COMPREPLY < <(compgen -W "$(_sassim_presets "$sassim")" -- "$cur")
  fi
}

complete -F _sassim sassim
