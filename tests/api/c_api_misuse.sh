#!/usr/bin/env bash
# Scenario 10b: scr.h calls in the wrong state or with bad arguments
# (c_api_misuse.c) return errors with a message naming the call, never
# crash, and leave SCR usable.
source "$(dirname "$0")/../e2e/lib.sh"
e2e_begin api_c_misuse
PROG="$SCRPP_BUILD/tests/api/c_api_misuse"
need_file "$PROG" "c_api_misuse is not built"

run_job -- "$E2E_NP" "$PROG"
[[ $LAST_RC -eq 0 ]] || fail "c_api_misuse exited with $LAST_RC"
expect_out "c_api_misuse: ALL"
expect_announced_errors
n="$(grep -c '^EXPECT-ERROR ' "$LAST_OUT")"
((n >= 50)) || fail "only $n misuses were tried"
say "$n misused calls returned errors with messages"
expect_err "ERROR rank 0: SCR_Start_output called while dataset 'open.one' is still open"
expect_err "SCR_Start_checkpoint called before SCR_Init"
expect_err "called after SCR_Finalize"
# The last good checkpoint, made after all the misuses, was flushed by
# SCR_Finalize.
for r in $(seq 0 $((E2E_NP - 1))); do
  assert_file_content "$PREFIX/good_3/rank_$r.dat" "good"
done
e2e_pass
