#!/usr/bin/env bash
# Scenario 1: checkpoint, SIGKILL, restart from cache.
# The job is killed after step 25 (checkpoints at 10 and 20, nothing flushed
# because SCR_FLUSH=0); the restarted job must resume from step.20 out of the
# node caches -- not from step 0, not from the prefix -- and end with the same
# checksum as an uninterrupted run. A second kill, on another rank and right
# after a checkpoint, must resume from that very checkpoint; a third restart
# with the simulated nodes in reverse order (ranks moved) still finds its
# cached checkpoint.
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

# Killed once more, then restarted with the node list reversed: every rank
# now runs where another rank's files are; the cached step.50 must still be
# found (files sent to the node of their owner).
run_job SCR_FLUSH=0 -- "$E2E_NP" "$HEAT" -n 60 -c 10 --crash-at 55
expect_crashed "third job killed at step 55"
E2E_NODES="$(tr ',' '\n' <<<"$E2E_NODES" | tac | paste -sd,)"
run_job SCR_FLUSH=0 -- "$E2E_NP" "$HEAT" -n 60 -c 10
expect_ok "restart on reordered nodes ($E2E_NODES)"
expect_resumed_from step.50
expect_result_equals_uninterrupted -n 60 -c 10
e2e_pass
