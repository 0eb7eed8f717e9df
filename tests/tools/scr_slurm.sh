#!/usr/bin/env bash
# SCR's job commands under a real one-node SLURM (Debian's slurm-wlm and
# munge, started by scripts/slurm_local.sh for this scenario and always
# stopped at the end). Jobs are batch scripts submitted with sbatch; MPI
# programs start under srun --mpi=pmix. The heat demo runs 8 ranks on
# simulated nodes n0..n3 with n4 as the spare (SCR_SIM_NODES lists the
# allocation, SCR_MIN_NODES=4 the nodes a run needs).
#  a) a job script using scr_srun: run 1 dies (SIGKILL at step 20) taking
#     node n2's storage with it; scr_srun relaunches on n0,n1,n4,n3, the job
#     finishes with the uninterrupted run's checksum and scr_postrun, which
#     scr_srun runs at the end as SCR's does, scavenges step.40;
#     scr_should_exit answers "continue" before, "exit" after (FINALIZED)
#     and with too few nodes; scr_list_down_nodes names n2 (range syntax,
#     -r reasons, exit 1)
#  b) SCR's own loop job script (srun, scr_should_exit, scr_list_down_nodes,
#     scr_postrun): the first run dies after its last checkpoint, the loop
#     relaunches, scr_should_exit ends the loop, scr_postrun scavenges the
#     checkpoint that only the cache held
#  c) scr_halt -c 1 DIR stops a running scr_srun job after its next checkpoint
#  d) real nodes (no SCR_SIM_NODES): scr_list_down_nodes and scr_should_exit
#     ask SLURM (the node drained, then resumed); scr_srun relaunches a failed
#     run on the allocation's node, which SLURM reports up; scr_mpirun runs
#     the job with Open MPI's mpirun inside the allocation
source "$(dirname "$0")/tools_lib.sh"
e2e_begin tools_scr_slurm
T="$SCRPP_BUILD/tools"
for p in sbatch srun scontrol munged slurmctld slurmd; do
  command -v "$p" >/dev/null || fail "$p is not installed: run scripts/setup.sh (it installs slurm-wlm and munge)"
done
SL="$E2E_DIR/slurm"
slurm_stop() { bash "$SCRPP_SOURCE/scripts/slurm_local.sh" stop "$SL" >/dev/null 2>&1 || true; }
trap 'rc=$?; slurm_stop; (exit $rc); e2e_cleanup' EXIT
trap 'exit 143' TERM INT HUP   # so that the EXIT trap stops the daemons then too
SLURM_LOCAL_PORT=$((20000 + ($$ % 2000) * 2)) bash "$SCRPP_SOURCE/scripts/slurm_local.sh" start "$SL" >"$E2E_DIR/slurm.start" 2>&1 ||
  { cat "$E2E_DIR/slurm.start" >&2; fail "the one-node SLURM did not start"; }
export SLURM_CONF="$SL/slurm.conf"
say "$(cat "$E2E_DIR/slurm.start")"
TOOLPATH=""
for d in scr_srun scr_mpirun scr_postrun scr_prerun scr_should_exit scr_list_down_nodes scr_scavenge scr_index scr_halt; do
  TOOLPATH="$TOOLPATH$T/$d:"
done
export PATH="$TOOLPATH$PATH"
NP=8
ARGS=(-n 40 -c 10)
reference_result "$HEAT" "${ARGS[@]}"

# The application under srun: heat; when a rank dies of SIGKILL (the
# simulated node failure) its simulated node's storage goes with it.
cat >"$E2E_DIR/app.sh" <<'APP'
#!/usr/bin/env bash
"$@"
rc=$?
if [[ $rc -eq 137 ]]; then
  IFS=, read -ra nodes <<<"$SCR_SIM_NODES"
  node="${nodes[$((SLURM_PROCID * ${#nodes[@]} / SLURM_NTASKS))]}"
  rm -rf "${SCR_CACHE_BASE:?}/$node" "${SCR_CNTL_BASE:?}/$node"
fi
exit $rc
APP
chmod +x "$E2E_DIR/app.sh"

