#!/usr/bin/env bash
# SCR_ENABLE=0: every SCR call is a no-op that succeeds (SCR_Route_file gives
# the name back, SCR_Have_restart says no). The heat demo runs to the end with
# its result unchanged, restarts from nothing, and SCR++ creates nothing: no
# cache or control directory, no .scr in the prefix.
source "$(dirname "$0")/lib.sh"
e2e_begin disabled
run_job SCR_ENABLE=0 -- "$E2E_NP" "$HEAT" -n 20 -c 10
expect_ok "run with SCR_ENABLE=0"
expect_fresh_start
expect_result_equals_uninterrupted -n 20 -c 10
assert_no_file "$PREFIX/.scr" "SCR++'s metadata directory in the prefix"
[[ -z "$(find "$CACHE" "$CNTL" -mindepth 1)" ]] || fail "SCR_ENABLE=0 created node-local directories:
$(find "$CACHE" "$CNTL")"
# A second run still starts over: nothing was recorded to restart from.
run_job SCR_ENABLE=0 -- "$E2E_NP" "$HEAT" -n 20 -c 10
expect_ok "second run with SCR_ENABLE=0"
expect_fresh_start
e2e_pass
