#!/usr/bin/env bash
# Restart at another size from the node caches, on the cluster in a box
# (every node a host of its own, nothing simulated), with no scr_postrun:
# the job's own SCR_Init must save the newest checkpoint, which lives only
# in the caches of the hosts left.
#   1. 8 ranks of the heat demo on 4 hosts x 2, XOR in sets of 4 (one rank
#      of each host per set: two sets, each spanning all hosts), checkpoint
#      at 10, 20 (flushed: SCR_FLUSH=2) and 30 (cache only), killed at 35;
#   2. one host lost for real (its processes killed, its tmpfs gone) and no
#      spare: the job comes back as 6 ranks on the 3 hosts left. It must
#      resume from step.30, not from step.20, the newest checkpoint in the
#      prefix: step.30 can only come from a salvage that copied the cached
#      files of the hosts left and rebuilt the lost host's in the prefix.
#      The rebuilt files equal the ones the lost host had cached, step.30 is
#      complete and flushed in the index, and the run ends with the result
#      of an uninterrupted one;
#   3. two hosts lost (two members of each XOR set, more than it rebuilds):
#      the job comes back as 4 ranks on the 2 hosts left, says step.30
#      cannot be made whole, leaves nothing of it in the prefix and resumes
#      from step.20 with the same result;
#   4. step 2 again with every checkpoint written to the same file names
#      (heat --same-names): the copies the salvage makes of step.30 replace
#      step.20's files of those names before the lost host's are rebuilt
#      from them, so the job resumes from step.30, with no temporary left.
source "$(dirname "$0")/../e2e/lib.sh"
source "$(dirname "$0")/cluster.sh"
source "$(dirname "$0")/heat_job.sh"
cluster_need
E2E_COPY_TYPE=XOR
heat_cluster_begin cluster_salvage 4
ARGS=(-n 50 -c 10)
# The same job script every time: every 2nd checkpoint flushed, sets of 4.
# SCR_DEBUG=1 makes rank 0 say what the salvage did.
HEAT_JOB_SETTINGS=(SCR_FLUSH=2 SCR_SET_SIZE=4 SCR_DEBUG=1)

# first_job [HEAT_ARGS...]: the 8-rank job on every host, killed at 35 with
# step.30 in the caches only.
first_job() {
  cluster_boot_lost
  heat_job "${N[@]}" -- "${ARGS[@]}" "$@" --crash-at 35
  expect_crashed "the 8-rank job, killed at step 35"
  expect_checkpoint_steps "10 20 30"
  expect_index step.20 flushed 1
  expect_index step.30 flushed absent
}

heat_reference "${N[@]}" -- "${ARGS[@]}"

# --- one host lost: step.30 salvaged at 6 ranks ---------------------------------
E2E_NAME="cluster_salvage[one host lost, 6 ranks]"
use_dirs "$E2E_DIR/one"
CACHE=/dev/shm/salvage.one CNTL=/dev/shm/salvage.one.cntl
first_job
# What the host to be lost cached for step.30 (ranks 6 and 7), kept aside on
# the shared file system to compare with what the salvage rebuilds.
mkdir -p "$E2E_DIR/lost"
cluster_on "${N[3]}" find "$CACHE" -path '*/step.30/rank_*.dat' -exec cp {} "$E2E_DIR/lost/" \;
assert_eq "$(find "$E2E_DIR/lost" -type f -printf '%f\n' | sort | tr '\n' ' ')" "rank_6.dat rank_7.dat " \
  "step.30 files cached on ${N[3]}"
cluster_lose_node "${N[3]}"
heat_job "${N[@]:0:3}" -- "${ARGS[@]}"
expect_ok "the 6-rank restart on 3 hosts"
expect_resumed_from step.30
expect_said "checkpoint step.30 of the job of 8 processes was only in cache: made whole and saved to the prefix"
expect_reference_result "6 ranks"
# In the prefix as the old job's: complete and flushed, its summary of 8
# writers, every old rank's file and redundancy file there.
expect_index step.30 complete 1
expect_index step.30 flushed 1
meta="$PREFIX/.scr/scr.dataset.$(index_field step.30 id)"
"$E2E_TOOL" dump "$meta/summary.scrpp" | grep -qx "RANKS = 8" || fail "the summary of step.30 lacks RANKS = 8"
for r in 0 1 2 3 4 5 6 7; do
  assert_file "$PREFIX/step.30/rank_$r.dat"
  compgen -G "$meta/reddesc.$r.xor.*.redset" >/dev/null || fail "no redundancy file of old rank $r in $meta"
done
for r in 6 7; do
  cmp "$E2E_DIR/lost/rank_$r.dat" "$PREFIX/step.30/rank_$r.dat" ||
    fail "step.30/rank_$r.dat rebuilt in the prefix differs from the copy ${N[3]} had cached"
done
say "one host lost: step.30 salvaged (ranks 6, 7 rebuilt byte for byte), 6 ranks resumed from it"

# --- two hosts of each XOR set lost: back to step.20 at 4 ranks -------------------
E2E_NAME="cluster_salvage[two hosts lost, 4 ranks]"
use_dirs "$E2E_DIR/two"
CACHE=/dev/shm/salvage.two CNTL=/dev/shm/salvage.two.cntl
first_job
cluster_lose_node "${N[2]}"
cluster_lose_node "${N[3]}"
heat_job "${N[@]:0:2}" -- "${ARGS[@]}"
expect_ok "the 4-rank restart on 2 hosts"
expect_said "cached checkpoint step.30 of the job of 8 processes cannot be made whole"
expect_resumed_from step.20
expect_reference_result "4 ranks"
# Nothing of the old step.30 left in the prefix: the files the hosts left
# copied were removed, with the directories they made and its index entry.
# (The 4-rank job's own step.30 stays in its caches: it flushes step.40,
# and step.50 at the end.)
expect_index step.30 flushed absent
[[ ! -e "$PREFIX/step.30" ]] ||
  fail "step.30/, which could not be made whole, is left in the prefix: $(ls -A "$PREFIX/step.30")"
say "two hosts lost: step.30 beyond XOR, 4 ranks resumed from step.20"

# --- the same names in every checkpoint, one host lost -----------------------------
E2E_NAME="cluster_salvage[same names, one host lost, 6 ranks]"
use_dirs "$E2E_DIR/same"
CACHE=/dev/shm/salvage.same CNTL=/dev/shm/salvage.same.cntl
first_job --same-names
cluster_lose_node "${N[3]}"
heat_job "${N[@]:0:3}" -- "${ARGS[@]}" --same-names
expect_ok "the 6-rank restart on 3 hosts, same names"
expect_resumed_from step.30
expect_said "checkpoint step.30 of the job of 8 processes was only in cache: made whole and saved to the prefix"
expect_reference_result "6 ranks, same names"
[[ -z "$(find "$PREFIX" -name '*.tmp.*')" ]] || fail "temporaries left in the prefix: $(find "$PREFIX" -name '*.tmp.*')"
say "same names: step.30 salvaged over step.20's files, 6 ranks resumed from it"
E2E_NAME=cluster_salvage
e2e_pass
