#!/usr/bin/env bash
# Scenario 6: SCR_CACHE_SIZE eviction. Checkpoints every 10 steps, flushed
# only by SCR_Finalize (SCR_FLUSH=1000), outputs every 5 steps. After the job,
# each node's cache holds exactly SCR_CACHE_SIZE dataset directories: the newest
# checkpoints, each with the files of the ranks on that node; output datasets
# never take a cache slot. A restart after a kill can use any of them. A
# STORE line's COUNT sets the same limit for its store.
source "$(dirname "$0")/lib.sh"
e2e_begin cache_eviction
ARGS=(-n 50 -c 10 -o 5)
IFS=',' read -r -a NODES <<<"$E2E_NODES"
per_node=$((E2E_NP / ${#NODES[@]}))

# expect_cache SIZE STEP...: every node holds exactly these checkpoints.
expect_cache() {
  local size="$1"
  shift
  local i node got s r dir
  for i in "${!NODES[@]}"; do
    node="${NODES[$i]}"
    got="$(cached_datasets "$node" | wc -l)"
    assert_eq "$got" "$size" "dataset directories in the cache of node $node with SCR_CACHE_SIZE=$size"
    for s in "$@"; do
      dir="$(find "$CACHE/$node" -mindepth 4 -maxdepth 4 -type d -name "step.$s")"
      [[ -n "$dir" ]] || fail "node $node does not hold checkpoint step.$s:
$(find "$CACHE/$node" -type f)"
      for r in $(seq $((i * per_node)) $((i * per_node + per_node - 1))); do
        assert_file "$dir/rank_$r.dat" "checkpoint file of rank $r on node $node"
      done
    done
    [[ -z "$(find "$CACHE/$node" -name 'heat.*')" ]] || fail "an output dataset stayed in the cache of $node"
  done
}

run_job SCR_CACHE_SIZE=2 SCR_FLUSH=1000 -- "$E2E_NP" "$HEAT" "${ARGS[@]}" --crash-at 50
expect_crashed "job killed after the checkpoint of step 50"
expect_checkpoint_steps "10 20 30 40 50"
expect_cache 2 40 50

# The restart keeps the limit (SCR_Finalize flushes but does not add a slot).
run_job SCR_CACHE_SIZE=2 SCR_FLUSH=1000 -- "$E2E_NP" "$HEAT" -n 70 -c 10 -o 5
expect_ok "restart to step 70"
expect_resumed_from step.50
expect_cache 2 60 70
expect_index step.70 loadable 1

for size in 1 3; do
  rm -rf "$E2E_DIR/run" && use_dirs "$E2E_DIR/run"
  run_job SCR_CACHE_SIZE=$size SCR_FLUSH=1000 -- "$E2E_NP" "$HEAT" "${ARGS[@]}"
  expect_ok "run with SCR_CACHE_SIZE=$size"
  case $size in
    1) expect_cache 1 50 ;;
    3) expect_cache 3 30 40 50 ;;
  esac
done
say "each node keeps exactly SCR_CACHE_SIZE checkpoints"

# A STORE line's COUNT is the number its store keeps (here the cache base:
# it overrides the default SCR_CACHE_SIZE=1, as in SCR).
rm -rf "$E2E_DIR/run" && use_dirs "$E2E_DIR/run"
printf 'STORE=%s COUNT=3\n' "$CACHE" >"$PREFIX/.scrconf"
run_job SCR_FLUSH=1000 -- "$E2E_NP" "$HEAT" "${ARGS[@]}"
expect_ok "run with STORE=<cache base> COUNT=3"
expect_cache 3 30 40 50
e2e_pass
