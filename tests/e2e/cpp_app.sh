#!/usr/bin/env bash
# Scenario 11: the C++ API example (examples/cpp/heat_cpp: scr::Library,
# scr::Checkpoint, scr::Output, scr::Restart, scr::Exception).
#  - killed at step 25, it restarts from the cached checkpoint of step 20
#    and ends with the checksum of an uninterrupted run;
#  - a rank rejecting the first checkpoint offered (Restart::commit(false)
#    throws scr::Exception) makes it resume from the next older one;
#  - with every node lost it restarts from the newest flushed checkpoint;
#  - its output datasets reach the prefix.
source "$(dirname "$0")/lib.sh"
e2e_begin cpp_app
need_file "$HEAT_CPP" "examples/cpp/heat_cpp is not built"
ARGS=(-n 40 -c 10 -o 20)

step_of_resume() { sed -n "s/.*resumed from checkpoint '[^']*' (step \([0-9]*\)).*/\1/p" "$LAST_OUT"; }

run_job SCR_FLUSH=3 SCR_CACHE_SIZE=2 -- "$E2E_NP" "$HEAT_CPP" "${ARGS[@]}" --crash-at 25
expect_crashed "heat_cpp killed at step 25"
expect_out "step 20: checkpoint saved"
expect_err "simulating a failure at step 25"
cp -a "$E2E_DIR/run" "$E2E_DIR/after_kill"

run_job SCR_FLUSH=3 SCR_CACHE_SIZE=2 -- "$E2E_NP" "$HEAT_CPP" "${ARGS[@]}"
expect_ok "heat_cpp restarted"
assert_eq "$(step_of_resume)" 20 "step heat_cpp resumed from"
expect_result_equals_uninterrupted_of "$HEAT_CPP" "${ARGS[@]}"
for s in 20 40; do
  for r in $(seq 0 $((E2E_NP - 1))); do
    grep -qE "^step $s rank $r heat [0-9.]+$" "$PREFIX/rod_output/rod.$s.rank_$r.txt" 2>/dev/null ||
      fail "output rod_output/rod.$s.rank_$r.txt is missing or wrong"
  done
  expect_index "rod.$s" complete 1
done

# Rank 1 rejects the newest checkpoint (step 20): the exception path.
rm -rf "$E2E_DIR/run" && cp -a "$E2E_DIR/after_kill" "$E2E_DIR/run"
run_job SCR_FLUSH=3 SCR_CACHE_SIZE=2 -- "$E2E_NP" "$HEAT_CPP" "${ARGS[@]}" --invalid-restart-rank 1
expect_ok "heat_cpp rejecting a checkpoint"
expect_out "could not be used"
expect_out "invalid on at least one process"
assert_eq "$(step_of_resume)" 10 "step heat_cpp resumed from after rejecting step 20"
expect_result_equals_uninterrupted_of "$HEAT_CPP" "${ARGS[@]}"

# Every node lost: the third checkpoint (step 30) was flushed before the
# kill at step 35.
rm -rf "$E2E_DIR/run" && use_dirs "$E2E_DIR/run"
run_job SCR_FLUSH=3 -- "$E2E_NP" "$HEAT_CPP" "${ARGS[@]}" --crash-at 35
expect_crashed "heat_cpp killed at step 35"
lose_all_nodes
run_job SCR_FLUSH=3 -- "$E2E_NP" "$HEAT_CPP" "${ARGS[@]}"
expect_ok "heat_cpp restarted from the prefix"
assert_eq "$(step_of_resume)" 30 "step heat_cpp resumed from (prefix)"
expect_result_equals_uninterrupted_of "$HEAT_CPP" "${ARGS[@]}"
e2e_pass
