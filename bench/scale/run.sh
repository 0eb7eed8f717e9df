#!/usr/bin/env bash
# Scale by simulation (docs/performance.md#scale-by-simulation): one job
# life of SCR++ on N ranks in one process (build/bench/scale/scale_bench)
# for each N of SIZES, then the tables and the growth between sizes
# (tables.py). A size is skipped, with the reason, when the previous one's
# memory, grown as it grew between the two sizes before (N^k, k measured,
# at least 1.2), would not fit in what the machine has free. Above
# RESCALE_UP_TO ranks (when set) the life leaves out its restart at half
# the size.
# All ranks share one process, so they share its limit of memory mappings
# (vm.max_map_count): a rank holds about 3 (its thread's stack), 4 more
# while PARTNER or XOR encode and 53 more while RS does (redset's piece
# buffers are each a mapping between guard pages). Schemes whose mappings
# would pass 90% of the limit are left out at that size, RS first, and the
# run says so (as root, raise the limit for the run: sysctl -w
# vm.max_map_count=2097152; a real job has one limit per process).
# Usage: bench/scale/run.sh [BUILD_DIR]
#   env: SIZES (default "8 64 512 4096 16384"), DIR (default /dev/shm/scr_scale),
#        SCHEMES (default SINGLE,PARTNER,XOR,RS), RESCALE_UP_TO (default: every size),
#        FILES_PER_RANK (default 2), STACK_KIB (default 512)
set -euo pipefail
# The ranks share one process's open files too (each holds a few: its job
# lock, its open redundancy files): raise the limit (as root, past the hard
# limit, to fs.nr_open), or at least take the hard limit.
ulimit -n "$(cat /proc/sys/fs/nr_open)" 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
here="$(cd "$(dirname "$0")" && pwd)"
build="$(cd "${1:-$here/../../build}" && pwd)"
dir="${DIR:-/dev/shm/scr_scale}"
results="$(mktemp)"
trap 'rm -f "$results"; rm -rf "$dir"' EXIT
prev_n=0 prev_kib=0 before_n=0 before_kib=0
for n in ${SIZES:-8 64 512 4096 16384}; do
  free_kib=$(awk '/MemAvailable/ {print $2}' /proc/meminfo)
  if [ "$prev_n" -gt 0 ]; then
    need_kib=$(python3 -c "import math,sys; p,pn,b,bn,n=map(float,sys.argv[1:]); k=max(1.2, math.log(p/b)/math.log(pn/bn)) if bn>0 and b>0 else 2.0; print(int(p*(n/pn)**k))" \
                 "$prev_kib" "$prev_n" "$before_kib" "$before_n" "$n")
    if [ "$need_kib" -gt $(( free_kib * 9 / 10 )) ]; then
      echo "{\"bench\":\"scale-skipped\",\"N\":$n,\"why\":\"N=$prev_n peaked at $((prev_kib / 1024)) MiB; $n ranks would need about $((need_kib / 1024)) MiB, $((free_kib / 1024)) MiB are available\"}" | tee -a "$results"
      break
    fi
  fi
  schemes="${SCHEMES:-SINGLE,PARTNER,XOR,RS}"
  limit=$(( $(cat /proc/sys/vm/max_map_count) * 9 / 10 ))
  if [ $(( n * (3 + 4 + 53) )) -gt "$limit" ] && [[ "$schemes" == *RS* ]]; then
    schemes="${schemes//,RS/}"
    echo "{\"bench\":\"scale-schemes\",\"N\":$n,\"schemes\":\"$schemes\",\"why\":\"RS at $n ranks needs about $(( n * 60 )) memory mappings in one process; vm.max_map_count is $(cat /proc/sys/vm/max_map_count)\"}" | tee -a "$results"
  fi
  if [ $(( n * (3 + 4) )) -gt "$limit" ] && [ "$schemes" != SINGLE ]; then
    schemes=SINGLE
    echo "{\"bench\":\"scale-schemes\",\"N\":$n,\"schemes\":\"$schemes\",\"why\":\"PARTNER and XOR at $n ranks need about $(( n * 7 )) memory mappings in one process; vm.max_map_count is $(cat /proc/sys/vm/max_map_count)\"}" | tee -a "$results"
  fi
  # Encoding, a rank holds its files and its redundancy file open across
  # collectives: about 4 descriptors a rank, and a node's job lock.
  fds=$(ulimit -n)
  if [ $(( n * 4 + n / 4 )) -gt "$fds" ] && [ "$schemes" != SINGLE ]; then
    schemes=SINGLE
    echo "{\"bench\":\"scale-schemes\",\"N\":$n,\"schemes\":\"$schemes\",\"why\":\"PARTNER, XOR and RS at $n ranks hold about $(( n * 4 + n / 4 )) open files in one process; its limit is $fds\"}" | tee -a "$results"
  fi
  rescale=1
  if [ -n "${RESCALE_UP_TO:-}" ] && [ "$n" -gt "$RESCALE_UP_TO" ]; then
    rescale=0
    echo "{\"bench\":\"scale-schemes\",\"N\":$n,\"schemes\":\"$schemes\",\"why\":\"no restart at half the size above RESCALE_UP_TO=$RESCALE_UP_TO ranks\"}" | tee -a "$results"
  fi
  rm -rf "$dir"
  rc=0
  /usr/bin/time -f "%M" -o "$dir.rss" "$build/bench/scale/scale_bench" --ranks "$n" --dir "$dir" \
    --files-per-rank "${FILES_PER_RANK:-2}" --stack-kib "${STACK_KIB:-512}" --schemes "$schemes" --rescale "$rescale" 2>"$dir.err" | tee -a "$results" || rc=$?
  before_kib=$prev_kib before_n=$prev_n
  prev_kib=$(tail -1 "$dir.rss")
  prev_n=$n
  if [ "$rc" -ne 0 ]; then
    echo "{\"bench\":\"scale-failed\",\"N\":$n,\"exit\":$rc,\"stderr\":$(tail -3 "$dir.err" | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read()))')}" | tee -a "$results"
    break
  fi
  rm -f "$dir.err" "$dir.rss"
done
python3 "$here/tables.py" "$results"
