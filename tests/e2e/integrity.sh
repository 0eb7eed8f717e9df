#!/usr/bin/env bash
# Verified data end to end: the CRC32C of every file is recorded when the
# checkpoint completes, and nothing the application reads back may differ.
# 4 ranks on 4 simulated nodes keep two checkpoints in cache (no flush):
#  1. One cached file of the newest checkpoint (step.30) damaged in place, same
#     size: the restart rebuilds it from the redundancy data and resumes from
#     step.30 with the right answer.
#  2. The redundancy data of step.30 damaged on every surviving node and node
#     n1 lost: a rebuild could only produce wrong bytes, so step.30 is refused
#     and the restart resumes from step.20, with the right answer.
# Run once per scheme that survives a lost node (E2E_COPY_TYPE=XOR, RS, PARTNER).
source "$(dirname "$0")/lib.sh"
E2E_NP=4
E2E_NODES=n0,n1,n2,n3
e2e_begin integrity
ARGS=(-n 40 -c 10)
SETTINGS=(SCR_FLUSH=0 SCR_CACHE_SIZE=2 SCR_SET_SIZE=4 SCR_SET_FAILURES=2)
scheme_survives_node_loss || fail "run with E2E_COPY_TYPE=XOR, RS or PARTNER"

newest_dataset_dir() { # newest_dataset_dir NODE
  local id
  id="$(cached_datasets "$1" | tail -n1)"
  [[ -n "$id" ]] || fail "node $1 holds no cached dataset"
  find "$CACHE/$1" -mindepth 3 -maxdepth 3 -type d -name "$id"
}

run_job "${SETTINGS[@]}" -- 4 "$HEAT" "${ARGS[@]}" --crash-at 35
expect_crashed "first job"
cp -a "$E2E_DIR/run" "$E2E_DIR/cached"

# 1. A damaged application file is rebuilt.
corrupt_byte "$(newest_dataset_dir n2)/step.30/rank_2.dat" 200
run_job "${SETTINGS[@]}" -- 4 "$HEAT" "${ARGS[@]}"
expect_ok "restart after a damaged cache file"
expect_resumed_from step.30
expect_result_equals_uninterrupted "${ARGS[@]}"

# 2. Damaged redundancy data plus a lost node: never handed out.
rm -rf "$E2E_DIR/run" && cp -a "$E2E_DIR/cached" "$E2E_DIR/run"
for node in n0 n2 n3; do
  for red in "$(newest_dataset_dir "$node")"/.scr/*.redset; do damage_data "$red"; done
done
lose_node n1
run_job "${SETTINGS[@]}" -- 4 "$HEAT" "${ARGS[@]}"
expect_ok "restart after damaged redundancy data and a lost node"
expect_resumed_from step.20
expect_result_equals_uninterrupted "${ARGS[@]}"
e2e_pass
