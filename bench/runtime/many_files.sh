#!/usr/bin/env bash
# Many small files: the same bytes per rank (TOTAL, default 8 MiB) as 2, 100,
# 1,000 and 10,000 files, on 4 ranks over 4 simulated nodes (XOR, cache on).
# For each count, in one run:
#   plain    the files written without SCR (fsync'd): the baseline;
#   ckpt     SCR_Start_output .. SCR_Complete_output (no flush due);
#   flush    the flush of that checkpoint to the prefix (done by SCR_Finalize);
#   cache    SCR_Init + reading every file back after one node was lost
#            (rebuild from XOR);
#   prefix   the same after every node was lost (fetch from the prefix).
# Beside each SCR++ phase, in the same repetition and just before it, its
# floor: a plain program making only the system calls the phase needs at
# least, on files laid out as SCR++ lays them out (many_files.c, floor-*):
#   ckpt     the application's create + write, one stat and one open + read
#            of each file;
#   flush    a copy of each file (its destination fsync'd);
#   cache    the lost node's files written again, every survivor's file read
#            once, then the application's reads;
#   prefix   a copy of each file into the cache, then the application's reads.
# With FLOOR_CONTRACT=1 in the environment the floors also make the calls
# SCR's contract asks of any implementation (many_files.c says which): the
# table then compares each phase with that floor.
# One JSON line per measurement, then a table of medians: each phase, its
# floor, the median over the repetitions of their ratio (paired, as each
# phase runs right after its floor), the phase's ratio to `plain`, and the
# peak RSS of any process in any SCR++ phase.
# Usage: bench/runtime/many_files.sh [BUILD_DIR]   (env: REPEAT, TOTAL, COUNTS, DIR)
set -euo pipefail
source "$(dirname "$0")/bench_env.sh"
prog="$build/bench/runtime/many_files"
total="${TOTAL:-$((8 << 20))}"
counts="${COUNTS:-2 100 1000 10000}"
dir="${DIR:-/dev/shm/scr_bench_many}"
results="$(mktemp)"
trap 'rm -f "$results"; rm -rf "$dir"' EXIT

run() {  # run <mode> <files> <bytes>
  (cd "$dir/prefix" && env SCR_CACHE_BYPASS=0 SCR_PREFIX="$dir/prefix" SCR_CACHE_BASE="$dir/cache" \
     SCR_CNTL_BASE="$dir/cntl" FLOOR_DIR="$dir/floor" SCR_SIM_NODES=n0,n1,n2,n3 SCR_COPY_TYPE=XOR SCR_SET_SIZE=4 SCR_FLUSH=1000 \
     timeout 900 mpirun -n 4 "$prog" "$1" "$2" "$3" 2>/dev/null | grep '^{')
}

for i in $(seq "$repeat"); do
  for files in $counts; do
    bytes=$((total / files))
    rm -rf "$dir"; mkdir -p "$dir/prefix"
    plain=$(run plain "$files" "$bytes")
    floor_ckpt=$(run floor-ckpt "$files" "$bytes")
    write=$(run write "$files" "$bytes")
    floor_flush=$(run floor-flush "$files" "$bytes")
    rm -rf "$dir/floor/cache/n1"
    floor_cache=$(run floor-cache "$files" "$bytes")
    rm -rf "$dir/cache/n1" "$dir/cntl/n1"
    cache=$(run restart "$files" "$bytes")
    rm -rf "$dir/floor/cache"
    floor_prefix=$(run floor-prefix "$files" "$bytes")
    rm -rf "$dir/cache" "$dir/cntl"
    prefix=$(run restart "$files" "$bytes")
    line="{\"bench\":\"many_files\",\"run\":$i,\"files\":$files,\"bytes\":$bytes,\"plain\":$plain,\"write\":$write,\"cache\":$cache,\"prefix\":$prefix"
    line+=",\"floor_ckpt\":$floor_ckpt,\"floor_flush\":$floor_flush,\"floor_cache\":$floor_cache,\"floor_prefix\":$floor_prefix}"
    echo "$line" | tee -a "$results"
  done
done

python3 - "$results" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
cols = [("ckpt", lambda r: r["write"]["seconds"], "floor_ckpt"),
        ("flush", lambda r: r["write"]["finalize_seconds"], "floor_flush"),
        ("restart cache", lambda r: r["cache"]["seconds"], "floor_cache"),
        ("restart prefix", lambda r: r["prefix"]["seconds"], "floor_prefix")]
print(f"{'files/rank':>10} {'plain s':>8}" +
      "".join(f" {name + ' s':>16} {'floor s':>8} {'x floor':>7} {'x plain':>7}" for name, _, _ in cols) +
      f" {'peak RSS MiB':>12}")
for files in sorted({r["files"] for r in rows}):
    rs = [r for r in rows if r["files"] == files]
    p = statistics.median(r["plain"]["seconds"] for r in rs)
    line = f"{files:>10} {p:>8.3f}"
    for name, get, floor in cols:
        m = statistics.median(get(r) for r in rs)
        f = statistics.median(r[floor]["seconds"] for r in rs)
        x = statistics.median(get(r) / r[floor]["seconds"] for r in rs)
        line += f" {m:>16.3f} {f:>8.3f} {x:>7.2f} {m / p:>7.2f}"
    rss = max(max(r[k]["peak_rss_mib"] for k in ("write", "cache", "prefix")) for r in rs)
    kinds = ("plain", "write", "cache", "prefix", "floor_ckpt", "floor_flush", "floor_cache", "floor_prefix")
    ok = all(r[k]["ok"] for r in rs for k in kinds)
    print(line + f" {rss:>12.1f}" + ("" if ok else "  (A RUN FAILED)"))
PY
