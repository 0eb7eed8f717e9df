#!/usr/bin/env bash
# The SCR++ demo: a 2-D heat diffusion on 8 MPI ranks spread over 4 simulated
# nodes checkpoints through SCR++, is killed part-way, restarts from the
# node-local cache, loses a node and restarts on a spare, loses another with
# no spare left and restarts as 6 ranks on the 3 nodes left, and finally
# restarts from the prefix directory after the whole cache is wiped. Every
# resumed run must end with the same answer (checksum) as a run that was
# never interrupted.
#
# scripts/demo.sh --cluster: the same application on the cluster in a box
# (tests/cluster/cluster.sh), hosts of their own on this machine, where
# losing a node kills its processes and its storage: restart from the cache
# rebuilt on a spare, scr_postrun saving a checkpoint from the live hosts at
# the end of an allocation, and not saving one that lost more than XOR
# rebuilds, then the restart from the prefix. Needs root (namespaces, a
# bridge); where it cannot run it says why and exits 1.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
case "${1:-}" in
  "") mode=sim ;;
  --cluster) mode=cluster ;;
  -h | --help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "usage: scripts/demo.sh [--cluster]" >&2; exit 2 ;;
esac
if [ "$mode" = cluster ]; then
  # shellcheck source=../tests/cluster/cluster.sh
  source "$root/tests/cluster/cluster.sh"
  why="$(cluster_unusable)"
  if [ -n "$why" ]; then
    echo "scripts/demo.sh --cluster: cannot run here: the cluster in a box $why." >&2
    echo "  It runs as root on Linux with util-linux, iproute2 and Open MPI (bash scripts/setup.sh);" >&2
    echo "  scripts/demo.sh without --cluster shows the same on simulated nodes, as any user." >&2
    exit 1
  fi
fi
heat="$build/examples/heat/heat"
need=("$heat")
[ "$mode" = sim ] || need+=("$build/tools/scr_postrun/scr_postrun" "$build/tools/scr_scavenge/scr_scavenge"
                            "$build/tools/scr_index/scr_index")
for f in "${need[@]}"; do
  [ -x "$f" ] || { bash "$root/scripts/build.sh" > /dev/null; break; }
done

copy_type="${COPY_TYPE:-XOR}"
work="${DEMO_DIR:-/tmp/scrpp-demo}"
rm -rf "$work"
mkdir -p "$work/prefix" "$work/reference"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_btl=self,vader OMPI_MCA_mpi_yield_when_idle=1

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
# Open MPI's messages, which say nothing more than the demo: its boxed help
# texts (a rank it killed, a peer that went away) and notes from its daemons.
tidy() {
  awk '/^-----+$/ { boxed = !boxed; next } !boxed && !/^\[[^]]*:[0-9]+\] / && !/^ *$/'
}
checksum() { grep -o 'checksum=[0-9a-f]*' | tail -1 | cut -d= -f2; }
# The last lines of the demo: both answers, equal or not.
verdict() {  # verdict <reference checksum> <final checksum> <where the files are>
  say "Result"
  echo "   uninterrupted run : $1"
  echo "   interrupted runs  : $2"
  if [ -n "$2" ] && [ "$2" = "$1" ]; then
    echo "   The interrupted job reached exactly the same answer, without recomputing from step 0."
    echo "   $3"
  else
    echo "   MISMATCH: the resumed job's answer differs from the reference." >&2
    exit 1
  fi
}

if [ "$mode" = cluster ]; then
  # shellcheck source=demo_cluster.sh
  source "$root/scripts/demo_cluster.sh"
  exit 0
fi

