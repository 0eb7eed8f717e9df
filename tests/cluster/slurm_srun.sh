#!/usr/bin/env bash
# SCR's job script under the multi-node SLURM of the cluster in a box
# (slurm.sh): `scr_srun` in an allocation of 5 hosts, 4 needed
# (SCR_MIN_NODES) and 1 spare, XOR, nothing flushed (SCR_FLUSH=0).
#   1. The heat demo holds after its step-30 checkpoint and a node is lost
#      for real (processes killed, tmpfs gone). scr_srun finds it down
#      through srun (SCR_NODE_REMOTE=srun, before SLURM notices), relaunches
#      on the survivors plus the spare, and the job resumes from step.30
#      rebuilt in the caches, ending with the result of an uninterrupted
#      run.
#   2. The job script ends with scr_srun's scavenge (scr_postrun from the
#      batch host, no manual staging): the newest checkpoint, only in the
#      node caches, reaches the prefix through srun on each live host and
#      becomes CURRENT; a restart from the prefix alone loads it.
#   3. scr_halt -c 1 stops scr_srun's running job after its next checkpoint,
#      and the next scr_srun before it launches anything.
#   4. Without SCR_MIN_NODES a run is not pinned: after a host is lost, srun is
#      relaunched with --exclude of it, on as many hosts as the run had.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/cluster.sh"
source "$here/slurm.sh"
cluster_need
build="${SCR_BUILD_DIR:-$here/../../build}"
while read -r v; do unset "$v"; done < <(compgen -e | grep -E '^(SCR_|SLURM_)' || true)
HEAT="$build/examples/heat/heat"
T="$build/tools"
for f in "$HEAT" "$T/scr_srun/scr_srun" "$T/scr_postrun/scr_postrun" "$T/scr_scavenge/scr_scavenge" \
         "$T/scr_list_down_nodes/scr_list_down_nodes" "$T/scr_halt/scr_halt" \
         "$build/tests/e2e/scr_e2e_tool"; do
  [[ -x "$f" ]] || { echo "[cluster srun] FAIL: $f is not built" >&2; exit 1; }
done
fail() { printf '[cluster srun] FAIL: %s\n' "$*" >&2; exit 1; }
say() { printf '[cluster srun] %s\n' "$*"; }

cluster_start 5
cluster_slurm_start
N=("${CLUSTER_NODES[@]}")
scratch="$CLUSTER_DIR/scratch"
prefix="$scratch/prefix"
mkdir -p "$prefix"
# Core files a crashed process left, kept (the scratch goes at teardown) and
# shown with their stack when gdb is installed.
cores() {
  local c keep=/tmp/scr-cluster-cores
  for c in "$prefix"/core*; do
    [[ -f "$c" ]] || continue
    mkdir -p "$keep" && cp "$c" "$keep/" && printf '\n--- core kept as %s/%s' "$keep" "${c##*/}"
    command -v gdb >/dev/null && printf '\n%s' "$(gdb -batch -ex bt "$HEAT" "$c" 2>/dev/null | tail -n 25)"
  done
}

tools_path="$T/scr_srun:$T/scr_postrun:$T/scr_scavenge:$T/scr_list_down_nodes:$T/scr_halt:$PATH"

# The uninterrupted result (the checksum does not depend on the ranks).
mkdir -p "$scratch/reference"
reference="$(cd "$scratch/reference" && SCR_CACHE_BASE="$scratch/reference" \
  SCR_CNTL_BASE="$scratch/reference" timeout 60 mpirun --allow-run-as-root --oversubscribe \
  -n 2 "$HEAT" -n 60 -c 10 | grep '^RESULT ')" || fail "the reference run failed"

# What every job script here starts with: the tools, node-local caches, a
# core file kept if a process crashes (core_pattern "core": in the prefix),
# Open MPI over the cluster's subnet.
job_env="set -u
ulimit -c unlimited 2>/dev/null
export PATH=\"$tools_path\"
export SCR_CACHE_BASE=/dev/shm SCR_CNTL_BASE=/dev/shm SCR_COPY_TYPE=XOR SCR_CACHE_BYPASS=0
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=\"$CLUSTER_SUBNET\"
export OMPI_MCA_oob_tcp_if_include=\"$CLUSTER_SUBNET\" OMPI_MCA_btl_vader_single_copy_mechanism=none"

