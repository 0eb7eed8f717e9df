#!/usr/bin/env bash
# The end of a job on the cluster in a box, with no manual staging: the
# newest checkpoint lives only in the node caches (SCR_FLUSH=0 after step
# 20), nodes are lost for real, and `scr_postrun` (SCR's job-script line)
# must save it from the live hosts, each copying its own ranks' files
# through the rsh agent (SCR_NODE_REMOTE), the lost hosts' files rebuilt in
# the prefix from redundancy data, every byte checked against the CRC32C
# recorded at Complete. Then a fresh cluster (empty caches) restarts from
# the prefix and must finish as an uninterrupted run.
#   XOR lose 1 node, RS lose 2, PARTNER lose 2 non-partners (its hosts
#   reached through mpirun instead): step.30 saved and CURRENT.
#   XOR lose 2 nodes of one set (more than it rebuilds): scr_postrun fails
#   (reported), step.30 is not marked complete nor CURRENT, the flushed
#   step.20 stays the restart point, and the restart resumes from it.
#   XOR lose 1 and lose 2 again with every checkpoint written to the same
#   file names (heat --same-names): saved, step.30's copies take step.20's
#   names before the lost host's files are rebuilt from them; not saved,
#   step.20's files are untouched and the restart resumes from it.
#   The prefix's newest checkpoint (written there with BYPASS=1) missing a
#   file: the older cached one is saved, and the restart resumes from it.
source "$(dirname "$0")/../e2e/lib.sh"
source "$(dirname "$0")/cluster.sh"
source "$(dirname "$0")/heat_job.sh"
cluster_need
heat_cluster_begin cluster_postrun 4
ARGS=(-n 50 -c 10)
POSTRUN="$SCRPP_BUILD/tools/scr_postrun/scr_postrun"
need_file "$POSTRUN"

# postrun [METHOD]: SCR's last line of a job script, run on the first live
# node as a batch script would, with the job's settings and its hosts
# (SCR_NODELIST); the hosts are reached through the rsh agent, or with
# METHOD=mpirun through Open MPI's mpirun (one process on each host, itself
# reaching the nodes through the agent).
postrun() {
  local n batch="" remote="$CLUSTER_RSH"
  local -a ompi=()
  if [[ "${1:-}" == mpirun ]]; then
    remote=mpirun
    ompi=(OMPI_MCA_plm_rsh_agent="$CLUSTER_RSH" OMPI_MCA_plm_rsh_no_tree_spawn=1
          OMPI_MCA_oob_tcp_if_include="$CLUSTER_SUBNET" OMPI_ALLOW_RUN_AS_ROOT=1
          OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)
  fi
  for n in "${N[@]}"; do cluster_node_pid "$n" >/dev/null && { batch="$n"; break; }; done
  set +e
  (cd "$PREFIX" && cluster_on "$batch" env "${ompi[@]}" SCR_CACHE_BASE="$CACHE" SCR_CNTL_BASE="$CNTL" \
    SCR_NODELIST="$(IFS=,; echo "${N[*]}")" SCR_NODE_REMOTE="$remote" SCR_SIM_NODES= \
    PATH="$SCRPP_BUILD/tools/scr_scavenge:$PATH" \
    "$POSTRUN" -j mpirun -p "$PREFIX") >"$E2E_DIR/postrun.out" 2>"$E2E_DIR/postrun.err"
  POSTRUN_RC=$?
  set -e
  cat "$E2E_DIR/postrun.out" "$E2E_DIR/postrun.err"
}

heat_reference "${N[@]}" -- "${ARGS[@]}"

