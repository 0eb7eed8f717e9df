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
# One JSON line per measurement, then a table of medians with each time as a
# ratio to `plain`, and the peak RSS of any process in any phase.
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
     SCR_CNTL_BASE="$dir/cntl" SCR_SIM_NODES=n0,n1,n2,n3 SCR_COPY_TYPE=XOR SCR_SET_SIZE=4 SCR_FLUSH=1000 \
     timeout 900 mpirun -n 4 "$prog" "$1" "$2" "$3" 2>/dev/null | grep '^{')
}

for i in $(seq "$repeat"); do
  for files in $counts; do
    bytes=$((total / files))
    rm -rf "$dir"; mkdir -p "$dir/prefix"
    plain=$(run plain "$files" "$bytes")
    write=$(run write "$files" "$bytes")
    rm -rf "$dir/cache/n1" "$dir/cntl/n1"
    cache=$(run restart "$files" "$bytes")
    rm -rf "$dir/cache" "$dir/cntl"
    prefix=$(run restart "$files" "$bytes")
    line="{\"bench\":\"many_files\",\"run\":$i,\"files\":$files,\"bytes\":$bytes,\"plain\":$plain,\"write\":$write,\"cache\":$cache,\"prefix\":$prefix}"
    echo "$line" | tee -a "$results"
  done
done

python3 - "$results" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
cols = [("ckpt", lambda r: r["write"]["seconds"]), ("flush", lambda r: r["write"]["finalize_seconds"]),
        ("restart cache", lambda r: r["cache"]["seconds"]), ("restart prefix", lambda r: r["prefix"]["seconds"])]
print(f"{'files/rank':>10} {'plain s':>8}" + "".join(f" {name + ' s':>16} {'x plain':>7}" for name, _ in cols) + f" {'peak RSS MiB':>12}")
for files in sorted({r["files"] for r in rows}):
    rs = [r for r in rows if r["files"] == files]
    p = statistics.median(r["plain"]["seconds"] for r in rs)
    line = f"{files:>10} {p:>8.3f}"
    for name, get in cols:
        m = statistics.median(get(r) for r in rs)
        line += f" {m:>16.3f} {m / p:>7.2f}"
    rss = max(max(r[k]["peak_rss_mib"] for k in ("write", "cache", "prefix")) for r in rs)
    ok = all(r[k]["ok"] for r in rs for k in ("plain", "write", "cache", "prefix"))
    print(line + f" {rss:>12.1f}" + ("" if ok else "  (A RUN FAILED)"))
PY