# hold_then_lose NAME VICTIM SALLOC-ARGS...: runs $scratch/NAME.sh in an
# allocation (output in NAME.out, NAME.err); once its heat holds after the
# step-30 checkpoint, VICTIM is lost for real; returns when the job ends.
hold_then_lose() {
  local name="$1" victim="$2" alloc; shift 2
  (cd "$scratch" && timeout 150 salloc "$@" bash "$scratch/$name.sh" \
    >"$scratch/$name.out" 2>"$scratch/$name.err") &
  alloc=$!
  for _ in $(seq 1 600); do grep -q "holding until killed" "$scratch/$name.out" 2>/dev/null && break; sleep 0.1; done
  grep -q "holding until killed" "$scratch/$name.out" ||
    fail "$name never reached step 30: $(cat "$scratch/$name.out" "$scratch/$name.err" | tail -n 30)"
  cluster_lose_node "$victim"
  wait "$alloc" || fail "the allocation of $name failed: $(cat "$scratch/$name.out" "$scratch/$name.err" | tail -n 30)"
}

cat >"$scratch/job.sh" <<JOB
$job_env
export SCR_FLUSH=0 SCR_MIN_NODES=4 SCR_RUNS=2 SCR_NODE_REMOTE=srun SCR_NODE_TIMEOUT=5
cd "$prefix"
scr_srun --mpi=pmix -N 4 -n 8 --ntasks-per-node=2 "$HEAT" -n 60 -c 10 --hold-at 30
echo "scr_srun: exit \$?"
JOB
victim="${N[1]}"
hold_then_lose job "$victim" -N 5 --ntasks-per-node=2 --no-kill
first_run="$(grep -m1 "^scr_srun: run 1" "$scratch/job.out" || true)"
out="$(cat "$scratch/job.out")"
show() { printf '%s\n--- stderr\n%s%s\n' "$out" "$(tail -30 "$scratch/job.err")" "$(cores)"; }

# 1. relaunched without the lost node, resumed from the rebuilt cache.
grep -q "relaunching on .*" <<<"$out" || fail "scr_srun did not relaunch: $(show)"
relaunch="$(grep -m1 "relaunching on" <<<"$out")"
[[ "$relaunch" == *"$victim"* && "$relaunch" != *"relaunching on "*"$victim"* ]] ||
  fail "the relaunch does not leave out $victim: $relaunch"
[[ "$relaunch" == *"${N[4]}"* ]] || fail "the spare ${N[4]} did not take its place: $relaunch"
grep -q "resumed from checkpoint 'step.30'" <<<"$out" || fail "the job did not resume from step.30: $(show)"
grep -qF "$reference" <<<"$out" || fail "the result differs from the uninterrupted run's $reference: $(show)"
grep -q "^scr_srun: exit 0$" <<<"$out" || fail "scr_srun did not end with 0: $(show)"
say "$first_run"
say "$relaunch"

# 2. the final scavenge saved step.60 from the caches.
index="$("$build/tests/e2e/scr_e2e_tool" index "$prefix")" || fail "no index in $prefix"
grep -q "name=step.60 .*flushed=1" <<<"$index" || fail "step.60 was not scavenged: $index
$(show)"
grep -qx "current=step.60" <<<"$index" || fail "step.60 is not CURRENT: $index"
say "scavenged at the end of the job script: $(grep "Saved step.60" <<<"$out" || grep -m1 "scavenge" <<<"$out")"

