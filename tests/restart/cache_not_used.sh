#!/usr/bin/env bash
# When the cache must not be used the restart comes from the prefix:
#  - SCR_CACHE_PURGE=1 deletes the cache at start;
#  - SCR_DISTRIBUTE=0 skips redistribution and rebuild (and the cache);
#  - a job with a different number of ranks than the cached data was written
#    with says so and turns to the prefix, where it restarts from the
#    flushed checkpoint at its own size (tests/restart/rescale_*.sh).
source "$(dirname "$0")/../e2e/lib.sh"
E2E_COPY_TYPE=XOR E2E_NP=8 E2E_NODES=n0,n1,n2,n3
e2e_begin cache_not_used
args=(-n 40 -c 10 -g 64 32)
settings=(SCR_SET_SIZE=4 SCR_FLUSH=2 SCR_CACHE_SIZE=1 SCR_DEBUG=1)

crashed_run() {
  use_dirs "$E2E_DIR/$1"
  run_job "${settings[@]}" -- 8 "$HEAT" "${args[@]}" --crash-at 35
  expect_crashed
  assert_eq "$(cached_datasets n0 | wc -l)" 1 "datasets cached on n0 after the crash"
}

crashed_run purge
run_job "${settings[@]}" SCR_CACHE_PURGE=1 -- 8 "$HEAT" "${args[@]}"
expect_ok
expect_said "SCR_CACHE_PURGE=1: deleting the cache"
expect_resumed_from step.20
expect_said "fetched checkpoint step.20"
expect_result_equals_uninterrupted "${args[@]}"

crashed_run nodistribute
run_job "${settings[@]}" SCR_DISTRIBUTE=0 -- 8 "$HEAT" "${args[@]}"
expect_ok
expect_resumed_from step.20
expect_said "fetched checkpoint step.20"

crashed_run resized
run_job "${settings[@]}" SCR_SIM_NODES=n0,n1 -- 4 "$HEAT" "${args[@]}"
expect_ok
expect_said "processes, but this job has 4; restarting from the prefix"
expect_resumed_from step.20
expect_result_equals_uninterrupted "${args[@]}"
e2e_pass
