#!/usr/bin/env bash
# The restart matrix on the cluster in a box: no SCR_SIM_NODES, every node a
# host of its own (name, /dev/shm, network), 4 nodes x 2 ranks of the heat
# demo plus 2 spare nodes. For each of SINGLE, PARTNER, XOR and RS:
#   1. a job checkpoints at 10, 20 (flushed: SCR_FLUSH=2), 30 (cache only)
#      and is killed at 35;
#   2. as many nodes as the scheme tolerates are lost for real (processes
#      killed, tmpfs gone): SINGLE 0, XOR 1, PARTNER 2 (not partners of
#      each other), RS 2; the job restarts on the survivors plus spares and
#      must resume from step.30 out of the caches (rebuilt on the spares),
#      and is killed at 45 after checkpointing step.40 (cache only);
#   3. one node more than tolerated is lost; the lost nodes boot again
#      empty and the job restarts on them: it must resume from step.20, the
#      newest checkpoint in the prefix, and finish with the checksum of an
#      uninterrupted run (the bytes restored are the bytes written).
# Failure groups are the real host names (SCR++'s default NODE groups).
source "$(dirname "$0")/../e2e/lib.sh"
source "$(dirname "$0")/cluster.sh"
cluster_need
# shellcheck disable=SC2034  # read by e2e_tmp_base in lib.sh
SCR_E2E_TMP=/tmp  # shared by the nodes (their /dev/shm is their own); not exported
E2E_NP=8
e2e_begin cluster_restart_matrix
cluster_start 6
MPIEXEC="$CLUSTER_MPIRUN"
N=("${CLUSTER_NODES[@]}")
ARGS=(-n 50 -c 10)

# cjob NODE... -- [VAR=VALUE...] HEAT_ARGS...: 8 ranks of heat, 2 per node.
cjob() {
  local -a nodes=() vars=()
  while [[ "$1" != -- ]]; do nodes+=("$1"); shift; done
  shift
  while [[ "${1:-}" == *=* ]]; do vars+=("$1"); shift; done
  export CLUSTER_HOSTS
  CLUSTER_HOSTS="$(cluster_hosts 2 "${nodes[@]}")"
  run_job SCR_SIM_NODES= "${vars[@]}" -- 8 "$HEAT" "$@"
}

# Every node of the cluster up (lost ones boot again, empty).
boot_lost_nodes() {
  local n
  for n in "${N[@]}"; do cluster_node_pid "$n" >/dev/null || cluster_boot_node "$n"; done
}

# The uninterrupted run, once, on the first four nodes.
use_dirs "$E2E_DIR/reference"
CACHE=/dev/shm/reference CNTL=/dev/shm/reference.cntl
cjob "${N[@]:0:4}" -- "${ARGS[@]}"
expect_ok "uninterrupted reference run"
REFERENCE="$(result_line)"

# scheme "nodes lost in step 2" "nodes lost in step 3 (of step 2's node list)"
run_scheme() {
  local type="$1" lose_a="$2" lose_b="$3"
  E2E_COPY_TYPE="$type"
  E2E_NAME="cluster_restart_matrix[$type]"
  boot_lost_nodes
  use_dirs "$E2E_DIR/$type"
  CACHE="/dev/shm/$type" CNTL="/dev/shm/$type.cntl"
  local -a first=("${N[@]:0:4}")
  cjob "${first[@]}" -- SCR_FLUSH=2 "${ARGS[@]}" --crash-at 35
  expect_crashed "$type: first job, killed at step 35"
  expect_checkpoint_steps "10 20 30"
  expect_index step.20 flushed 1
  expect_index step.30 flushed absent

  local -a second=() spares=("${N[@]:4}") i
  for i in 0 1 2 3; do
    if [[ " $lose_a " == *" $i "* ]]; then
      cluster_lose_node "${first[i]}"
      second+=("${spares[0]}")
      spares=("${spares[@]:1}")
    else
      second+=("${first[i]}")
    fi
  done
  cjob "${second[@]}" -- SCR_FLUSH=0 "${ARGS[@]}" --crash-at 45
  expect_crashed "$type: second job on ${second[*]}, killed at step 45"
  expect_resumed_from step.30
  expect_checkpoint_steps "40"
  expect_index step.30 flushed absent

  for i in $lose_b; do cluster_lose_node "${second[i]}"; done
  boot_lost_nodes
  cjob "${second[@]}" -- SCR_FLUSH=0 "${ARGS[@]}"
  expect_ok "$type: third job, after more nodes were lost than $type tolerates"
  expect_resumed_from step.20
  [[ "$(result_line)" == "$REFERENCE" ]] ||
    fail "$type: '$(result_line)' differs from the uninterrupted run's '$REFERENCE'"
  say "restarted from cache after losing node(s) [$lose_a], from the prefix after [$lose_b]"
}

run_scheme SINGLE "" "0"
run_scheme XOR "1" "0 2"
run_scheme PARTNER "0 2" "1 2"
run_scheme RS "1 2" "0 1 3"
E2E_NAME=cluster_restart_matrix
e2e_pass
