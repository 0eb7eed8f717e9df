#!/usr/bin/env bash
# Scenario 1: checkpoint, SIGKILL, restart from cache.
# The job is killed after step 25 (checkpoints at 10 and 20, nothing flushed
# because SCR_FLUSH=0); the restarted job must resume from step.20 out of the
# node caches -- not from step 0, not from the prefix -- and end with the same
# checksum as an uninterrupted run. A second kill, on another rank and right
# after a checkpoint, must resume from that very checkpoint.
source "$(dirname "$0")/lib.sh"
e2e_begin restart_cache
ARGS=(-n 40 -c 10)

run_job SCR_FLUSH=0 -- "$E2E_NP" "$HEAT" "${ARGS[@]}" --crash-at 25
expect_crashed "job killed at step 25"
expect_checkpoint_steps "10 20"
expect_err "simulating a failure at step 25"
[[ -z "$(find "$PREFIX" -name 'rank_*.dat')" ]] || fail "SCR_FLUSH=0 but checkpoint files reached the prefix"
for n in ${E2E_NODES//,/ }; do
  [[ -n "$(cached_datasets "$n")" ]] || fail "node $n holds no cached dataset after the kill"
done

run_job SCR_FLUSH=0 -- "$E2E_NP" "$HEAT" "${ARGS[@]}" --crash-at 30 --crash-rank $((E2E_NP - 1))
expect_crashed "restarted job killed at step 30 on the last rank"
expect_resumed_from step.20
expect_checkpoint_steps "30"
[[ -z "$(find "$PREFIX" -name 'rank_*.dat')" ]] || fail "the restart fetched or flushed through the prefix"

run_job SCR_FLUSH=0 -- "$E2E_NP" "$HEAT" "${ARGS[@]}"
expect_ok "second restart"
expect_resumed_from step.30
expect_checkpoint_steps "40"
expect_result_equals_uninterrupted "${ARGS[@]}"
e2e_pass
