#!/usr/bin/env bash
# Scenario 2: restart from the prefix after the node storage is gone.
# With SCR_FLUSH=3 and a checkpoint every 10 steps, step.30 is flushed and
# step.40 only cached when the job is killed at step 45. Losing every node
# (cache and control directories deleted) must make the restart fetch the
# newest flushed checkpoint, step.30, from the prefix. Losing a single node
# loses step.40 too unless the copy type survives a node loss. The first two
# jobs copy one process at a time (SCR_FLUSH_WIDTH=1, SCR_FETCH_WIDTH=1).
source "$(dirname "$0")/lib.sh"
e2e_begin restart_prefix
ARGS=(-n 60 -c 10)

run_job SCR_FLUSH=3 SCR_FLUSH_WIDTH=1 -- "$E2E_NP" "$HEAT" "${ARGS[@]}" --crash-at 45
expect_crashed "job killed at step 45"
expect_checkpoint_steps "10 20 30 40"
expect_index step.30 loadable 1
expect_index step.40 loadable absent
assert_eq "$(index_current)" step.30 "current checkpoint in the prefix"
for r in $(seq 0 $((E2E_NP - 1))); do assert_file "$PREFIX/step.30/rank_$r.dat" "flushed checkpoint file"; done
cp -a "$E2E_DIR/run" "$E2E_DIR/after_kill"

# Every node lost: only the prefix is left.
lose_all_nodes
run_job SCR_FLUSH=3 SCR_FETCH_WIDTH=1 -- "$E2E_NP" "$HEAT" "${ARGS[@]}"
expect_ok "restart after losing every node"
expect_resumed_from step.30
expect_checkpoint_steps "40 50 60"
expect_result_equals_uninterrupted "${ARGS[@]}"
# The restarted job keeps flushing: its last checkpoint is current.
expect_index step.60 loadable 1
assert_eq "$(index_current)" step.60 "current checkpoint after the restarted job"

# One node lost (storage of the other nodes intact).
rm -rf "$E2E_DIR/run" && cp -a "$E2E_DIR/after_kill" "$E2E_DIR/run"
lose_node "${E2E_NODES##*,}"
run_job SCR_FLUSH=3 -- "$E2E_NP" "$HEAT" "${ARGS[@]}"
expect_ok "restart after losing node ${E2E_NODES##*,}"
if scheme_survives_node_loss; then
  expect_resumed_from step.40
else
  expect_resumed_from step.30
  expect_said "deleting it from cache"
fi
expect_result_equals_uninterrupted "${ARGS[@]}"
e2e_pass
