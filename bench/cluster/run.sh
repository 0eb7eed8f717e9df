#!/usr/bin/env bash
# The benchmarks across hosts: redset_bench and the runtime benchmark
# (scr_bench) with 8 ranks on 4 nodes x 2, once on the cluster in a box
# (tests/cluster/cluster.sh: every node its own host name, network and
# /dev/shm; Open MPI between nodes over TCP on a private bridge, shared
# memory only between the two ranks of a node) and once on 4 simulated nodes
# of this host (SCR_SIM_NODES, plain mpirun: every byte through shared
# memory). The two run interleaved, job by job, so that the load of a shared
# machine falls on both alike; compare the ratios within a run.
#   redset   redset_bench --nodes 4 (ranks 2i and 2i+1 on node i, which the
#            script checks is where the cluster's mpirun places them): XOR,
#            RS k=2 losing 2 and 1, PARTNER, at each of SIZES per rank,
#            Open MPI's single-copy transfers on (as scripts/bench.sh)
#   runtime  scr_bench write BYTES (SCR_FLUSH=0, sets of 4): the time blocked
#            in SCR_Complete_output; then nodes lost (XOR 1, RS k=2 2,
#            PARTNER 1; on the cluster for real: every process killed, the
#            tmpfs gone) and scr_bench restart on spares in their place:
#            SCR_Init with its rebuild, every byte read back and checked.
#            Single-copy transfers off (as bench/runtime/run.sh)
# Flush and fetch are left out: the prefix is this host's file system for
# both (a parallel file system is not simulated), so they cross no network.
# Usage: bench/cluster/run.sh [BUILD_DIR]   (as root: namespaces, a bridge)
#   env: ONLY=redset|runtime, REPEAT (default 3), SIZES (default
#   "64MiB 256MiB"), BYTES (default 64 MiB), SHARED_DIR (default /tmp: the
#   prefixes and logs, seen by every host, so not in /dev/shm)
# One JSON line per job, then a table of medians per part (tables.py).
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
build="$(cd "${1:-$here/build}" && pwd)"
repeat="${REPEAT:-3}"
sizes="${SIZES:-64MiB 256MiB}"
bytes="${BYTES:-$((64 << 20))}"
want() { [ -z "${ONLY:-}" ] || [ "$ONLY" = "$1" ]; }
# shellcheck source=../../tests/cluster/cluster.sh
source "$here/tests/cluster/cluster.sh"

why="$(cluster_unusable)"
if [ -n "$why" ]; then
  echo "bench/cluster/run.sh: cannot run here: the cluster in a box $why." >&2
  echo "  (scripts/bench.sh runs the same benchmarks on simulated nodes only.)" >&2
  exit 1
fi
redset_bench="$build/bench/redset/redset_bench"
scr_bench="$build/bench/runtime/scr_bench"
for p in "$redset_bench" "$scr_bench"; do
  [ -x "$p" ] || { echo "bench/cluster/run.sh: $p is not built" >&2; exit 1; }
