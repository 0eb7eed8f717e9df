#!/usr/bin/env bash
# Many small files: the same bytes per rank (TOTAL, default 8 MiB) as 2, 100,
# 1,000 and 10,000 files, on 4 ranks over 4 simulated nodes (XOR, cache on;
# NP=2..8 for another count of ranks, each its own node, one set).
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
# With SCR31_DIR=<SCR 3.1's install prefix>, SCR 3.1 itself runs the same
# phases on the same data, each right after SCR++'s (many_files_scr31.sh:
# 4 ranks, each its own node; the lost node's, then every node's, cache and
# control directories deleted), and a second table sets the two side by side.
# SCR 3.1's checkpoint fails when every rank has the same count of more than
# 256 files (4 ranks); MANY_FILES_UNEVEN=1 gives the last rank one file fewer,
# for both libraries and the floors (many_files.c).
# Usage: bench/runtime/many_files.sh [BUILD_DIR]
#   env: REPEAT, TOTAL, COUNTS, DIR, NP; SCR31_DIR, SCR31_SHIM, SCR31_TIMEOUT; MANY_FILES_UNEVEN
set -euo pipefail
source "$(dirname "$0")/bench_env.sh"
prog="$build/bench/runtime/many_files"
total="${TOTAL:-$((8 << 20))}"
counts="${COUNTS:-2 100 1000 10000}"
dir="${DIR:-/dev/shm/scr_bench_many}"
results="$(mktemp)"
trap 'rm -f "$results"; rm -rf "$dir" "${scr31_tmp:-}"' EXIT
here="$(cd "$(dirname "$0")" && pwd)"
np="${NP:-4}"
if ! [[ "$np" =~ ^[2-8]$ ]]; then
  echo "many_files.sh: NP must be 2 to 8 (ranks, one simulated node each), not '$np'" >&2
  exit 2
fi
nodes=$(seq -s, -f 'n%g' 0 $((np - 1)))
scr31=0
if [[ -n "${SCR31_DIR:-}" ]]; then
  if ((np != 4)); then
    echo "many_files.sh: the run beside SCR 3.1 uses 4 ranks; leave NP unset with SCR31_DIR" >&2
    exit 2
  fi
  scr31=1
  source "$here/many_files_scr31.sh"
fi

run() {  # run <mode> <files> <bytes>
  (cd "$dir/prefix" && env SCR_CACHE_BYPASS=0 SCR_PREFIX="$dir/prefix" SCR_CACHE_BASE="$dir/cache" \
     SCR_CNTL_BASE="$dir/cntl" FLOOR_DIR="$dir/floor" SCR_SIM_NODES="$nodes" SCR_COPY_TYPE=XOR SCR_SET_SIZE="$np" SCR_FLUSH=1000 \
     timeout 900 mpirun -n "$np" "$prog" "$1" "$2" "$3" 2>/dev/null | grep '^{')
}

for i in $(seq "$repeat"); do
  for files in $counts; do
    bytes=$((total / files))
    rm -rf "$dir"; mkdir -p "$dir/prefix"
    plain=$(run plain "$files" "$bytes")
    floor_ckpt=$(run floor-ckpt "$files" "$bytes")
    write=$(run write "$files" "$bytes")
    if ((scr31)); then
      mkdir -p "$dir/scr31/prefix"
      write31=$(run31 write "$files" "$bytes")
      # Restarts only from a checkpoint SCR 3.1 wrote and flushed.
      grep -q '"ok":1' <<<"$write31" && have31=1 || have31=0
    fi
    floor_flush=$(run floor-flush "$files" "$bytes")
    rm -rf "$dir/floor/cache/n1"
    floor_cache=$(run floor-cache "$files" "$bytes")
    rm -rf "$dir/cache/n1" "$dir/cntl/n1"
    cache=$(run restart "$files" "$bytes")
    if ((scr31)); then
      rm -rf "$dir/scr31/node1"
      cache31='{"skipped":1}'
      ((have31)) && cache31=$(run31 restart "$files" "$bytes")
    fi
    rm -rf "$dir/floor/cache"
    floor_prefix=$(run floor-prefix "$files" "$bytes")
    rm -rf "$dir/cache" "$dir/cntl"
    prefix=$(run restart "$files" "$bytes")
    if ((scr31)); then
      rm -rf "$dir/scr31"/node[0-9]*
      prefix31='{"skipped":1}'
      ((have31)) && prefix31=$(run31 restart "$files" "$bytes")
    fi
    line="{\"bench\":\"many_files\",\"run\":$i,\"files\":$files,\"bytes\":$bytes,\"plain\":$plain,\"write\":$write,\"cache\":$cache,\"prefix\":$prefix"
    line+=",\"floor_ckpt\":$floor_ckpt,\"floor_flush\":$floor_flush,\"floor_cache\":$floor_cache,\"floor_prefix\":$floor_prefix"
    ((scr31)) && line+=",\"scr31\":{\"write\":$write31,\"cache\":$cache31,\"prefix\":$prefix31}"
    line+="}"
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

((scr31)) || exit 0
# SCR 3.1 against SCR++: per phase, medians over the repetitions in which
# SCR 3.1's phase finished and read every byte back; the speed-up is the
# median of SCR 3.1's time over SCR++'s in the same repetition.
python3 - "$results" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
phases = [("ckpt", "write", "seconds"), ("flush", "write", "finalize_seconds"),
          ("restart cache", "cache", "seconds"), ("restart prefix", "prefix", "seconds")]
def state(o):
    for k in ("timeout", "skipped", "failed"):
        if k in o: return k
    return "done" if o["ok"] else "failed"
print(f"{'files/rank':>10} {'phase':>15} {'SCR 3.1 s':>10} {'SCR++ s':>8} {'speed-up':>8}"
      f" {'3.1 RSS MiB':>11} {'++ RSS MiB':>10}  runs")
for files in sorted({r["files"] for r in rows}):
    rs = [r for r in rows if r["files"] == files]
    for name, kind, field in phases:
        states = [state(r["scr31"][kind]) for r in rs]
        done = [r for r, s in zip(rs, states) if s == "done"]
        pp = statistics.median(r[kind][field] for r in rs)
        prss = statistics.median(r[kind]["peak_rss_mib"] for r in rs)
        if done:
            t = statistics.median(r["scr31"][kind][field] for r in done)
            x = statistics.median(r["scr31"][kind][field] / r[kind][field] for r in done)
            rss = statistics.median(r["scr31"][kind]["peak_rss_mib"] for r in done)
            cells = f"{t:>10.3f} {pp:>8.3f} {x:>8.2f} {rss:>11.1f}"
        else:
            worst = next(s for s in ("failed", "timeout", "skipped") if s in states)
            cells = f"{worst:>10} {pp:>8.3f} {'-':>8} {'-':>11}"
        notes = ", ".join(f"{states.count(s)} {s}" for s in ("timeout", "failed", "skipped") if s in states)
        print(f"{files:>10} {name:>15} {cells} {prss:>10.1f}  {len(done)}/{len(rs)}" + (f" ({notes})" if notes else ""))
PY
