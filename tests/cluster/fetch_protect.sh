#!/usr/bin/env bash
# A checkpoint fetched from the prefix is protected in the caches by the
# redundancy files flushed with it, on the cluster in a box (every node a
# host of its own, nothing simulated). For XOR and RS, 4 hosts x 2 ranks of
# the heat demo (sets spanning the hosts) and 2 spare hosts:
#   1. job A checkpoints step.10, flushed (SCR_FLUSH=1), and is killed at 15;
#   2. every host is lost (caches gone) and booted again empty;
#   3. job B on the same hosts resumes from step.10 fetched from the prefix
#      and is killed at 15, before another checkpoint. Each host's cached
#      redundancy files must be byte for byte the flushed ones in the
#      prefix: taken back, not encoded again (an encode writes headers with
#      the fetched copies' own access and change times);
#   4. step.10's data files are removed from the prefix (its index entry and
#      metadata stay), as many hosts are lost as the scheme tolerates (XOR 1,
#      RS 2) and job C on the survivors plus spares must resume from step.10
#      rebuilt in the caches, and finish with an uninterrupted run's result.
source "$(dirname "$0")/../e2e/lib.sh"
source "$(dirname "$0")/cluster.sh"
source "$(dirname "$0")/heat_job.sh"
cluster_need
heat_cluster_begin cluster_fetch_protect 6
ARGS=(-n 30 -c 10)
# Every checkpoint flushed; SCR_DEBUG=1 makes rank 0 say where a checkpoint
# came from (fetched, or intact in cache).
HEAT_JOB_SETTINGS=(SCR_FLUSH=1 SCR_DEBUG=1)

# expect_cached_as_flushed NODE META: the node caches a redundancy file for
# each of its 2 ranks, each the same bytes as the one of that name in the
# dataset's metadata directory in the prefix.
expect_cached_as_flushed() {
  local node="$1" meta="$2" f n=0
  while read -r f; do
    [[ -n "$f" ]] || continue
    n=$((n + 1))
    assert_file "$meta/$(basename "$f")" "the flushed redundancy file of ${node}'s cached"
    cluster_on "$node" cmp "$f" "$meta/$(basename "$f")" ||
      fail "$node cached $(basename "$f") other than flushed: the fetch encoded instead of taking it back"
  done < <(cluster_on "$node" find "$CACHE" -type f -name 'reddesc.*.redset')
  assert_eq "$n" 2 "redundancy files cached on $node"
}

heat_reference "${N[@]:0:4}" -- "${ARGS[@]}"

# run_scheme TYPE "nodes to lose after the fetch (indexes of the first 4)"
run_scheme() {
  local type="$1" lose="$2" n
  E2E_COPY_TYPE="$type"
  E2E_NAME="cluster_fetch_protect[$type]"
  cluster_boot_lost
  use_dirs "$E2E_DIR/$type"
  CACHE="/dev/shm/$type" CNTL="/dev/shm/$type.cntl"
  local -a hosts=("${N[@]:0:4}")
  heat_job "${hosts[@]}" -- "${ARGS[@]}" --crash-at 15
  expect_crashed "$type: job A, killed at step 15"
  expect_checkpoint_steps "10"
  expect_index step.10 flushed 1

  for n in "${hosts[@]}"; do cluster_lose_node "$n"; done
  cluster_boot_lost
  heat_job "${hosts[@]}" -- "${ARGS[@]}" --crash-at 15
  expect_crashed "$type: job B on empty caches, killed at step 15"
  expect_resumed_from step.10
  expect_said "fetched checkpoint step.10 from the prefix"
  expect_checkpoint_steps ""
  local meta
  meta="$PREFIX/.scr/scr.dataset.$(index_field step.10 id)"
  for n in "${hosts[@]}"; do expect_cached_as_flushed "$n" "$meta"; done
  say "job B fetched step.10 and took back the 8 flushed redundancy files"

  # Only the caches can serve step.10 now.
  rm -rf "${PREFIX:?}/step.10"
  local -a survivors=()
  cluster_lose_replace survivors "$lose" "${hosts[@]}" -- "${N[@]:4}"
  heat_job "${survivors[@]}" -- "${ARGS[@]}"
  expect_ok "$type: job C on ${survivors[*]}"
  expect_resumed_from step.10
  expect_said "dataset step.10 is intact in cache"
  expect_no_err "fetched checkpoint step.10"
  expect_reference_result "$type"
  say "lost node(s) [$lose] after the fetch: step.10 rebuilt from the caches, the uninterrupted result"
}

run_scheme XOR "1"
run_scheme RS "1 2"
E2E_NAME=cluster_fetch_protect
e2e_pass
