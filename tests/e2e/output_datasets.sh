#!/usr/bin/env bash
# Scenario 5: output datasets (heat -o 5) reach the prefix at the paths the
# application named, output/heat.<step>.rank_<r>.txt, with the content it
# wrote; they are not kept in cache; the index lists them as complete output
# (not loadable as checkpoints); a killed-and-restarted job produces the same
# files as an uninterrupted one.
source "$(dirname "$0")/lib.sh"
e2e_begin output_datasets
ARGS=(-n 20 -c 10 -o 5)
rows=$((64 / E2E_NP))

check_outputs() {
  local steps="$1" s r f
  for s in $steps; do
    for r in $(seq 0 $((E2E_NP - 1))); do
      f="$PREFIX/output/heat.$s.rank_$r.txt"
      assert_file "$f" "output file of step $s, rank $r"
      grep -qE "^step $s rank $r rows $rows heat [0-9]+\.[0-9]{6}$" "$f" ||
        fail "$f holds '$(cat "$f")', expected 'step $s rank $r rows $rows heat <sum>'"
    done
    expect_index "heat.$s" complete 1
    expect_index "heat.$s" flushed 1
    expect_index "heat.$s" flags 2
    expect_index "heat.$s" loadable 0
  done
}

no_output_in_cache() {
  local found
  found="$(find "$CACHE" -name 'heat.*.txt' -o -type d -name output)"
  [[ -z "$found" ]] || fail "output files are still in cache:
$found"
}

# Uninterrupted run: four output datasets, checkpoints only in cache until
# SCR_Finalize flushes the last one.
run_job SCR_FLUSH=1000 -- "$E2E_NP" "$HEAT" "${ARGS[@]}"
expect_ok "uninterrupted run"
for s in 5 10 15 20; do expect_out "step $s: output dataset 'heat.$s' written to the prefix"; done
check_outputs "5 10 15 20"
no_output_in_cache
expect_index step.20 loadable 1
assert_eq "$(index_current)" step.20 "current checkpoint (an output must never become current)"
assert_eq "$(find "$PREFIX/output" -type f | wc -l)" $((4 * E2E_NP)) "number of output files in the prefix"
for n in ${E2E_NODES//,/ }; do
  assert_eq "$(cached_datasets "$n" | wc -l)" 1 "datasets in the cache of $n (the last checkpoint only)"
done
mkdir -p "$E2E_DIR/expected" && cp -a "$PREFIX/output" "$E2E_DIR/expected/"

# Killed after step 15's output, restarted from step.10.
rm -rf "$E2E_DIR/run" && use_dirs "$E2E_DIR/run"
run_job SCR_FLUSH=1000 -- "$E2E_NP" "$HEAT" "${ARGS[@]}" --crash-at 15
expect_crashed "job killed at step 15"
check_outputs "5 10 15"
no_output_in_cache
run_job SCR_FLUSH=1000 -- "$E2E_NP" "$HEAT" "${ARGS[@]}"
expect_ok "restarted run"
expect_resumed_from step.10
check_outputs "5 10 15 20"
no_output_in_cache
diff -r "$E2E_DIR/expected/output" "$PREFIX/output" >/dev/null ||
  fail "the restarted job's output files differ from the uninterrupted run's:
$(diff -r "$E2E_DIR/expected/output" "$PREFIX/output" | head -20)"
expect_result_equals_uninterrupted "${ARGS[@]}"
e2e_pass
