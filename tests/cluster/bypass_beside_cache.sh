#!/usr/bin/env bash
# Checkpoints written to the prefix (BYPASS=1) beside cached ones, on the
# cluster in a box (XOR, 4 nodes x 2 ranks of the heat demo, 2 spare
# nodes). Odd checkpoints are cached, even ones go to the prefix: the job
# writes step.10 (cache) and step.20 (prefix) and is killed at 25. A node is
# lost for real and the job restarts on the survivors plus a spare: it must
# resume from step.20, the newest checkpoint, read where it lies in the
# prefix, not from the older step.10 rebuilt in cache, and end with the
# checksum of an uninterrupted run. Then the same at another size (6 ranks)
# with step.20 damaged: step.10 is saved from the caches and resumed from.
# Then a bypass checkpoint older than cached ones that were flushed and
# lost with two hosts: the newest flushed one is resumed from.
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

# At another size: the same first job, then step.20 damaged in the prefix
# and a host lost. 6 ranks on the 3 hosts left: the cached step.10 is made
# whole and saved to the prefix first (sets of 4 spanning the hosts),
# step.20 fails its check, and the job resumes from step.10.
E2E_NAME="cluster_bypass_beside_cache[another size]"
use_dirs "$E2E_DIR/rescale"
CACHE=/dev/shm/rescale CNTL=/dev/shm/rescale.cntl
HEAT_JOB_SETTINGS=(SCR_CONF_FILE="$CONF" SCR_FLUSH=0 SCR_SET_SIZE=4)
cluster_boot_lost
nodes=("${N[@]:0:4}")
heat_job "${nodes[@]}" -- "${ARGS[@]}" --crash-at 25
expect_crashed "8-rank job, killed at step 25"
corrupt_byte "$PREFIX/step.20/rank_3.dat" 10
cluster_lose_node "${nodes[3]}"
heat_job "${nodes[@]:0:3}" -- "${ARGS[@]}"
expect_ok "the 6-rank restart on 3 hosts"
expect_resumed_from step.10
expect_index step.10 flushed 1
expect_reference_result "6 ranks"

# A bypass checkpoint the filemaps still list below newer cached ones: a
# first job writes step.10 to the prefix (all bypass) and is killed; the
# next resumes from it, caches and flushes step.20 and step.30 and is
# killed at 35. Two hosts are lost, beyond what XOR rebuilds, and nothing
# is left in cache: the job must resume from step.30, fetched, not from the
# older step.10 the filemaps still name.
E2E_NAME="cluster_bypass_beside_cache[older bypass entry]"
use_dirs "$E2E_DIR/older"
CACHE=/dev/shm/older CNTL=/dev/shm/older.cntl
cluster_boot_lost
nodes=("${N[@]:0:4}")
HEAT_JOB_SETTINGS=(SCR_CACHE_BYPASS=1 SCR_FLUSH=0)
heat_job "${nodes[@]}" -- "${ARGS[@]}" --crash-at 15
expect_crashed "all-bypass job, killed at step 15"
HEAT_JOB_SETTINGS=(SCR_CACHE_BYPASS=0 SCR_FLUSH=1)
heat_job "${nodes[@]}" -- "${ARGS[@]}" --crash-at 35
expect_crashed "cached job, killed at step 35"
expect_resumed_from step.10
expect_index step.30 loadable 1
next=()
cluster_lose_replace next "1 2" "${nodes[@]}" -- "${N[4]}" "${N[5]}"
heat_job "${next[@]}" -- "${ARGS[@]}"
expect_ok "job on ${next[*]} after two hosts were lost"
expect_resumed_from step.30
expect_reference_result "resumed from the newest checkpoint, in the prefix"
e2e_pass
