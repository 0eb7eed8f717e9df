#!/usr/bin/env bash
# Memory regions in C (tests/regions/c_regions.c): 4 ranks on 2 simulated
# nodes, XOR. Each job writes steps 1..3 (step 3 shares its dataset with a
# file of the application's own, and a second SCRPP_Write_regions in its
# phase is refused, the first copy kept) and is killed; then:
#  a) restart from the cache: wrong regions refused with memory untouched
#     (inside a restart phase, and by SCRPP_Restore), the checkpoint kept,
#     then every byte of step 3 restored;
#  b) a node lost: restored from what the redundancy rebuilt;
#  c) every node lost: restored from the prefix, where the regions are files
#     SCR++ named beside the application's own;
#  d) 2 ranks from the cache and from the prefix: every writer's regions read
#     through SCRPP_Restore_from.
source "$(dirname "$0")/../e2e/lib.sh"
E2E_COPY_TYPE=XOR
e2e_begin regions_c
PROG="$SCRPP_BUILD/tests/regions/c_regions"
need_file "$PROG" "c_regions is not built"

ok_run() {
  [[ $LAST_RC -eq 0 ]] || fail "c_regions $1 exited with $LAST_RC"
  expect_out "c_regions: ALL"
  expect_announced_errors
}
write_and_crash() {
  run_job "$@" -- 4 "$PROG" write
  expect_crashed
  expect_out "c_regions: ALL"
  expect_announced_errors
}

write_and_crash SCR_FLUSH=0
for r in 0 1 2 3; do
  [[ -n "$(find "$CACHE" -path "*/step.3/.regions/rank_$r.regions" -type f)" ]] ||
    fail "no regions file of rank $r in the cache"
done
run_job SCR_FLUSH=0 -- 4 "$PROG" refuse
ok_run refuse
run_job SCR_FLUSH=0 -- 4 "$PROG" mismatch
ok_run mismatch
run_job SCR_FLUSH=0 -- 4 "$PROG" restore 3
ok_run "restore from the cache"
expect_out "RESTORED step.3 step 3"

use_dirs "$E2E_DIR/node"
write_and_crash SCR_FLUSH=0
lose_node n1
run_job SCR_FLUSH=0 -- 4 "$PROG" restore 3
ok_run "restore after a node was lost"
expect_out "RESTORED step.3 step 3"

use_dirs "$E2E_DIR/prefix"
write_and_crash SCR_FLUSH=1
lose_all_nodes
run_job SCR_FLUSH=1 -- 4 "$PROG" restore 3
ok_run "restore from the prefix"
expect_out "RESTORED step.3 step 3"
assert_file "$PREFIX/step.3/.regions/rank_3.regions"
assert_file "$PREFIX/own/rank_3.txt"

use_dirs "$E2E_DIR/fewer_cache"
write_and_crash SCR_FLUSH=0
run_job SCR_FLUSH=0 -- 2 "$PROG" rescale 3
ok_run "2 ranks from the cache"
expect_out "RESCALED 4 writers onto 2 ranks"

use_dirs "$E2E_DIR/fewer_prefix"
write_and_crash SCR_FLUSH=1
lose_all_nodes
run_job SCR_FLUSH=1 -- 2 "$PROG" rescale 3
ok_run "2 ranks from the prefix"
expect_out "RESCALED 4 writers onto 2 ranks"
e2e_pass
