#!/usr/bin/env bash
# Scenario 3b: fallback to an older flushed checkpoint when the newest one in
# the prefix is damaged. Three checkpoints are flushed (SCR_FLUSH=1), every
# node is lost, then the newest flushed checkpoint is damaged:
#  - a file removed from the prefix: the fetch fails, step.30 is marked
#    FAILED in the index and step.20 is loaded;
#  - one byte flipped in a flushed file: its CRC32C no longer matches, the
#    dataset is marked FAILED and the next older one is loaded;
#  - both step.30 and step.20 damaged: step.10 is loaded.
source "$(dirname "$0")/lib.sh"
e2e_begin fallback_damaged
ARGS=(-n 30 -c 10)
last=$((E2E_NP - 1))

run_job SCR_FLUSH=1 -- "$E2E_NP" "$HEAT" "${ARGS[@]}" --crash-at 30
expect_crashed "first job"
for s in 10 20 30; do expect_index step.$s loadable 1; done
lose_all_nodes
cp -a "$E2E_DIR/run" "$E2E_DIR/flushed"

restart_expecting() {
  local want="$1" what="$2"
  run_job SCR_FLUSH=1 -- "$E2E_NP" "$HEAT" "${ARGS[@]}"
  expect_ok "restart with $what"
  expect_resumed_from "$want"
  expect_result_equals_uninterrupted "${ARGS[@]}"
}

# A file missing from the newest checkpoint.
rm "$PREFIX/step.30/rank_$last.dat"
restart_expecting step.20 "a file of step.30 missing"
expect_said "cannot fetch checkpoint step.30"
expect_failed_or_replaced 3 step.30

# One flipped byte in the newest checkpoint (in the grid data, past the header).
rm -rf "$E2E_DIR/run" && cp -a "$E2E_DIR/flushed" "$E2E_DIR/run"
corrupt_byte "$PREFIX/step.30/rank_1.dat" 100
restart_expecting step.20 "a corrupted byte in step.30"
expect_said "CRC"
expect_failed_or_replaced 3 step.30
index_show | grep -c >/dev/null "^id=2 name=step.20 .* failed=0 " || fail "step.20 (id 2) should not be FAILED:
$(index_show)"

# The two newest damaged.
rm -rf "$E2E_DIR/run" && cp -a "$E2E_DIR/flushed" "$E2E_DIR/run"
corrupt_byte "$PREFIX/step.30/rank_0.dat" 4000
corrupt_byte "$PREFIX/step.20/rank_$last.dat" 17
restart_expecting step.10 "step.30 and step.20 corrupted"
for id in 2 3; do
  expect_failed_or_replaced "$id" "step.$((id * 10))"
done
e2e_pass