# scenario TYPE "nodes to lose" saved|lost [METHOD [HEAT_ARGS...]]
scenario() {
  local type="$1" lose="$2" outcome="$3" method="${4:-}" i
  shift 4 2>/dev/null || shift $#
  local -a extra=("$@")
  local tag="$type.${lose// /}${extra[*]:+.same}"
  E2E_COPY_TYPE="$type"
  E2E_NAME="cluster_postrun[$type, lose $lose${extra[*]:+, ${extra[*]}}]"
  cluster_boot_lost
  use_dirs "$E2E_DIR/$tag"
  CACHE="/dev/shm/$tag" CNTL="/dev/shm/$tag.cntl"
  heat_job "${N[@]}" -- SCR_FLUSH=2 "${ARGS[@]}" "${extra[@]}" --crash-at 35
  expect_crashed "$type: the job, killed at step 35"
  expect_checkpoint_steps "10 20 30"
  expect_index step.20 flushed 1
  expect_index step.30 flushed absent

  for i in $lose; do cluster_lose_node "${N[i]}"; done
  postrun "$method"
  if [[ "$outcome" == saved ]]; then
    [[ $POSTRUN_RC -eq 0 ]] || fail "$type: scr_postrun exited $POSTRUN_RC"
    expect_index step.30 flushed 1
    expect_index step.30 complete 1
    assert_eq "$(index_current)" step.30 "$type: CURRENT after the scavenge"
  else
    [[ $POSTRUN_RC -ne 0 ]] || fail "$type: scr_postrun exited 0 with more lost than $type rebuilds"
    grep -q "step.30" "$E2E_DIR/postrun.err" || fail "$type: scr_postrun did not name step.30"
    [[ "$(index_field step.30 complete)" != 1 ]] || fail "$type: step.30 marked complete"
    assert_eq "$(index_current)" step.20 "$type: CURRENT after the failed scavenge"
  fi

  # A fresh allocation: every node up, caches empty.
  cluster_boot_lost
  CACHE="/dev/shm/$tag.fresh" CNTL="/dev/shm/$tag.fresh.cntl"
  heat_job "${N[@]}" -- SCR_FLUSH=0 "${ARGS[@]}" "${extra[@]}"
  expect_ok "$type: the job of the next allocation"
  if [[ "$outcome" == saved ]]; then expect_resumed_from step.30; else expect_resumed_from step.20; fi
  expect_reference_result "$type"
  [[ -z "$(find "$PREFIX" -name '*.tmp.*')" ]] || fail "$type: temporaries left in the prefix"
  say "scr_postrun after losing node(s) [$lose]: $outcome; restarted from the prefix"
}

scenario XOR "1" saved
scenario RS "1 2" saved
scenario PARTNER "0 2" saved mpirun
scenario XOR "1 2" lost
scenario XOR "1" saved "" --same-names
scenario XOR "1 2" lost "" --same-names

# The prefix's newest checkpoint (step.40, written there with BYPASS=1) has
# lost a file: the older step.30, only in the caches, is saved rather than
# skipped for it, and a fresh allocation resumes from step.30 (step.40
# fails its check).
E2E_COPY_TYPE=XOR
E2E_NAME="cluster_postrun[the prefix's newer checkpoint lost a file]"
cluster_boot_lost
use_dirs "$E2E_DIR/newer_gone"
CACHE=/dev/shm/newer_gone CNTL=/dev/shm/newer_gone.cntl
CONF="$E2E_DIR/alternate.conf"
printf 'CKPT=0 TYPE=XOR\nCKPT=1 INTERVAL=2 BYPASS=1\n' >"$CONF"
heat_job "${N[@]}" -- SCR_CONF_FILE="$CONF" SCR_FLUSH=0 "${ARGS[@]}" --crash-at 45
expect_crashed "the alternating job, killed at step 45"
expect_index step.40 loadable 1
expect_index step.30 flushed absent
rm "$PREFIX/step.40/rank_3.dat"
postrun
[[ $POSTRUN_RC -eq 0 ]] || fail "scr_postrun exited $POSTRUN_RC"
expect_index step.30 flushed 1
cluster_boot_lost
CACHE=/dev/shm/newer_gone.fresh CNTL=/dev/shm/newer_gone.fresh.cntl
heat_job "${N[@]}" -- SCR_FLUSH=0 "${ARGS[@]}"
expect_ok "the job of the next allocation"
expect_resumed_from step.30
expect_reference_result "resumed from the saved step.30"
E2E_NAME=cluster_postrun
e2e_pass
