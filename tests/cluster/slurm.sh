# shellcheck shell=bash
# SLURM across the cluster in a box (source after cluster.sh, after
# cluster_start): munged and slurmctld on the host at the bridge address,
# one slurmd per node inside it, so `srun -N 4` lands on four hosts and a
# lost node's slurmd dies with it (SLURM then reports it not responding).
#
#   cluster_slurm_start          # SLURM_CONF exported; every node idle
#   srun -N 4 hostname
#
# The daemons' files live in $CLUSTER_DIR/slurm (seen by every node); the
# host's daemons are stopped by cluster_stop (cluster_teardown_slot), the
# nodes' slurmd die with their nodes. PMIx's per-step directories go to each
# node's own /dev/shm (mpi.conf), since /tmp is shared by the nodes.

# Shares munged's start and the common slurm.conf lines with the one-node
# cluster of the job-command tests.
CLUSTER_SLURM_LOCAL="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../scripts" && pwd)/slurm_local.sh"

cluster_slurm_start() {
  local t
  for t in munged slurmctld slurmd srun sinfo scontrol; do
    command -v "$t" >/dev/null || {
      printf '[cluster] SKIPPED: %s is not installed (SLURM across the nodes)\n' "$t" >&2
      exit "$CLUSTER_SKIP"
    }
  done
  local dir="$CLUSTER_DIR/slurm" host port n nodes=""
  host="$(hostname -s)"
  port=$((17100 + 10 * CLUSTER_SLOT))
  mkdir -p "$dir/state"
  bash "$CLUSTER_SLURM_LOCAL" munge "$dir" || cluster_die "munged did not start"
  for n in "${CLUSTER_NODES[@]}"; do
    mkdir -p "$dir/spool.$n"
    nodes+="NodeName=$n NodeAddr=$(cluster_node_ip "$n") CPUs=4 State=UNKNOWN"$'\n'
  done
  cat >"$dir/slurm.conf" <<CONF
# The cluster in a box, slot $CLUSTER_SLOT (tests/cluster/slurm.sh).
ClusterName=scrbox$CLUSTER_SLOT
FirstJobId=$((RANDOM * 30 + 1000))
SlurmctldHost=$host(10.213.$CLUSTER_SLOT.1)
StateSaveLocation=$dir/state
# PMIx's per-step application directories go under TmpFS: node-local, or
# the nodes would share (and remove) each other's in /tmp.
TmpFS=/dev/shm
SlurmdSpoolDir=$dir/spool.%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.%n.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.%n.log
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmdTimeout=10
$(bash "$CLUSTER_SLURM_LOCAL" common-conf "$dir")
${nodes}PartitionName=box Nodes=${CLUSTER_PREFIX}[0-$((${#CLUSTER_NODES[@]} - 1))] Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE
CONF
  echo "PMIxCliTmpDirBase=/dev/shm/pmix" >"$dir/mpi.conf"
  export SLURM_CONF="$dir/slurm.conf"
  slurmctld -f "$SLURM_CONF" -i || cluster_die "slurmctld did not start (see $dir/slurmctld.log)"
  for n in "${CLUSTER_NODES[@]}"; do cluster_slurmd_start "$n"; done
  for _ in $(seq 1 120); do
    [[ "$(sinfo -h -N -o '%N %T' 2>/dev/null | grep -c ' idle$')" -eq "${#CLUSTER_NODES[@]}" ]] && break
    sleep 0.5
  done
  [[ "$(sinfo -h -N -o '%N %T' 2>/dev/null | grep -c ' idle$')" -eq "${#CLUSTER_NODES[@]}" ]] || {
    sinfo -N -l >&2 || true
    tail -n 20 "$dir/slurmctld.log" >&2 || true
    cluster_die "the nodes did not all become idle within 60 s"
  }
  cluster_say "SLURM up: SLURM_CONF=$SLURM_CONF"
}

# slurmd on NODE (again after cluster_boot_node).
cluster_slurmd_start() {
  cluster_on "$1" mkdir -p /dev/shm/pmix
  cluster_on "$1" slurmd -f "$SLURM_CONF" -N "$1" ||
    cluster_die "slurmd did not start on $1 (see $CLUSTER_DIR/slurm/slurmd.$1.log)"
}

# Host daemons of a slot's SLURM (called by cluster_teardown_slot).
cluster_slurm_stop() {
  local dir="$1/slurm" f pid
  [[ -d "$dir" ]] || return 0
  for f in "$dir/slurmctld.pid" "$dir/munge/munged.pid"; do
    [[ -f "$f" ]] || continue
    pid="$(cat "$f")"
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 1 50); do cluster_alive "$pid" || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
}
