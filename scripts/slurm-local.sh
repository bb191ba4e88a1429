#!/usr/bin/env bash
# A real Slurm cluster of one node on localhost, every file of it in one folder.
#
#   scripts/slurm-local.sh start DIR    start munged, slurmctld and slurmd; wait until
#                                       the node is idle; print SLURM_CONF=DIR/slurm.conf
#   scripts/slurm-local.sh stop DIR     stop the daemons by the pids in their pid files
#   scripts/slurm-local.sh status DIR   exit 0 when the cluster in DIR answers and is up
#
# Both start and stop are idempotent. Clients (sbatch, squeue, sassim sweep --backend
# slurm) need `export SLURM_CONF=DIR/slurm.conf`. The cluster has its own munge key and
# socket and its own ports, so it neither needs nor disturbs a system munged or Slurm.
# Needs Debian's slurm-wlm and munge (scripts/setup.sh installs them); no systemd, no
# cgroups. Every daemon runs as the user running this script (jobs too), so it works as
# root (CI) and as a developer. munged wants every folder above DIR searchable by all
# (a+x); start makes DIR so and says which folder above it is not. See
# shared/notes/slurm-local.md for the facts this follows.
set -euo pipefail

usage() {
  echo "usage: $0 start|stop|status DIR" >&2
  exit 2
}
(($# == 2)) || usage
action="$1"
dir="$2"

log() { echo "slurm-local: $*" >&2; }
die() {
  log "error: $*"
  exit 1
}

# The pid in a pid file when that pid still runs the named program (else nothing).
live_pid() {
  local pidfile="$1" program="$2" pid
  [[ -f "$pidfile" ]] || return 0
  pid="$(tr -dc '0-9' <"$pidfile")"
  if [[ -n "$pid" && "$(cat "/proc/$pid/comm" 2>/dev/null)" == "$program" ]]; then echo "$pid"; fi
}

# Sends TERM to the daemons named by pid files ("PIDFILE:PROGRAM" each) whose pid
# still runs that program, waits for them all (KILL after 10 s), removes the pid files.
stop_daemons() {
  local entry pid pids=() i
  for entry in "$@"; do
    pid="$(live_pid "${entry%%:*}" "${entry##*:}")"
    if [[ -n "$pid" ]]; then
      kill -TERM "$pid" 2>/dev/null || true
      pids+=("$pid")
    fi
  done
  for pid in "${pids[@]}"; do
    for ((i = 0; i < 100; i++)); do
      [[ -d "/proc/$pid" ]] || break
      sleep 0.1
    done
    if [[ -d "/proc/$pid" ]]; then
      log "pid $pid did not stop on TERM; killing it"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  for entry in "$@"; do rm -f "${entry%%:*}"; done
}

# True when the pid file names a live process running the named program.
daemon_alive() {
  [[ -n "$(live_pid "$1" "$2")" ]]
}

# True when nothing listens on 127.0.0.1:PORT.
port_free() {
  ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

cluster_up() {
  daemon_alive "$dir/slurmctld.pid" slurmctld && daemon_alive "$dir/slurmd.pid" slurmd &&
    SLURM_CONF="$dir/slurm.conf" scontrol ping 2>/dev/null | grep -q 'is UP' &&
    [[ "$(SLURM_CONF="$dir/slurm.conf" sinfo -h -n localhost -o %T 2>/dev/null)" =~ ^(idle|mixed|allocated) ]]
}

# Prints the tail of each daemon log, to explain a start that failed.
show_logs() {
  local f
  for f in "$dir/munge/munged.log" "$dir/log/slurmctld.log" "$dir/log/slurmd.log"; do
    [[ -f "$f" ]] || continue
    log "--- last lines of $f"
    tail -n 15 "$f" >&2
  done
}

# Waits up to $1 seconds for the command after it to succeed.
wait_for() {
  local seconds="$1" i
  shift
  for ((i = 0; i < seconds * 10; i++)); do
    if "$@"; then return 0; fi
    sleep 0.1
  done
  return 1
}

# munged wants every folder above its socket searchable by all; says which is not.
check_searchable() {
  local d="$1"
  while [[ "$d" != "/" ]]; do
    if [[ "$(stat -c %A "$d")" != d??x??x??[xt]* ]]; then
      die "munged needs every folder above its socket searchable by all, and $d is not (chmod a+x $d, or use another DIR)"
    fi
    d="$(dirname "$d")"
  done
}

start_munge() {
  local mdir="$dir/munge"
  if daemon_alive "$mdir/munged.pid" munged; then return 0; fi
  rm -f "$mdir/munge.socket" "$mdir/munge.socket.lock" "$mdir/munged.pid"
  install -d -m 0711 "$mdir"
  chmod a+x "$dir"
  check_searchable "$mdir"
  if [[ ! -s "$mdir/munge.key" ]]; then
    if command -v mungekey >/dev/null; then
      mungekey --create --keyfile="$mdir/munge.key" --force
    else
      dd if=/dev/urandom of="$mdir/munge.key" bs=1 count=1024 status=none
    fi
  fi
  chmod 0400 "$mdir/munge.key"
  # munged runs as the user running this script (root in CI), with this cluster's key.
  munged --socket="$mdir/munge.socket" --key-file="$mdir/munge.key" \
    --pid-file="$mdir/munged.pid" --log-file="$mdir/munged.log" --seed-file="$mdir/munged.seed" ||
    {
      show_logs
      die "munged did not start"
    }
  wait_for 10 test -S "$mdir/munge.socket" || die "munged opened no socket at $mdir/munge.socket"
  munge -n --socket="$mdir/munge.socket" | unmunge --socket="$mdir/munge.socket" >/dev/null ||
    die "munge credentials do not round-trip through $mdir/munge.socket"
}

write_conf() {
  local ctld_port="" slurmd_port="" p cpus mem_mb user
  # Keep the ports of an earlier start in this folder; else take the first free pair.
  if [[ -f "$dir/slurm.conf" ]]; then
    ctld_port="$(sed -n 's/^SlurmctldPort=//p' "$dir/slurm.conf")"
    slurmd_port="$(sed -n 's/^SlurmdPort=//p' "$dir/slurm.conf")"
  fi
  if [[ -z "$ctld_port" || -z "$slurmd_port" ]] || ! port_free "$ctld_port" || ! port_free "$slurmd_port"; then
    ctld_port=""
    for ((p = 16817; p < 17817; p += 2)); do
      if port_free "$p" && port_free "$((p + 1))"; then
        ctld_port="$p"
        slurmd_port="$((p + 1))"
        break
      fi
    done
    [[ -n "$ctld_port" ]] || die "no two free ports between 16817 and 17817"
  fi
  cpus="$(nproc)"
  mem_mb="$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)"
  user="$(id -un)"
  cat >"$dir/slurm.conf" <<EOF
# Written by scripts/slurm-local.sh: one node on localhost, all state in $dir.
ClusterName=sassim-local
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0,sched_min_interval=100000
ReturnToService=2
MpiDefault=none
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
}

start() {
  local tool
  for tool in munged munge unmunge slurmctld slurmd scontrol sinfo; do
    command -v "$tool" >/dev/null ||
      die "'$tool' is not installed; install slurm-wlm and munge (scripts/setup.sh does)"
  done
  mkdir -p "$dir"
  dir="$(cd "$dir" && pwd -P)"
  if cluster_up; then
    log "already running in $dir"
    echo "SLURM_CONF=$dir/slurm.conf"
    return 0
  fi
  mkdir -p "$dir/state" "$dir/spool" "$dir/log"
  start_munge
  # A daemon of an earlier start still running keeps the config (and ports) it read.
  if [[ ! -f "$dir/slurm.conf" ]] ||
    ! { daemon_alive "$dir/slurmctld.pid" slurmctld || daemon_alive "$dir/slurmd.pid" slurmd; }; then
    write_conf
  fi
  export SLURM_CONF="$dir/slurm.conf"
  if ! daemon_alive "$dir/slurmctld.pid" slurmctld; then
    slurmctld -f "$SLURM_CONF" || {
      show_logs
      die "slurmctld did not start"
    }
  fi
  if ! wait_for 30 bash -c 'scontrol ping 2>/dev/null | grep -q "is UP"'; then
    show_logs
    die "slurmctld is not UP after 30 s"
  fi
  if ! daemon_alive "$dir/slurmd.pid" slurmd; then
    slurmd -f "$SLURM_CONF" -N localhost || {
      show_logs
      die "slurmd did not start"
    }
  fi
  # shellcheck disable=SC2016 # the inner shell expands it
  if ! wait_for 60 bash -c '[[ "$(sinfo -h -n localhost -o %T 2>/dev/null)" == idle ]]'; then
    show_logs
    die "node localhost is not idle after 60 s (state: $(sinfo -h -n localhost -o %T 2>&1))"
  fi
  log "cluster up in $dir"
  echo "SLURM_CONF=$dir/slurm.conf"
}

stop() {
  [[ -d "$dir" ]] || return 0
  stop_daemons "$dir/slurmd.pid:slurmd" "$dir/slurmctld.pid:slurmctld" "$dir/munge/munged.pid:munged"
  log "stopped the cluster in $dir"
}

case "$action" in
  start) start ;;
  stop) stop ;;
  status)
    if [[ -d "$dir" ]] && dir="$(cd "$dir" && pwd -P)" && cluster_up; then
      echo "up"
    else
      echo "down"
      exit 1
    fi
    ;;
  *) usage ;;
esac
