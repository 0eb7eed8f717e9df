#!/usr/bin/env bash
# Two SCR++ jobs of one launch given one prefix (and the launch's job id):
# the prefix lock lets one of them in and refuses the other at
# SCRPP_Init_comm, on all its processes, with an error that says each job
# needs its own SCR_PREFIX. The job let in checkpoints and finishes; the
# prefix holds its datasets only.
source "$(dirname "$0")/lib.sh"
E2E_NP=8
E2E_NODES=n0,n1,n2,n3
e2e_begin comm_one_prefix
ARGS=(--split parity --every-a 3 --every-b 5 --end 10 --prefix-a "$PREFIX" --prefix-b "$PREFIX")

run_job SCR_JOB_ID=launch1 -- 8 "$COMM_JOBS" "${ARGS[@]}"
[[ "$LAST_RC" -ne 0 ]] || fail "the launch succeeded although two jobs shared one prefix"
failed=$(grep -cE '^job [AB] rank [0-3] init failed$' "$LAST_OUT" || true)
done=$(grep -cE '^job [AB] rank [0-3] done$' "$LAST_OUT" || true)
assert_eq "$failed" 4 "processes refused at SCRPP_Init_comm"
assert_eq "$done" 4 "processes of the job let in that finished"
refused=$(grep -m1 -oE '^job [AB]' <(grep 'init failed' "$LAST_OUT") | cut -c5)
winner=$([[ "$refused" == A ]] && echo B || echo A)
expect_lines 0 "job $winner rank 0 init failed"
expect_err "needs its own SCR_PREFIX"
# The winner's checkpoints only, in the prefix's index and files.
[[ -z "$(find "$PREFIX" -name "$refused.*")" ]] || fail "the refused job $refused wrote into the prefix"
[[ -n "$(find "$PREFIX" -name "$winner.*")" ]] || fail "job $winner left no checkpoint in the prefix"
e2e_pass
