#!/usr/bin/env bash
# Scenario 10a: every function of scr.h from a strict C99 program
# (c_api_all.c), 4 ranks on 2 simulated nodes: a first run that checkpoints,
# writes outputs, drops, deletes and marks a current checkpoint; a second run
# in the same prefix that restarts (rejecting the first checkpoint offered),
# reuses the rejected checkpoint's name and marks it current; a third run,
# after every node was lost, fetches that current checkpoint.
source "$(dirname "$0")/../e2e/lib.sh"
e2e_begin api_c_all
PROG="$SCRPP_BUILD/tests/api/c_api_all"
need_file "$PROG" "c_api_all is not built"

# The program configures itself through SCR_Config (copy type included).
run_job SCR_COPY_TYPE= SCR_JOB_NAME=from-env "E2E_CACHE=$CACHE" -- "$E2E_NP" "$PROG" first
[[ $LAST_RC -eq 0 ]] || fail "c_api_all first exited with $LAST_RC"
expect_out "c_api_all first: ALL"
expect_announced_errors
# No checkpoint rule set: SCR_Need_checkpoint's 0 is announced, once.
[[ "$(grep -c "SCR_Need_checkpoint: none of SCR_CHECKPOINT_INTERVAL" "$LAST_ERR")" -eq 1 ]] ||
  fail "SCR_Need_checkpoint without a rule was not announced exactly once"
for r in $(seq 0 $((E2E_NP - 1))); do
  assert_file_content "$PREFIX/results/out_$r.txt" "output rank $r of $E2E_NP"
  assert_no_file "$PREFIX/both/rank_$r.dat" "file of the deleted dataset both.3"
  assert_file_content "$PREFIX/ckpt_b/rank_$r.dat" "checkpoint B rank $r"
  assert_no_file "$PREFIX/ckpt_d/rank_$r.dat" "file of the invalid checkpoint"
done
assert_eq "$(index_field out.1 id)" absent "out.1 in the index after SCR_Drop"
assert_eq "$(index_field both.3 id)" absent "both.3 in the index after SCR_Delete"
expect_index named.ckpt loadable 1
expect_index scr.dataset.1 loadable 1
assert_eq "$(index_current)" named.ckpt "current checkpoint after SCR_Current"
[[ -z "$(find "$CACHE" -path '*/both/*' -o -path '*/results/*')" ]] || fail "deleted or output files left in cache"

run_job SCR_COPY_TYPE= SCR_JOB_NAME=from-env "E2E_CACHE=$CACHE" -- "$E2E_NP" "$PROG" restart
[[ $LAST_RC -eq 0 ]] || fail "c_api_all restart exited with $LAST_RC"
expect_out "c_api_all restart: ALL"
expect_out "RESTARTED-FROM scr.dataset.1"
expect_announced_errors
expect_index after.restart loadable 1
# The rejected named.ckpt (id 2, marked FAILED) left the index when the newer
# checkpoint of that name was recorded: one dataset per name, as in SCR.
! index_show | grep -q "^id=2 " || fail "the rejected named.ckpt (id 2) is still listed:
$(index_show)"
# The name now belongs to the newer, good checkpoint, which SCR_Current chose.
expect_index named.ckpt loadable 1
assert_eq "$(index_current)" named.ckpt "current checkpoint after the second run"

lose_all_nodes
run_job SCR_COPY_TYPE= SCR_JOB_NAME=from-env "E2E_CACHE=$CACHE" -- "$E2E_NP" "$PROG" current
[[ $LAST_RC -eq 0 ]] || fail "c_api_all current exited with $LAST_RC"
expect_out "c_api_all current: ALL"
expect_out "RESTARTED-FROM named.ckpt"
expect_announced_errors
e2e_pass
