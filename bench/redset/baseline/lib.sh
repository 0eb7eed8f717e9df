# shellcheck shell=bash
# The redset baseline driver for the side-by-side runs against SCR 3.1's
# engine, sourced by scripts/bench.sh (ONLY=redset-vs, simulated nodes) and
# bench/cluster/run.sh (ONLY=redset-vs, across hosts), which run it alike.

# Why REDSET_DIR cannot be used, on stdout (nothing when it can).
redset_baseline_missing() {
  if [ -z "${REDSET_DIR:-}" ] || [ ! -f "$REDSET_DIR/include/redset.h" ]; then
    echo "skipped: set REDSET_DIR to the install prefix of ECP-VeloC redset 0.4.0 (with KVTree 1.5.0 and"
    echo "rankstr 0.4.0, built Release); docs/performance.md says how to build them"
    if [ -n "${REDSET_DIR:-}" ]; then echo "(REDSET_DIR=$REDSET_DIR: $REDSET_DIR/include/redset.h does not exist)"; fi
  fi
}

# redset_baseline_build BUILD_DIR: configures and builds bench/redset/baseline
# against $REDSET_DIR into BUILD_DIR/redset-baseline; prints the driver's path.
redset_baseline_build() {
  local src base
  src="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
  base="$1/redset-baseline"
  cmake -S "$src" -B "$base" -DREDSET_DIR="$REDSET_DIR" > "$base.configure.log" 2>&1 ||
    { cat "$base.configure.log" >&2; return 1; }
  cmake --build "$base" > "$base.build.log" 2>&1 || { cat "$base.build.log" >&2; return 1; }
  echo "$base/redset_baseline"
}
