#!/usr/bin/env bash
# The job paths beyond the restart matrix, on the cluster in a box (every
# node a host of its own, 4 nodes x 2 ranks, nothing simulated):
#   1. cache bypass with one file shared by ranks on every host
#      (examples/shared): each rank writes its block of ckpt.<step>/state.dat
#      in the prefix; after a crash the job restarts from it, every byte
#      verified by the program;
#   2. async flush (SCR_FLUSH_ASYNC=1) with nodes killed while the job holds
#      after a checkpoint whose flush was started: a restart after one node
#      lost resumes from that checkpoint (cache, rebuilt on a spare); after
#      every node lost, from the newest checkpoint whose flush completed,
#      never one left half flushed, with the uninterrupted result;
#   3. restart at a different size after a node loss: step.30 only in the
#      caches, one node lost, scr_postrun saves it from the live hosts, and
#      the job restarts on 3 hosts x 2 ranks (6 ranks, not 8) from it.
source "$(dirname "$0")/../e2e/lib.sh"
source "$(dirname "$0")/cluster.sh"
cluster_need
# shellcheck disable=SC2034  # read by e2e_tmp_base in lib.sh
SCR_E2E_TMP=/tmp  # shared by the nodes (their /dev/shm is their own); not exported
E2E_NP=8
e2e_begin cluster_job_paths
cluster_start 5
MPIEXEC="$CLUSTER_MPIRUN"
N=("${CLUSTER_NODES[@]}")
SHARED="$SCRPP_BUILD/examples/shared/shared_file"
POSTRUN="$SCRPP_BUILD/tools/scr_postrun/scr_postrun"
need_file "$SHARED"
need_file "$POSTRUN"

# cjob NP NODES -- [VAR=VALUE...] PROGRAM ARGS...: NP ranks, 2 per node.
cjob() {
  local np="$1" nodes="$2"
  shift 3
  local -a vars=()
  while [[ "${1:-}" == *=* ]]; do vars+=("$1"); shift; done
  export CLUSTER_HOSTS
  # shellcheck disable=SC2086
  CLUSTER_HOSTS="$(cluster_hosts 2 $nodes)"
  run_job SCR_SIM_NODES= "${vars[@]}" -- "$np" "$@"
}
FIRST4="${N[*]:0:4}"

use_dirs "$E2E_DIR/reference"
CACHE=/dev/shm/reference CNTL=/dev/shm/reference.cntl
cjob 8 "$FIRST4" -- "$HEAT" -n 50 -c 10
expect_ok "uninterrupted reference run"
REFERENCE="$(result_line)"

# --- 1. cache bypass, one file shared by ranks on four hosts --------------------
E2E_NAME="cluster_job_paths[bypass, shared file]"
use_dirs "$E2E_DIR/shared"
CACHE=/dev/shm/shared CNTL=/dev/shm/shared.cntl
BYTES=65536
cjob 8 "$FIRST4" -- SCR_CACHE_BYPASS=1 "$SHARED" -n 20 -c 5 -b $BYTES --crash-at 12
expect_crashed "shared file job, killed at step 12"
assert_eq "$(stat -c %s "$PREFIX/ckpt.10/state.dat")" $((8 * BYTES)) "size of the shared file"
expect_index ckpt.10 loadable 1
cjob 8 "$FIRST4" -- SCR_CACHE_BYPASS=1 "$SHARED" -n 20 -c 5 -b $BYTES
expect_ok "the restart of the shared-file job"
grep -q "resumed from checkpoint 'ckpt.10'" "$LAST_OUT" || fail "did not resume from ckpt.10"
expect_no_err MISMATCH
expect_out "RESULT steps=20 resumed=10"
say "8 ranks on 4 hosts wrote one file per checkpoint and restarted from it, verified"

# --- 2. async flush, every node killed while it may still run -----------------
E2E_NAME="cluster_job_paths[async flush]"
E2E_COPY_TYPE=XOR
GRID=(-g 512 512)
use_dirs "$E2E_DIR/async-reference"
CACHE=/dev/shm/async-reference CNTL=/dev/shm/async-reference.cntl
cjob 8 "$FIRST4" -- "$HEAT" -n 50 -c 10 "${GRID[@]}"
expect_ok "uninterrupted run on the larger grid"
REFERENCE_GRID="$(result_line)"
use_dirs "$E2E_DIR/async"
CACHE=/dev/shm/async CNTL=/dev/shm/async.cntl
held="$E2E_DIR/job$((JOB_N + 1)).out"
(cjob 8 "$FIRST4" -- SCR_FLUSH=1 SCR_FLUSH_ASYNC=1 "$HEAT" -n 50 -c 10 "${GRID[@]}" --hold-at 30) &
job=$!
JOB_N=$((JOB_N + 1))
for _ in $(seq 1 600); do grep -q "holding until killed" "$held" 2>/dev/null && break; sleep 0.1; done
grep -q "holding until killed" "$held" || fail "the job never held at step 30: $(cat "$held")"
for n in "${N[@]:0:4}"; do cluster_lose_node "$n"; done
wait "$job" || true
cluster_boot_lost
cjob 8 "$FIRST4" -- SCR_FLUSH=1 SCR_FLUSH_ASYNC=1 "$HEAT" -n 50 -c 10 "${GRID[@]}"
expect_ok "the restart after every node was lost during the async flush"
from="$(resumed_from)"
case "$from" in
  step.10|step.20|step.30) ;;
  *) fail "resumed from '$from', expected the newest checkpoint whose flush completed" ;;
esac
[[ "$(index_field "$from" complete)" == 1 ]] || fail "resumed from $from, which is not complete"
[[ "$(result_line)" == "$REFERENCE_GRID" ]] ||
  fail "'$(result_line)' differs from the uninterrupted run's '$REFERENCE_GRID'"
say "every node lost while holding after step.30 (async flush): resumed from $from, result verified"

# --- 3. restart at a different size after a node loss ----------------------------
E2E_NAME="cluster_job_paths[other size]"
use_dirs "$E2E_DIR/resize"
CACHE=/dev/shm/resize CNTL=/dev/shm/resize.cntl
cjob 8 "$FIRST4" -- SCR_FLUSH=2 "$HEAT" -n 50 -c 10 --crash-at 35
expect_crashed "the 8-rank job, killed at step 35"
expect_index step.30 flushed absent
cluster_lose_node "${N[3]}"
(cd "$PREFIX" && cluster_on "${N[0]}" env SCR_CACHE_BASE="$CACHE" SCR_CNTL_BASE="$CNTL" \
  SCR_NODELIST="$(IFS=,; echo "${N[*]:0:4}")" SCR_NODE_REMOTE="$CLUSTER_RSH" SCR_SIM_NODES= \
  PATH="$SCRPP_BUILD/tools/scr_scavenge:$PATH" "$POSTRUN" -p "$PREFIX") >"$E2E_DIR/postrun.out" 2>&1 ||
  fail "scr_postrun failed: $(cat "$E2E_DIR/postrun.out")"
expect_index step.30 flushed 1
CACHE=/dev/shm/resize.next CNTL=/dev/shm/resize.next.cntl
cjob 6 "${N[0]} ${N[1]} ${N[2]}" -- "$HEAT" -n 50 -c 10
expect_ok "the 6-rank restart"
expect_resumed_from step.30
[[ "$(result_line)" == "$REFERENCE" ]] ||
  fail "'$(result_line)' differs from the uninterrupted run's '$REFERENCE'"
say "8 ranks lost a host, scr_postrun saved step.30, 6 ranks on 3 hosts resumed from it"
E2E_NAME=cluster_job_paths
e2e_pass
