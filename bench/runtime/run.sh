#!/usr/bin/env bash
# Runtime benchmarks, one JSON line per measurement:
#  - flush: time blocked in SCR_Complete_output with sync and async flush,
#    against the flush itself (8 ranks x 64 MiB by default);
#  - rebuild: SCR_Init after losing 1 and k nodes, against the encode time;
#  - rescale: a checkpoint of 8 ranks x 64 MiB on 4 nodes restarted on 4, 6
#    and 8 ranks, from the prefix (read in place, or fetched into the nodes'
#    cache) and from the cache (6 ranks: a node lost, its files rebuilt),
#    against a plain parallel copy of the same bytes in the same run, with
#    the node-local copies and checks SCR++ made (one per file and node).
#  - complete: time blocked in SCR_Complete_output for a cached checkpoint
#    (no flush due: XOR, RS (k=2) and PARTNER; an async flush due: XOR) on 8
#    nodes, against the redundancy bench's encode of the same data and scheme
#    in the same run. WARM=N: N checkpoints before the one timed, so that
#    it evicts one (SCR_CACHE_SIZE=1) as in a running application, and the
#    encode writes its redundancy file over the evicted one's. With
#    REDSET_DIR (bench/redset/baseline/lib.sh), redset 0.4.0's encode of the
#    same data too: the least SCR 3.1's SCR_Complete_output takes.
#  - transfer: the flush (at SCR_Finalize) and the fetch (at SCR_Init after
#    every cache is lost) of a SINGLE checkpoint, 8 ranks on 8 nodes, against
#    a plain parallel copy (read, write, fsync) of the same files in the same
#    run; the prefix in /dev/shm and on the disk (a fresh directory under
#    DISK_DIR, default /work).
# Usage: bench/runtime/run.sh [BUILD_DIR]   (env: BYTES, REPEAT, DIR, ONLY)
# ONLY=flush|rebuild|rescale|complete|transfer runs one of them.
set -euo pipefail
source "$(dirname "$0")/bench_env.sh"
bench="$build/bench/runtime/scr_bench"
bytes="${BYTES:-$((64 << 20))}"
dir="${DIR:-/dev/shm/scr_bench}"

# SCR_CACHE_BYPASS=0 throughout: these are the costs of the cache path.
run() {  # run <nodes> <env...> -- <args>
  local nodes="$1"; shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  local pre="${bench_prefix:-$dir/prefix}"
  (cd "$pre" && env SCR_CACHE_BYPASS=0 SCR_PREFIX="$pre" SCR_CACHE_BASE="$dir/cache" SCR_CNTL_BASE="$dir/cntl" \
     SCR_SIM_NODES="$nodes" "${envs[@]}" timeout 600 mpirun -n "${NP:-8}" "$bench" "$@" 2>/dev/null | grep '^{')
}
fresh() { rm -rf "$dir"; mkdir -p "$dir/prefix"; }
want() { [ -z "${ONLY:-}" ] || [ "$ONLY" = "$1" ]; }

nodes8=n0,n1,n2,n3,n4,n5,n6,n7
if want flush; then
# mode none: SCR_FLUSH=0, the cost of SCR_Complete_output without a flush
# (writing the redundancy data), the baseline the other two are read against.
for i in $(seq "$repeat"); do
  for mode in none sync async; do
    fresh
    case $mode in
      none) flush=(SCR_FLUSH=0) ;;
      sync) flush=(SCR_FLUSH=1 SCR_FLUSH_ASYNC=0) ;;
      async) flush=(SCR_FLUSH=1 SCR_FLUSH_ASYNC=1 SCR_FLUSH_ASYNC_MAX=1) ;;
    esac
    echo "{\"bench\":\"flush\",\"mode\":\"$mode\",\"run\":$i,\"result\":$(run $nodes8 SCR_COPY_TYPE=XOR "${flush[@]}" -- write "$bytes" 100000)}"
  done
done
fi
if want complete; then
redset_exe=""
if [ -n "${REDSET_DIR:-}" ]; then
  # shellcheck source=../redset/baseline/lib.sh
  source "$(dirname "$0")/../redset/baseline/lib.sh"
  missing="$(redset_baseline_missing)"
  if [ -n "$missing" ]; then echo "$missing" >&2; else redset_exe="$(redset_baseline_build "$build")"; fi
fi
for i in $(seq "$repeat"); do
  for setup in "XOR xor none" "RS rs none" "PARTNER partner none" "XOR xor async"; do
    read -r scheme lower flush <<< "$setup"
    case $flush in
      none) flush=(SCR_FLUSH=0) ;;
      async) flush=(SCR_FLUSH=1 SCR_FLUSH_ASYNC=1) ;;
    esac
    fresh
    enc=$(timeout 600 mpirun -n "${NP:-8}" "$build/bench/redset/redset_bench" --scheme "$lower" --k 2 --nodes 8 \
            --bytes-per-rank "$bytes" --repeat 1 --dir "$dir/redset" 2>/dev/null | grep '^{')
    red=null
    if [ -n "$redset_exe" ]; then
      fresh
      red=$(timeout 600 mpirun -n "${NP:-8}" "$redset_exe" --scheme "$lower" --k 2 --nodes 8 \
              --bytes-per-rank "$bytes" --repeat 1 --dir "$dir/redset" 2>/dev/null | grep '^{') || red=null
    fi
    fresh
    out=$(run $nodes8 SCR_COPY_TYPE="$scheme" SCR_SET_FAILURES=2 BENCH_WARM_CHECKPOINTS="${WARM:-0}" "${flush[@]}" -- write "$bytes")
    echo "{\"bench\":\"complete\",\"scheme\":\"$scheme\",\"flush\":\"${flush[*]}\",\"run\":$i,\"encode\":$enc,\"redset\":$red,\"result\":$out}"
  done
