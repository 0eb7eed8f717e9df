#!/usr/bin/env bash
# SCR_Current before SCR_Have_restart, as SCR documents it: the named
# checkpoint is the one restarted, and cached datasets newer than it are
# deleted from cache. 4 ranks on 2 simulated nodes, XOR, cache of 3.
#  a) c1..c3 cached only: SCR_Current(c1) restarts c1 (bytes checked); c2 and
#     c3 leave the cache, so after c4 the cache holds datasets 1 and 4.
#  b) an unknown name changes nothing: the newest checkpoint is restarted.
#  c) c1..c3 flushed, every node lost: SCR_Current(c1) fetches c1, not c3.
#  d) the SCR_CURRENT setting, every node lost: c1 is fetched; a misspelt
#     name and a dropped checkpoint's name are warned about, naming the value
#     and the checkpoints there are, and the newest one is restarted.
#  e) SCR_Current(c2) then SCR_Drop(c2): as in SCR 3.1, CURRENT moves to c1,
#     the next older checkpoint, and the next run restarts c1 (not c3);
#     scr_index --drop of the CURRENT c3 moves it to c1 the same way.
source "$(dirname "$0")/../e2e/lib.sh"
E2E_COPY_TYPE=XOR
e2e_begin api_c_current
PROG="$SCRPP_BUILD/tests/api/c_api_current"
need_file "$PROG" "c_api_current is not built"

ok_run() {
  [[ $LAST_RC -eq 0 ]] || fail "c_api_current $1 exited with $LAST_RC"
  expect_out "c_api_current: ALL"
}

run_job SCR_CACHE_SIZE=3 SCR_FLUSH=0 -- 4 "$PROG" write
ok_run write
assert_eq "$(cached_datasets n0 | tr '\n' ' ')" "scr.dataset.1 scr.dataset.2 scr.dataset.3 " "cache after c1..c3"
run_job SCR_CACHE_SIZE=3 SCR_FLUSH=0 -- 4 "$PROG" current c1
ok_run "current c1"
expect_out "RESTARTED c1"
for node in n0 n1; do
  assert_eq "$(cached_datasets $node | tr '\n' ' ')" "scr.dataset.1 scr.dataset.4 " "cache of $node after SCR_Current(c1) and c4"
done

use_dirs "$E2E_DIR/unknown"
run_job SCR_CACHE_SIZE=3 SCR_FLUSH=0 -- 4 "$PROG" write
ok_run write
run_job SCR_CACHE_SIZE=3 SCR_FLUSH=0 -- 4 "$PROG" current no.such.checkpoint
ok_run "current no.such.checkpoint"
expect_out "RESTARTED c3"

use_dirs "$E2E_DIR/prefix"
run_job SCR_FLUSH=1 -- 4 "$PROG" write
ok_run write
lose_all_nodes
run_job SCR_FLUSH=1 -- 4 "$PROG" current c1
ok_run "current c1 from the prefix"
expect_out "RESTARTED c1"
assert_eq "$(index_current)" c4 "current checkpoint after c4 was flushed"

# The warning: SCR_CURRENT's value, then every checkpoint there is.
expect_current_warning() {
  grep -F "SCR_CURRENT=$1 " "$LAST_ERR" | grep -qF "$2" ||
    fail "no warning naming SCR_CURRENT=$1 and the checkpoints '$2'"
}
use_dirs "$E2E_DIR/setting"
run_job SCR_FLUSH=1 -- 4 "$PROG" write
ok_run write
lose_all_nodes
run_job SCR_FLUSH=1 SCR_CURRENT=c1 -- 4 "$PROG" restart
ok_run "SCR_CURRENT=c1"
expect_out "RESTARTED c1"
expect_no_err "SCR_CURRENT="
use_dirs "$E2E_DIR/misspelt"
run_job SCR_FLUSH=1 -- 4 "$PROG" write
lose_all_nodes
run_job SCR_FLUSH=1 SCR_CURRENT=c_2 -- 4 "$PROG" restart
ok_run "SCR_CURRENT=c_2"
expect_out "RESTARTED c3"
expect_current_warning c_2 "c3, c2, c1"
use_dirs "$E2E_DIR/dropped"
run_job SCR_FLUSH=1 -- 4 "$PROG" write
lose_all_nodes
(cd "$PREFIX" && "$SCRPP_BUILD/tools/scr_index/scr_index" --prefix "$PREFIX" --drop c2 >/dev/null) ||
  fail "scr_index --drop c2 failed"
run_job SCR_FLUSH=1 SCR_CURRENT=c2 -- 4 "$PROG" restart
ok_run "SCR_CURRENT=c2 after c2 was dropped"
expect_out "RESTARTED c3"
expect_current_warning c2 "c3, c1"

use_dirs "$E2E_DIR/drop_current"
run_job SCR_FLUSH=1 -- 4 "$PROG" write
ok_run write
run_job SCR_FLUSH=1 -- 4 "$PROG" drop c2
ok_run "drop c2"
assert_eq "$(index_current)" c1 "CURRENT after SCR_Current(c2) and SCR_Drop(c2)"
lose_all_nodes
run_job SCR_FLUSH=1 -- 4 "$PROG" restart
ok_run "restart after c2 was dropped"
expect_out "RESTARTED c1"
note="$("$SCRPP_BUILD/tools/scr_index/scr_index" --prefix "$PREFIX" --current c3 >/dev/null &&
        "$SCRPP_BUILD/tools/scr_index/scr_index" --prefix "$PREFIX" --drop c3 2>&1)" ||
  fail "scr_index --current c3, --drop c3 failed: $note"
[[ "$note" == *"CURRENT is now c1"* ]] || fail "scr_index --drop c3 did not say CURRENT moved to c1: $note"
assert_eq "$(index_current)" c1 "CURRENT after scr_index --drop of the CURRENT c3"
e2e_pass