steps=60 every=10 args=(-g 256 256)
# SCR_CACHE_BYPASS=0: the demo shows the node-local cache and its redundancy
# (SCR 3.1's default, bypass, would write every checkpoint to the prefix).
job() {  # job <prefix dir> <node list> [heat options...]; NP ranks (default 8)
  local prefix="$1" nodes="$2" np="${NP:-8}"
  shift 2
  (cd "$prefix" && SCR_CACHE_BYPASS=0 SCR_PREFIX="$prefix" SCR_CACHE_BASE="$work/cache" SCR_CNTL_BASE="$work/cntl" \
     SCR_SIM_NODES="$nodes" SCR_COPY_TYPE="$copy_type" SCR_SET_SIZE=4 SCR_FLUSH=2 SCR_CACHE_SIZE=2 \
     timeout 300 mpirun -n "$np" "$heat" -n "$steps" -c "$every" "${args[@]}" "$@") 2>&1 | tidy || true
}

say "1. Reference: the simulation run start to finish without interruption"
ref=$( (cd "$work/reference" && SCR_CACHE_BYPASS=0 SCR_PREFIX="$work/reference" SCR_CACHE_BASE="$work/refcache" \
        SCR_CNTL_BASE="$work/refcntl" SCR_SIM_NODES=n0,n1,n2,n3 SCR_COPY_TYPE="$copy_type" \
        timeout 300 mpirun -n 8 "$heat" -n "$steps" -c "$every" "${args[@]}" --quiet) | checksum)
echo "   final checksum of the uninterrupted run: $ref"

say "2. The same job on 4 nodes (n0..n3, 2 ranks each), $copy_type redundancy, checkpoint every $every steps; rank 5 dies at step 35"
job "$work/prefix" n0,n1,n2,n3 --crash-at 35 --crash-rank 5
echo "   -> the run was killed. Its checkpoints are still in each node's cache ($work/cache/<node>)."

say "3. Restart in the same allocation: SCR++ finds the newest checkpoint in cache"
job "$work/prefix" n0,n1,n2,n3 --crash-at 45 --crash-rank 2
echo "   -> it resumed from step 30 (not step 0), and was killed again at step 45."

if [ "$copy_type" != SINGLE ]; then
  say "4. Node n2 is lost for good (its storage is deleted); the job restarts on a spare node, n4"
  rm -rf "$work/cache/n2" "$work/cntl/n2"
  echo "   deleted $work/cache/n2 and $work/cntl/n2"
  job "$work/prefix" n0,n1,n4,n3 --crash-at 55 --crash-rank 0 || true
  echo "   -> SCR++ rebuilt n2's checkpoint files from the $copy_type redundancy data of the other nodes."

  say "5. Node n1 is lost too and no spare is left: the job restarts as 6 ranks on n0, n4, n3"
  rm -rf "$work/cache/n1" "$work/cntl/n1"
  echo "   deleted $work/cache/n1 and $work/cntl/n1; checkpoint step.50 exists only in the caches"
  NP=6 job "$work/prefix" n0,n4,n3 --crash-at 58 --crash-rank 0 || true
  echo "   -> SCR++ made step.50 whole in the prefix (n1's files rebuilt with the 8-rank $copy_type"
  echo "      sets they were written with), then each of the 6 ranks read the rows it now owns"
  echo "      from whichever of the 8 files hold them. It was killed again at step 58."
fi

say "6. The allocation ends and the whole cache is gone; the next job (8 ranks) restarts from the prefix"
rm -rf "$work/cache" "$work/cntl"
out=$(job "$work/prefix" n0,n1,n2,n3)
echo "$out"
if [ "$copy_type" != SINGLE ]; then
  echo "   -> the newest checkpoint in the prefix (step.50, saved there in step 5) was fetched,"
  echo "      checked against its CRC32C, and the run finished."
else
  echo "   -> with SCR_FLUSH=2 every second checkpoint was copied to the prefix; the newest"
  echo "      such copy (step.40) was fetched, checked against its CRC32C, and the run finished."
fi
got=$(echo "$out" | checksum)
verdict "$ref" "$got" "Files the application wrote are in $work/prefix (step.*/), SCR++'s index in $work/prefix/.scr/."
