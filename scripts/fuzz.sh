#!/usr/bin/env bash
# Build and run every libFuzzer target for a while.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# SECONDS  run time per target (default 60)
# TARGET   e.g. kvtree_fuzz; default: every fuzz/<name>_fuzz.cpp
#
# Environment: BUILD_DIR (default <repo>/build-fuzz), JOBS (default 2),
# CC/CXX (default clang/clang++).
#
# Seeds come from fuzz/corpus/<name>/ and are only read; inputs the fuzzer
# finds go to $BUILD_DIR/fuzz-corpus/<name>/, crash reproducers to
# $BUILD_DIR/fuzz-artifacts/<name>/. Exit status is non-zero if any target
# failed to build or found a crash.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
shift || true
build="${BUILD_DIR:-$root/build-fuzz}"
jobs="${JOBS:-2}"

if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "usage: $0 [SECONDS] [TARGET...]" >&2
  exit 2
fi

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for src in "$root"/fuzz/*_fuzz.cpp; do
    [ -e "$src" ] && targets+=("$(basename "$src" .cpp)")
  done
fi
if [ ${#targets[@]} -eq 0 ]; then
  echo "no fuzz targets found in $root/fuzz" >&2
  exit 2
fi

mkdir -p "$build"
cmake -S "$root" -B "$build" \
  -DCMAKE_C_COMPILER="${CC:-clang}" -DCMAKE_CXX_COMPILER="${CXX:-clang++}" \
  -DSCR_BUILD_FUZZ=ON -DSCR_BUILD_TESTS=OFF -DSCR_BUILD_EXAMPLES=OFF -DSCR_BUILD_BENCH=OFF \
  >"$build/configure.log" 2>&1 || { cat "$build/configure.log" >&2; exit 1; }

failed=()
for target in "${targets[@]}"; do
  name="${target%_fuzz}"
  echo "=== $target: build"
  if ! make -C "$build" -j"$jobs" "$target" >"$build/$target.build.log" 2>&1; then
    tail -30 "$build/$target.build.log" >&2
    failed+=("$target(build)")
    continue
  fi
  work="$build/fuzz-corpus/$name"
  artifacts="$build/fuzz-artifacts/$name"
  mkdir -p "$work" "$artifacts"
  corpora=("$work")
  [ -d "$root/fuzz/corpus/$name" ] && corpora+=("$root/fuzz/corpus/$name")
  args=(-max_total_time="$seconds" -timeout=10 -print_final_stats=1
        -artifact_prefix="$artifacts/")
  [ -f "$root/fuzz/$name.dict" ] && args+=(-dict="$root/fuzz/$name.dict")
  echo "=== $target: run ${seconds}s (corpus: ${corpora[*]})"
  bin="$(find "$build" -type f -name "$target" -perm -u+x | head -n1)"
  log="$build/$target.run.log"
  rc=0
  "$bin" "${args[@]}" "${corpora[@]}" >"$log" 2>&1 || rc=$?
  grep -E '^#[0-9]+.*(INITED|DONE)|^stat::|ERROR|SUMMARY|Test unit written|^Done' "$log" || true
  if [ "$rc" -ne 0 ]; then
    tail -40 "$log" >&2
    failed+=("$target")
  fi
done

if [ ${#failed[@]} -ne 0 ]; then
  echo "FUZZ FAILURES: ${failed[*]} (reproducers under $build/fuzz-artifacts/)" >&2
  exit 1
fi
echo "all fuzz targets ran clean: ${targets[*]}"
