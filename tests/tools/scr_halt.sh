#!/usr/bin/env bash
# scr_halt against real jobs, through the halt file the runtime reads.
#  a) --checkpoints 1 stops a running job right after its next checkpoint
#  b) --immediate stops a running job at its next step; --list (SCR's
#     layout), --details and --json show the request; --remove-finalized
#     clears FINALIZED alone, and --remove clears everything, as SCR deletes
#     the halt file; again, it changes nothing: exit 0 (2 with --strict)
#  c) --after a past time halts a job at once, a future one does not;
#     --before with --seconds; each --unset-... lets the job run again;
#     unsetting what is not set changes nothing: exit 0 (2 with --strict)
#  d) TIME forms; bad values, a missing directory, a damaged halt file:
#     clear errors, exit codes, nothing created or changed
source "$(dirname "$0")/tools_lib.sh"
e2e_begin tools_scr_halt
halt_message="SCR asks the job to stop"
LONG=(-n 1000000 -c 500 -g 16 16)

stopped_at() {
  sed -n "s/^\[heat[^]]*\] step \([0-9]*\): $halt_message.*/\1/p" "$LAST_OUT" | head -n1
}

# Start the long job in the background; return once it saved its first
# checkpoint (FIRST_CKPT: its step). If it never does, stop it through the
# halt file before failing, so no job outlives the scenario.
start_long_job() {
  rm -f "$E2E_DIR/bg.rc"
  (
    run_job SCR_FLUSH=0 -- "$E2E_NP" "$HEAT" "${LONG[@]}"
    echo "$LAST_RC" >"$E2E_DIR/bg.rc"
  ) &
  BG_PID=$!
  BG_N=$((JOB_N + 1))
  BG_OUT="$E2E_DIR/job$BG_N.out"
  FIRST_CKPT=""
  for _ in $(seq 1 600); do
    FIRST_CKPT="$(sed -n "s/^\[heat[^]]*\] step \([0-9]*\): checkpoint .* saved.*/\1/p" "$BG_OUT" 2>/dev/null | head -n1)"
    [[ -n "$FIRST_CKPT" || -e "$E2E_DIR/bg.rc" ]] && break
    sleep 0.1
  done
  if [[ -z "$FIRST_CKPT" ]]; then
    "$SCR_HALT" --prefix "$PREFIX" --immediate="test cleanup" >/dev/null 2>&1 || true
    wait "$BG_PID" || true
    fail "the long job never saved a checkpoint"
  fi
}

# Wait for the background job and make it the last job for expect_*.
wait_long_job() {
  wait "$BG_PID"
  JOB_N=$((JOB_N > BG_N ? JOB_N : BG_N))
  LAST_OUT="$BG_OUT" LAST_ERR="$E2E_DIR/job$BG_N.err" LAST_RC="$(cat "$E2E_DIR/bg.rc")"
  LAST_CMD="heat ${LONG[*]} (in the background)"
}

# a) --checkpoints 1 while running
start_long_job
run_tool "$SCR_HALT" --prefix "$PREFIX" --checkpoints 1 --details
expect_rc 0
expect_out "halt after 1 more checkpoint [CHECKPOINTS]"
wait_long_job
expect_ok "job halted by --checkpoints 1"
stop="$(stopped_at)"
last="$(checkpoint_steps | awk '{print $NF}')"
[[ -n "$stop" ]] || fail "the job did not report '$halt_message'"
((stop > FIRST_CKPT)) || fail "the job stopped at step $stop, before its next checkpoint"
assert_eq "$stop" "$last" "step of the halt (the job must stop right after its next checkpoint)"
say "job stopped right after its checkpoint at step $stop"
run_tool "$SCR_HALT" --prefix "$PREFIX" --list
expect_rc 0
expect_out "  CheckpointsLeft: 0"
run_tool "$SCR_HALT" --prefix "$PREFIX" --details
expect_rc 0
expect_out "halt now: the requested checkpoints are done [CHECKPOINTS]"
expect_out "A job reading this file now would stop"
run_tool "$SCR_HALT" --prefix "$PREFIX" --unset-checkpoints
expect_rc 0

# b) --immediate while running (a new prefix)
rm -rf "$E2E_DIR/run" && use_dirs "$E2E_DIR/run"
start_long_job
run_tool "$SCR_HALT" --prefix "$PREFIX" --immediate="operator test"
expect_rc 0
wait_long_job
expect_ok "job halted by --immediate"
stop="$(stopped_at)"
[[ -n "$stop" ]] && ((stop >= FIRST_CKPT)) || fail "the job did not stop for --immediate (stopped at '$stop')"
run_tool "$SCR_HALT" --prefix "$PREFIX" --list
expect_rc 0
expect_out "  ExitReason:      operator test"
run_tool "$SCR_HALT" --prefix "$PREFIX" --details
expect_rc 0
expect_out "halt now, reason: operator test [EXIT_REASON]"
expect_out "[FINALIZED]"
run_tool "$SCR_HALT" --prefix "$PREFIX" --list --json
expect_rc 0
expect_out '"EXIT_REASON": "operator test"'
expect_out '"stop_now": true'
run_tool "$SCR_HALT" --prefix "$PREFIX" --remove-finalized --details
expect_rc 0
expect_no_out "[FINALIZED]"
expect_out "[EXIT_REASON]"
run_tool "$SCR_HALT" --prefix "$PREFIX" --remove --details
expect_rc 0
expect_out "removed every halt condition"
assert_no_file "$PREFIX/.scr/halt.scr" "with no condition left the halt file"
run_tool "$SCR_HALT" --prefix "$PREFIX" --remove
expect_rc 0
expect_err "no halt condition was set; nothing changed"
run_tool "$SCR_HALT" --prefix "$PREFIX" --remove --strict
expect_rc 2
assert_no_file "$PREFIX/.scr/halt.scr" "--remove with nothing to remove"
run_job SCR_FLUSH=0 -- "$E2E_NP" "$HEAT" -n 10 -c 0
expect_ok "job after --remove"
[[ -z "$(stopped_at)" ]] || fail "the job halted after the conditions were removed"

