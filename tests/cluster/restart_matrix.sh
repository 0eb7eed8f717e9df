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
source "$(dirname "$0")/heat_job.sh"
cluster_need
heat_cluster_begin cluster_restart_matrix 6
ARGS=(-n 50 -c 10)

# The uninterrupted run, once, on the first four nodes.
heat_reference "${N[@]:0:4}" -- "${ARGS[@]}"

# scheme "nodes lost in step 2" "nodes lost in step 3 (of step 2's node list)"
run_scheme() {
  local type="$1" lose_a="$2" lose_b="$3"
  E2E_COPY_TYPE="$type"
  E2E_NAME="cluster_restart_matrix[$type]"
  cluster_boot_lost
  use_dirs "$E2E_DIR/$type"
  CACHE="/dev/shm/$type" CNTL="/dev/shm/$type.cntl"
  local -a first=("${N[@]:0:4}")
  heat_job "${first[@]}" -- SCR_FLUSH=2 "${ARGS[@]}" --crash-at 35
  expect_crashed "$type: first job, killed at step 35"
  expect_checkpoint_steps "10 20 30"
  expect_index step.20 flushed 1
  expect_index step.30 flushed absent

  local -a second=() i
  cluster_lose_replace second "$lose_a" "${first[@]}" -- "${N[@]:4}"
  heat_job "${second[@]}" -- SCR_FLUSH=0 "${ARGS[@]}" --crash-at 45
  expect_crashed "$type: second job on ${second[*]}, killed at step 45"
  expect_resumed_from step.30
  expect_checkpoint_steps "40"
  expect_index step.30 flushed absent

  for i in $lose_b; do cluster_lose_node "${second[i]}"; done
  cluster_boot_lost
  heat_job "${second[@]}" -- SCR_FLUSH=0 "${ARGS[@]}"
  expect_ok "$type: third job, after more nodes were lost than $type tolerates"
  expect_resumed_from step.20
  expect_reference_result "$type"
  say "restarted from cache after losing node(s) [$lose_a], from the prefix after [$lose_b]"
}

run_scheme SINGLE "" "0"
run_scheme XOR "1" "0 2"
run_scheme PARTNER "0 2" "1 2"
run_scheme RS "1 2" "0 1 3"
E2E_NAME=cluster_restart_matrix
e2e_pass
