#!/usr/bin/env bash
# Scenario 8: SCR_Need_checkpoint. heat -c 0 asks SCR every step.
#  - SCR_CHECKPOINT_INTERVAL=7: checkpoints at steps 7, 14, 21, 28; after a
#    kill at step 16 the restart resumes from step.14 and (counting calls
#    anew) checkpoints at 21 and 28; the result equals an uninterrupted run.
#  - no rule at all: no (and no halt is pending), so nothing is saved.
#  - SCR_CHECKPOINT_SECONDS=3600: only when a halt is pending (never here).
source "$(dirname "$0")/lib.sh"
e2e_begin need_checkpoint
ARGS=(-n 30 -c 0)

run_job SCR_CHECKPOINT_INTERVAL=7 SCR_FLUSH=0 -- "$E2E_NP" "$HEAT" "${ARGS[@]}"
expect_ok "run with SCR_CHECKPOINT_INTERVAL=7"
expect_checkpoint_steps "7 14 21 28"

rm -rf "$E2E_DIR/run" && use_dirs "$E2E_DIR/run"
run_job SCR_CHECKPOINT_INTERVAL=7 SCR_FLUSH=0 -- "$E2E_NP" "$HEAT" "${ARGS[@]}" --crash-at 16
expect_crashed "job killed at step 16"
expect_checkpoint_steps "7 14"
run_job SCR_CHECKPOINT_INTERVAL=7 SCR_FLUSH=0 -- "$E2E_NP" "$HEAT" "${ARGS[@]}"
expect_ok "restart"
expect_resumed_from step.14
expect_checkpoint_steps "21 28"
expect_result_equals_uninterrupted "${ARGS[@]}"

rm -rf "$E2E_DIR/run" && use_dirs "$E2E_DIR/run"
run_job SCR_FLUSH=0 SCR_CACHE_SIZE=2 -- "$E2E_NP" "$HEAT" -n 5 -c 0
expect_ok "run without a checkpoint rule"
expect_checkpoint_steps ""

rm -rf "$E2E_DIR/run" && use_dirs "$E2E_DIR/run"
run_job SCR_FLUSH=0 SCR_CHECKPOINT_SECONDS=3600 -- "$E2E_NP" "$HEAT" -n 20 -c 0
expect_ok "run with SCR_CHECKPOINT_SECONDS=3600"
expect_checkpoint_steps ""
e2e_pass
