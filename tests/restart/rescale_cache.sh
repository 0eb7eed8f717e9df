#!/usr/bin/env bash
# Restart at a different size from the cache: 8 ranks on 4 nodes write
# checkpoints to the cache only (nothing flushed), one node's storage is
# lost, and the job comes back as 6 ranks on the 3 nodes left (no spare).
# The newest checkpoint is made whole in the prefix first (the lost node's
# files rebuilt with the scheme and set layout they were written with),
# then read at the new size; the run must end with the checksum of an
# uninterrupted run; before that, a prefix with no room makes SCR_Init fail
# and leaves the cache untouched. Run once per scheme: XOR, or RS with SCR_SET_FAILURES=2
# (argument 1 and the settings after it).
# With XOR, a second scenario loses two nodes: the newest checkpoint (only
# in cache) cannot be made whole, leaves nothing loadable in the prefix, and
# the older flushed one is used instead.
source "$(dirname "$0")/../e2e/lib.sh"
E2E_COPY_TYPE="${1:-XOR}"
shift || true
E2E_NP=8 E2E_NODES=n0,n1,n2,n3
e2e_begin rescale_cache
args=(-n 40 -c 10 -g 64 32)
settings=(SCR_FLUSH=0 SCR_SET_SIZE=4 "$@")

run_job "${settings[@]}" -- 8 "$HEAT" "${args[@]}" --crash-at 25
expect_crashed
assert_eq "$(index_field step.20 flushed)" absent "step.20 in the prefix before the restart"
lose_node n3
# First with a prefix that takes no data (every write to step.20/ fails with
# ENOSPC): SCR_Init must fail and leave the cache, the only copy, untouched.
before="$(tree_digest "$CACHE")"
run_job "${settings[@]}" SCR_SIM_NODES=n0,n1,n2 SCR_FAULT_INJECT="write:/step.20/:1:ENOSPC" \
  -- 6 "$HEAT" "${args[@]}"
[[ $LAST_RC -ne 0 ]] || fail "the job ran although its cache-only checkpoint could not be saved"
assert_eq "$(tree_digest "$CACHE")" "$before" "the cache after a salvage the prefix could not take"
run_job "${settings[@]}" SCR_SIM_NODES=n0,n1,n2 -- 6 "$HEAT" "${args[@]}"
expect_ok
expect_resumed_from step.20
expect_result_equals_uninterrupted "${args[@]}"
# The salvaged checkpoint is in the prefix, whole: 8 files of the old job.
for r in 0 1 2 3 4 5 6 7; do assert_file "$PREFIX/step.20/rank_$r.dat"; done
expect_index step.20 loadable 1

if [[ "$E2E_COPY_TYPE" == XOR ]]; then
  say "two nodes lost: beyond XOR, the flushed step.20 is used"
  use_dirs "$E2E_DIR/two_lost"
  settings=(SCR_FLUSH=2 SCR_SET_SIZE=4 SCR_CACHE_SIZE=2)
  run_job "${settings[@]}" -- 8 "$HEAT" "${args[@]}" --crash-at 35
  expect_crashed
  expect_index step.20 loadable 1
  lose_node n2
  lose_node n3
  run_job "${settings[@]}" SCR_SIM_NODES=n0,n1 -- 4 "$HEAT" "${args[@]}"
  expect_ok
  expect_resumed_from step.20
  expect_result_equals_uninterrupted "${args[@]}"
  # Nothing of the step.30 that could not be made whole stays in the prefix,
  # not even the directory its copies made (the 4-rank job never flushes a
  # step.30 of its own: SCR_FLUSH=2 from step.20 flushes step.40).
  expect_index step.30 flushed absent
  [[ ! -e "$PREFIX/step.30" ]] || fail "step.30/ left in the prefix: $(ls -A "$PREFIX/step.30")"
fi
e2e_pass
