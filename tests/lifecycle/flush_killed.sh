#!/usr/bin/env bash
# A flush killed at every step leaves a consistent prefix: the index always
# loads, the previous complete checkpoint stays current and loadable, the
# interrupted one is never loadable, and a later job restarts correctly.
#  a) FaultEnv "crash:N" (every file step after N is lost) for each N of a
#     job whose second checkpoint is flushed;
#  b) a real SIGKILL at the creation of each file the flush writes in the
#     prefix (FaultEnv "kill:PATTERN:1").
source "$(dirname "$0")/../e2e/lib.sh"
E2E_NP=2 E2E_NODES=n0,n1
e2e_begin flush_killed
args=(-n 20 -c 10 -g 16 16)
base=(SCR_FLUSH=1 SCR_CACHE_SIZE=1)

# A prefix holding step.10, flushed and current (made once, copied after).
use_dirs "$E2E_DIR/seed"
run_job "${base[@]}" -- 2 "$HEAT" -n 10 -c 10 -g 16 16
expect_ok "seed job"
expect_index step.10 loadable 1
seed_prefix() {
  rm -rf "$E2E_DIR/run" && cp -a "$E2E_DIR/seed" "$E2E_DIR/run" && use_dirs "$E2E_DIR/run"
}

# After the interrupted job: step.10 or step.20 is current, never a torn one.
check_consistent() {
  local what="$1" current
  current="$(index_current)"
  case "$current" in
    step.10) [[ "$(index_field step.20 loadable)" != 1 ]] || fail "$what: torn step.20 is loadable" ;;
    step.20) expect_index step.20 loadable 1 ;;
    *) fail "$what: current checkpoint is '$current'" ;;
  esac
  expect_index step.10 loadable 1
  lose_all_nodes
  run_job "${base[@]}" -- 2 "$HEAT" "${args[@]}"
  expect_ok "$what: restart from the prefix"
  expect_resumed_from "$current"
  expect_result_equals_uninterrupted "${args[@]}"
}

# a) crash at every step until the job gets through. E2E_CRASH_STRIDE=k
# checks every k-th step only (the suite uses 13: every step is crashed
# in-process by runtime_in_process_test; an odd stride hits file creations
# and writes alike).
stride="${E2E_CRASH_STRIDE:-1}"
n=$((1 - stride)) crashes=0
while :; do
  n=$((n + stride))
  seed_prefix
  run_job "${base[@]}" "SCR_FAULT_INJECT=crash:$n" -- 2 "$HEAT" "${args[@]}"
  if [[ $LAST_RC -eq 0 ]] && grep -q '^RESULT' "$LAST_OUT"; then break; fi
  crashes=$((crashes + 1))
  check_consistent "crash at step $n"
  ((n < 400)) || fail "the job never got past its file steps"
done
say "$crashes crash points checked; the job survives from step $n on"
((crashes * stride >= 10)) || fail "only $crashes crash points: the sweep did not cover the flush"

# b) a real SIGKILL as the flush creates each of its files in the prefix.
kills=0
for pattern in step.20/rank_0.dat step.20/rank_1.dat scr.dataset.2/reddesc.0 \
               scr.dataset.2/reddesc.1 scr.dataset.2/summary.scr index.scr.tmp; do
  seed_prefix
  run_job "${base[@]}" "SCR_FAULT_INJECT=kill:$pattern:1" -- 2 "$HEAT" "${args[@]}"
  [[ $LAST_RC -ne 0 ]] || fail "kill at $pattern did not happen"
  kills=$((kills + 1))
  check_consistent "SIGKILL creating $pattern"
done
say "$kills kill points checked"

# c) The same file names in every checkpoint (heat --same-names writes
# ckpt/rank_<r>.dat each time): the flush of step.20 is killed when rank 1
# creates its redundancy file in the prefix, after its own ckpt/rank_1.dat
# was copied. That copy replaces step.10's file only once every process got
# through, so step.10 stays current and whole, and the next job restarts
# from it and removes the killed flush's temporaries.
same=(--same-names)
use_dirs "$E2E_DIR/same_names"
run_job "${base[@]}" -- 2 "$HEAT" -n 10 -c 10 -g 16 16 "${same[@]}"
expect_ok "same names: seed job"
expect_index step.10 loadable 1
run_job "${base[@]}" "SCR_FAULT_INJECT=kill:scr.dataset.2/reddesc.1:1" -- 2 "$HEAT" "${args[@]}" "${same[@]}"
[[ $LAST_RC -ne 0 ]] || fail "same names: the kill did not happen"
[[ -n "$(find "$PREFIX/ckpt" -name 'rank_1.dat.tmp.*')" ]] ||
  fail "same names: rank 1's copy was not held back beside step.10's file"
[[ "$(index_current)" == step.10 ]] || fail "same names: current is '$(index_current)', not step.10"
lose_all_nodes
run_job "${base[@]}" -- 2 "$HEAT" "${args[@]}" "${same[@]}"
expect_ok "same names: restart from the prefix"
expect_resumed_from step.10
expect_result_equals_uninterrupted "${args[@]}"
[[ -z "$(find "$PREFIX" -name '*.tmp.*')" ]] || fail "same names: temporaries left in the prefix: $(find "$PREFIX" -name '*.tmp.*')"
say "a flush killed over step.10's names left step.10 whole"
e2e_pass
