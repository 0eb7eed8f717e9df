# shellcheck shell=bash
# shellcheck disable=SC2154  # work, heat and build come from scripts/demo.sh
# The demo on the cluster in a box, sourced by `scripts/demo.sh --cluster`
# (which has checked that this host can run it and defines say, tidy,
# checksum, verdict, heat, build and work). Five hosts of their own on this
# machine (tests/cluster/cluster.sh), the heat simulation on four of them
# with 2 ranks each and XOR sets of 4; a lost host is lost for real: every
# process on it killed, its /dev/shm (the node-local cache) gone.
#   allocation 1: killed at step 35; a host lost; restart on a spare from the
#     cache (its files rebuilt from XOR), killed at 55; one more host lost;
#     scr_postrun saves step.50 from the live hosts (the lost one's files
#     rebuilt in the prefix);
#   allocation 2: restart from the prefix, killed at 75; two hosts lost,
#     more than XOR rebuilds: scr_postrun cannot save step.70, says why, and
#     the flushed step.60 stays the restart point;
#   allocation 3: restart from the prefix, to the end; the answer must equal
#     an uninterrupted run's.

case "$work" in
  /dev/shm | /dev/shm/*)
    echo "scripts/demo.sh --cluster: DEMO_DIR=$work: the hosts do not share /dev/shm; use a directory under /tmp" >&2
    exit 1 ;;
esac
[ "${COPY_TYPE:-XOR}" = XOR ] ||
  echo "(COPY_TYPE=$COPY_TYPE is not used with --cluster: its node losses are chosen for XOR)"
steps=80 every=10 args=(-g 256 256)
prefix="$work/prefix"
cache=/dev/shm/scrpp-demo  # on each host: its own

say "0. The cluster in a box: five hosts on this machine"
cluster_start 5
N=("${CLUSTER_NODES[@]}")
for n in "${N[@]}"; do
  printf '   %-8s %-13s %s\n' "$n" "$(cluster_node_ip "$n")" "$(cluster_on "$n" df -h --output=size /dev/shm | tail -1 | tr -d ' ') of its own /dev/shm"
done
echo "   Each has its own host name, network address and node-local storage (/dev/shm). MPI runs"
echo "   between them over TCP; $work is shared by all, as a parallel file system would be."
echo "   The job runs on 4 hosts, 2 ranks each, with XOR redundancy in sets of 4 (one rank per"
echo "   host); SCR++ takes the failure groups from the host names. ${N[4]} is a spare."

# cjob ALLOC HOSTS [heat options...]: 8 ranks of heat, 2 on each of the
# comma-separated HOSTS; ALLOC names the allocation's cache directories.
cjob() {
  local alloc="$1" hosts="$2"
  shift 2
  # shellcheck disable=SC2086  # HOSTS is a comma list, split on purpose
  (cd "$prefix" && CLUSTER_HOSTS="$(IFS=,; cluster_hosts 2 $hosts)" SCR_CACHE_BYPASS=0 SCR_PREFIX="$prefix" \
     SCR_CACHE_BASE="$cache/$alloc" SCR_CNTL_BASE="$cache/$alloc.cntl" SCR_COPY_TYPE=XOR SCR_SET_SIZE=4 \
     SCR_FLUSH=2 SCR_CACHE_SIZE=2 timeout 300 "$CLUSTER_MPIRUN" -n 8 "$heat" -n "$steps" -c "$every" \
     "${args[@]}" "$@") 2>&1 | tee -a "$work/jobs.log" | tidy || true
}
# postrun ALLOC HOSTS: SCR's last line of a job script (scr_postrun), run on
# the first host as a batch script would be; it reaches the other hosts of
# the allocation (SCR_NODELIST) through the cluster's rsh agent.
postrun() {
  local alloc="$1" hosts="$2" rc
  set +e
  (cd "$prefix" && cluster_on "${hosts%%,*}" env SCR_PREFIX="$prefix" SCR_CACHE_BASE="$cache/$alloc" \
     SCR_CNTL_BASE="$cache/$alloc.cntl" SCR_NODELIST="$hosts" SCR_NODE_REMOTE="$CLUSTER_RSH" \
     PATH="$build/tools/scr_scavenge:$PATH" timeout 300 "$build/tools/scr_postrun/scr_postrun" -j mpirun \
     -p "$prefix") 2>&1 | sed 's/^/   /'
  rc="${PIPESTATUS[0]}"
  set -e
  echo "   (scr_postrun exited $rc)"
  echo "   The prefix's index (scr_index -l):"
  "$build/tools/scr_index/scr_index" -p "$prefix" -l 2>&1 | sed 's/^/     /'
}
lose() {
  cluster_lose_node "$1"
  echo "   $1 is gone: $("$CLUSTER_RSH" "$1" true 2>&1 || true)"
}
# The end of an allocation: the hosts booted again, empty, and no cache
# directory of the allocation left on any of them.
new_allocation() {
  local n
  for n in "${N[@]}"; do
    if cluster_node_pid "$n" >/dev/null; then cluster_on "$n" rm -rf "$cache"; else cluster_boot_node "$n"; fi
  done
}
hosts4="${N[0]},${N[1]},${N[2]},${N[3]}"
all="$hosts4,${N[4]}"

say "1. Reference: the simulation run start to finish on ${N[0]}..${N[3]}, without interruption"
ref=$(prefix="$work/reference" cjob reference "$hosts4" --quiet | checksum)
new_allocation
echo "   final checksum of the uninterrupted run: $ref"

say "2. Allocation 1: the job on ${N[0]}..${N[3]}, a checkpoint every $every steps (every second one flushed to the prefix); rank 5 dies at step 35"
cjob alloc1 "$hosts4" --crash-at 35 --crash-rank 5
held="$(cluster_on "${N[2]}" find "$cache/alloc1" -name 'rank_*.dat' | sed 's|.*/||' | sort)"
echo "   -> killed. Its newest checkpoint, step.30, is only in the hosts' caches: ${N[2]}'s /dev/shm"
echo "      holds $(echo "$held" | wc -l) files, $(echo "$held" | sort -u | paste -sd' ' | sed 's/ / and /') of step.20 and of step.30."

