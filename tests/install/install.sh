#!/usr/bin/env bash
# Scenario 12: SCR++ as an installed package. `cmake --install` of the build
# into a temporary prefix, then a small C application is built against it
#  - with CMake: find_package(SCR) + SCR::scr, find_package(scr) + scr::scr,
#    and find_package(scr) + scr::scr-static (libscr.a: no libscr.so loaded);
#  - with pkg-config: `pkg-config --cflags --libs scr` and mpicc, and
#    `scr-static` (libscr.a: no libscr.so loaded);
# and each build is run twice under mpirun -n 2 (checkpoint, then restart).
source "$(dirname "$0")/../e2e/lib.sh"
E2E_NP=2
E2E_NODES=n0,n1
e2e_begin install
install_build
libdir="$LIBDIR"
assert_file "$INSTALL/include/scr.h" "installed header"
assert_file "$INSTALL/include/scr/scr.hpp" "installed C++ header"
assert_file "$INSTALL/include/scr/scr_ext.h" "installed extension header"
assert_file "$libdir/cmake/scr/scr-config.cmake" "CMake package file"
assert_file "$libdir/libscr.a" "static library"
assert_file "$libdir/pkgconfig/scr.pc" "pkg-config file"
assert_file "$libdir/pkgconfig/scr-static.pc" "pkg-config file of the static library"
for lib in "$libdir/libscr.so" "$libdir/libscr.a"; do
  if nm -C "$lib" | grep -E 'FaultEnv|FaultFile' >/dev/null; then
    fail "the installed $lib carries the fault-injecting Env (a test hook)"
  fi
done
say "installed into $INSTALL (libraries in ${libdir#"$INSTALL"/})"

# run_consumer NAME PROGRAM: fresh start, then restart from its checkpoint,
# in $E2E_DIR/NAME.
run_consumer() {
  use_dirs "$E2E_DIR/$1"
  run_job -- 2 "$2"
  [[ $LAST_RC -eq 0 ]] || fail "$2 failed (exit $LAST_RC)"
  expect_out "CONSUMER OK fresh start"
  run_job -- 2 "$2"
  [[ $LAST_RC -eq 0 ]] || fail "$2 failed on restart (exit $LAST_RC)"
  expect_out "CONSUMER OK restarted from consumer.ckpt"
}

pkgconfig_consumer() {
  export PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  local flags incdir
  flags="$(pkg-config --cflags --libs scr)" || fail "pkg-config --cflags --libs scr failed"
  incdir="$(sed -n 's/.*-I\([^ ]*\).*/\1/p' <<<"$flags")"
  [[ -n "$incdir" && "$(realpath -m "$incdir")" == "$(realpath "$INSTALL/include")" && "$flags" == *"-lscr"* ]] ||
    fail "pkg-config --cflags --libs scr gives '$flags': its include directory is not the installed $INSTALL/include"
  mkdir -p "$E2E_DIR/pc-build"
  # shellcheck disable=SC2086
  mpicc -std=c99 -Wall -Werror "$SCRPP_SOURCE/tests/install/consumer/consumer.c" \
    -o "$E2E_DIR/pc-build/consumer" $flags -Wl,-rpath,"$libdir" >"$E2E_DIR/pc-build.log" 2>&1 ||
    fail "building with pkg-config flags '$flags' failed:
$(cat "$E2E_DIR/pc-build.log")"
  run_consumer pc-run "$E2E_DIR/pc-build/consumer"
  say "pkg-config consumer works ($flags)"
}

