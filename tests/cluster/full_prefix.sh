#!/usr/bin/env bash
# scr_scavenge into a prefix that fills up, on the cluster in a box (every
# node a host of its own, its cache its own /dev/shm): the prefix is a tmpfs
# of 8 MiB that every node sees, as they see the parallel file system, with
# room for step.1 (4 x 100 kB, flushed) but not for step.2 (4 x 1.15 MB
# plus as much XOR redundancy data), which lives only in the caches of 2
# hosts x 2 ranks (SCR_FLUSH=0: the job never flushes it).
#   1. scr_scavenge, as a job script calls it on the first node (the hosts
#      reached through the rsh agent, SCR_NODE_REMOTE), fails for want of
#      space with the I/O error status (5), twice: with other files leaving
#      about 1.5 MB free (no rank's copy gets through: before the agents
#      reported the kind of error, this was "more lost than XOR rebuilds",
#      3), then with them gone (some ranks' copies get through). Each time
#      every file and directory of the prefix, with its bytes, is what it
#      was before (the index aside, which keeps step.2's entry, never
#      loadable): no copy of step.2 is left; step.1 stays CURRENT;
#   2. a job of a new allocation (empty caches) restarts from step.1 in the
#      prefix, every byte checked; then one of 2 ranks, at another size,
#      with the prefix full: the restart file table cannot go into the
#      prefix, each node keeps it in its cache, and the job restarts;
#   3. the tmpfs made bigger, scr_postrun (SCR's job-script line) saves
#      step.2 from the caches (exit 0), CURRENT; the next new allocation
#      restarts from it, every byte checked.
# Needs root (namespaces, the mount); skipped elsewhere.
source "$(dirname "$0")/../e2e/lib.sh"
source "$(dirname "$0")/cluster.sh"
cluster_need
SCR_E2E_TMP=/tmp E2E_NP=4 E2E_COPY_TYPE=XOR  # /tmp: the nodes share it, not /dev/shm
e2e_begin cluster_full_prefix
# Mounted before the nodes boot: a node's mount namespace is a copy of the
# host's taken then (private propagation), so each node has this tmpfs, the
# same one (its files and its size are the host's).
probe_with_tmpfs_prefix small 8m
cluster_start 2
MPIEXEC="$CLUSTER_MPIRUN"
N=("${CLUSTER_NODES[@]}")
export CLUSTER_HOSTS
CLUSTER_HOSTS="$(cluster_hosts 2 "${N[@]}")"
SCAVENGE="$SCRPP_BUILD/tools/scr_scavenge/scr_scavenge"
POSTRUN="$SCRPP_BUILD/tools/scr_postrun/scr_postrun"
need_file "$SCAVENGE"
need_file "$POSTRUN"
JOB_CACHE=/dev/shm/full JOB_CNTL=/dev/shm/full.cntl

# probe_job [VAR=VALUE...] -- DISK_PROBE_ARGS...: 2 ranks of disk_probe on
# each node, on the hosts themselves (no simulated nodes).
probe_job() {
  local -a vars=()
  while [[ "$1" != -- ]]; do vars+=("$1"); shift; done
  shift
  run_job SCR_SIM_NODES= "${vars[@]}" -- 4 "$PROBE" "$@"
  [[ $LAST_RC -eq 0 ]] || fail "disk_probe failed with exit code $LAST_RC"
}

# job_script OUT CMD...: a line of the job's batch script, run on its first
# node with the job's settings and hosts (SCR_NODELIST), each host reached
# through the rsh agent; its output to OUT, its exit status in RC.
job_script() {
  local out="$1"
  shift
  set +e
  (cd "$PREFIX" && cluster_on "${N[0]}" env SCR_CACHE_BASE="$JOB_CACHE" SCR_CNTL_BASE="$JOB_CNTL" \
    SCR_NODELIST="$(IFS=,; echo "${N[*]}")" SCR_NODE_REMOTE="$CLUSTER_RSH" SCR_SIM_NODES= \
    PATH="$SCRPP_BUILD/tools/scr_scavenge:$PATH" "$@") >"$out" 2>&1
  RC=$?
  set -e
  cat "$out"
}

# Every file of the prefix with its size and MD5, and every directory; the
# index aside (it records the scavenge's attempt).
prefix_listing() {
  (cd "$PREFIX" && find . -mindepth 1 ! -path ./.scr/index.scr \
    \( -type d -printf 'dir %p\n' -o -type f -printf 'file %p %s ' -exec md5sum {} \; \)) |
    awk 'NF > 2 { print $1, $2, $3, $4; next } { print }' | sort
}

