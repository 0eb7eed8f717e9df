#!/usr/bin/env bash
# SCR_Need_checkpoint's rules as SCR 3.1 applies them (c_api_need_checkpoint.c):
# SCR_CHECKPOINT_INTERVAL counts calls from SCR_Init, and
# SCR_CHECKPOINT_OVERHEAD weighs a checkpoint's average cost against the time
# since the last one ended, and SCR_CHECKPOINT_SECONDS counts from the end of
# the last checkpoint, a failed one included. 4 ranks on 2 simulated nodes.
source "$(dirname "$0")/../e2e/lib.sh"
e2e_begin api_c_need_checkpoint
PROG="$SCRPP_BUILD/tests/api/c_api_need_checkpoint"
need_file "$PROG" "c_api_need_checkpoint is not built"

run_job SCR_CHECKPOINT_INTERVAL=3 SCR_FLUSH=0 -- 4 "$PROG" interval
[[ $LAST_RC -eq 0 ]] || fail "c_api_need_checkpoint interval exited with $LAST_RC"
expect_out "c_api_need_checkpoint: ALL"

rm -rf "$E2E_DIR/run" && use_dirs "$E2E_DIR/run"
run_job SCR_CHECKPOINT_OVERHEAD=50 SCR_FLUSH=0 -- 4 "$PROG" overhead
[[ $LAST_RC -eq 0 ]] || fail "c_api_need_checkpoint overhead exited with $LAST_RC"
expect_out "c_api_need_checkpoint: ALL"

rm -rf "$E2E_DIR/run" && use_dirs "$E2E_DIR/run"
run_job SCR_CHECKPOINT_SECONDS=2 SCR_FLUSH=0 -- 4 "$PROG" seconds
[[ $LAST_RC -eq 0 ]] || fail "c_api_need_checkpoint seconds exited with $LAST_RC"
expect_out "c_api_need_checkpoint: ALL"
e2e_pass
