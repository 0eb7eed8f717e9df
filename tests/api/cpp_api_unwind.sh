#!/usr/bin/env bash
# An exception on one rank of four inside a C++ phase object ends the job
# instead of hanging it (cpp_api_unwind.cpp): in each throw-* job rank 2's
# handler must be reached (its file written, a further SCR++ call refused as
# bad_state without a collective) and end the job with MPI_Abort's code, well
# inside the timeout; the next run restarts from the last complete
# checkpoint, and the dataset left open is gone from every cache.
source "$(dirname "$0")/../e2e/lib.sh"
E2E_TIMEOUT=60
e2e_begin api_cpp_unwind
PROG="$SCRPP_BUILD/tests/api/cpp_api_unwind"
need_file "$PROG" "cpp_api_unwind is not built"
ABORTED=42

run_job SCR_FLUSH=0 SCR_CACHE_SIZE=2 -- 4 "$PROG" write
[[ $LAST_RC -eq 0 ]] || fail "writing ckpt.1 exited with $LAST_RC"

# The checkpoint stays in the caches (SCR_FLUSH=0), beside the one left open
# (SCR_CACHE_SIZE=2): the restarts below read it there.
for mode in throw-output throw-restart throw-between; do
  rm -f "$PREFIX/unwind.$mode.rank2"
  run_job SCR_FLUSH=0 SCR_CACHE_SIZE=2 -- 4 "$PROG" "$mode"
  [[ $LAST_RC -eq $ABORTED ]] || fail "$mode: the job exited with $LAST_RC, not rank 2's MPI_Abort ($ABORTED)"
  need_file "$PREFIX/unwind.$mode.rank2" "rank 2's handler did not run in $mode"
  if [[ $mode != throw-between ]]; then
    [[ "$(cat "$PREFIX/unwind.$mode.rank2")" == bad_state ]] ||
      fail "$mode: a call after the abandoned phase gave '$(cat "$PREFIX/unwind.$mode.rank2")', not bad_state"
  fi
  run_job SCR_FLUSH=0 SCR_CACHE_SIZE=2 -- 4 "$PROG" check
  [[ $LAST_RC -eq 0 ]] || fail "after $mode: no restart from ckpt.1 with every file as written (exit $LAST_RC)"
  left=$(find "$CACHE" -path '*ckpt.2*' | head -n 1)
  [[ -z "$left" ]] || fail "after $mode: the abandoned dataset is still in the cache ($left)"
done
e2e_pass
