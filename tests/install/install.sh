#!/usr/bin/env bash
# Scenario 12: SCR++ as an installed package. `cmake --install` of the build
# into a temporary prefix, then a small C application is built against it
#  - with CMake: find_package(SCR REQUIRED) and target SCR::scr;
#  - with pkg-config: `pkg-config --cflags --libs scr` and mpicc;
# and each build is run twice under mpirun -n 2 (checkpoint, then restart).
source "$(dirname "$0")/../e2e/lib.sh"
E2E_NP=2
E2E_NODES=n0,n1
e2e_begin install
install_build
libdir="$LIBDIR"
assert_file "$INSTALL/include/scr.h" "installed header"
assert_file "$INSTALL/include/scr/scr.hpp" "installed C++ header"
assert_file "$libdir/cmake/SCR/SCRConfig.cmake" "CMake package file"
assert_file "$libdir/pkgconfig/scr.pc" "pkg-config file"
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

cmake_consumer() {
  JOB_N=100
  cmake -S "$SCRPP_SOURCE/tests/install/consumer" -B "$E2E_DIR/cmake-build" \
    -DCMAKE_PREFIX_PATH="$INSTALL" >"$E2E_DIR/consumer-cmake.log" 2>&1 ||
    fail "configuring the find_package(SCR) consumer (a C-only project) failed:
$(grep -v '^--' "$E2E_DIR/consumer-cmake.log" | head -20)"
  cmake --build "$E2E_DIR/cmake-build" >"$E2E_DIR/consumer-build.log" 2>&1 ||
    fail "building the find_package(SCR) consumer failed:
$(tail -30 "$E2E_DIR/consumer-build.log")"
  ldd "$E2E_DIR/cmake-build/consumer" | grep -q "$libdir/libscr.so" ||
    fail "the CMake consumer does not load the installed libscr:
$(ldd "$E2E_DIR/cmake-build/consumer")"
  run_consumer cmake-run "$E2E_DIR/cmake-build/consumer"
  say "find_package(SCR) + SCR::scr consumer works"
}

# Both consumers are tried, each in a subshell, so one report names every
# way the installed package is broken.
broken=()
(pkgconfig_consumer) || broken+=("pkg-config")
(cmake_consumer) || broken+=("find_package(SCR)")
((${#broken[@]} == 0)) || fail "the installed package does not work with: ${broken[*]}"
e2e_pass
