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
#   redset-vs  only when asked for (ONLY=redset-vs, REDSET_DIR=<install
#            prefix of ECP-VeloC redset with KVTree and rankstr>): SCR++'s
#            engine (redset_bench) side by side with redset's, SCR 3.1's
#            (bench/redset/baseline, built into BUILD_DIR/redset-baseline), on
#            the hosts alone: 8 ranks on 8 hosts (sets of 8) and on 4 hosts x 2
#            (sets of 4), XOR, PARTNER and RS k=2, encode and rebuild after the
#            nodes the scheme tolerates lost (their files deleted), ROUNDS
#            (default 2) rounds in which the two engines run each cell one
#            right after the other, the first alternating; the table of
#            scripts/bench.sh's ONLY=redset-vs (vs_table.py). Without
#            REDSET_DIR or the cluster in a box it says why and is skipped
# Flush and fetch are left out: the prefix is this host's file system for
# both (a parallel file system is not simulated), so they cross no network.
# Usage: bench/cluster/run.sh [BUILD_DIR]   (as root: namespaces, a bridge)
#   env: ONLY=redset|runtime|redset-vs (default: redset and runtime), REPEAT
#   (default 3; for redset-vs 5, the repetitions of each job, which prints
#   their medians), SIZES (default "64MiB 256MiB"), BYTES (default 64 MiB),
#   NODES (redset-vs: hosts, each 4 or 8, default "8 4"), SHARED_DIR
#   (default /tmp: the prefixes and logs, seen by every host, so not in
#   /dev/shm)
# One JSON line per job, then a table of medians per part (tables.py).
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
build="$(cd "${1:-$here/build}" && pwd)"
repeat="${REPEAT:-3}"
sizes="${SIZES:-64MiB 256MiB}"
bytes="${BYTES:-$((64 << 20))}"
want() { { [ -z "${ONLY:-}" ] && [ "$1" != redset-vs ]; } || [ "${ONLY:-}" = "$1" ]; }
case "${ONLY:-}" in
  "" | redset | runtime | redset-vs) ;;
  *) echo "bench/cluster/run.sh: ONLY=$ONLY: expected redset, runtime or redset-vs" >&2; exit 2 ;;
esac
vs_nodes="${NODES:-8 4}"
if want redset-vs; then
  # 8 ranks on each host count, as many on every host (node = rank / (8 / hosts)).
  for h in $vs_nodes; do
    case "$h" in
      4 | 8) ;;
      *) echo "bench/cluster/run.sh: NODES=$vs_nodes: each is 4 or 8 hosts (2 or 1 of the 8 ranks on each)" >&2
         exit 2 ;;
    esac
  done
  # shellcheck source=../redset/baseline/lib.sh
  source "$here/bench/redset/baseline/lib.sh"
  missing="$(redset_baseline_missing)"
  if [ -n "$missing" ]; then
    echo "== redset-vs: across hosts"
    echo "$missing"
    exit 0
  fi
fi
# shellcheck source=../../tests/cluster/cluster.sh
source "$here/tests/cluster/cluster.sh"

why="$(cluster_unusable)"
if [ -n "$why" ]; then
  if want redset-vs; then
    echo "== redset-vs: across hosts"
    echo "skipped: the cluster in a box $why (ONLY=redset-vs scripts/bench.sh compares on simulated nodes)"
    exit 0
  fi
  echo "bench/cluster/run.sh: cannot run here: the cluster in a box $why." >&2
  echo "  (scripts/bench.sh runs the same benchmarks on simulated nodes only.)" >&2
  exit 1
fi
redset_bench="$build/bench/redset/redset_bench"
scr_bench="$build/bench/runtime/scr_bench"
needed=("$redset_bench")
if want runtime; then needed+=("$scr_bench"); fi
for p in "${needed[@]}"; do
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

