#!/usr/bin/env bash
# A flush whose last step fails: its record is taken back. With
# SCR_FAULT_INJECT=write:rank2file:3:ENOSPC rank 0 cannot write SCR 3.1's
# rank2file map from its third write on: step.1's flush (SCR_FLUSH=1) is
# recorded, step.2's record fails once summary.scrpp is written.
# SCR_Complete_output of step.2 and SCR_Finalize (which flushes it again)
# fail on every rank, and the prefix keeps no file of step.2, no summary file
# and no index entry of it; step.1 stays current. The next run (no fault)
# restarts from step.2 in cache and its SCR_Finalize records it; with every
# node lost, the run after that restarts from step.2 in the prefix. With
# cache bypass the files the application wrote in place stay, its summary
# files and entry go, and the next run restarts from step.1.
source "$(dirname "$0")/lib.sh"
E2E_NP=4 E2E_NODES=n0,n1
e2e_begin failed_record
PROBE="$SCRPP_BUILD/tests/e2e/disk_probe"
need_file "$PROBE" "disk_probe is not built"
FULL=SCR_FAULT_INJECT=write:rank2file:3:ENOSPC

expect_step2_not_recorded() {
  assert_no_file "$PREFIX/.scr/scr.dataset.2" "step.2's summary files"
  expect_index step.2 id absent
  expect_index step.1 loadable 1
  assert_eq "$(index_current)" step.1 "the prefix index's current checkpoint"
}

run_job SCR_FLUSH=1 "$FULL" -- 4 "$PROBE" 100000 100000
[[ $LAST_RC -eq 0 ]] || fail "disk_probe failed with exit code $LAST_RC"
expect_probe "complete_output step.1" 0,0,0,0
expect_probe "complete_output step.2" 1,1,1,1
expect_probe finalize 1,1,1,1
expect_err "No space left on device"
expect_step2_not_recorded
assert_no_file "$PREFIX/step.2" "the failed flush's copies"
say "step.2's record failed and was taken back; step.1 current"

run_job SCR_FLUSH=1 -- 4 "$PROBE"
[[ $LAST_RC -eq 0 ]] || fail "disk_probe failed with exit code $LAST_RC"
expect_out "PROBE restart step.2 bytes=100000 valid=1"
expect_probe finalize 0,0,0,0
expect_index step.2 loadable 1
lose_all_nodes
run_job SCR_FLUSH=1 -- 4 "$PROBE"
expect_out "PROBE restart step.2 bytes=100000 valid=1"
say "the next run's SCR_Finalize recorded step.2; restarted from the prefix"

use_dirs "$E2E_DIR/bypass"
run_job SCR_CACHE_BYPASS=1 "$FULL" -- 4 "$PROBE" 100000 100000
[[ $LAST_RC -eq 0 ]] || fail "disk_probe failed with exit code $LAST_RC"
expect_probe "complete_output step.1" 0,0,0,0
expect_probe "complete_output step.2" 1,1,1,1
expect_step2_not_recorded
for r in 0 1 2 3; do assert_file "$PREFIX/step.2/rank_$r.dat" "the application's file of step.2"; done
run_job SCR_CACHE_BYPASS=1 -- 4 "$PROBE"
expect_out "PROBE restart step.1 bytes=100000 valid=1"
say "bypass: step.2's files stay, its record does not; restarted from step.1"
e2e_pass
