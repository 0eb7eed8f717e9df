#!/usr/bin/env bash
# SLURM across the cluster in a box (slurm.sh): slurmctld on the host, one
# slurmd per node. `srun -N 4` lands on four hosts; an Open MPI job started
# by srun (--mpi=pmix) talks across them over TCP; inside an allocation a
# node is lost for real and scr_list_down_nodes names it at once through
# srun (SCR_NODE_REMOTE=srun), before SLURM notices, and later with SLURM's
# own verdict (not responding) without contacting the nodes.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/cluster.sh"
source "$here/slurm.sh"
cluster_need
build="${SCR_BUILD_DIR:-$here/../../build}"
while read -r v; do unset "$v"; done < <(compgen -e | grep -E '^(SCR_|SLURM_)' || true)
TOOL="$build/tools/scr_list_down_nodes/scr_list_down_nodes"
PROBE="$build/tests/cluster/cluster_probe"
for f in "$TOOL" "$PROBE"; do
  [[ -x "$f" ]] || { echo "[cluster slurm] FAIL: $f is not built" >&2; exit 1; }
done
fail() { printf '[cluster slurm] FAIL: %s\n' "$*" >&2; exit 1; }
say() { printf '[cluster slurm] %s\n' "$*"; }

cluster_start 4
cluster_slurm_start
N=("${CLUSTER_NODES[@]}")
scratch="$CLUSTER_DIR/scratch"
mkdir -p "$scratch"

got="$(cd "$scratch" && timeout 60 srun -N 4 hostname | sort | paste -sd,)"
[[ "$got" == "$(printf '%s\n' "${N[@]}" | sort | paste -sd,)" ]] || fail "srun -N 4 ran on '$got'"
say "srun -N 4 ran on $got"

export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include="$CLUSTER_SUBNET"
export OMPI_MCA_oob_tcp_if_include="$CLUSTER_SUBNET" OMPI_MCA_btl_vader_single_copy_mechanism=none
got="$(cd "$scratch" && timeout 60 srun --mpi=pmix -N 4 --ntasks-per-node=2 "$PROBE" 2>"$scratch/probe.err")" ||
  fail "srun --mpi=pmix of an MPI job across nodes failed: $(tail -20 "$scratch/probe.err")
$(tail -n 5 "$CLUSTER_DIR"/slurm/*.log)"
[[ "$got" == "SUM 28 ${N[0]},${N[0]},${N[1]},${N[1]},${N[2]},${N[2]},${N[3]},${N[3]}" ]] ||
  fail "the MPI job printed '$got'"
say "an MPI job under srun across 4 hosts: $got"

# Inside an allocation of every node: lose the last one.
cat >"$scratch/job.sh" <<JOB
set -u
export SCR_CACHE_BASE=/dev/shm SCR_CNTL_BASE=/dev/shm SCR_NODE_TIMEOUT=5
SCR_NODE_REMOTE=srun "$TOOL"; echo "healthy: exit \$?"
touch "$scratch/lose"
for i in \$(seq 1 100); do [[ -e "$scratch/lost" ]] && break; sleep 0.1; done
t0=\$SECONDS
SCR_NODE_REMOTE=srun "$TOOL" -r; echo "through srun: exit \$? in \$((SECONDS - t0)) s"
for i in \$(seq 1 60); do "$TOOL" >/dev/null && sleep 1 || break; done
"$TOOL" -r; echo "SLURM's verdict: exit \$?"
JOB
(cd "$scratch" && timeout 150 salloc -N 4 bash "$scratch/job.sh" >"$scratch/job.out" 2>"$scratch/job.err") &
alloc=$!
for _ in $(seq 1 300); do [[ -e "$scratch/lose" ]] && break; sleep 0.1; done
[[ -e "$scratch/lose" ]] || fail "the allocation did not start: $(tail -5 "$scratch/job.err")"
cluster_lose_node "${N[3]}"
touch "$scratch/lost"
wait "$alloc" || fail "the allocation failed: $(tail -5 "$scratch/job.err")"
out="$(cat "$scratch/job.out")"
grep -qx "healthy: exit 0" <<<"$out" || fail "before the loss: $out"
grep -q "^${N[3]}: " <<<"$out" || fail "the lost node was not named: $out"
grep -q "^through srun: exit 1 " <<<"$out" || fail "through srun: $out"
grep -q "^${N[3]}: SLURM reports state" <<<"$out" || fail "SLURM never reported the lost node: $out"
grep -qx "SLURM's verdict: exit 1" <<<"$out" || fail "SLURM's verdict: $out"
[[ "$(grep -c "^${CLUSTER_PREFIX}" <<<"$out")" -eq 2 ]] || fail "other nodes were named: $out"
say "$(grep "^through srun" <<<"$out")"
say "lost node named: $(grep "^${N[3]}: " <<<"$out" | paste -sd';')"
daemons="$(cat "$CLUSTER_DIR/slurm/slurmctld.pid" "$CLUSTER_DIR/slurm/munge/munged.pid")"
slot="$CLUSTER_SLOT"
cluster_stop
# shellcheck disable=SC2086
left="$(cluster_leftovers "$slot" $daemons)"
[[ -z "$left" ]] || fail "teardown left behind: $left"
say PASS