# job_env DIR: the SCR settings a job script exports.
job_env() {
  cat <<ENV
export SCR_PREFIX=$1/prefix SCR_CACHE_BASE=$1/cache SCR_CNTL_BASE=$1/cntl
export SCR_CACHE_BYPASS=0 SCR_COPY_TYPE=XOR SCR_FLUSH=0 SCR_RUNS=3
export SCR_SIM_NODES=n0,n1,n2,n3,n4 SCR_MIN_NODES=4
mkdir -p "\$SCR_PREFIX" "\$SCR_CACHE_BASE" "\$SCR_CNTL_BASE"
cd "\$SCR_PREFIX"
ENV
}

# submit NAME: sbatch NAME.sh and wait for it (polling scontrol: sbatch
# --wait polls ever more slowly); its output in NAME.out, LAST_RC its exit code.
submit() {
  LAST_OUT="$E2E_DIR/$1.out" LAST_ERR="$E2E_DIR/$1.err" LAST_CMD="sbatch $1.sh"
  local id state=""
  id="$(sbatch --parsable -N 1 -n "$NP" --time=5 -o "$LAST_OUT" -e "$LAST_ERR" "$E2E_DIR/$1.sh" \
        2>"$E2E_DIR/$1.sbatch")" || fail "sbatch $1.sh failed: $(cat "$E2E_DIR/$1.sbatch")"
  id="${id%%;*}"
  for _ in $(seq 1 900); do
    state="$(scontrol show job -o "$id" 2>/dev/null || true)"
    [[ "$state" =~ JobState=(PENDING|CONFIGURING|RUNNING|COMPLETING) ]] || break
    sleep 0.2
  done
  if [[ "$state" =~ JobState=(PENDING|CONFIGURING|RUNNING|COMPLETING) ]]; then
    scancel "$id" || true
    fail "$1 (job $id) did not finish within 180 s"
  fi
  [[ "$state" =~ ExitCode=([0-9]+): ]] || fail "no exit code for job $id: $state"
  LAST_RC="${BASH_REMATCH[1]}"
}

# a) scr_srun
J="$E2E_DIR/a"
{
  echo '#!/bin/bash'
  echo '#SBATCH --no-kill'
  job_env "$J"
  cat <<JOB
scr_prerun -p "\$SCR_PREFIX" || exit 1
scr_should_exit -p "\$SCR_PREFIX"; echo "should_exit before: \$?"
scr_should_exit -p "\$SCR_PREFIX" --down n0,n1 -v; echo "should_exit two down: \$?"
scr_srun --mpi=pmix --kill-on-bad-exit=1 -n $NP "$E2E_DIR/app.sh" "$HEAT" ${ARGS[*]} --crash-at 20 --crash-rank 4
echo "scr_srun exit: \$?"
echo "down: [\$(scr_list_down_nodes -j srun)]"
scr_list_down_nodes -j srun >/dev/null; echo "list_down_nodes exit: \$?"
scr_list_down_nodes -r
scr_list_down_nodes n0,n1,n3,n4; echo "list_down_nodes of the run's nodes exit: \$?"
scr_should_exit -p "\$SCR_PREFIX" -v; echo "should_exit after: \$?"
JOB
} >"$E2E_DIR/a.sh"
submit a
[[ $LAST_RC -eq 0 ]] || fail "job script a failed (sbatch exit $LAST_RC)"
expect_out "should_exit before: 1"
expect_out "should_exit two down: 0"
expect_out "3 of 5 nodes are up, fewer than the 4 needed; exit"
expect_out "scr_srun: resource manager SLURM, job"
expect_out "scr_srun: the allocation ends at"      # sbatch --time=5: SCR_END_TIME for the job
expect_out "scr_srun: run 1 of 3 on n0,n1,n2,n3: srun --mpi=pmix"
grep -qE "^scr_srun: run 1 failed \(exit [0-9]+\); node n2 is down; relaunching on n0,n1,n4,n3$" "$LAST_OUT" ||
  fail "scr_srun did not replace the lost n2 by the spare n4"
