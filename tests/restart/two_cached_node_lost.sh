#!/usr/bin/env bash
# With two datasets cached (SCR_CACHE_SIZE=2) and one node lost, both are
# rebuilt: the restart resumes from step.30 and, when the application rejects
# it (SCR_Complete_restart(0) on one rank), from step.20 -- still from cache,
# since nothing was flushed. With two nodes lost XOR rebuilds neither and the
# job starts over.
source "$(dirname "$0")/../e2e/lib.sh"
E2E_COPY_TYPE=XOR E2E_NP=8 E2E_NODES=n0,n1,n2,n3
e2e_begin two_cached_node_lost
args=(-n 40 -c 10 -g 64 32)
settings=(SCR_SET_SIZE=4 SCR_FLUSH=0 SCR_CACHE_SIZE=2 SCR_DEBUG=1)
run_job "${settings[@]}" -- 8 "$HEAT" "${args[@]}" --crash-at 35
expect_crashed
assert_eq "$(cached_datasets n1 | wc -l)" 2 "datasets cached on n1"
lose_node n2
run_job "${settings[@]}" SCR_SIM_NODES=n0,n1,n4,n3 -- 8 "$HEAT" "${args[@]}" --invalid-restart-rank 3
expect_ok
expect_said "checkpoint 'step.30' could not be used"
expect_resumed_from step.20
expect_no_err "fetched checkpoint"
expect_result_equals_uninterrupted "${args[@]}"

use_dirs "$E2E_DIR/beyond"
run_job "${settings[@]}" -- 8 "$HEAT" "${args[@]}" --crash-at 35
expect_crashed
lose_node n1
lose_node n2
run_job "${settings[@]}" SCR_SIM_NODES=n0,n4,n5,n3 -- 8 "$HEAT" "${args[@]}"
expect_ok
expect_fresh_start
expect_said "cannot be used"
e2e_pass