# --- the job: step.1 flushed, step.2 in the caches only -------------------------
CACHE="$JOB_CACHE" CNTL="$JOB_CNTL"
probe_job SCR_FLUSH=1 -- 100000
expect_probe "complete_output step.1" 0,0,0,0
expect_index step.1 flushed 1
probe_job SCR_FLUSH=0 -- 1150000
expect_out "PROBE restart step.1 bytes=100000 valid=1"
expect_probe "complete_output step.2" 0,0,0,0
expect_probe finalize 0,0,0,0
expect_index step.2 flushed absent
assert_no_file "$PREFIX/step.2" "step.2 before the scavenge"
for n in "${N[@]}"; do
  got="$(cluster_on "$n" find "$JOB_CACHE" -path '*/step.2/rank_*.dat' -printf '%f\n' | sort | tr '\n' ' ')"
  [[ "$got" == "rank_"*".dat rank_"*".dat " ]] || fail "step.2 files cached on $n: '$got', expected 2"
done
say "step.1 flushed; step.2 cached on ${N[*]}, 2 ranks each"

# failed_scavenge WHAT: scr_scavenge, as a job script calls it on the first
# node, fails for want of space with the I/O error status (5) and leaves
# every file and directory of the prefix as it was, with its bytes (no copy
# of step.2, whichever ranks' copies got through); step.1 stays CURRENT.
failed_scavenge() {
  local before after
  before="$(prefix_listing)"
  job_script "$E2E_DIR/scavenge.out" "$SCAVENGE" --prefix "$PREFIX"
  assert_eq "$RC" 5 "scr_scavenge's exit status, $1"
  after="$(prefix_listing)"
  [[ "$after" == "$before" ]] ||
    fail "the failed scavenge ($1) changed the prefix:
$(diff <(echo "$before") <(echo "$after") || true)"
  assert_no_file "$PREFIX/step.2" "the failed scavenge's copies ($1)"
  expect_index step.2 loadable 0
  expect_index step.1 loadable 1
  assert_eq "$(index_current)" step.1 "the prefix index's current checkpoint after the failed scavenge ($1)"
  say "scr_scavenge failed (5), $1; the prefix's files are those before it; step.1 CURRENT"
}

# --- 1. the scavenge fails for want of space, the prefix left as it was --------
# Other files of the file system leave about 1.5 MB: no rank's copy gets
# through (each needs 2 x 1.15 MB).
avail="$(df -B1 --output=avail "$E2E_DIR/small" | tail -n1)"
head -c $((avail - 1500000)) /dev/zero >"$E2E_DIR/small/other" || fail "cannot fill the prefix's tmpfs"
failed_scavenge "about 1.5 MB free"
# They gone, about 7 MB: some ranks' copies get through, not all.
rm "$E2E_DIR/small/other"
failed_scavenge "about 7 MB free"

# --- 2. a new allocation restarts from step.1 -----------------------------------
CACHE=/dev/shm/fresh1 CNTL=/dev/shm/fresh1.cntl
probe_job SCR_FLUSH=0 --
expect_out "PROBE restart step.1 bytes=100000 valid=1"
expect_probe complete_restart 0,0,0,0
say "a new allocation restarted from step.1, every byte as written"

# --- 2b. at another size with the prefix full -----------------------------------
# 2 ranks instead of 4, the prefix's file system full to the last byte: the
# restart file table cannot go into the prefix, so each node keeps its own
# in its cache, and the job still restarts from step.1, every byte checked.
# The halt file goes first: SCR_Init would otherwise free its page, room
# enough for the small table.
rm -f "$PREFIX/.scr/halt.scr"
head -c "$(df -B1 --output=avail "$E2E_DIR/small" | tail -n1)" /dev/zero >"$E2E_DIR/small/other" 2>/dev/null || true
CACHE=/dev/shm/fresh1b CNTL=/dev/shm/fresh1b.cntl
run_job SCR_SIM_NODES= SCR_FLUSH=0 -- 2 "$PROBE"
rm "$E2E_DIR/small/other"
[[ $LAST_RC -eq 0 ]] || fail "the 2-rank restart with the prefix full failed with exit code $LAST_RC"
expect_out "PROBE restart step.1 bytes=100000 valid=1"
expect_probe complete_restart 0,0
expect_said "the prefix cannot take the restart file table"
say "with the prefix full, 2 ranks restarted from step.1 (the restart file table in their node's cache)"

# --- 3. room made: scr_postrun saves step.2 -----------------------------------
mount -o remount,size=64m "$E2E_DIR/small" || fail "cannot make the prefix's tmpfs bigger"
job_script "$E2E_DIR/postrun.out" "$POSTRUN" -p "$PREFIX"
assert_eq "$RC" 0 "scr_postrun's exit status with room in the prefix"
expect_index step.2 complete 1
expect_index step.2 flushed 1
assert_eq "$(index_current)" step.2 "the prefix index's current checkpoint after scr_postrun"
[[ -z "$(find "$PREFIX" -name '*.tmp.*')" ]] || fail "temporaries left in the prefix: $(find "$PREFIX" -name '*.tmp.*')"
CACHE=/dev/shm/fresh2 CNTL=/dev/shm/fresh2.cntl
probe_job SCR_FLUSH=0 --
expect_out "PROBE restart step.2 bytes=1150000 valid=1"
expect_probe complete_restart 0,0,0,0
say "with room made, scr_postrun saved step.2; a new allocation restarted from it"
e2e_pass
