#!/usr/bin/env bash
# The Fortran interfaces as an installed package. `cmake --install` into a
# temporary prefix, then three programs -- fixed-form Fortran 77 with
# INCLUDE 'scrf.h' (ckpt_f77.f), free form with INCLUDE 'scrf.h'
# (ckpt_include.f90) and free form with USE SCR (ckpt_module.f90) -- are
# built with mpifort
#  - by a CMake project: find_package(scr), scr::scrf (and scr::scrf-static);
#  - by hand: mpifort ... $(pkg-config --cflags --libs scrf);
# and every program built with pkg-config runs the same scenario, 4 ranks on
# 2 simulated nodes (the CMake builds of the same sources, shared and
# static, each run one complete job):
#  1. checkpoints 1..3, the last rank stops abruptly after 3 (no flush);
#  2. restarts from the cache (nothing is in the prefix), must resume from
#     ckpt.003, checkpoints 4 and 5 with a flush each (the free-form
#     programs then mark ckpt.004 by SCR_CURRENT), stops abruptly;
#  3. every node's storage is lost; restarts from the prefix: ckpt.005, or
#     ckpt.004 for the free-form programs; runs to the end, drops and
#     deletes two output datasets.
# Each rank checks the bytes it reads back; the script checks the flushed
# files' bytes, exit codes, and the string checks of the free-form programs.
source "$(dirname "$0")/../../e2e/lib.sh"
e2e_begin bindings_fortran
SRC="$SCRPP_SOURCE/tests/bindings/fortran"
PROGS=(ckpt_f77 ckpt_include ckpt_module)

install_build
libdir="$LIBDIR"
libscrf="$libdir/libscrf.so"
assert_file "$INSTALL/include/scrf.h" "installed scrf.h"
assert_file "$INSTALL/include/scr.mod" "installed module file scr.mod"
assert_file "$libscrf" "shared libscrf"
assert_file "$libdir/libscrf.a" "static libscrf"
assert_file "$libdir/pkgconfig/scrf.pc" "pkg-config file scrf.pc"
# Read once: grep -q leaving a pipe early would fail nm with SIGPIPE under
# pipefail once the symbol list outgrows one write.
exported="$(nm -D --defined-only "$libscrf")"
for sym in scr_init_ scr_route_file_ scr_config_ scr_get_version_ scr_delete_; do
  grep -qw "$sym" <<<"$exported" || fail "libscrf.so does not export $sym"
done

# Build 1: plain mpifort with pkg-config's flags.
export PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
flags="$(pkg-config --cflags --libs scrf)" || fail "pkg-config --cflags --libs scrf failed"
[[ " $flags " == *" -lscrf "* && " $flags " == *" -lscr "* ]] || fail "pkg-config scrf gives '$flags' (needs -lscrf -lscr)"
mkdir -p "$E2E_DIR/pc"
for prog in "${PROGS[@]}"; do
  file="$(ls "$SRC/$prog".f*)"
  # shellcheck disable=SC2086
  mpifort -Wall -Werror -I"$SRC" "$file" -o "$E2E_DIR/pc/$prog" $flags -Wl,-rpath,"$libdir" \
    >"$E2E_DIR/pc-$prog.log" 2>&1 || fail "mpifort $file \$(pkg-config --cflags --libs scrf) failed:
$(cat "$E2E_DIR/pc-$prog.log")"
done
say "built with mpifort and pkg-config ($flags)"

# Build 1b: SCR's documented static link flags, libscrf.a alone (plus what
# libscr.a needs from the system): no libscr.so at run time.
mpifort -Wall -Werror -I"$SRC" "$SRC/ckpt_f77.f" -o "$E2E_DIR/pc/ckpt_f77_static" -I"$INSTALL/include" \
  "$libdir/libscrf.a" -lisal -lstdc++ -lpthread >"$E2E_DIR/pc-static.log" 2>&1 ||
  fail "mpifort ckpt_f77.f libscrf.a failed:
$(tail -20 "$E2E_DIR/pc-static.log")"
if ldd "$E2E_DIR/pc/ckpt_f77_static" | grep libscr >/dev/null; then fail "ckpt_f77_static loads a shared libscr"; fi
say "built with libscrf.a alone, as SCR documents its static Fortran link"

# Build 2: a CMake project using find_package(SCR).
cmake -S "$SRC/consumer" -B "$E2E_DIR/cm" -DCMAKE_PREFIX_PATH="$INSTALL" \
  -DCMAKE_Fortran_COMPILER=mpifort >"$E2E_DIR/cm-configure.log" 2>&1 ||
  fail "configuring the find_package(SCR) Fortran consumer failed:
