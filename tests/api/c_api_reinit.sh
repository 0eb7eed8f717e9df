#!/usr/bin/env bash
# SCR_Init, SCR_Finalize, SCR_Init, SCR_Finalize, SCR_Init in one process
# (c_api_reinit.c): each session is complete. The third restarts from the
# checkpoint the second wrote (bytes checked) and writes its own; both end
# up flushed, the last one current. 4 ranks on 2 simulated nodes, XOR.
source "$(dirname "$0")/../e2e/lib.sh"
E2E_COPY_TYPE=XOR
e2e_begin api_c_reinit
PROG="$SCRPP_BUILD/tests/api/c_api_reinit"
need_file "$PROG" "c_api_reinit is not built"

run_job -- 4 "$PROG"
[[ $LAST_RC -eq 0 ]] || fail "c_api_reinit exited with $LAST_RC"
expect_out "c_api_reinit: ALL"
expect_out "RESTARTED s2"
expect_err "SCR_Need_checkpoint called after SCR_Init failed"
expect_err "SCR_Finalize called after SCR_Init failed"
for r in 0 1 2 3; do
  assert_file_content "$PREFIX/s2/rank_$r.dat" "s2 rank $r"
  assert_file_content "$PREFIX/s3/rank_$r.dat" "s3 rank $r"
done
assert_eq "$(index_current)" s3 "current checkpoint after the third session"
e2e_pass
