# shellcheck shell=bash
# A cluster in a box: N nodes on this host, each a long-lived process in its
# own network, UTS and mount namespaces, so that each has its own host name,
# its own address on a private bridge, and its own tmpfs on /dev/shm (its
# node-local storage). The rest of the file system (the build, the prefix
# under /tmp or /var/tmp) stays shared, as a parallel file system would be.
# Open MPI spans the nodes over TCP through an rsh agent that enters them.
#
#   source tests/cluster/cluster.sh
#   cluster_start 4                    # nodes $CLUSTER_PREFIX{0..3}, trap set
#   cluster_on NODE CMD...             # run CMD on NODE (its namespaces)
#   CLUSTER_HOSTS=n0:2,n1:2 "$CLUSTER_MPIRUN" -n 4 ./app   # mpirun across nodes
#   cluster_lose_node NODE             # every process killed, its tmpfs gone
#   cluster_boot_node NODE             # the lost node back, empty (a reboot)
#   cluster_boot_lost                  # every lost node back, empty
#   cluster_lose_replace OUT "1 2" n0 n1 n2 n3 -- s0 s1   # OUT=(n0 s0 s1 n3)
#   cluster_stop                       # also run by the EXIT trap
#
# SLURM across the nodes (slurmctld on the host, slurmd per node) is in
# slurm.sh, sourced after this file.
#
# Needs root, util-linux (unshare, nsenter) and iproute2 (ip); without them
# cluster_start says why and exits with CLUSTER_SKIP (77, ctest's skip code).
#
# Several fixtures may run at once (ctest -j): each takes a slot K (0-9),
# a directory /run/scr-cluster/K that holds its state, the bridge scrbrK with
# 10.213.K.1/24, veths scrvKnI, node names scrKnI and /etc/hosts lines
# tagged "# scr-cluster K". A slot whose owner died without tearing down
# (SIGKILL) is cleaned by the next cluster_start. Nothing else on the host
# is touched: no route, no address, no firewall rule outside the bridge.

CLUSTER_SKIP=77
CLUSTER_RUN=/run/scr-cluster
CLUSTER_SLOT=""        # K
CLUSTER_DIR=""         # /run/scr-cluster/K: owner, node pid files, scripts
CLUSTER_PREFIX=""      # node names are ${CLUSTER_PREFIX}0, 1, ...
CLUSTER_NODES=()       # every node started (lost ones too)
CLUSTER_SIZE=0         # their number
CLUSTER_SUBNET=""      # 10.213.K.0/24
CLUSTER_RSH=""         # the rsh agent: CLUSTER_RSH [options] HOST CMD...
CLUSTER_MPIRUN=""      # mpirun across $CLUSTER_HOSTS (host:slots,...)
CLUSTER_SHM_SIZE="${CLUSTER_SHM_SIZE:-512m}"

cluster_say() { printf '[cluster %s] %s\n' "${CLUSTER_SLOT:-?}" "$*" >&2; }
cluster_die() { printf '[cluster %s] ERROR: %s\n' "${CLUSTER_SLOT:-?}" "$*" >&2; exit 1; }

# Why this host cannot run the fixture, one line (nothing when it can).
cluster_unusable() {
  local why=""
  if [[ "$(id -u)" -ne 0 ]]; then
    why="needs root (network, UTS and mount namespaces, a bridge, /etc/hosts)"
  else
    local t
    for t in unshare nsenter ip mpirun; do
      command -v "$t" >/dev/null || { why="$t is not installed"; break; }
    done
    if [[ -z "$why" ]] && ! unshare --net --uts --mount --propagation private true 2>/dev/null; then
      why="cannot create network, UTS and mount namespaces here"
    fi
    # Bridges and veth pairs, tried in a throwaway network namespace (the
    # host's is not touched).
    if [[ -z "$why" ]] && ! unshare --net sh -c 'ip link add b0 type bridge &&
        ip link add v0 type veth peer name v1 && ip link set v0 master b0' 2>/dev/null; then
      why="cannot create a bridge and veth pairs here"
    fi
  fi
  [[ -z "$why" ]] || echo "$why"
}

# Exit with ctest's skip code when this host cannot run the fixture.
cluster_need() {
  local why
  why="$(cluster_unusable)"
  if [[ -n "$why" ]]; then
    printf '[cluster] SKIPPED: the cluster in a box %s\n' "$why" >&2
    exit "$CLUSTER_SKIP"
  fi
}