# c) time conditions, then unset one by one
rm -rf "$E2E_DIR/run" && use_dirs "$E2E_DIR/run"
run_tool "$SCR_HALT" --prefix "$PREFIX" --after 1
expect_rc 0
expect_err "EXIT_AFTER is already past"
run_job SCR_FLUSH=0 -- "$E2E_NP" "$HEAT" -n 40 -c 10
expect_ok "job with EXIT_AFTER in the past"
assert_eq "$(stopped_at)" 1 "step at which the job stops for EXIT_AFTER"
run_tool "$SCR_HALT" --prefix "$PREFIX" --after +2h --details
expect_rc 0
expect_out "(in 2 h) [EXIT_AFTER]"
run_tool "$SCR_HALT" --prefix "$PREFIX" --before +10m --seconds 3600 --details
expect_rc 0
expect_out "leaving 3600 seconds (HALT_SECONDS) for the last checkpoint [EXIT_BEFORE]"
rm -rf "$PREFIX/.scr/scr.dataset."* "$PREFIX/.scr/index.scr" "$CACHE" "$CNTL" && mkdir -p "$CACHE" "$CNTL"
run_job SCR_FLUSH=0 -- "$E2E_NP" "$HEAT" -n 40 -c 10
expect_ok "job within HALT_SECONDS of EXIT_BEFORE"
assert_eq "$(stopped_at)" 1 "step at which the job stops for EXIT_BEFORE"
run_tool "$SCR_HALT" --prefix "$PREFIX" --unset-before --unset-seconds
expect_rc 0
expect_out "Unsetting ExitBefore"
expect_out "Unsetting HaltSeconds"
expect_no_out "  ExitBefore:"
expect_no_out "  HaltSeconds:"
before="$(scr_digest)"
run_tool "$SCR_HALT" --prefix "$PREFIX" --unset-before
expect_rc 0
expect_err "EXIT_BEFORE was not set; nothing changed"
run_tool "$SCR_HALT" --prefix "$PREFIX" --unset-before --strict
expect_rc 2
expect_digest "$before" "unsetting a condition that is not set"
run_tool "$SCR_HALT" --prefix "$PREFIX" --list --json
expect_out '"EXIT_AFTER": '
expect_out '"stop_now": false'
run_job SCR_FLUSH=0 -- "$E2E_NP" "$HEAT" -n 40 -c 10
expect_ok "job with EXIT_AFTER two hours ahead"
[[ -z "$(stopped_at)" ]] || fail "the job halted with EXIT_AFTER two hours ahead"
run_tool "$SCR_HALT" --prefix "$PREFIX" --unset-after
expect_rc 0

# d) TIME forms, errors
run_tool "$SCR_HALT" --prefix "$PREFIX" --after "2030-01-02 03:04:05"
expect_rc 0
run_tool "$SCR_HALT" --prefix "$PREFIX" --list --json
expect_out "\"EXIT_AFTER\": $(date -d "2030-01-02 03:04:05" +%s)"
before="$(scr_digest)"
for bad in "tomorrow" "2030-02-30 10:00" "+5x" "-3"; do
  run_tool "$SCR_HALT" --prefix "$PREFIX" --before "$bad"
  expect_rc 1
  expect_err "--before: '$bad' is not a time"
done
run_tool "$SCR_HALT" --prefix "$PREFIX" --checkpoints many
expect_rc 1
expect_err "--checkpoints: 'many' is not a whole number"
run_tool "$SCR_HALT" --prefix "$PREFIX" --checkpoints 2 --unset-checkpoints
expect_rc 1
expect_err "CHECKPOINTS is both set and unset"
run_tool "$SCR_HALT" --prefix "$PREFIX" --checkpoints
expect_rc 1
expect_err "--checkpoints needs a value"
run_tool "$SCR_HALT" --prefix "$PREFIX" --frobnicate
expect_rc 1
expect_err "unknown option '--frobnicate'"
expect_digest "$before" "rejected scr_halt calls"
run_tool "$SCR_HALT" --prefix "$E2E_DIR/no/such/dir" --immediate
expect_rc 2
expect_err "$E2E_DIR/no/such/dir does not exist"
assert_no_file "$E2E_DIR/no" "a missing prefix must not be created:"
corrupt_byte "$PREFIX/.scr/halt.scr" 30
before="$(scr_digest)"
run_tool "$SCR_HALT" --prefix "$PREFIX" --immediate
expect_rc 3
expect_err "$PREFIX/.scr/halt.scr"
expect_err "nothing was changed"
run_tool "$SCR_HALT" --prefix "$PREFIX" --list
expect_rc 3
expect_digest "$before" "scr_halt on a damaged halt file"
# --remove deletes a damaged file, as SCR's deletes whatever it holds.
run_tool "$SCR_HALT" --prefix "$PREFIX" --remove
expect_rc 0
assert_no_file "$PREFIX/.scr/halt.scr" "a damaged halt file after --remove:"
# A file that cannot be read is not damaged: an I/O failure (5), no advice
# to delete it. (root reads any file: a directory in its place stands for
# one that cannot be read.)
mkdir "$PREFIX/.scr/halt.scr"
run_tool "$SCR_HALT" --prefix "$PREFIX" --list
expect_rc 5
rmdir "$PREFIX/.scr/halt.scr"
e2e_pass