done

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# Processes that wait for a message yield the core. mpirun does so by itself
# when a host runs more processes than it has cores (the simulated nodes),
# but each node of the cluster is given 2 slots for its 2 ranks and would
# spin: 8 processes polling on 2 cores made every collective across hosts
# 15-50 ms instead of 3 (an 8-rank allreduce, measured here), and SCR_Init 3 s.
export OMPI_MCA_mpi_yield_when_idle=1
unset SCR_BUILD_DIR SCR_SOURCE_DIR SCR_SIM_NODES
case "${SHARED_DIR:-/tmp}" in
  /dev/shm | /dev/shm/*)
    echo "bench/cluster/run.sh: SHARED_DIR=$SHARED_DIR: the hosts do not share /dev/shm" >&2; exit 1 ;;
esac
work="$(mktemp -d "${SHARED_DIR:-/tmp}/scr_cluster_bench.XXXXXX")"
results="$work/results.jsonl"
shm=/dev/shm/scr_cluster_bench  # the node-local storage: each node's own, or this host's
rm -rf "$shm"
cd "$work"  # every job's working directory, which the nodes see too

# Two nodes beyond the four of a job: the spares that replace lost ones. Each
# node's tmpfs holds two ranks' checkpoints and their redundancy data.
CLUSTER_SHM_SIZE=3g  # read by cluster_boot_node
cluster_start 6
N=("${CLUSTER_NODES[@]}")
on_exit() {
  local rc=$?
  rm -rf "$work" "$shm"
  (exit "$rc")
  cluster_on_exit
}
trap on_exit EXIT

# Rank r must run on node r/2: redset_bench groups ranks into nodes that way.
export CLUSTER_HOSTS
CLUSTER_HOSTS="$(cluster_hosts 2 "${N[@]:0:4}")"
# shellcheck disable=SC2016  # expanded by the rank's shell
placed="$("$CLUSTER_MPIRUN" -n 8 sh -c 'echo "$OMPI_COMM_WORLD_RANK $(hostname)"' 2>/dev/null | sort -n |
          awk '{ printf "%s%s", sep, $2; sep = "," }')"
expected="${N[0]},${N[0]},${N[1]},${N[1]},${N[2]},${N[2]},${N[3]},${N[3]}"
[ "$placed" = "$expected" ] ||
  cluster_die "ranks are placed on $placed, not $expected: redset_bench's nodes would not be the hosts"

# job cluster|sim NODES ENV... -- PROGRAM ARGS...: 8 ranks, 2 on each of the
# comma-separated NODES, its JSON line on stdout; stderr kept in a log, shown
# when the job fails.
job() {
  local mode="$1" nodes="$2" log rc
  shift 2
  local -a envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  log="$(mktemp "$work/job.XXXXXX.err")"
  set +e
  if [ "$mode" = cluster ]; then
    # shellcheck disable=SC2086  # NODES is a comma list, split on purpose
    CLUSTER_HOSTS="$(IFS=,; cluster_hosts 2 $nodes)" env "${envs[@]}" timeout -k 10 600 \
      "$CLUSTER_MPIRUN" -n 8 "$@" 2>"$log" </dev/null | grep '^{'
  else
    env SCR_SIM_NODES="$nodes" "${envs[@]}" timeout -k 10 600 mpirun -n 8 "$@" 2>"$log" </dev/null | grep '^{'
  fi
  rc="${PIPESTATUS[0]}"
  set -e
  if [ "$rc" -ne 0 ]; then
    echo "bench/cluster/run.sh: a $mode job on $nodes failed (exit $rc): $*" >&2
    tail -20 "$log" >&2
    return 1
  fi
}

# The order of the two modes alternates from one repetition to the next, so
# that neither always runs first.
modes() { if [ $(($1 % 2)) -eq 1 ]; then echo cluster sim; else echo sim cluster; fi; }

sim_nodes=n0,n1,n2,n3
cluster_nodes="$(IFS=,; echo "${N[*]:0:4}")"
nodes_of() { if [ "$1" = cluster ]; then echo "$cluster_nodes"; else echo "$sim_nodes"; fi; }

if want redset; then
  echo "== redset: encode and rebuild, 8 ranks on 4 nodes, across hosts (TCP) and on simulated nodes"
  for i in $(seq "$repeat"); do
    for size in $sizes; do
      for scheme in "xor" "rs --k 2" "rs --k 2 --lose 1" "partner"; do
        for mode in $(modes "$i"); do
          rm -rf "$shm"
          # shellcheck disable=SC2086  # the scheme's words are options
          line="$(job "$mode" "$(nodes_of "$mode")" OMPI_MCA_btl=self,vader -- "$redset_bench" --scheme $scheme \
                    --nodes 4 --bytes-per-rank "$size" --repeat 1 --dir "$shm/redset")"
          echo "{\"bench\":\"cluster_redset\",\"mode\":\"$mode\",\"run\":$i,\"result\":$line}" | tee -a "$results"
        done
      done
    done
  done
  python3 "$here/bench/cluster/tables.py" redset "$results"
fi

if want runtime; then
  echo "== runtime: SCR_Complete_output, then SCR_Init rebuilding lost nodes on spares, 8 ranks on 4 nodes"
  # SCR_CACHE_BYPASS=0: the cost of the cache path, as bench/runtime/run.sh.
  # shellcheck disable=SC2054  # commas inside values
  scr_env=(OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none SCR_CACHE_BYPASS=0
           SCR_CACHE_BASE="$shm/cache" SCR_CNTL_BASE="$shm/cntl" SCR_SET_SIZE=4 SCR_SET_FAILURES=2 SCR_FLUSH=0)
  for i in $(seq "$repeat"); do
    for setup in "XOR 1" "RS 2" "PARTNER 1"; do
      read -r scheme lost <<<"$setup"
      for mode in $(modes "$i"); do
        prefix="$work/prefix.$mode.$scheme.$i"
        mkdir -p "$prefix"
        rm -rf "$shm"
        # Lose nodes 1 (and 2) of the four; the spares take their places.
        if [ "$mode" = cluster ]; then
          for n in "${N[@]}"; do cluster_on "$n" rm -rf "$shm"; done
          first="$cluster_nodes"
          if [ "$lost" = 1 ]; then second="${N[0]},${N[4]},${N[2]},${N[3]}"; else second="${N[0]},${N[4]},${N[5]},${N[3]}"; fi
        else
          first="$sim_nodes"
          if [ "$lost" = 1 ]; then second=n0,s1,n2,n3; else second=n0,s1,s2,n3; fi
        fi
        w="$(cd "$prefix" && job "$mode" "$first" "${scr_env[@]}" SCR_PREFIX="$prefix" SCR_COPY_TYPE="$scheme" \
               -- "$scr_bench" write "$bytes")"
        if [ "$mode" = cluster ]; then
          cluster_lose_node "${N[1]}"
          [ "$lost" = 1 ] || cluster_lose_node "${N[2]}"
        else
          rm -rf "$shm/cache/n1" "$shm/cntl/n1"
          [ "$lost" = 1 ] || rm -rf "$shm/cache/n2" "$shm/cntl/n2"
        fi
        r="$(cd "$prefix" && job "$mode" "$second" "${scr_env[@]}" SCR_PREFIX="$prefix" SCR_COPY_TYPE="$scheme" \
               -- "$scr_bench" restart)"
        if [ "$mode" = cluster ]; then
          for n in "${N[@]}"; do cluster_node_pid "$n" >/dev/null || cluster_boot_node "$n"; done
        fi
        rm -rf "$prefix"
        echo "{\"bench\":\"cluster_runtime\",\"mode\":\"$mode\",\"scheme\":\"$scheme\",\"lost\":$lost,\"run\":$i,\"write\":$w,\"restart\":$r}" |
          tee -a "$results"
      done
    done
  done
  python3 "$here/bench/cluster/tables.py" runtime "$results"
fi
