#!/usr/bin/env bash
# The cluster in a box itself (cluster.sh): nodes with their own host names
# and their own /dev/shm, an MPI job whose ranks talk over TCP across nodes,
# a node lost for real and booted again empty, and teardown that leaves
# nothing behind -- after a normal end, after a failed script (trap) and
# after a SIGKILLed one (the next fixture cleans its slot).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/cluster.sh"
cluster_need
build="${SCR_BUILD_DIR:-$here/../../build}"
PROBE="$build/tests/cluster/cluster_probe"
[[ -x "$PROBE" ]] || { echo "[cluster fixture] FAIL: $PROBE is not built" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fail() { printf '[cluster fixture] FAIL: %s\n' "$*" >&2; exit 1; }
say() { printf '[cluster fixture] %s\n' "$*"; }
scratch="$(mktemp -d /tmp/scr-cluster-fixture.XXXXXX)"

# --- a script that fails (set -e) tears its cluster down through the trap ---
set +e
bash -c 'set -euo pipefail; source "$1"; cluster_start 2
  echo "$CLUSTER_SLOT" >"$2/failed.slot"
  for n in "${CLUSTER_NODES[@]}"; do cluster_node_pid "$n"; done >"$2/failed.holders"
  false; echo unreachable' failing "$here/cluster.sh" "$scratch" >"$scratch/failed.log" 2>&1
rc=$?
set -e
[[ $rc -eq 1 ]] || fail "the failing script exited $rc, not 1: $(tail -5 "$scratch/failed.log")"
# shellcheck disable=SC2046
left="$(cluster_leftovers "$(cat "$scratch/failed.slot")" $(cat "$scratch/failed.holders"))"
[[ -z "$left" ]] || fail "a failed script left behind: $left"
say "a failing script's cluster was torn down by its trap"

# --- a SIGKILLed script's slot is cleaned by the next cluster_start ---
bash -c 'source "$1"; cluster_start 2
  echo "$CLUSTER_SLOT" >"$2/killed.slot"
  for n in "${CLUSTER_NODES[@]}"; do cluster_node_pid "$n"; done >"$2/killed.holders"
  touch "$2/killed.ready"; exec sleep 600' killed "$here/cluster.sh" "$scratch" >"$scratch/killed.log" 2>&1 &
victim=$!
for _ in $(seq 1 300); do [[ -e "$scratch/killed.ready" ]] && break; sleep 0.1; done
[[ -e "$scratch/killed.ready" ]] || fail "the script to be killed did not start its cluster: $(tail -5 "$scratch/killed.log")"
kill -9 "$victim"
wait "$victim" 2>/dev/null || true

# --- the cluster of this test ---
cluster_start 3
# Its slot may be ours now: its node holders must be gone.
# shellcheck disable=SC2046
left="$(cluster_leftovers none $(cat "$scratch/killed.holders"))"
[[ -z "$left" ]] || fail "the SIGKILLed script's cluster was not cleaned: $left"
say "a SIGKILLed script's cluster was cleaned by the next start"

n0="${CLUSTER_NODES[0]}" n1="${CLUSTER_NODES[1]}" n2="${CLUSTER_NODES[2]}"
for n in "${CLUSTER_NODES[@]}"; do
  got="$(cluster_on "$n" hostname)"
  [[ "$got" == "$n" ]] || fail "node $n calls itself '$got'"
done
cluster_on "$n0" sh -c 'echo here >/dev/shm/marker'
[[ "$(cluster_on "$n0" cat /dev/shm/marker)" == here ]] || fail "$n0 cannot read its own /dev/shm"
if cluster_on "$n1" test -e /dev/shm/marker; then fail "$n1 sees $n0's /dev/shm"; fi
if [[ -e /dev/shm/marker ]]; then fail "the host sees $n0's /dev/shm"; fi
cluster_on "$n1" sh -c "echo shared >$scratch/shared"
[[ "$(cat "$scratch/shared")" == shared ]] || fail "a node's write to $scratch is not seen by the host"
say "distinct host names, private /dev/shm, shared /tmp"

# MPI across nodes: ranks on each node, an allreduce over TCP between them.
out="$(cd "$scratch" && CLUSTER_HOSTS="$(cluster_hosts 2 "${CLUSTER_NODES[@]}")" timeout -k 5 60 \
  "$CLUSTER_MPIRUN" -n 6 "$PROBE" 2>"$scratch/mpi.err")" ||
  fail "MPI job across nodes failed: $(head -30 "$scratch/mpi.err")"
[[ "$out" == "SUM 15 $n0,$n0,$n1,$n1,$n2,$n2" ]] || fail "MPI job printed '$out'"
say "mpirun across nodes: $out"

# Lose n1: a process running on it dies, the rsh agent reports it down
# (ssh's 255), the others keep running; booted again, its /dev/shm is empty.
cluster_on "$n1" sh -c 'echo data >/dev/shm/marker'
cluster_on "$n1" sleep 600 &
sleeper=$!  # nsenter execs sleep: this is the process on the node
sleep 0.3
holder1="$(cluster_node_pid "$n1")"
ns1="$(readlink "/proc/$holder1/ns/mnt")"
cluster_lose_node "$n1"
if kill -0 "$holder1" 2>/dev/null; then fail "$n1's holder survived"; fi
wait "$sleeper" 2>/dev/null && fail "a process on $n1 survived the node's loss"
[[ -z "$(cluster_ns_pids "$ns1")" ]] || fail "processes remain in $n1's namespace"
set +e
"$CLUSTER_RSH" "$n1" true 2>/dev/null
rc=$?
set -e
[[ $rc -eq 255 ]] || fail "the rsh agent gave $rc for the lost node, not 255"
[[ "$(cluster_on "$n0" cat /dev/shm/marker)" == here ]] || fail "$n0 lost its /dev/shm with $n1"
cluster_boot_node "$n1"
if cluster_on "$n1" test -e /dev/shm/marker; then fail "$n1 came back with its old /dev/shm"; fi
[[ "$(cluster_on "$n1" hostname)" == "$n1" ]] || fail "$n1 came back with another name"
say "lost node: processes killed, tmpfs gone; booted again empty"

# Teardown leaves nothing behind.
slot="$CLUSTER_SLOT"
holders=()
for n in "${CLUSTER_NODES[@]}"; do holders+=("$(cluster_node_pid "$n")"); done
cluster_stop
left="$(cluster_leftovers "$slot" "${holders[@]}")"
[[ -z "$left" ]] || fail "teardown left behind: $left"
rm -rf "$scratch"
say "teardown left nothing behind"
say PASS