$(grep -v '^--' "$E2E_DIR/cm-configure.log" | head -20)"
cmake --build "$E2E_DIR/cm" -j2 >"$E2E_DIR/cm-build.log" 2>&1 ||
  fail "building the find_package(SCR) Fortran consumer failed:
$(tail -30 "$E2E_DIR/cm-build.log")"
# grep reads all of ldd's output: with -q, ldd may die of SIGPIPE and pipefail fail the check.
ldd "$E2E_DIR/cm/ckpt_module" | grep "$libdir/libscrf.so" >/dev/null ||
  fail "the CMake consumer does not load the installed libscrf: $(ldd "$E2E_DIR/cm/ckpt_module")"
if ldd "$E2E_DIR/cm/ckpt_module_static" | grep libscrf >/dev/null; then fail "ckpt_module_static loads libscrf.so"; fi
say "built with CMake: find_package(scr), scr::scrf and scr::scrf-static"

# expect_rank_files DATASET STEP: the flushed files of DATASET in the prefix
# hold exactly what each rank wrote.
expect_rank_files() {
  local r
  for r in $(seq 0 $((E2E_NP - 1))); do
    assert_file_content "$PREFIX/fdata/$1/rank_$(printf %03d "$r").txt" "$(printf '%10d%10d%10d' "$2" "$r" $(($2 * 1000 + r)))"
  done
}

# scenario BINARY: the three jobs above in a fresh directory.
scenario() {
  local bin="$1" name want current=() edges=1
  name="$(basename "$(dirname "$bin")")-$(basename "$bin")"
  [[ "$bin" == *ckpt_f77 ]] && edges=0
  use_dirs "$E2E_DIR/$name"
  run_job SCR_FLUSH=0 -- "$E2E_NP" "$bin" 6 3
  # STOP 9 on the last rank: mpirun reports its exit code.
  assert_eq "$LAST_RC" 9 "$name: exit code of the job stopped after ckpt.003"
  for n in ${E2E_NODES//,/ }; do
    [[ -n "$(cached_datasets "$n")" ]] || fail "$name: node $n caches no checkpoint"
  done
  ((edges == 0)) || expect_out "EDGES OK 16"
  expect_no_out "RESUMED"
  [[ ! -e "$PREFIX/fdata" ]] || fail "$name: SCR_FLUSH=0 but files reached the prefix: $(find "$PREFIX/fdata")"

  ((edges == 0)) || current=(ckpt.004)
  run_job SCR_FLUSH=1 -- "$E2E_NP" "$bin" 6 5 "${current[@]}"
  assert_eq "$LAST_RC" 9 "$name: exit code of the restarted job stopped after ckpt.005"
  expect_out "RESUMED ckpt.003"
  expect_rank_files ckpt.005 5
  expect_rank_files ckpt.004 4

  lose_all_nodes
  want=ckpt.005
  ((edges == 0)) || want=ckpt.004
  run_job SCR_FLUSH=1 -- "$E2E_NP" "$bin" 6 0
  [[ $LAST_RC -eq 0 ]] || fail "$name: restart from the prefix failed (exit $LAST_RC)"
  expect_out "RESUMED $want"
  expect_out "RESULT last=006"
  expect_rank_files ckpt.006 6
  if ((edges)); then
    expect_rank_files fout.drop 0
    [[ -z "$(find "$PREFIX/fdata/fout.del" -type f 2>/dev/null)" ]] ||
      fail "$name: SCR_DELETE left $(find "$PREFIX/fdata/fout.del" -type f)"
    assert_eq "$(index_field fout.drop id)" absent "$name: fout.drop in the index after SCR_DROP"
    assert_eq "$(index_field fout.del id)" absent "$name: fout.del in the index after SCR_DELETE"
  fi
  say "$name: killed, restarted from cache (ckpt.003) and from the prefix ($want)"
}

for prog in "${PROGS[@]}"; do
  scenario "$E2E_DIR/pc/$prog"
done
# The CMake builds link the same sources: one complete run each shows they
# load the installed library and work.
for bin in "${PROGS[@]}" ckpt_module_static; do
  use_dirs "$E2E_DIR/cm-run-$bin"
  run_job -- "$E2E_NP" "$E2E_DIR/cm/$bin" 3 0
  [[ $LAST_RC -eq 0 ]] || fail "CMake-built $bin failed (exit $LAST_RC)"
  [[ "$bin" == ckpt_f77 ]] || expect_out "EDGES OK 16"
  expect_out "RESULT last=003"
done
say "the CMake builds each ran a complete job"
e2e_pass
