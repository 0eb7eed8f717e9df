#!/usr/bin/env bash
# One checkpoint through node losses in turn on the cluster in a box (XOR,
# 4 nodes x 2 ranks of the heat demo, 2 spare nodes). The job checkpoints
# at 10, 20 and 30 (nothing flushed) and is killed at 35. Then, four times,
# one more node of the set is lost for real (processes killed, tmpfs gone)
# and the job restarts on the survivors plus a spare, resumes from step.30
# rebuilt out of the caches, and is killed again at 35 before it writes a
# newer checkpoint. By the fourth loss every node that held step.30 when it
# was written has been lost and rebuilt once; the last job must still
# resume from step.30 and end with the checksum of an uninterrupted run.
source "$(dirname "$0")/../e2e/lib.sh"
source "$(dirname "$0")/cluster.sh"
source "$(dirname "$0")/heat_job.sh"
cluster_need
heat_cluster_begin cluster_losses_in_turn 6
ARGS=(-n 40 -c 10)
heat_reference "${N[@]:0:4}" -- "${ARGS[@]}"

E2E_COPY_TYPE=XOR
use_dirs "$E2E_DIR/xor"
CACHE=/dev/shm/turns CNTL=/dev/shm/turns.cntl
nodes=("${N[@]:0:4}")
heat_job "${nodes[@]}" -- SCR_FLUSH=0 "${ARGS[@]}" --crash-at 35
expect_crashed "first job, killed at step 35"
expect_checkpoint_steps "10 20 30"
for i in 0 1 2 3; do
  # The spares first, then the nodes lost before, booted again empty.
  cluster_boot_lost
  spare=""
  for n in "${N[@]}"; do [[ " ${nodes[*]} " == *" $n "* ]] || { spare="$n"; break; }; done
  next=()
  cluster_lose_replace next "$i" "${nodes[@]}" -- "$spare"
  nodes=("${next[@]}")
  if ((i < 3)); then
    heat_job "${nodes[@]}" -- SCR_FLUSH=0 "${ARGS[@]}" --crash-at 35
    expect_crashed "job after loss $((i + 1)) on ${nodes[*]}, killed at step 35"
  else
    heat_job "${nodes[@]}" -- SCR_FLUSH=0 "${ARGS[@]}"
    expect_ok "job after loss $((i + 1)) on ${nodes[*]}"
  fi
  expect_resumed_from step.30
done
expect_reference_result "after four losses in turn"
e2e_pass