done
fi
if want transfer; then
# The cache stays in /dev/shm; the prefix is in /dev/shm, then in a fresh
# directory on the disk, under DISK_DIR (default /work) when it is writable.
wheres=shm
disk=$(mktemp -d "${DISK_DIR:-/work}/scr_bench_transfer.XXXXXX" 2>/dev/null) && wheres="shm disk" ||
  echo "transfer: ${DISK_DIR:-/work} is not writable; measuring the prefix in /dev/shm only" >&2
for i in $(seq "$repeat"); do
  for where in $wheres; do
    fresh
    bench_prefix="$dir/prefix"
    if [ "$where" = disk ]; then bench_prefix="$disk/prefix"; rm -rf "$bench_prefix"; mkdir -p "$bench_prefix"; fi
    # SCR_FLUSH=2: the first checkpoint is not due, SCR_Finalize flushes it
    # (finalize_s), between two plain copies of the same files
    # (plain_copy_s before, plain_copy_other_s after).
    w=$(run $nodes8 SCR_COPY_TYPE=SINGLE SCR_FLUSH=2 BENCH_COPY_DIR="$bench_prefix/plain.flush" -- write "$bytes")
    rm -rf "$dir/cache" "$dir/cntl"  # (the plain copies delete themselves)
    # Every cache lost: SCR_Init fetches (init_s), between two plain copies
    # from the prefix into the node's tmpfs (plain_copy_other_s before,
    # plain_copy_s after).
    r=$(run $nodes8 SCR_COPY_TYPE=SINGLE BENCH_COPY_DIR="$dir/plain.fetch" -- restart)
    echo "{\"bench\":\"transfer\",\"prefix\":\"$where\",\"run\":$i,\"flush\":$w,\"fetch\":$r}"
    unset bench_prefix
  done
done
if [ -n "${disk:-}" ]; then rm -rf "$disk"; fi
fi
if want rebuild; then
for i in $(seq "$repeat"); do
  for setup in "XOR 8 1" "XOR 4 1" "RS 8 2" "RS 4 2"; do
    read -r scheme size k <<< "$setup"
    nodes=$nodes8
    for lost in 1 "$k"; do
      fresh
      w=$(run $nodes SCR_COPY_TYPE="$scheme" SCR_SET_SIZE="$size" SCR_SET_FAILURES="$k" SCR_FLUSH=0 -- write "$bytes")
      # The job ended cleanly; lose `lost` nodes, then restart on spares.
      rm -rf "$dir/cache/n0" "$dir/cntl/n0"
      [ "$lost" -ge 2 ] && rm -rf "$dir/cache/n1" "$dir/cntl/n1"
      spares=$(echo "$nodes" | sed 's/n0/s0/; s/n1/s1/')
      [ "$lost" -ge 2 ] || spares=$(echo "$nodes" | sed 's/n0/s0/')
      r=$(run "$spares" SCR_COPY_TYPE="$scheme" SCR_SET_SIZE="$size" SCR_SET_FAILURES="$k" -- restart)
      echo "{\"bench\":\"rebuild\",\"scheme\":\"$scheme\",\"set_size\":$size,\"k\":$k,\"lost_nodes\":$lost,\"run\":$i,\"write\":$w,\"restart\":$r}"
    done
  done
done
fi

# Restart at a different size. The checkpoint: 8 ranks on n0..n3, XOR sets
# of 4. Sources: "inplace" (written with cache bypass, read in place),
# "fetch" (flushed from cache, the cache then wiped: fetched into the new
# nodes' cache), "cache" (never flushed: made whole in the prefix first;
# for 6 ranks n3's storage is lost and its files rebuilt).
nodes_for() {  # nodes_for <source> <ranks>
  case "$2" in
    4) echo n0,n1,n2,n3 ;;  # 1 rank per node: every node's cache kept
    6) echo n0,n1,n2 ;;
    8) echo n0,n1,n2,n3 ;;
  esac
}
if want rescale; then
for i in $(seq "$repeat"); do
  for source in inplace fetch cache; do
    for np in 4 6 8; do
      fresh
      case $source in
        inplace) w=$(run n0,n1,n2,n3 SCR_CACHE_BYPASS=1 -- write "$bytes") ;;
        fetch) w=$(run n0,n1,n2,n3 SCR_COPY_TYPE=XOR SCR_SET_SIZE=4 SCR_FLUSH=1 -- write "$bytes")
               rm -rf "$dir/cache" "$dir/cntl" ;;
        cache) w=$(run n0,n1,n2,n3 SCR_COPY_TYPE=XOR SCR_SET_SIZE=4 SCR_FLUSH=0 -- write "$bytes")
               [ "$np" = 6 ] && rm -rf "$dir/cache/n3" "$dir/cntl/n3" ;;
      esac
      mkdir -p "$dir/copy"
      r=$(NP=$np run "$(nodes_for $source $np)" SCR_COPY_TYPE=XOR SCR_SET_SIZE=4 SCR_FLUSH=0 -- rescale "$dir/copy")
      echo "{\"bench\":\"rescale\",\"source\":\"$source\",\"ranks\":$np,\"nodes\":\"$(nodes_for $source $np)\",\"run\":$i,\"write\":$w,\"restart\":$r}"
    done
  done
done
fi
rm -rf "$dir"
