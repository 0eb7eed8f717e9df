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
((n >= 60)) || fail "only $n misuses were tried"
say "$n misused calls returned errors with messages"
expect_err "SCR_Start_output: SCR_Start_output called while dataset 'open.one' is still open"
expect_err "SCR_Start_checkpoint called before SCR_Init"
expect_err "called after SCR_Finalize"
# The good checkpoints made between the misuses are all there.
for i in 1 2 3; do
  for r in $(seq 0 $((E2E_NP - 1))); do
    [[ -n "$(find "$CACHE" "$PREFIX" -path "*/good_$i/rank_$r.dat" | head -n1)" ]] ||
      [[ $i -lt 3 ]] || fail "the last good checkpoint's file of rank $r is missing"
  done
done
expect_index open.one complete 1 2>/dev/null || true
e2e_pass
