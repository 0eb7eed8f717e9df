#!/usr/bin/env bash
# Restart from the prefix with a different number of processes than wrote
# the checkpoint; the restarted heat run must end with the checksum of an
# uninterrupted run (which covers every byte of the grid):
#  - 8 -> 4: a cached checkpoint flushed to the prefix, fetched file by file
#    into the new nodes' cache (the old cache does not fit this job's size);
#  - 8 -> 6: a checkpoint written with cache bypass, read in place (and 6
#    ranks do not split the grid's rows evenly);
#  - 4 -> 8: a flushed checkpoint read in place with SCR_FETCH_BYPASS=1.
# Each job's node cache holds nothing of the restart afterwards.
source "$(dirname "$0")/../e2e/lib.sh"
E2E_NP=8 E2E_NODES=n0,n1,n2,n3
e2e_begin rescale_prefix
args=(-n 40 -c 10 -g 64 32)

no_rescale_copies() {
  if find "$CACHE" -name 'scr.rescale.*' | grep -q .; then fail "node-local copies left in $CACHE"; fi
}

say "8 -> 4 ranks, cached checkpoint flushed to the prefix"
use_dirs "$E2E_DIR/down4"
run_job SCR_FLUSH=1 -- 8 "$HEAT" "${args[@]}" --crash-at 25
expect_crashed
run_job SCR_FLUSH=1 SCR_SIM_NODES=n0,n1 -- 4 "$HEAT" "${args[@]}"
expect_ok
expect_resumed_from step.20
expect_result_equals_uninterrupted "${args[@]}"
no_rescale_copies

say "8 -> 6 ranks, checkpoint written with cache bypass"
use_dirs "$E2E_DIR/down6"
run_job SCR_CACHE_BYPASS= -- 8 "$HEAT" "${args[@]}" --crash-at 25
expect_crashed
run_job SCR_CACHE_BYPASS= SCR_SIM_NODES=n0,n1,n2 -- 6 "$HEAT" "${args[@]}"
expect_ok
expect_resumed_from step.20
expect_result_equals_uninterrupted "${args[@]}"

say "4 -> 8 ranks, read in place (SCR_FETCH_BYPASS=1)"
use_dirs "$E2E_DIR/up8"
run_job SCR_FLUSH=1 SCR_SIM_NODES=n0,n1 -- 4 "$HEAT" "${args[@]}" --crash-at 25
expect_crashed
lose_node n0
lose_node n1
run_job SCR_FLUSH=1 SCR_FETCH_BYPASS=1 -- 8 "$HEAT" "${args[@]}"
expect_ok
expect_resumed_from step.20
expect_result_equals_uninterrupted "${args[@]}"
no_rescale_copies
e2e_pass
