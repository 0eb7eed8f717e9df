#!/usr/bin/env bash
# The whole benchmark set, one JSON line per measurement, then a table per
# part (docs/performance.md explains each one and its baseline):
#   redset    encode and rebuild of XOR, RS (k=2) and PARTNER, 8 ranks on 4
#             and on 8 simulated nodes, 64 and 256 MiB per rank, against a
#             plain write + fsync of the same data and against the scheme's
#             floor, measured in the same run (build/bench/redset/redset_bench);
#             the rebuild after as many lost nodes as the scheme tolerates,
#             and for RS also after one
#   runtime   flush, SCR_Complete_output against the encode, flush and fetch
#             against a plain copy, rebuild at Init and restart at another
#             size (bench/runtime/run.sh; WARM=N: SCR_Complete_output of a
#             checkpoint after N others, one evicted for it; with REDSET_DIR
#             also against redset's encode of the same data)
#   files     many small files (bench/runtime/many_files.sh)
#   kernels   CRC32C, its combine and XOR against memcpy, one process
#             (build/bench/kernels/kernels_bench, Google Benchmark)
#   cluster   only when asked for (ONLY=cluster; needs root): the redset part
#             and the runtime's Complete_output and rebuild across the hosts
#             of the cluster in a box (TCP) and on simulated nodes, interleaved
#             (bench/cluster/run.sh); with CLUSTER_ONLY=redset-vs and
#             REDSET_DIR, redset-vs below across 8 and 4 of its hosts instead
#   scale     only when asked for (ONLY=scale): a whole job life on 8 to 16,384
#             simulated ranks in one process, per step time, messages, bytes,
#             rank 0's memory and the metadata files, and how each grows with
#             the number of ranks (bench/scale/run.sh; SIZES to choose them)
#   redset-vs only when asked for (ONLY=redset-vs, REDSET_DIR=<install prefix of
#             ECP-VeloC redset with KVTree and rankstr>): SCR++'s engine side by
#             side with redset's (SCR 3.1's), XOR, PARTNER and RS k=2, encode
#             and rebuild, ROUNDS (default 2) interleaved rounds of REPEAT each;
#             builds bench/redset/baseline into BUILD_DIR/redset-baseline
# Usage: scripts/bench.sh [BUILD_DIR]
#   env: ONLY=redset|runtime|files|kernels|cluster|redset-vs|scale (RUNTIME_ONLY=flush|complete|transfer|rebuild|rescale
#   within runtime, CLUSTER_ONLY=redset|runtime|redset-vs within cluster), REPEAT (default 5 for redset and
#   redset-vs, 3 for the others), SIZES (default "64MiB 256MiB"), NODES (default "4 8", redset-vs; RANKS, default 8, and RS_K, default 2, there too),
#   DIR (default /dev/shm/scr_bench_all)
# Run it on a quiet machine: every ratio is to a baseline of the same run,
# but other work on the two cores still moves the numbers.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$here/build}" && pwd)"
dir="${DIR:-/dev/shm/scr_bench_all}"
sizes="${SIZES:-64MiB 256MiB}"
want() { { [ -z "${ONLY:-}" ] && [ "$1" != redset-vs ] && [ "$1" != scale ]; } || [ "${ONLY:-}" = "$1" ]; }
if [ "${ONLY:-}" = cluster ]; then
  ONLY="${CLUSTER_ONLY:-}" exec bash "$here/bench/cluster/run.sh" "$build"
fi
# Open MPI's defaults otherwise: shared-memory transfers between processes
# use its single-copy mechanism (CMA) where the kernel allows it, as a
# production job's would. (The test suite turns it off, for containers.)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl=self,vader
unset SCR_BUILD_DIR SCR_SOURCE_DIR
results="$(mktemp)"
trap 'rm -f "$results"; rm -rf "$dir"' EXIT

if want redset; then
  echo "== redset: encode and rebuild, 8 ranks"
  for nodes in 4 8; do
    for size in $sizes; do
      for scheme in "xor" "rs --k 2" "rs --k 2 --lose 1" "partner"; do
        rm -rf "$dir"
        # shellcheck disable=SC2086
        line=$(timeout 900 mpirun -n 8 "$build/bench/redset/redset_bench" --scheme $scheme --nodes "$nodes" \
                 --bytes-per-rank "$size" --repeat "${REPEAT:-5}" --dir "$dir" 2>/dev/null | grep '^{')
        echo "{\"bench\":\"redset\",\"result\":$line}" | tee -a "$results"
      done
    done
  done
  python3 - "$results" <<'PY'
import json, sys
rows = [json.loads(l)["result"] for l in open(sys.argv[1]) if '"bench":"redset"' in l]
print(f"{'scheme':>8} {'nodes':>5} {'MiB/rank':>8} {'write s':>8} {'encode s':>9} {'x write':>7} "
      f"{'floor':>6} {'x floor':>7} {'lost':>4} {'rebuild s':>9} {'x encode':>8} {'x rfloor':>8} {'RSS MiB':>7} {'ok':>3}")
for r in rows:
    print(f"{r['scheme']:>8} {r['nodes']:>5} {r['bytes_per_rank'] >> 20:>8} {r['write_s']:>8.3f} "
          f"{r['encode_s']:>9.3f} {r['encode_over_write']:>7.2f} {r['floor_over_write']:>6.2f} "
          f"{r['encode_over_floor']:>7.2f} {r['lost']:>4} {r['rebuild_s']:>9.3f} "
          f"{r['rebuild_over_encode']:>8.2f} {r['rebuild_over_floor']:>8.2f} {r['peak_rss_mib']:>7.1f} "
          f"{'yes' if r['verified'] else 'NO':>3}")