say "3. Host ${N[2]} is lost: every process on it killed, its /dev/shm gone with it"
lose "${N[2]}"

second="${N[0]},${N[1]},${N[4]},${N[3]}"
say "4. The job restarts on ${second//,/ } (the spare ${N[4]} in place of ${N[2]}); rank 2 dies at step 55"
cjob alloc1 "$second" --crash-at 55 --crash-rank 2
echo "   -> SCR++ rebuilt ${N[2]}'s files on ${N[4]} from the XOR data of the other hosts and resumed"
echo "      from step 30; step.50 is again only in the caches."

say "5. Host ${N[1]} is lost too, and the allocation ends: scr_postrun saves step.50"
lose "${N[1]}"
echo "   scr_postrun runs an agent on each host of the allocation ($all): each copies its"
echo "   own ranks' files to the prefix; ${N[1]}'s files are rebuilt there from XOR, every byte"
echo "   checked against the CRC32C recorded when the checkpoint was written."
postrun alloc1 "$all"

say "6. Allocation 2: the hosts start empty; the job restarts from the prefix and rank 0 dies at step 75"
new_allocation
cjob alloc2 "$hosts4" --crash-at 75 --crash-rank 0
echo "   -> resumed from step.50, the checkpoint scr_postrun saved; step.70 is only in the caches."

say "7. Hosts ${N[1]} and ${N[2]} are lost: each XOR set lost two members, more than XOR rebuilds"
lose "${N[1]}"
lose "${N[2]}"
postrun alloc2 "$hosts4"
echo "   -> step.70 cannot be made whole: scr_postrun says so and fails, and step.70 is never"
echo "      offered for a restart. step.60, flushed during the run, is the restart point."

say "8. Allocation 3: the job restarts from the prefix and runs to the end"
new_allocation
out=$(cjob alloc3 "$hosts4")
echo "$out"
got=$(echo "$out" | checksum)
new_allocation
cluster_stop
verdict "$ref" "$got" "Files the application wrote are in $prefix (step.*/), SCR++'s index in $prefix/.scr/;
   the jobs' whole output, with Open MPI's messages, in $work/jobs.log."
