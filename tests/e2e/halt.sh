#!/usr/bin/env bash
# Scenario 7: SCR_Should_exit.
#  a) A halt file with EXIT_REASON (as scr_halt writes it, through the
#     runtime's own writer) stops a running job at its next step; the job
#     exits cleanly (exit 0; SCR_Finalize flushes its last checkpoint). With
#     the halt file removed the next run resumes where it stopped.
#  b) A halt file present at start-up stops the job after its first step, and
#     SCR_Need_checkpoint says yes so the job checkpoints before leaving.
#  c) CHECKPOINTS=2: the job stops after its second checkpoint.
#  d) SCR_HALT_SECONDS with SCR_END_TIME near now stops the job at once; with
#     the end time far away it runs to the end.
source "$(dirname "$0")/lib.sh"
e2e_begin halt
halt_message="SCR asks the job to stop"

# stopped_at: the step at which the last job stopped for a halt.
stopped_at() {
  sed -n "s/^\[heat[^]]*\] step \([0-9]*\): $halt_message.*/\1/p" "$LAST_OUT" | head -n1
}

# a) halt while running. A long job on a small grid; once its first
# checkpoint is saved the halt file is written.
# SCR_FLUSH=1000: no periodic flush, so SCR_Finalize flushes the last one.
LONG=(-n 1000000 -c 500 -g 16 16)
(
  run_job SCR_FLUSH=1000 -- "$E2E_NP" "$HEAT" "${LONG[@]}"
  echo "$LAST_RC" >"$E2E_DIR/bg.rc"
) &
bg=$!
bg_out="$E2E_DIR/job$((JOB_N + 1)).out"
for _ in $(seq 1 600); do
  grep -q "checkpoint 'step.500' saved" "$bg_out" 2>/dev/null && break
  [[ -e "$E2E_DIR/bg.rc" ]] && break
  sleep 0.1
done
grep -q "checkpoint 'step.500' saved" "$bg_out" || { wait $bg || true; fail "the long job never saved step.500"; }
write_halt EXIT_REASON=test
say "halt file written while the job runs"
wait $bg
JOB_N=$((JOB_N + 1))
LAST_OUT="$bg_out" LAST_ERR="$E2E_DIR/job$JOB_N.err" LAST_RC="$(cat "$E2E_DIR/bg.rc")"
LAST_CMD="heat ${LONG[*]} (halted by the halt file)"
expect_ok "halted job"
stop="$(stopped_at)"
[[ -n "$stop" ]] || fail "the job did not report '$halt_message'"
((stop >= 500 && stop < 1000000)) || fail "the job stopped at step $stop"
say "job stopped at step $stop"
last_ckpt="$(checkpoint_steps | awk '{print $NF}')"
expect_index "step.$last_ckpt" loadable 1
# The halt request persists until cleared: the next run stops at once.
run_job SCR_FLUSH=1000 -- "$E2E_NP" "$HEAT" "${LONG[@]}"
expect_ok "run with the halt file still present"
expect_resumed_from "step.$last_ckpt"
assert_eq "$(stopped_at)" $((last_ckpt + 1)) "step at which the job stops while the halt file is present"
rm "$PREFIX/.scr/halt.scr"
run_job SCR_FLUSH=1000 -- "$E2E_NP" "$HEAT" -n $((last_ckpt + 30)) -c 500 -g 16 16
expect_ok "run after the halt file was removed"
expect_resumed_from "step.$last_ckpt"
[[ -z "$(stopped_at)" ]] || fail "the job halted although the halt file was removed"

# b) halt file present at start; heat -c 0 asks SCR_Need_checkpoint each step.
rm -rf "$E2E_DIR/run" && use_dirs "$E2E_DIR/run"
write_halt EXIT_REASON=test
run_job SCR_FLUSH=1000 SCR_CHECKPOINT_INTERVAL=1000 -- "$E2E_NP" "$HEAT" -n 40 -c 0
expect_ok "job started with a halt file"
assert_eq "$(stopped_at)" 1 "step at which the job stops"
expect_checkpoint_steps "1"
expect_index step.1 loadable 1

# c) halt after two more checkpoints.
rm -rf "$E2E_DIR/run" && use_dirs "$E2E_DIR/run"
write_halt CHECKPOINTS=2
run_job SCR_FLUSH=0 -- "$E2E_NP" "$HEAT" -n 60 -c 10
expect_ok "job with CHECKPOINTS=2"
expect_checkpoint_steps "10 20"
assert_eq "$(stopped_at)" 20 "step at which the job stops"

# d) allocation end time.
rm -rf "$E2E_DIR/run" && use_dirs "$E2E_DIR/run"
run_job SCR_FLUSH=0 SCR_HALT_SECONDS=600 "SCR_END_TIME=$(($(date +%s) + 300))" -- "$E2E_NP" "$HEAT" -n 40 -c 10
expect_ok "job 300 s before its end time with SCR_HALT_SECONDS=600"
assert_eq "$(stopped_at)" 1 "step at which the job stops"
rm -rf "$E2E_DIR/run" && use_dirs "$E2E_DIR/run"
run_job SCR_FLUSH=0 SCR_HALT_SECONDS=600 "SCR_END_TIME=$(($(date +%s) + 7200))" -- "$E2E_NP" "$HEAT" -n 40 -c 10
expect_ok "job two hours before its end time with SCR_HALT_SECONDS=600"
[[ -z "$(stopped_at)" ]] || fail "the job halted at step $(stopped_at) with two hours left"
expect_checkpoint_steps "10 20 30 40"
e2e_pass
