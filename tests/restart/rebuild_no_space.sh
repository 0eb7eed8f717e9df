#!/usr/bin/env bash
# A rebuild that fails for want of space on the spare node keeps what the
# intact nodes hold. XOR sets of 4 over 4 nodes; step.30 is cached only
# (SCR_FLUSH=0) when node n2 is lost.
#  job 2 runs on a spare n4 whose first cache write fails with ENOSPC: the
#  rebuild fails, the job starts over (nothing in the prefix), and the intact
#  nodes' files of step.30 are still there afterwards;
#  job 3, on the same nodes without the fault, rebuilds step.30 from them and
#  resumes from it, with the result of an uninterrupted run.
# The same when the intact node n3's ranks move to the full spare: n3 keeps
# the files it could not hand over.
source "$(dirname "$0")/../e2e/lib.sh"
E2E_COPY_TYPE=XOR E2E_NP=8 E2E_NODES=n0,n1,n2,n3
e2e_begin rebuild_no_space
args=(-n 40 -c 10 -g 64 32)
settings=(SCR_SET_SIZE=4 SCR_FLUSH=0 SCR_CACHE_SIZE=4)
run_job "${settings[@]}" -- 8 "$HEAT" "${args[@]}" --crash-at 35
expect_crashed
lose_node n2
before="$(tree_digest "$CACHE/n1")"
assert_eq "$(cached_datasets n1 | tail -n1)" scr.dataset.3 "newest dataset cached on n1"

# -n 5 -c 10: the fresh start saves no checkpoint of its own, so nothing is
# evicted and the cache is left as the failed rebuild left it.
run_job "${settings[@]}" SCR_SIM_NODES=n0,n1,n4,n3 SCR_FAULT_INJECT="write:cache/n4/:1:ENOSPC" \
  -- 8 "$HEAT" -n 5 -c 10 -g 64 32
expect_ok
expect_fresh_start
assert_eq "$(tree_digest "$CACHE/n1")" "$before" "n1's cache after the failed rebuild (intact files kept)"
[[ -z "$(cached_datasets n4)" ]] || fail "the spare n4 kept a partial dataset: $(cached_datasets n4)"

run_job "${settings[@]}" SCR_SIM_NODES=n0,n1,n4,n3 -- 8 "$HEAT" "${args[@]}"
expect_ok
expect_resumed_from step.30
expect_result_equals_uninterrupted "${args[@]}"

# The spare n4 takes the place of n3, whose ranks move: n3 must send its
# intact files to n4, which is full. n3 keeps them (the copy did not arrive),
# and a later run with room moves them and rebuilds n2's.
use_dirs "$E2E_DIR/moved"
run_job "${settings[@]}" -- 8 "$HEAT" "${args[@]}" --crash-at 35
expect_crashed
lose_node n2
before="$(tree_digest "$CACHE/n3")"
run_job "${settings[@]}" SCR_SIM_NODES=n0,n1,n3,n4 SCR_FAULT_INJECT="write:cache/n4/:1:ENOSPC" \
  -- 8 "$HEAT" -n 5 -c 10 -g 64 32
expect_ok
expect_fresh_start
assert_eq "$(tree_digest "$CACHE/n3")" "$before" "n3's cache after its files could not be moved to a full n4"
run_job "${settings[@]}" SCR_SIM_NODES=n0,n1,n3,n4 -- 8 "$HEAT" "${args[@]}"
expect_ok
expect_resumed_from step.30
expect_result_equals_uninterrupted "${args[@]}"
e2e_pass
