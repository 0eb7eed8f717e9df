#!/usr/bin/env bash
# Scenario 3a: a crash in the middle of a flush never makes the prefix load a
# partial dataset.
# SCR_FAULT_INJECT=crash:N makes every I/O step from the N-th on fail as if
# the process had died there. The scenario searches the N at which the flush
# of step.20 (SCR_FLUSH=1, checkpoints at 10 and 20) has begun (step.20 is in
# the prefix index) and the N at which it is complete, and crashes
#  - early in the flush: the index keeps step.20 incomplete and step.10
#    current; a restart with the cache intact resumes from step.20 (complete
#    in cache) and SCR_Finalize completes the flush; a restart with every node
#    lost resumes from step.10;
#  - at the last moment (all files and the summary written, index not yet
#    updated): with every node lost the restart still resumes from step.10.
source "$(dirname "$0")/lib.sh"
e2e_begin fallback_flush_crash
ARGS=(-n 20 -c 10)

# Run the job with crash:N in fresh directories; STATE becomes
# 0: step.20 not in the index; 1: in it but not loadable; 2: loadable.
flush_state_at() {
  rm -rf "$E2E_DIR/run"
  use_dirs "$E2E_DIR/run"
  run_job SCR_FLUSH=1 "SCR_FAULT_INJECT=crash:$1" -- "$E2E_NP" "$HEAT" "${ARGS[@]}"
  case "$(index_field step.20 loadable)" in
    absent) STATE=0 ;;
    0) STATE=1 ;;
    1) STATE=2 ;;
    *) fail "cannot read the state of step.20 from the prefix index" ;;
  esac
}

# FIRST = the smallest N in [lo, hi] whose STATE is at least $3.
first_reaching() {
  local lo=$1 hi=$2 want=$3 mid
  while ((lo < hi)); do
    mid=$(((lo + hi) / 2))
    flush_state_at $mid
    if ((STATE < want)); then lo=$((mid + 1)); else hi=$mid; fi
  done
  FIRST=$lo
}

# The job without faults does a few hundred I/O steps per rank.
flush_state_at 4096
[[ $STATE == 2 ]] || fail "crash:4096 still stops the job before the flush of step.20 completes"
first_reaching 1 4096 1
begin=$FIRST
first_reaching "$begin" 4096 2
end=$FIRST
say "the flush of step.20 spans I/O steps $begin..$end"
((end > begin)) || fail "no I/O step between the start and the end of the flush of step.20"

# Processes sharing a node race to create shared directories, so the count
# of I/O steps varies by one or two between runs: scan from the boundary for
# an N that leaves the flush half done.
crash_in_flush() {
  local n
  for n in "$@"; do
    flush_state_at "$n"
    [[ $STATE == 1 ]] && break
  done
  [[ $STATE == 1 ]] || fail "no crash:N in $* interrupted the flush of step.20 (last state $STATE)"
  expect_failed "job crashed during the flush"
  expect_checkpoint_steps "10"
  expect_said "process crashed (injected fault)"
  expect_index step.20 complete 0
  expect_index step.20 flushed 0
  expect_index step.10 loadable 1
  assert_eq "$(index_current)" step.10 "current checkpoint after the interrupted flush"
  say "crash:$n interrupted the flush of step.20"
}

# --- early in the flush
crash_in_flush $(seq "$begin" $((begin + 10)))
cp -a "$E2E_DIR/run" "$E2E_DIR/early_crash"

run_job SCR_FLUSH=1 -- "$E2E_NP" "$HEAT" "${ARGS[@]}"
expect_ok "restart with the cache intact"
expect_resumed_from step.20
expect_result_equals_uninterrupted "${ARGS[@]}"
expect_index step.20 loadable 1
assert_eq "$(index_current)" step.20 "current checkpoint once SCR_Finalize flushed step.20"

rm -rf "$E2E_DIR/run" && cp -a "$E2E_DIR/early_crash" "$E2E_DIR/run"
lose_all_nodes
run_job SCR_FLUSH=1 -- "$E2E_NP" "$HEAT" "${ARGS[@]}"
expect_ok "restart from the prefix after an early crash"
expect_resumed_from step.10
expect_result_equals_uninterrupted "${ARGS[@]}"

# --- at the last moment: every file of step.20 was in the prefix. The
# process that crashed (rank 0, recording the flush in the index) keeps its
# copy there, as a dead process would; the others, which did not crash, saw
# the flush fail unrecorded and removed theirs.
crash_in_flush $(seq $((end - 1)) -1 $((end - 10)))
assert_file "$PREFIX/step.20/rank_0.dat" "flushed file of step.20 left by the crashed process"
lose_all_nodes
run_job SCR_FLUSH=1 -- "$E2E_NP" "$HEAT" "${ARGS[@]}"
expect_ok "restart from the prefix after a late crash"
expect_resumed_from step.10
expect_result_equals_uninterrupted "${ARGS[@]}"
e2e_pass
