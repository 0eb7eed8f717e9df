#!/usr/bin/env bash
# Halt conditions not covered by tests/e2e/halt.sh: EXIT_AFTER (a time that
# has passed), EXIT_BEFORE within HALT_SECONDS, and SCR_HALT_EXIT=1, which
# ends the process right after the checkpoint that meets the condition
# (recording SCR's name for it in the halt file's ExitReason), and in
# SCR_Init when a condition is met already.
source "$(dirname "$0")/../e2e/lib.sh"
E2E_NP=2 E2E_NODES=n0,n1
e2e_begin halt_times
halt_message="SCR asks the job to stop"
stopped_at() { sed -n "s/^\[heat[^]]*\] step \([0-9]*\): $halt_message.*/\1/p" "$LAST_OUT" | head -n1; }
now=$(date +%s)

write_halt "EXIT_AFTER=$((now - 5))"
run_job SCR_FLUSH=0 -- 2 "$HEAT" -n 40 -c 10 -g 16 16
expect_ok
assert_eq "$(stopped_at)" 1 "stop with EXIT_AFTER in the past"

rm -rf "$E2E_DIR/run" && use_dirs "$E2E_DIR/run"
write_halt "EXIT_AFTER=$((now + 7200))"
run_job SCR_FLUSH=0 -- 2 "$HEAT" -n 40 -c 10 -g 16 16
expect_ok
assert_eq "$(stopped_at)" "" "stop with EXIT_AFTER two hours ahead"

rm -rf "$E2E_DIR/run" && use_dirs "$E2E_DIR/run"
write_halt "EXIT_BEFORE=$((now + 100))" HALT_SECONDS=600
run_job SCR_FLUSH=0 -- 2 "$HEAT" -n 40 -c 10 -g 16 16
expect_ok
assert_eq "$(stopped_at)" 1 "stop within HALT_SECONDS of EXIT_BEFORE"

rm -rf "$E2E_DIR/run" && use_dirs "$E2E_DIR/run"
write_halt "EXIT_BEFORE=$((now + 7200))" HALT_SECONDS=600
run_job SCR_FLUSH=0 -- 2 "$HEAT" -n 40 -c 10 -g 16 16
expect_ok
assert_eq "$(stopped_at)" "" "stop with EXIT_BEFORE far ahead"

# SCR_HALT_EXIT: the process ends inside SCR_Complete_output of step.20, so
# the application never reaches its own halt check or its RESULT line; the
# checkpoint is complete and flushed by the finalize SCR++ runs on its way out.
rm -rf "$E2E_DIR/run" && use_dirs "$E2E_DIR/run"
write_halt CHECKPOINTS=2
run_job SCR_FLUSH=100 SCR_HALT_EXIT=1 -- 2 "$HEAT" -n 40 -c 10 -g 16 16
[[ $LAST_RC -eq 0 ]] || fail "SCR_HALT_EXIT should exit with status 0, got $LAST_RC"
expect_no_out "RESULT"
expect_checkpoint_steps "10"   # heat never got to announce step.20
expect_index step.20 loadable 1
# Why, as SCR's library records it when SCR_HALT_EXIT ends the job: the
# reason stays in the halt file for `scr_halt -l` and the job scripts.
halt_list="$("$SCRPP_BUILD/tools/scr_halt/scr_halt" -l "$PREFIX")"
grep -qx "  ExitReason:      NO_CHECKPOINTS_LEFT" <<<"$halt_list" ||
  fail "SCR_HALT_EXIT did not record why the job stopped: $halt_list"

# The next run of the same job: the count is used up, so with SCR_HALT_EXIT
# the process ends inside SCR_Init, before heat restarts from anything; one
# cache was lost, and nothing is rebuilt or fetched for a job told to stop.
lose_node n1
run_job SCR_FLUSH=100 SCR_HALT_EXIT=1 -- 2 "$HEAT" -n 40 -c 10 -g 16 16
[[ $LAST_RC -eq 0 ]] || fail "SCR_HALT_EXIT at SCR_Init should exit with status 0, got $LAST_RC"
expect_no_out "resumed from checkpoint"
expect_no_out "no checkpoint found"
expect_no_out "RESULT"
expect_checkpoint_steps ""
[[ ! -e "$CACHE/n1" ]] || [[ -z "$(find "$CACHE/n1" -type f)" ]] || fail "a job halted at SCR_Init rebuilt the lost node's cache"
# Without SCR_HALT_EXIT the same job starts, restarts from step.20, and heat
# sees the halt through SCR_Should_exit.
run_job SCR_FLUSH=100 -- 2 "$HEAT" -n 40 -c 10 -g 16 16
expect_ok
expect_out "resumed from checkpoint 'step.20'"

# Where an earlier job of the prefix finished, SCR's SCR_FINALIZE_CALLED
# holds the halt file's reason and SCR records none at a halt: nothing then
# keeps the next job from starting. The same here.
rm -rf "$E2E_DIR/run" && use_dirs "$E2E_DIR/run"
run_job SCR_FLUSH=100 -- 2 "$HEAT" -n 20 -c 10 -g 16 16
expect_ok
"$SCRPP_BUILD/tools/scr_halt/scr_halt" -c 1 "$PREFIX" >/dev/null || fail "scr_halt -c 1 failed"
run_job SCR_FLUSH=100 SCR_HALT_EXIT=1 -- 2 "$HEAT" -n 40 -c 10 -g 16 16
[[ $LAST_RC -eq 0 ]] || fail "SCR_HALT_EXIT should exit with status 0, got $LAST_RC"
expect_no_out "RESULT"
halt_list="$("$SCRPP_BUILD/tools/scr_halt/scr_halt" -l "$PREFIX")"
! grep -q "ExitReason: *NO_CHECKPOINTS_LEFT" <<<"$halt_list" ||
  fail "a reason was recorded although an earlier job had finished: $halt_list"
e2e_pass
