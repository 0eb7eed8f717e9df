#!/usr/bin/env bash
# scr_list_down_nodes testing the nodes of the cluster in a box itself,
# through the fixture's rsh agent (SCR_NODE_REMOTE), with no resource
# manager to ask: 6 nodes, node-local cache and control bases under each
# node's own /dev/shm. Down, each for its reason:
#   n0  its /dev/shm shrunk below SCR_NODE_MIN_BYTES (capacity; -f: free space)
#   n1  lost (every process killed, its namespaces gone)
#   n2  its tmpfs unmounted (the cache base is gone with it)
#   n3  its /dev/shm read-only
#   n4  named in SCR_EXCLUDE_NODES
# and the healthy n5 is never reported. Without a remote method the lost
# node cannot be told from a live one (no resource manager): exit 0.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/cluster.sh"
cluster_need
build="${SCR_BUILD_DIR:-$here/../../build}"
while read -r v; do unset "$v"; done < <(compgen -e | grep -E '^(SCR_|SLURM_|FLUX_|LSB_|PBS_)' || true)
TOOL="$build/tools/scr_list_down_nodes/scr_list_down_nodes"
[[ -x "$TOOL" ]] || { echo "[cluster down_nodes] FAIL: $TOOL is not built" >&2; exit 1; }
fail() { printf '[cluster down_nodes] FAIL: %s\n' "$*" >&2; exit 1; }
say() { printf '[cluster down_nodes] %s\n' "$*"; }

cluster_start 6
N=("${CLUSTER_NODES[@]}")
ALL="$(IFS=,; echo "${N[*]}")"
for n in "${N[@]}"; do cluster_on "$n" mkdir -p /dev/shm/cache /dev/shm/cntl; done
export SCR_CACHE_BASE=/dev/shm/cache SCR_CNTL_BASE=/dev/shm/cntl SCR_NODE_TIMEOUT=10

# list [ARGS...]: run the tool on every node of the cluster; sets OUT and RC.
list() {
  set +e
  OUT="$("$TOOL" "$@" "$ALL" 2>/tmp/scr-down-nodes.err.$$)"
  RC=$?
  set -e
  [[ $RC -le 1 ]] || fail "scr_list_down_nodes $* failed ($RC): $(cat /tmp/scr-down-nodes.err.$$)"
}
trap 'rm -f /tmp/scr-down-nodes.err.$$; cluster_on_exit' EXIT

export SCR_NODE_REMOTE="$CLUSTER_RSH"
list
[[ $RC -eq 0 && -z "$OUT" ]] || fail "healthy cluster: exit $RC, '$OUT'"
say "every node up: exit 0, nothing listed"

cluster_on "${N[0]}" mount -o remount,size=8m /dev/shm
cluster_on "${N[0]}" dd if=/dev/zero of=/dev/shm/cache/fill bs=1M count=6 status=none
cluster_lose_node "${N[1]}"
cluster_on "${N[2]}" umount /dev/shm
cluster_on "${N[3]}" mount -o remount,ro /dev/shm

# Without a remote method (and no resource manager) nothing can be told
# about the lost node, the unmounted tmpfs or the read-only one.
SCR_NODE_REMOTE='' list
[[ $RC -eq 0 ]] || fail "without SCR_NODE_REMOTE: exit $RC, '$OUT'"

SCR_EXCLUDE_NODES="${N[4]}" list
[[ $RC -eq 1 ]] || fail "lost, unmounted, read-only and excluded nodes: exit $RC"
[[ "$OUT" == "${CLUSTER_PREFIX}[1-4]" ]] || fail "expected ${CLUSTER_PREFIX}[1-4], got '$OUT'"
say "lost, unmounted, read-only and excluded nodes listed: $OUT"

SCR_EXCLUDE_NODES="${N[4]}" list -r --min-bytes 64MiB
[[ $RC -eq 1 ]] || fail "-r: exit $RC"
expect_reason() {
  grep -q "^$1: .*$2" <<<"$OUT" || fail "-r: no line '$1: ...$2...' in:
$OUT"
}
expect_reason "${N[0]}" "/dev/shm/cache has .* capacity, below the minimum 64"
expect_reason "${N[1]}" "cannot run a command there"
expect_reason "${N[2]}" "/dev/shm/cache is missing"
expect_reason "${N[3]}" "/dev/shm/cache is not writable"
expect_reason "${N[4]}" "SCR_EXCLUDE_NODES"
[[ "$(wc -l <<<"$OUT")" -eq 5 ]] || fail "-r: expected 5 down nodes:
$OUT"
say "-r gives each node's reason"

# Capacity is enough for 4 MiB, free space (-f) is not (6 MiB of 8 written).
list -r --min-bytes 4MiB
grep -q "^${N[0]}:" <<<"$OUT" && fail "${N[0]} has 8 MiB capacity but was listed for 4 MiB"
list -r -f --min-bytes 4MiB
expect_reason "${N[0]}" "/dev/shm/cache has .* free, below the minimum 4"
say "capacity and free space (-f) against the minimum"
cluster_stop
say PASS