print("(floor: x write of the least the scheme's data movements take on this machine, timed alone"
      " in the same run; x floor: the encode over it; x rfloor: the rebuild over the rebuild's own floor)")
PY
fi

if want redset-vs; then
  ranks="${RANKS:-8}"
  echo "== redset-vs: SCR++'s engine against redset's (SCR 3.1), $ranks ranks"
  # shellcheck source=../bench/redset/baseline/lib.sh
  source "$here/bench/redset/baseline/lib.sh"
  missing="$(redset_baseline_missing)"
  if [ -n "$missing" ]; then
    echo "$missing"
  else
    baseline="$(redset_baseline_build "$build")"
    for round in $(seq "${ROUNDS:-2}"); do
      for nodes in ${NODES:-4 8}; do
        for size in $sizes; do
          for scheme in "xor" "partner" "rs --k ${RS_K:-2}"; do
            # Alternate which engine goes first, round by round.
            engines="scr redset"; [ $((round % 2)) = 0 ] && engines="redset scr"
            for engine in $engines; do
              rm -rf "$dir"
              exe="$build/bench/redset/redset_bench"; [ "$engine" = redset ] && exe="$baseline"
              # shellcheck disable=SC2086
              line=$(timeout 900 mpirun -n "$ranks" "$exe" --scheme $scheme --nodes "$nodes" --bytes-per-rank "$size" \
                       --repeat "${REPEAT:-5}" --dir "$dir" 2>/dev/null | grep '^{') || line='{"failed":true}'
              echo "{\"bench\":\"redset-vs\",\"engine\":\"$engine\",\"round\":$round,\"result\":$line}" | tee -a "$results"
            done
          done
        done
      done
    done
    python3 "$here/bench/redset/vs_table.py" "$results" redset-vs
  fi
fi

if want runtime; then
  echo "== runtime: flush, rebuild at Init, restart at another size"
  ONLY="${RUNTIME_ONLY:-}" REPEAT="${REPEAT:-3}" bash "$here/bench/runtime/run.sh" "$build" | tee -a "$results"
  python3 - "$results" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if '"bench":"complete"' in l]
by = {}
for r in rows:
    key = r["scheme"] + (" async" if "ASYNC=1" in r.get("flush", "") else "")
    red = (r.get("redset") or {}).get("encode_s")
    by.setdefault(key, []).append((r["encode"]["encode_s"], r["result"]["complete_blocked_s"], red))
if by:
    print(f"{'scheme':>14} {'encode s':>9} {'complete s':>10} {'x encode':>8} {'redset s':>9} {'redset/complete':>15}   (medians)")
for scheme, v in by.items():
    e = statistics.median(x for x, _, _ in v)
    c = statistics.median(y for _, y, _ in v)
    ratio = statistics.median(y / x for x, y, _ in v)
    reds = [(z, y) for _, y, z in v if z]
    vs = (f"{statistics.median(z for z, _ in reds):>9.3f} {statistics.median(z / y for z, y in reds):>15.2f}"
          if reds else f"{'-':>9} {'-':>15}")
    print(f"{scheme:>14} {e:>9.3f} {c:>10.3f} {ratio:>8.2f} {vs}")
rows = [json.loads(l) for l in open(sys.argv[1]) if '"bench":"transfer"' in l]
if rows:
    print(f"{'prefix':>8} {'flush s':>8} {'copy s':>7} {'flush/copy':>10} {'fetch s':>8} {'copy s':>7} "
          f"{'fetch/copy':>10}   (throughput ratios, medians)")
for where in ("shm", "disk"):
    r = [x for x in rows if x["prefix"] == where]
    if not r:
        continue
    med = lambda f: statistics.median(f(x) for x in r)
    # The baseline: the faster of the plain copy made before SCR's transfer
    # and the one made after it (whichever runs first in a job is slower; one
    # copy would favour the side that goes second).
    copy = lambda p: min(p['plain_copy_s'], p.get('plain_copy_other_s') or p['plain_copy_s'])
    print(f"{where:>8} {med(lambda x: x['flush']['finalize_s']):>8.3f} {med(lambda x: copy(x['flush'])):>7.3f} "
          f"{med(lambda x: copy(x['flush']) / x['flush']['finalize_s']):>10.2f} "
          f"{med(lambda x: x['fetch']['init_s']):>8.3f} {med(lambda x: copy(x['fetch'])):>7.3f} "
          f"{med(lambda x: copy(x['fetch']) / x['fetch']['init_s']):>10.2f}")
PY
fi

if want files; then
  echo "== many small files"
  REPEAT="${REPEAT:-3}" bash "$here/bench/runtime/many_files.sh" "$build"
fi

if want scale; then
  echo "== scale by simulation: one job life on N ranks in one process"
  bash "$here/bench/scale/run.sh" "$build"
fi

if want kernels; then
  echo "== kernels, one process"
  if [ -x "$build/bench/kernels/kernels_bench" ]; then
    "$build/bench/kernels/kernels_bench" --benchmark_repetitions="${REPEAT:-5}" \
      --benchmark_report_aggregates_only=true
  else
    echo "kernels_bench is not built (Google Benchmark missing: bash scripts/setup.sh)"
  fi
fi