pkgconfig_static_consumer() {
  export PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  local flags
  flags="$(pkg-config --cflags --libs scr-static)" || fail "pkg-config --cflags --libs scr-static failed"
  mkdir -p "$E2E_DIR/pcs-build"
  # shellcheck disable=SC2086
  mpicc -std=c99 -Wall -Werror "$SCRPP_SOURCE/tests/install/consumer/consumer.c" \
    -o "$E2E_DIR/pcs-build/consumer" $flags >"$E2E_DIR/pcs-build.log" 2>&1 ||
    fail "building with pkg-config flags '$flags' failed:
$(cat "$E2E_DIR/pcs-build.log")"
  if ldd "$E2E_DIR/pcs-build/consumer" | grep "libscr.so" >/dev/null; then
    fail "the scr-static pkg-config consumer loads a shared libscr:
$(ldd "$E2E_DIR/pcs-build/consumer")"
  fi
  run_consumer pcs-run "$E2E_DIR/pcs-build/consumer"
  say "pkg-config scr-static consumer works ($flags)"
}

# cmake_consumer PACKAGE TARGET: a find_package(PACKAGE) project linking TARGET.
cmake_consumer() {
  local package="$1" target="$2" tag="${1}_${2//:/_}"
  local build="$E2E_DIR/cmake-$tag"
  JOB_N=$((JOB_N + 100))
  cmake -S "$SCRPP_SOURCE/tests/install/consumer" -B "$build" -DCMAKE_PREFIX_PATH="$INSTALL" \
    -DSCR_PACKAGE="$package" -DSCR_TARGET="$target" >"$build.cmake.log" 2>&1 ||
    fail "configuring the find_package($package) consumer of $target (a C-only project) failed:
$(grep -v '^--' "$build.cmake.log" | head -20)"
  cmake --build "$build" >"$build.build.log" 2>&1 ||
    fail "building the find_package($package) consumer of $target failed:
$(tail -30 "$build.build.log")"
  if [[ "$target" == *-static ]]; then
    if ldd "$build/consumer" | grep -c >/dev/null "libscr.so"; then
      fail "the $target consumer loads a shared libscr:
$(ldd "$build/consumer")"
    fi
  else
    ldd "$build/consumer" | grep -c >/dev/null "$libdir/libscr.so" ||
      fail "the $target consumer does not load the installed libscr:
$(ldd "$build/consumer")"
  fi
  run_consumer "run-$tag" "$build/consumer"
  say "find_package($package) + $target consumer works"
}

# cxx_only_consumer: a project that enables only C++ (or only Fortran) is
# told to enable C, which FindMPI needs for MPI::MPI_C, rather than given
# FindMPI's own message about a "component 'C'".
cxx_only_consumer() {
  local src="$E2E_DIR/cxx-only"
  mkdir -p "$src"
  cat >"$src/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.20)
project(scr_cxx_only LANGUAGES CXX)
find_package(scr REQUIRED)
CM
  if cmake -S "$src" -B "$src/build" -DCMAKE_PREFIX_PATH="$INSTALL" >"$src.cmake.log" 2>&1; then
    fail "find_package(scr) in a project without C succeeded, but FindMPI cannot provide MPI::MPI_C there"
  fi
  grep -q "enables C: add C to the project's languages" "$src.cmake.log" ||
    fail "find_package(scr) in a C++-only project does not say to enable C:
$(grep -v '^--' "$src.cmake.log" | head -20)"
  say "find_package(scr) in a C++-only project says to enable C"
}

# Both consumers are tried, each in a subshell, so one report names every
# way the installed package is broken.
broken=()
(pkgconfig_consumer) || broken+=("pkg-config")
(pkgconfig_static_consumer) || broken+=("pkg-config scr-static")
JOB_N=0
(cmake_consumer SCR SCR::scr) || broken+=("find_package(SCR) + SCR::scr")
(cmake_consumer scr scr::scr) || broken+=("find_package(scr) + scr::scr")
(cmake_consumer scr scr::scr-static) || broken+=("find_package(scr) + scr::scr-static")
(cxx_only_consumer) || broken+=("find_package(scr) in a C++-only project")
((${#broken[@]} == 0)) || fail "the installed package does not work with: ${broken[*]}"
e2e_pass
