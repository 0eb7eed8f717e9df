#!/usr/bin/env bash
# Configure and build SCR++ into ./build (or $BUILD_DIR).
# Debug information is line tables only (-g1): backtraces and profiles still
# name functions and lines, and the C++ compiles take about 30% less time than
# with full -g, which keeps the CI run within its budget on 2 cores. Extra
# arguments go to cmake and override these (e.g. -DCMAKE_BUILD_TYPE=Debug).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
  "$@" > "$build.configure.log" 2>&1 ||
  { cat "$build.configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)"
