# shellcheck shell=bash
# Helpers of the operator-tool scenarios, on top of the end-to-end library
# (tests/e2e/lib.sh: temp dirs, run_job, expect_*, index_field, ...).
#
#   source "$(dirname "$0")/tools_lib.sh"
#   e2e_begin tools_scr_index
#   make_prefix                          # heat -n 40 -c 10, every checkpoint flushed
#   run_tool "$SCR_INDEX" --prefix "$PREFIX" --current step.20
#   expect_rc 0
#   restart_job -n 20 && expect_resumed_from step.20
source "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"

SCR_INDEX="$SCRPP_BUILD/tools/scr_index/scr_index"
SCR_HALT="$SCRPP_BUILD/tools/scr_halt/scr_halt"
SCR_INSPECT="$SCRPP_BUILD/tools/scr_inspect/scr_inspect"
SCR_RUN="$SCRPP_BUILD/tools/scr_run/scr_run"
for _tool in "$SCR_INDEX" "$SCR_HALT" "$SCR_INSPECT" "$SCR_RUN"; do need_file "$_tool" "$(basename "$_tool") is not built"; done
unset _tool

# run_tool PROGRAM ARGS...: run an operator tool (no MPI) and keep its
# stdout, stderr and exit status in LAST_OUT, LAST_ERR, LAST_RC for expect_*.
run_tool() {
  JOB_N=$((JOB_N + 1))
  LAST_OUT="$E2E_DIR/tool$JOB_N.out"
  LAST_ERR="$E2E_DIR/tool$JOB_N.err"
  LAST_CMD="$(basename "$1") ${*:2}"
  set +e
  timeout 60 "$@" >"$LAST_OUT" 2>"$LAST_ERR" </dev/null
  LAST_RC=$?
  set -e
  [[ $LAST_RC -ne 124 ]] || fail "$LAST_CMD hung"
  return 0
}

# expect_rc CODE: the last tool or job exited with CODE.
expect_rc() {
  [[ "$LAST_RC" -eq "$1" ]] || fail "$LAST_CMD exited with $LAST_RC, expected $1"
}

# The first job of a scenario: 4 checkpoints step.10..step.40, each flushed.
make_prefix() {
  run_job SCR_FLUSH=1 -- "$E2E_NP" "$HEAT" -n 40 -c 10
  expect_ok "job producing the prefix"
}

# restart_job HEAT_ARGS...: a later job in a new allocation: the cache is
# purged, so the job restarts from the prefix as the index says.
restart_job() {
  run_job SCR_FLUSH=1 SCR_CACHE_PURGE=1 -- "$E2E_NP" "$HEAT" -c 10 "$@"
  expect_ok "restarted job"
}

# Checksums of every file under the prefix's .scr, to prove a tool changed nothing.
scr_digest() { tree_digest "$PREFIX/.scr"; }
# Digest of the whole prefix (application files too).
prefix_digest() { tree_digest "$PREFIX"; }
expect_digest() {
  [[ "$(scr_digest)" == "$1" ]] || fail "${2:-the tool} changed files in $PREFIX/.scr"
}
