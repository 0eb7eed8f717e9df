#!/usr/bin/env bash
# The argument handling of the side-by-side runs against redset 0.4.0
# (ONLY=redset-vs) in bench/cluster/run.sh and scripts/bench.sh, which checks
# what it is given before it builds or starts anything: no root, no cluster
# and no redset needed, so it runs everywhere in well under a second.
set -euo pipefail
src="${SCR_SOURCE_DIR:?}"
build="${SCR_BUILD_DIR:?}"
run="$src/bench/cluster/run.sh"
out="$(mktemp)"
# bench.sh removes its DIR when it ends: its own, not the default one that a
# benchmark running meanwhile may be using.
dir="$(mktemp -d)"
trap 'rm -f "$out"; rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; cat "$out" >&2; exit 1; }

# expect RC PATTERN ENV... -- SCRIPT: exit status RC and PATTERN in its output.
expect() {
  local rc="$1" pattern="$2" got
  shift 2
  local -a envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  set +e
  env -u REDSET_DIR -u NODES "${envs[@]}" bash "$@" >"$out" 2>&1 </dev/null
  got=$?
  set -e
  [ "$got" = "$rc" ] || fail "$* with ${envs[*]}: exit $got, not $rc"
  grep -q -- "$pattern" "$out" || fail "$* with ${envs[*]}: no '$pattern' in its output"
}

expect 2 "ONLY=bogus: expected redset, runtime or redset-vs" ONLY=bogus -- "$run" "$build"
expect 2 "NODES=8 3: each is 4 or 8 hosts" ONLY=redset-vs "NODES=8 3" REDSET_DIR=/nonexistent -- "$run" "$build"
expect 0 "skipped: set REDSET_DIR" ONLY=redset-vs -- "$run" "$build"
expect 0 "REDSET_DIR=/nonexistent: /nonexistent/include/redset.h does not exist" \
  ONLY=redset-vs REDSET_DIR=/nonexistent -- "$run" "$build"
# Through scripts/bench.sh, which hands ONLY=cluster to run.sh with CLUSTER_ONLY.
expect 0 "skipped: set REDSET_DIR" ONLY=cluster CLUSTER_ONLY=redset-vs DIR="$dir/b" -- "$src/scripts/bench.sh" "$build"
# The simulated-node mode skips the same way.
expect 0 "skipped: set REDSET_DIR" ONLY=redset-vs DIR="$dir/b" -- "$src/scripts/bench.sh" "$build"
echo "bench_args: ok"
