#!/usr/bin/env bash
# Scalable restart failure matrix: for one redundancy scheme, kill a
# job of 8 ranks on 4 simulated nodes after checkpoint step.30 (step.20 is in
# the prefix too), change what the restart finds, and check where the next
# run resumes and that it ends with the uninterrupted answer.
#
#   failure_matrix.sh SCHEME [KEY=VALUE...]     e.g. PARTNER SCR_REPLICAS=2
#
# Each case states the expected outcome: "cache" (step.30, the newest cached
# checkpoint, rebuilt/moved as needed) or "prefix" (step.20, fetched after
# the cached one could not be rebuilt).
source "$(dirname "$0")/../e2e/lib.sh"

scheme="$1"
shift
E2E_COPY_TYPE="$scheme" E2E_NP=8 E2E_NODES=n0,n1,n2,n3
settings=("SCR_SET_SIZE=4" "SCR_FLUSH=2" "SCR_CACHE_SIZE=1" "SCR_DEBUG=1" "$@")
tolerance=0
case "$scheme" in
  PARTNER) tolerance=1; for s in "$@"; do [[ "$s" == SCR_REPLICAS=* ]] && tolerance="${s#*=}"; done ;;
  XOR) tolerance=1 ;;
  RS) tolerance=2; for s in "$@"; do [[ "$s" == SCR_SET_FAILURES=* ]] && tolerance="${s#*=}"; done ;;
esac
e2e_begin "restart_matrix_${scheme}_$(IFS=_; echo "${*:-default}" | tr -c 'A-Za-z0-9_\n' _)"
args=(-n 40 -c 10 -g 64 32)

# The job killed after step.30 runs once; every case starts from a copy of
# what it left (prefix, caches, control directories), at the same path, since
# the filemaps record where the caches are.
use_dirs "$E2E_DIR/run"
run_job "${settings[@]}" -- 8 "$HEAT" "${args[@]}" --crash-at 35 --crash-rank 5
expect_crashed
cp -a "$E2E_DIR/run" "$E2E_DIR/crashed"

# case NAME NODES-AFTER EXPECTED LOST-NODE...
case_run() {
  local name="$1" nodes="$2" expected="$3"
  shift 3
  rm -rf "$E2E_DIR/run" && cp -a "$E2E_DIR/crashed" "$E2E_DIR/run" && use_dirs "$E2E_DIR/run"
  local n
  for n in "$@"; do lose_node "$n"; done
  run_job "${settings[@]}" "SCR_SIM_NODES=$nodes" -- 8 "$HEAT" "${args[@]}"
  expect_ok
  case "$expected" in
    cache) expect_resumed_from step.30 ;;
    prefix) expect_resumed_from step.20; expect_said "fetched checkpoint step.20" ;;
  esac
  expect_result_equals_uninterrupted "${args[@]}"
  say "case $name: resumed from the $expected as expected"
}

# 1. No loss, same placement: the newest cached checkpoint.
case_run same n0,n1,n2,n3 cache
# 2. Every rank moves one node over: files follow their ranks.
case_run shifted n1,n2,n3,n0 cache
# 3. One node lost, a spare takes its place.
if ((tolerance >= 1)); then case_run one_lost n0,n1,n4,n3 cache n2
else case_run one_lost n0,n1,n4,n3 prefix n2; fi
# 4. Two adjacent nodes lost (one set member and its right neighbour in each
#    set), two spares. PARTNER with one replica keeps a member's copy on its
#    right neighbour, so it cannot survive this pattern.
if ((tolerance >= 2)); then case_run two_lost n0,n4,n5,n3 cache n1 n2
else case_run two_lost n0,n4,n5,n3 prefix n1 n2; fi
# 5. Beyond any tolerance here: three of four nodes lost.
case_run three_lost n6,n4,n5,n3 prefix n0 n1 n2
e2e_pass