# A new allocation (new caches: a new job id) restarts from the prefix.
cat >"$scratch/again.sh" <<JOB
$job_env
cd "$prefix"
srun --mpi=pmix -N 2 -n 4 --ntasks-per-node=2 "$HEAT" -n 70 -c 10
echo "srun: exit \$?"
scr_halt -c 1 >/dev/null; echo "scr_halt: exit \$?"
scr_srun --mpi=pmix -N 2 -n 4 --ntasks-per-node=2 "$HEAT" -n 100 -c 10
echo "halted scr_srun: exit \$?"
scr_srun --mpi=pmix -N 2 -n 4 --ntasks-per-node=2 "$HEAT" -n 100 -c 10
echo "scr_srun after the halt: exit \$?"
JOB
(cd "$scratch" && timeout 100 salloc -N 2 --ntasks-per-node=2 -w "${N[2]},${N[3]}" bash "$scratch/again.sh" \
  >"$scratch/again.out" 2>"$scratch/again.err") ||
  fail "the second allocation failed: $(cat "$scratch/again.out" "$scratch/again.err" | tail -n 30)"
again="$(cat "$scratch/again.out")
--- stderr
$(tail -n 20 "$scratch/again.err")$(cores)"
grep -q "resumed from checkpoint 'step.60'" <<<"$again" || fail "no restart from step.60: $again"
grep -q "^srun: exit 0$" <<<"$again" || fail "the restart failed: $again"
# 3. scr_halt -c 1: the running job stops after its next checkpoint (step 80
# of 100) and scr_srun does not relaunch it; the next scr_srun does not start.
grep -q "resumed from checkpoint 'step.70'" <<<"$again" || fail "the halted run did not resume from step.70: $again"
grep -q "step 80: SCR asks the job to stop" <<<"$again" || fail "the job did not stop after its next checkpoint (step 80): $again"
if grep -q "step 90: checkpoint" <<<"$again"; then fail "the halted job went on past step 80: $again"; fi
[[ "$(grep -c "resumed from checkpoint" <<<"$again")" -eq 2 ]] || fail "a halted job was relaunched: $again"
grep -q "not starting: a halt condition holds" <<<"$again" || fail "the next scr_srun ignored the halt: $again"
say "a new allocation resumed from step.60 out of the prefix; scr_halt -c 1 stopped scr_srun's job at step 80"
# 4. Without SCR_MIN_NODES (SCR's own example): the run is not pinned to its
# hosts; after one is lost the relaunch needs as many as the run had (3, from
# .scr/nodes.scr), and srun is told to leave the lost host out (--exclude).
prefix4="$scratch/prefix4"
mkdir -p "$prefix4"
cat >"$scratch/unpinned.sh" <<JOB
$job_env
export SCR_FLUSH=0 SCR_RUNS=2 SCR_NODE_REMOTE=srun SCR_NODE_TIMEOUT=5
cd "$prefix4"
scr_srun --mpi=pmix -N 3 -n 6 --ntasks-per-node=2 "$HEAT" -n 60 -c 10 --hold-at 30
echo "scr_srun: exit \$?"
JOB
hold_then_lose unpinned "${N[2]}" -N 4 --ntasks-per-node=2 --no-kill -w "${N[0]},${N[2]},${N[3]},${N[4]}"
unpinned="$(cat "$scratch/unpinned.out")
--- stderr
$(tail -n 20 "$scratch/unpinned.err")"
grep -q "^scr_srun: run 2 of 2 on .*: srun --exclude=${N[2]} " <<<"$unpinned" ||
  fail "the relaunch did not leave ${N[2]} out: $unpinned"
grep -q "resumed from checkpoint 'step.30'" <<<"$unpinned" || fail "the unpinned job did not resume from step.30: $unpinned"
grep -qF "$reference" <<<"$unpinned" || fail "the unpinned result differs from the uninterrupted run's $reference: $unpinned"
grep -q "^scr_srun: exit 0$" <<<"$unpinned" || fail "the unpinned scr_srun did not end with 0: $unpinned"
say "unpinned: $(grep -m1 "^scr_srun: run 2" <<<"$unpinned")"

daemons="$(cat "$CLUSTER_DIR/slurm/slurmctld.pid" "$CLUSTER_DIR/slurm/munge/munged.pid")"
slot="$CLUSTER_SLOT"
cluster_stop
# shellcheck disable=SC2086
left="$(cluster_leftovers "$slot" $daemons)"
[[ -z "$left" ]] || fail "teardown left behind: $left"
say PASS
