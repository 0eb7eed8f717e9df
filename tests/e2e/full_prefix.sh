#!/usr/bin/env bash
# The prefix really fills up during a flush (a tmpfs of 8 MiB as the
# prefix, 4 ranks on 2 nodes, SCR_FLUSH=1). step.1 (4 x 100 kB) is flushed;
# step.2 (4 x 3 MB) does not fit: SCR_Complete_output fails on every rank
# naming the full disk, the index never offers step.2, and the files its
# flush had copied are removed again, so that step.3 (4 x 500 kB), which
# fits, is flushed (left behind, they would fill the prefix and fail every
# flush after). With every node lost, the next job restarts from step.3 in
# the prefix, every byte checked. Then a checkpoint that neither
# SCR_Finalize's flush nor scr_scavenge can save for want of space: both
# fail naming it and leave nothing behind. Needs root (the mounts); skipped
# elsewhere.
source "$(dirname "$0")/lib.sh"
E2E_NP=4 E2E_NODES=n0,n1
e2e_begin full_prefix
probe_with_tmpfs_prefix small 8m
settings=(SCR_FLUSH=1 SCR_CACHE_SIZE=2)

run_job "${settings[@]}" -- 4 "$PROBE" 100000 3000000 500000
[[ $LAST_RC -eq 0 ]] || fail "disk_probe failed with exit code $LAST_RC"
expect_probe "complete_output step.1" 0,0,0,0
expect_probe "complete_output step.2" 1,1,1,1
expect_err "SCR_Complete_output: flush of dataset step.2"
expect_err "No space left on device"
expect_probe "complete_output step.3" 0,0,0,0
expect_probe finalize 0,0,0,0
expect_index step.1 loadable 1
expect_index step.2 loadable 0
expect_index step.3 flushed 1
assert_eq "$(index_current)" step.3 "the prefix index's current checkpoint"
assert_no_file "$PREFIX/step.2" "the failed flush's copies"
say "step.2 failed to flush, its copies removed; step.3 flushed"

lose_all_nodes
run_job "${settings[@]}" -- 4 "$PROBE"
[[ $LAST_RC -eq 0 ]] || fail "disk_probe failed with exit code $LAST_RC"
expect_out "PROBE restart step.3 bytes=500000 valid=1"
expect_probe complete_restart 0,0,0,0

# The same prefix size, SCR_FLUSH=2: step.2 is flushed, step.3 (4 x 3 MB)
# is not: SCR_Finalize's flush fails for want of space, and so does
# scr_scavenge's (exit status 5, naming the full disk). Neither leaves a
# copy behind, and step.2 stays the restart.
use_dirs "$E2E_DIR/scavenge"
probe_with_tmpfs_prefix scavenge/small 8m
run_job SCR_FLUSH=2 SCR_CACHE_SIZE=2 -- 4 "$PROBE" 100000 100000 3000000
[[ $LAST_RC -eq 0 ]] || fail "disk_probe failed with exit code $LAST_RC"
expect_probe "complete_output step.3" 0,0,0,0
expect_probe finalize 1,1,1,1
expect_err "SCR_Finalize: flush of dataset step.3"
assert_no_file "$PREFIX/step.3" "the failed flush's copies"
rc=0
(cd "$PREFIX" && SCR_CACHE_BASE="$CACHE" SCR_CNTL_BASE="$CNTL" SCR_SIM_NODES="$E2E_NODES" \
  "$SCRPP_BUILD/tools/scr_scavenge/scr_scavenge" --prefix "$PREFIX") >"$E2E_DIR/scavenge.out" 2>&1 || rc=$?
assert_eq "$rc" 5 "scr_scavenge's exit status with the prefix full"
grep -q "No space left on device" "$E2E_DIR/scavenge.out" ||
  fail "scr_scavenge did not name the full disk: $(cat "$E2E_DIR/scavenge.out")"
assert_no_file "$PREFIX/step.3" "the failed scavenge's copies"
expect_index step.3 loadable 0
assert_eq "$(index_current)" step.2 "the prefix index's current checkpoint"
lose_all_nodes
run_job SCR_FLUSH=2 -- 4 "$PROBE"
expect_out "PROBE restart step.2 bytes=100000 valid=1"
e2e_pass
