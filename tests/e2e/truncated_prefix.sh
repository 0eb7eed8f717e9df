#!/usr/bin/env bash
# Files in the prefix cut short before a restart from it (4 ranks on 2
# nodes, every node lost after step.1 and step.2 were flushed):
#  - a data file of step.2 emptied: step.2 is marked FAILED naming the file
#    and its size, step.1 is the restart;
#  - SCR++'s summary.scrpp of step.2 truncated, SCR 3.1's summary.scr beside
#    it intact: step.2 is read from SCR's summary (a warning says so), as
#    SCR 3.1 would, and is the restart, every byte checked by the program;
#  - the index emptied: set aside with a warning naming it and how to add
#    its datasets back; the job starts afresh.
source "$(dirname "$0")/lib.sh"
E2E_NP=4 E2E_NODES=n0,n1
e2e_begin truncated_prefix
PROBE="$SCRPP_BUILD/tests/e2e/disk_probe"
need_file "$PROBE"

# Two flushed checkpoints, then every node lost.
two_flushed() {
  use_dirs "$E2E_DIR/$1"
  run_job SCR_FLUSH=1 -- 4 "$PROBE" 100000 100000
  [[ $LAST_RC -eq 0 ]] || fail "disk_probe failed with exit code $LAST_RC"
  expect_index step.2 flushed 1
  lose_all_nodes
}

two_flushed data
: >"$PREFIX/step.2/rank_1.dat"
run_job SCR_FLUSH=1 -- 4 "$PROBE"
expect_out "PROBE restart step.1 bytes=100000 valid=1"
expect_err "step.2/rank_1.dat has 0 bytes, expected 100000"
expect_index step.2 failed 1

two_flushed summary
truncate -s 30 "$PREFIX/.scr/scr.dataset.2/summary.scrpp"
run_job SCR_FLUSH=1 -- 4 "$PROBE"
expect_out "PROBE restart step.2 bytes=100000 valid=1"
expect_err "reading SCR 3.1's summary"
expect_index step.2 failed 0

two_flushed index
: >"$PREFIX/.scr/index.scr"
run_job SCR_FLUSH=1 -- 4 "$PROBE"
[[ $LAST_RC -eq 0 ]] || fail "disk_probe failed with exit code $LAST_RC"
expect_no_out "PROBE restart"
expect_err "index.scr: metadata tree is truncated"
expect_err "scr_index --build"
compgen -G "$PREFIX/.scr/index.scr.unreadable.*" >/dev/null || fail "the unreadable index was not set aside"
e2e_pass