# --- slots ----------------------------------------------------------------------

# PID runs (a zombie does not: a daemon whose parent is a pid 1 that does
# not reap stays one).
cluster_alive() {
  local state
  state="$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" || return 1
  [[ -n "$state" && "$state" != Z ]]
}

cluster_owner_alive() { [[ -f "$1/owner" ]] && cluster_alive "$(cat "$1/owner")"; }

# Tear down what a slot's state directory records (used for our own slot and
# for stale ones whose owner died).
cluster_teardown_slot() {
  local dir="$1" slot
  slot="$(basename "$dir")"
  # SLURM's host daemons first (slurm.sh), so none reports on nodes going.
  if declare -F cluster_slurm_stop >/dev/null; then cluster_slurm_stop "$dir"; fi
  local pidfile
  for pidfile in "$dir"/nodes/*.pid; do
    [[ -f "$pidfile" ]] || continue
    cluster_kill_namespace "$(cat "$pidfile")"
    rm -f "$pidfile"
  done
  local v
  for v in $(ip -o link show 2>/dev/null | sed -n "s/^[0-9]*: \(scrv${slot}n[0-9]*\)[@:].*/\1/p"); do
    ip link del "$v" 2>/dev/null || true
  done
  ip link del "scrbr$slot" 2>/dev/null || true
  cluster_hosts_remove "$slot"
  rm -rf "$dir"
  rmdir "$CLUSTER_RUN" 2>/dev/null || true  # the last slot out
}

# Take the first free slot whose subnet is not in use on this host.
cluster_take_slot() {
  mkdir -p "$CLUSTER_RUN"
  local k
  for k in 0 1 2 3 4 5 6 7 8 9; do
    if [[ -d "$CLUSTER_RUN/$k" ]] && ! cluster_owner_alive "$CLUSTER_RUN/$k"; then
      # mkdir is the lock: an owner file may not be written yet; wait a moment.
      sleep 1
      cluster_owner_alive "$CLUSTER_RUN/$k" || cluster_teardown_slot "$CLUSTER_RUN/$k"
    fi
    if ip -4 route show | grep -q "^10\.213\.$k\." || ip -o link show "scrbr$k" >/dev/null 2>&1; then
      continue
    fi
    mkdir -p "$CLUSTER_RUN"  # again: the last slot out removes it
    if mkdir "$CLUSTER_RUN/$k" 2>/dev/null; then
      echo $$ >"$CLUSTER_RUN/$k/owner"
      CLUSTER_SLOT=$k
      CLUSTER_DIR="$CLUSTER_RUN/$k"
      return 0
    fi
  done
  cluster_die "no free slot under $CLUSTER_RUN (10 clusters running?)"
}

# --- /etc/hosts -----------------------------------------------------------------

# Edited in place (never renamed over: /etc/hosts may be a bind mount),
# under a lock on the file itself, shared by all slots.
# shellcheck disable=SC2094  # fd 9 only holds the lock
cluster_hosts_edit() {
  (
    flock 9
    local tmp
    tmp="$(mktemp)"
    "$@" </etc/hosts >"$tmp"
    cat "$tmp" >/etc/hosts
    rm -f "$tmp"
  ) 9</etc/hosts
}
cluster_hosts_remove() { cluster_hosts_edit grep -v " # scr-cluster $1\$"; }
cluster_hosts_add() { # IP NAME
  cluster_hosts_edit awk -v line="$1 $2 # scr-cluster $CLUSTER_SLOT" '{ print } END { print line }'
}

# --- nodes ----------------------------------------------------------------------

cluster_node_pid() {
  local f="$CLUSTER_DIR/nodes/$1.pid"
  [[ -f "$f" ]] || return 1
  local pid
  pid="$(cat "$f")"
  kill -0 "$pid" 2>/dev/null || return 1
  echo "$pid"
}

# A locally administered MAC of this slot: KIND 0 the bridge, 1 a node's
# host end, 2 its eth0; I the node index.
cluster_mac() { printf '02:53:43:%02x:%02x:%02x\n' "$CLUSTER_SLOT" "$1" "$2"; }

cluster_node_ip() { echo "10.213.$CLUSTER_SLOT.$((10 + ${1##*n}))"; }