# Two nodes beyond the four of a job: the spares that replace lost ones; for
# redset-vs as many as its largest host count. Each node's tmpfs holds up to
# two ranks' checkpoints and their redundancy data.
CLUSTER_SHM_SIZE=3g  # read by cluster_boot_node
count=6
# shellcheck disable=SC2086  # a list of numbers, split on purpose
if want redset-vs; then count="$(printf '%s\n' $vs_nodes | sort -n | tail -1)"; fi
cluster_start "$count"
N=("${CLUSTER_NODES[@]}")
on_exit() {
  local rc=$?
  rm -rf "$work" "$shm"
  (exit "$rc")
  cluster_on_exit
}
trap on_exit EXIT

# On H hosts, rank r must run on host r / (8 / H): redset_bench and
# redset_baseline group ranks into nodes that way.
check_placement() {
  local hosts="$1" per=$((8 / $1)) placed expected="" r
  # shellcheck disable=SC2016  # expanded by the rank's shell
  placed="$(CLUSTER_HOSTS="$(cluster_hosts "$per" "${N[@]:0:$hosts}")" "$CLUSTER_MPIRUN" -n 8 \
              sh -c 'echo "$OMPI_COMM_WORLD_RANK $(hostname)"' 2>/dev/null | sort -n |
              awk '{ printf "%s%s", sep, $2; sep = "," }')"
  for r in 0 1 2 3 4 5 6 7; do expected+="${expected:+,}${N[r / per]}"; done
  [ "$placed" = "$expected" ] ||
    cluster_die "ranks are placed on $placed, not $expected: redset_bench's nodes would not be the hosts"
}
if want redset || want runtime; then check_placement 4; fi
if want redset-vs; then for h in $vs_nodes; do check_placement "$h"; done; fi

# job cluster|sim NODES ENV... -- PROGRAM ARGS...: 8 ranks, as many on each of
# the comma-separated NODES, its JSON line on stdout; stderr kept in a log,
# shown when the job fails.
job() {
  local mode="$1" nodes="$2" log rc per
  shift 2
  per=$((8 / $(tr , '\n' <<<"$nodes" | wc -l)))
  local -a envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  log="$(mktemp "$work/job.XXXXXX.err")"
  set +e
  if [ "$mode" = cluster ]; then
    # shellcheck disable=SC2086  # NODES is a comma list, split on purpose
    CLUSTER_HOSTS="$(IFS=,; cluster_hosts "$per" $nodes)" env "${envs[@]}" timeout -k 10 600 \
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

if want redset-vs; then
  echo "== redset-vs: SCR++'s engine against redset's (SCR 3.1) across hosts (TCP), 8 ranks on $vs_nodes hosts"
  echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
  baseline="$(redset_baseline_build "$build")"
  for round in $(seq "${ROUNDS:-2}"); do
    for hosts in $vs_nodes; do
      on="$(IFS=,; echo "${N[*]:0:$hosts}")"
      for size in $sizes; do
        for scheme in "xor" "partner" "rs --k 2"; do
          # Alternate which engine goes first, round by round.
          engines="scr redset"; [ $((round % 2)) = 0 ] && engines="redset scr"
          for engine in $engines; do
            # --dir in /dev/shm itself: redset_baseline makes one level of directories only.
            for n in "${N[@]:0:$hosts}"; do cluster_on "$n" rm -rf "$shm"; done
            exe="$redset_bench"; [ "$engine" = redset ] && exe="$baseline"
            # shellcheck disable=SC2086  # the scheme's words are options
            line="$(job cluster "$on" -- "$exe" --scheme $scheme --nodes "$hosts" --bytes-per-rank "$size" \
                      --repeat "${REPEAT:-5}" --dir "$shm")" || line='{"failed":true}'
            echo "{\"bench\":\"cluster_redset_vs\",\"engine\":\"$engine\",\"round\":$round,\"result\":$line}" |
              tee -a "$results"
          done
        done
      done
    done
  done
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "(nodes: hosts of the cluster in a box, 8 / nodes ranks on each; TCP between them)"
  python3 "$here/bench/redset/vs_table.py" "$results" cluster_redset_vs
fi
