#!/usr/bin/env bash
# Scale by simulation (docs/performance.md#scale-by-simulation): one job
# life of SCR++ on N ranks in one process (build/bench/scale/scale_bench)
# for each N of SIZES, then the tables and the growth between sizes
# (tables.py). A size is skipped, with the reason, when the previous one's
# memory, grown in proportion, would not fit in what the machine has free.
# Usage: bench/scale/run.sh [BUILD_DIR]
#   env: SIZES (default "8 64 512 4096 16384"), DIR (default /dev/shm/scr_scale),
#        FILES_PER_RANK (default 2), STACK_KIB (default 512)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$(cd "${1:-$here/../../build}" && pwd)"
dir="${DIR:-/dev/shm/scr_scale}"
results="$(mktemp)"
trap 'rm -f "$results"; rm -rf "$dir"' EXIT
prev_n=0 prev_kib=0
for n in ${SIZES:-8 64 512 4096 16384}; do
  free_kib=$(awk '/MemAvailable/ {print $2}' /proc/meminfo)
  if [ "$prev_n" -gt 0 ]; then
    need_kib=$(( prev_kib * n / prev_n ))
    if [ "$need_kib" -gt $(( free_kib * 9 / 10 )) ]; then
      echo "{\"bench\":\"scale-skipped\",\"N\":$n,\"why\":\"N=$prev_n peaked at $((prev_kib / 1024)) MiB; $n ranks would need about $((need_kib / 1024)) MiB, $((free_kib / 1024)) MiB are available\"}" | tee -a "$results"
      break
    fi
  fi
  rm -rf "$dir"
  rc=0
  /usr/bin/time -f "%M" -o "$dir.rss" "$build/bench/scale/scale_bench" --ranks "$n" --dir "$dir" \
    --files-per-rank "${FILES_PER_RANK:-2}" --stack-kib "${STACK_KIB:-512}" 2>"$dir.err" | tee -a "$results" || rc=$?
  prev_kib=$(tail -1 "$dir.rss")
  prev_n=$n
  if [ "$rc" -ne 0 ]; then
    echo "{\"bench\":\"scale-failed\",\"N\":$n,\"exit\":$rc,\"stderr\":$(tail -3 "$dir.err" | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read()))')}" | tee -a "$results"
    break
  fi
  rm -f "$dir.err" "$dir.rss"
done
python3 "$here/tables.py" "$results"
