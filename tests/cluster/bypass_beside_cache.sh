#!/usr/bin/env bash
# Checkpoints written to the prefix (BYPASS=1) beside cached ones, on the
# cluster in a box (XOR, 4 nodes x 2 ranks of the heat demo, 2 spare
# nodes). Odd checkpoints are cached, even ones go to the prefix: the job
# writes step.10 (cache) and step.20 (prefix) and is killed at 25. A node is
# lost for real and the job restarts on the survivors plus a spare: it must
# resume from step.20, the newest checkpoint, read where it lies in the
# prefix, not from the older step.10 rebuilt in cache, and end with the
# checksum of an uninterrupted run.
source "$(dirname "$0")/../e2e/lib.sh"
source "$(dirname "$0")/cluster.sh"
source "$(dirname "$0")/heat_job.sh"
cluster_need
heat_cluster_begin cluster_bypass_beside_cache 6
ARGS=(-n 40 -c 10)
heat_reference "${N[@]:0:4}" -- "${ARGS[@]}"

E2E_COPY_TYPE=XOR
use_dirs "$E2E_DIR/alternate"
CACHE=/dev/shm/alternate CNTL=/dev/shm/alternate.cntl
CONF="$E2E_DIR/alternate.conf"
printf 'CKPT=0 TYPE=XOR\nCKPT=1 INTERVAL=2 BYPASS=1\n' >"$CONF"
HEAT_JOB_SETTINGS=(SCR_CONF_FILE="$CONF" SCR_FLUSH=0)
nodes=("${N[@]:0:4}")
heat_job "${nodes[@]}" -- "${ARGS[@]}" --crash-at 25
expect_crashed "first job, killed at step 25"
expect_index step.20 loadable 1
assert_file "$PREFIX/step.20/rank_0.dat" "the checkpoint written to the prefix"
next=()
cluster_lose_replace next 1 "${nodes[@]}" -- "${N[4]}"
heat_job "${next[@]}" -- "${ARGS[@]}"
expect_ok "job on ${next[*]} after a node was lost"
expect_resumed_from step.20
expect_reference_result "restarted from the checkpoint in the prefix"
e2e_pass