# Processes (pids) whose mount namespace is NS ("mnt:[...]"), in one pass
# over /proc (a readlink per process is slow where forks are).
cluster_ns_pids() {
  find /proc/[0-9]*/ns/mnt -maxdepth 0 -printf '%p %l\n' 2>/dev/null |
    awk -v ns="$1" '$2 == ns { split($1, p, "/"); print p[3] }'
}

# Kill every process in the mount namespace of the holder PID: the others
# first, then the holder (its parent, unshare, reaps it and exits). Bounded:
# 5 s at most.
cluster_kill_namespace() {
  local holder="$1" ns p left i parent
  ns="$(readlink "/proc/$holder/ns/mnt" 2>/dev/null)" || return 0
  parent="$(awk '{print $4}' "/proc/$holder/stat" 2>/dev/null)"
  for i in $(seq 1 25); do
    left=0
    for p in $(cluster_ns_pids "$ns"); do
      [[ "$p" == "$holder" ]] && continue
      [[ "$p" == "$parent" ]] && continue
      kill -9 "$p" 2>/dev/null && left=1
    done
    ((left)) || break
    sleep 0.1
  done
  kill -9 "$holder" 2>/dev/null || true
  for i in $(seq 1 50); do
    [[ -z "$(cluster_ns_pids "$ns")" ]] && return 0
    sleep 0.1
  done
  cluster_say "processes still in namespace $ns: $(cluster_ns_pids "$ns" | tr '\n' ' ')"
}

