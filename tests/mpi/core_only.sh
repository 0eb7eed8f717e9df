#!/usr/bin/env bash
# The core without MPI: configures this source tree with -DSCR_CORE_ONLY=ON
# (no find_package(MPI), and a <mpi.h> that stops the compiler first on the
# include path) and builds it: configuration, the prefix store, the cache
# engine, the redundancy engine, the message layer's interface with its
# in-process communicators, and every tool. Fails when one of them includes
# <mpi.h> or needs MPI to link. ccache, when installed, keeps the repeated
# runs short; the build is unoptimized, without debug information (a check,
# not a product).
# Usage: core_only.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src="$1"
build="$2"
launcher=()
if command -v ccache >/dev/null; then
  # Shared between build directories of this tree (paths relative to it).
  export CCACHE_BASEDIR="$src" CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
log="$build.log"
mkdir -p "$build"
if ! cmake -S "$src" -B "$build" -DSCR_CORE_ONLY=ON -DCMAKE_BUILD_TYPE=None "${launcher[@]}" >"$log" 2>&1; then
  echo "core-only configuration failed:"
  tail -30 "$log"
  exit 1
fi
if grep -q '^MPI_FOUND:.*=TRUE\|^MPI_CXX_FOUND:.*=TRUE' "$build/CMakeCache.txt"; then
  echo "the core-only configuration looked for MPI"
  exit 1
fi
if ! cmake --build "$build" -j 2 >>"$log" 2>&1; then
  echo "the core does not build without MPI:"
  grep -E 'error|Error' "$log" | head -30
  exit 1
fi
# Everything that was to be built was built, the tools included.
for tool in scr_index scr_halt scr_inspect scr_scavenge scr_run scr_ckpt_interval; do
  [[ -x "$build/tools/$tool/$tool" ]] || { echo "core-only build made no $tool"; exit 1; }
done
echo "core-only: $(find "$build/src" -name '*.a' | wc -l) libraries and the tools built without MPI"