expect_out "scr_srun: run 2 finished (exit 0): the job is done"
expect_out "scr_srun: scavenging: $T/scr_postrun/scr_postrun --prefix $J/prefix"
expect_out "scr_postrun: scavenge finished"
expect_out "scr_srun exit: 0"
[[ "$(grep -m1 '^RESULT ' "$LAST_OUT")" == "$REF_RESULT" ]] ||
  fail "scr_srun's job ended with '$(grep -m1 '^RESULT ' "$LAST_OUT")', not the uninterrupted '$REF_RESULT'"
expect_out "resumed from checkpoint 'step.20'"
expect_out "down: [n2]"
expect_out "list_down_nodes exit: 1"
expect_out "n2: node-local storage is gone"
expect_out "list_down_nodes of the run's nodes exit: 0"
expect_out "SCR_Finalize ran (FINALIZED="
expect_out "should_exit after: 0"
run_tool "$SCR_INDEX" -l -p "$J/prefix"
grep -qE '^   4 YES   [0-9T:-]{19}   \* step\.40$' "$LAST_OUT" || fail "the scavenged step.40 is not CURRENT in the index"

# b) SCR's loop job script, with scr_postrun at the end
J="$E2E_DIR/b"
{
  echo '#!/bin/bash'
  echo '#SBATCH --no-kill'
  job_env "$J"
  cat <<JOB
export SCR_SIM_NODES=n0,n1,n2,n3 SCR_MIN_NODES=
scr_prerun -p \$SCR_PREFIX || exit 1
down_nodes=""
runs=3
while [ 1 ] ; do
    exclude=""
    if [ "\$down_nodes" != "" ] ; then
        exclude="--exclude \$down_nodes"
    fi
    crash=""
    if [ \$runs -eq 3 ] ; then crash="--crash-at 40" ; fi
    srun \$exclude --mpi=pmix --kill-on-bad-exit=1 -n $NP "$HEAT" ${ARGS[*]} \$crash
    scr_should_exit -p \$SCR_PREFIX
    if [ \$? == 0 ] ; then
        echo "Halt condition detected, ending run."
        break
    fi
    runs=\$((\$runs - 1))
    if [ \$runs -le 0 ] ; then
        echo "Runs exhausted, ending run."
        break
    fi
    sleep 1
    keep_down=""
    if [ "\$down_nodes" != "" ] ; then
        keep_down="--down \$down_nodes"
    fi
    down_nodes=\`scr_list_down_nodes -j srun \$keep_down\`
    echo "down nodes: [\$down_nodes]"
    keep_down=""
    if [ "\$down_nodes" != "" ] ; then
        keep_down="--down \$down_nodes"
    fi
    scr_should_exit -p \$SCR_PREFIX \$keep_down
    if [ \$? == 0 ] ; then
        echo "Halt condition detected, ending run."
        break
    fi
done
scr_postrun -p \$SCR_PREFIX -j srun
echo "postrun exit: \$?"
JOB
} >"$E2E_DIR/b.sh"
submit b
[[ $LAST_RC -eq 0 ]] || fail "job script b failed (sbatch exit $LAST_RC)"
expect_out "down nodes: []"
expect_out "Halt condition detected, ending run."
expect_out "scr_postrun: scavenge finished"
expect_out "postrun exit: 0"
assert_eq "$(grep -c '^RESULT ' "$LAST_OUT")" 1 "runs that finished in job b"
expect_out "$REF_RESULT"
run_tool "$SCR_INDEX" -p "$J/prefix"
grep -qE '^   4 YES   [0-9T:-]{19}   \* step\.40$' "$LAST_OUT" || fail "scr_postrun did not save step.40 (index: $(cat "$LAST_OUT"))"

# c) scr_halt -c 1 DIR on a running job
J="$E2E_DIR/c"
{
  echo '#!/bin/bash'
  job_env "$J"
  echo "scr_srun --mpi=pmix -n $NP $HEAT -n 1000000 -c 500 -g 16 16"
  echo 'echo "scr_srun exit: $?"'
} >"$E2E_DIR/c.sh"
submit c &
BG=$!
first=""
for _ in $(seq 1 900); do
  first="$(sed -n "s/^\[heat[^]]*\] step \([0-9]*\): checkpoint .* saved.*/\1/p" "$E2E_DIR/c.out" 2>/dev/null | head -n1 || true)"
  [[ -n "$first" ]] && break
  kill -0 "$BG" 2>/dev/null || break
  sleep 0.2
done
if [[ -z "$first" ]]; then
  scr_halt "$J/prefix" >/dev/null 2>&1 || true
  wait "$BG" || true
  fail "the long job never saved a checkpoint"
fi
run_tool "$SCR_HALT" -c 1 "$J/prefix"
expect_rc 0
wait "$BG"
LAST_OUT="$E2E_DIR/c.out" LAST_ERR="$E2E_DIR/c.err"
stop="$(sed -n 's/^\[heat[^]]*\] step \([0-9]*\): SCR asks the job to stop.*/\1/p' "$LAST_OUT" | head -n1)"
[[ -n "$stop" ]] || fail "the job did not stop for scr_halt -c 1"
((stop > first && stop % 500 == 0)) || fail "the job stopped at step $stop, not right after a checkpoint later than $first"
expect_out "step $stop: checkpoint 'step.$stop' saved"
expect_out "scr_srun: run 1 finished (exit 0): the job is done"

# d) real nodes: SLURM's word on the node
J="$E2E_DIR/d"
{
  echo '#!/bin/bash'
  job_env "$J"
  cat <<JOB
unset SCR_SIM_NODES SCR_MIN_NODES
host=\$(hostname -s)
scr_list_down_nodes; echo "up: exit \$?"
scontrol update nodename=\$host state=drain reason=scr-test
scr_list_down_nodes -r; echo "drained: exit \$?"
scr_should_exit -p "\$SCR_PREFIX" -v; echo "should_exit drained: \$?"
scontrol update nodename=\$host state=resume
# The node answers SLURM's ping again within a second or two.
for i in \$(seq 1 60); do scr_list_down_nodes >/dev/null && break; sleep 0.5; done
scr_should_exit -p "\$SCR_PREFIX"; echo "should_exit resumed: \$?"
SCR_RUNS=2 scr_srun --mpi=pmix --kill-on-bad-exit=1 -n $NP "$HEAT" ${ARGS[*]} --crash-at 20
echo "scr_srun exit: \$?"
rm -rf "\$SCR_CACHE_BASE"/* "\$SCR_CNTL_BASE"/* "\$SCR_PREFIX"/* "\$SCR_PREFIX"/.scr
SCR_FLUSH=1 scr_mpirun -n $NP "$HEAT" ${ARGS[*]}
echo "scr_mpirun exit: \$?"
JOB
} >"$E2E_DIR/d.sh"
submit d
[[ $LAST_RC -eq 0 ]] || fail "job script d failed (sbatch exit $LAST_RC)"
expect_out "up: exit 0"
grep -qE "^$(hostname -s): SLURM reports state [A-Z+]*DRAIN" "$LAST_OUT" || fail "scr_list_down_nodes -r did not report the drained node"
expect_out "drained: exit 1"
expect_out "0 of 1 nodes are up, fewer than the 1 needed; exit"
expect_out "should_exit drained: 0"
expect_out "should_exit resumed: 1"
expect_out "scr_srun: run 1 of 2 on $(hostname -s): srun"
grep -qE "^scr_srun: run 1 failed \(exit [0-9]+\); no node is down; relaunching on $(hostname -s)$" "$LAST_OUT" ||
  fail "scr_srun did not relaunch on the real node"
expect_out "scr_srun: run 2 finished (exit 0): the job is done"
expect_out "scr_srun exit: 0"
expect_out "scr_mpirun: resource manager SLURM"
expect_out "scr_mpirun exit: 0"
assert_eq "$(grep -c "^$REF_RESULT\$" "$LAST_OUT")" 2 "runs of job d with the uninterrupted checksum"
e2e_pass