# Start NODE (name ${CLUSTER_PREFIX}I): namespaces, host name, tmpfs, veth.
cluster_boot_node() {
  local node="$1" ip
  ip="$(cluster_node_ip "$node")"
  local pidfile="$CLUSTER_DIR/nodes/$node.pid"
  rm -f "$pidfile.new"
  # The holder sets itself up, writes its pid, and sleeps until killed.
  # setsid: a job's signals (ctest, the terminal) do not reach it directly.
  setsid unshare --net --uts --mount --propagation private --fork /bin/sh -c '
    hostname "$1" && mount -t tmpfs -o size="$2",mode=1777 tmpfs /dev/shm &&
      ip link set lo up && echo $$ >"$3" && exec sleep infinity' \
    holder "$node" "$CLUSTER_SHM_SIZE" "$pidfile.new" </dev/null >/dev/null 2>&1 &
  disown
  local i
  for i in $(seq 1 100); do
    [[ -s "$pidfile.new" ]] && break
    sleep 0.05
  done
  [[ -s "$pidfile.new" ]] || cluster_die "node $node did not come up"
  local pid
  pid="$(cat "$pidfile.new")"
  mv "$pidfile.new" "$pidfile"
  local veth="scrv${CLUSTER_SLOT}n${node##*n}"
  ip link del "$veth" 2>/dev/null || true
  # Fixed MACs: a node booted again answers at the address its peers' ARP
  # caches hold (a new one would leave them sending into the void for a while).
  ip link add "$veth" address "$(cluster_mac 1 "${node##*n}")" type veth \
    peer name eth0 address "$(cluster_mac 2 "${node##*n}")" netns "$pid" ||
    cluster_die "cannot create the veth pair of $node"
  ip link set "$veth" master "scrbr$CLUSTER_SLOT" up
  nsenter -t "$pid" --net -- ip addr add "$ip/24" dev eth0
  nsenter -t "$pid" --net -- ip link set eth0 up
  # Static neighbours everywhere (the addresses and MACs are fixed): no ARP
  # resolution in flight when the first connections are made, which showed
  # as MPI's TCP connect failing with "Operation now in progress".
  local j
  {
    echo "neigh replace 10.213.$CLUSTER_SLOT.1 lladdr $(cluster_mac 0 0) dev eth0 nud permanent"
    for ((j = 0; j < CLUSTER_SIZE; j++)); do
      [[ $j -eq ${node##*n} ]] && continue
      echo "neigh replace $(cluster_node_ip "n$j") lladdr $(cluster_mac 2 "$j") dev eth0 nud permanent"
    done
  } | nsenter -t "$pid" --net -- ip -batch - || cluster_die "cannot set the neighbours of $node"
  ip neigh replace "$ip" lladdr "$(cluster_mac 2 "${node##*n}")" dev "scrbr$CLUSTER_SLOT" nud permanent
}

# Lose NODE for real: every process in it killed, its tmpfs gone with its
# mount namespace, its veth gone with its network namespace.
cluster_lose_node() {
  local node="$1" pid
  pid="$(cluster_node_pid "$node")" || cluster_die "cluster_lose_node: $node is not running"
  cluster_kill_namespace "$pid"
  rm -f "$CLUSTER_DIR/nodes/$node.pid"
  cluster_say "lost node $node"
}

# Every node of the cluster that is down (lost) booted again, empty.
cluster_boot_lost() {
  local node
  for node in "${CLUSTER_NODES[@]}"; do
    cluster_node_pid "$node" >/dev/null || cluster_boot_node "$node"
  done
}

# cluster_lose_replace OUT "I..." NODE... -- SPARE...: the nodes at
# positions I (from 0) of NODE... lost for real; OUT, an array's name, is
# set to NODE... with the spares, in order, in their places.
cluster_lose_replace() {
  local -n replaced="$1"
  local lose=" $2 " i
  shift 2
  local -a listed=()
  while [[ "$1" != -- ]]; do listed+=("$1"); shift; done
  shift
  replaced=()
  for ((i = 0; i < ${#listed[@]}; i++)); do
    if [[ "$lose" == *" $i "* ]]; then
      [[ $# -gt 0 ]] || cluster_die "cluster_lose_replace: no spare left for ${listed[i]}"
      cluster_lose_node "${listed[i]}"
      replaced+=("$1")
      shift
    else
      replaced+=("${listed[i]}")
    fi
  done
}

# cluster_on NODE CMD...: run CMD in NODE's namespaces (from the current
# directory, with the caller's environment).
cluster_on() {
  local node="$1" pid
  shift
  pid="$(cluster_node_pid "$node")" || { echo "cluster_on: $node is down" >&2; return 255; }
  nsenter -t "$pid" --net --uts --mount --wd="$PWD" -- "$@"
}

# The rsh agent Open MPI calls as `AGENT [options] HOST CMD...` (CMD words
# joined and run by a shell on the node, as ssh does). A node that is down
# gives ssh's 255.
cluster_write_scripts() {
  CLUSTER_RSH="$CLUSTER_DIR/rsh"
  cat >"$CLUSTER_RSH" <<EOF
#!/bin/bash
# rsh agent of the cluster in a box, slot $CLUSTER_SLOT.
while [[ \$# -gt 0 && "\$1" == -* ]]; do shift; done
host="\$1"; shift
host="\${host#*@}"
pidfile="$CLUSTER_DIR/nodes/\$host.pid"
if [[ ! -f "\$pidfile" ]] || ! kill -0 "\$(cat "\$pidfile")" 2>/dev/null; then
  echo "rsh: \$host: node is down" >&2
  exit 255
fi
exec nsenter -t "\$(cat "\$pidfile")" --net --uts --mount --wd="\$PWD" -- /bin/sh -c "\$*"
EOF
  chmod 755 "$CLUSTER_RSH"
  CLUSTER_MPIRUN="$CLUSTER_DIR/mpirun"
  cat >"$CLUSTER_MPIRUN" <<EOF
#!/bin/bash
# mpirun across the cluster in a box, slot $CLUSTER_SLOT: on the hosts of
# \$CLUSTER_HOSTS (host:slots,...), TCP between nodes on the bridge only.
: "\${CLUSTER_HOSTS:?set CLUSTER_HOSTS=host:slots,...}"
exec mpirun --allow-run-as-root --oversubscribe \\
  --mca plm_rsh_agent "$CLUSTER_RSH" --mca plm_rsh_no_tree_spawn 1 \\
  --mca oob_tcp_if_include $CLUSTER_SUBNET --mca btl_tcp_if_include $CLUSTER_SUBNET \\
  --mca btl self,vader,tcp --host "\$CLUSTER_HOSTS" "\$@"
EOF
  chmod 755 "$CLUSTER_MPIRUN"
}

# host:slots,... for the given nodes.
cluster_hosts() {
  local slots="$1" out="" n
  shift
  for n in "$@"; do out+="${out:+,}$n:$slots"; done
  echo "$out"
}

# A TCP connection from node A to node B (the fixture's reachability check;
# there is no ping here).
cluster_tcp_ok() {
  local a="$1" b="$2"
  cluster_on "$b" timeout 5 python3 -c '
import socket,sys
s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", 7977)); s.listen(1); s.settimeout(4); c,_=s.accept(); c.sendall(b"ok")' &
  local srv=$! got="" i
  for i in $(seq 1 20); do
    got="$(cluster_on "$a" timeout 2 python3 -c '
import socket,sys
s=socket.create_connection((sys.argv[1], 7977), timeout=1); print(s.recv(2).decode())' "$b" 2>/dev/null || true)"
    [[ "$got" == ok ]] && break
    sleep 0.2
  done
  wait "$srv" 2>/dev/null || true
  [[ "$got" == ok ]]
}

# --- start and stop -------------------------------------------------------------

cluster_on_exit() {
  local rc=$?
  # Under set -e, `(exit "$rc")` below ended a failed scenario here, before
  # e2e_cleanup (its tmpfs mounts stayed mounted): the teardown runs to its end.
  set +e
  cluster_stop
  if declare -F e2e_cleanup >/dev/null; then
    (exit "$rc")
    e2e_cleanup
  fi
  exit "$rc"
}

# cluster_start N: N nodes, a warm-up MPI job across them; traps set so that
# teardown runs however the script ends.
cluster_start() {
  local n="$1" i
  cluster_need
  cluster_take_slot
  trap cluster_on_exit EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  CLUSTER_PREFIX="scr${CLUSTER_SLOT}n"
  CLUSTER_SUBNET="10.213.$CLUSTER_SLOT.0/24"
  mkdir -p "$CLUSTER_DIR/nodes"
  # The bridge's MAC fixed too: by default a bridge takes its lowest port's,
  # which changes when that node is lost, and every node's ARP entry for the
  # host goes stale.
  ip link add "scrbr$CLUSTER_SLOT" address "$(cluster_mac 0 0)" type bridge ||
    cluster_die "cannot create bridge scrbr$CLUSTER_SLOT"
  ip addr add "10.213.$CLUSTER_SLOT.1/24" dev "scrbr$CLUSTER_SLOT"
  ip link set "scrbr$CLUSTER_SLOT" up
  CLUSTER_NODES=()
  CLUSTER_SIZE=$n
  for ((i = 0; i < n; i++)); do
    CLUSTER_NODES+=("$CLUSTER_PREFIX$i")
    cluster_hosts_add "$(cluster_node_ip "$CLUSTER_PREFIX$i")" "$CLUSTER_PREFIX$i"
    cluster_boot_node "$CLUSTER_PREFIX$i"
  done
  cluster_write_scripts
  # Bridge ports take a moment to forward: wait until the first node reaches
  # the last (bounded), then one warm-up job, retried once (its first TCP
  # connections may fail while the ports settle).
  cluster_tcp_ok "${CLUSTER_NODES[0]}" "${CLUSTER_NODES[n - 1]}" ||
    cluster_die "${CLUSTER_NODES[0]} cannot reach ${CLUSTER_NODES[n - 1]} over the bridge"
  cluster_warm_up || cluster_warm_up ||
    cluster_die "an MPI job across the nodes failed twice (see $CLUSTER_DIR/warmup.err)"
  cluster_say "$n nodes up: ${CLUSTER_NODES[*]} on $CLUSTER_SUBNET"
}

cluster_warm_up() {
  CLUSTER_HOSTS="$(cluster_hosts 1 "${CLUSTER_NODES[@]}")" timeout -k 5 60 \
    "$CLUSTER_MPIRUN" -n "${#CLUSTER_NODES[@]}" hostname >"$CLUSTER_DIR/warmup.out" \
    2>"$CLUSTER_DIR/warmup.err" </dev/null
}

# Everything the fixture made goes: node processes, namespaces and their
# mounts, veths, bridge, /etc/hosts lines, the state directory.
cluster_stop() {
  [[ -n "$CLUSTER_DIR" && -d "$CLUSTER_DIR" ]] || return 0
  cluster_teardown_slot "$CLUSTER_DIR"
  CLUSTER_DIR=""
}

# What the fixture of slot K left behind, one item a line (nothing when
# clean); PIDS are processes that must be gone: its nodes' holders (while a
# holder lives, so do its namespaces and tmpfs), daemons.
cluster_leftovers() {
  local k="$1" p
  shift
  [[ -e "$CLUSTER_RUN/$k" ]] && echo "state directory $CLUSTER_RUN/$k"
  ip -o link show 2>/dev/null | grep -oE "scr(br|v)$k(n[0-9]+)?[@:]" | tr -d '@:' | sed 's/^/link /'
  grep " # scr-cluster $k\$" /etc/hosts | sed 's/^/hosts line /'
  for p in "$@"; do
    if cluster_alive "$p"; then echo "process $p is alive"; fi
  done
  true
}
