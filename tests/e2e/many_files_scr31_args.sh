#!/usr/bin/env bash
# The side-by-side mode of bench/runtime/many_files.sh against SCR 3.1
# (SCR31_DIR): a prefix that is no SCR 3.1 install stops the script with
# exit code 2 and a message saying why, before any job starts. Needs neither
# SCR 3.1 nor root.
set -euo pipefail
src="${SCR_SOURCE_DIR:?}"
build="${SCR_BUILD_DIR:?}"
run="$src/bench/runtime/many_files.sh"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; cat "$tmp/out" >&2; exit 1; }

# expect PATTERN SCR31_DIR: exit 2 and PATTERN in the output. A tiny run in
# its own DIR, should the script go on (as it did before it knew SCR31_DIR).
expect() {
  local got=0
  env COUNTS=2 REPEAT=1 TOTAL=4096 DIR="$tmp/bench" SCR31_DIR="$2" \
    bash "$run" "$build" >"$tmp/out" 2>&1 </dev/null || got=$?
  [[ $got == 2 ]] || fail "SCR31_DIR=$2: exit $got, not 2"
  grep -qF -- "$1" "$tmp/out" || fail "SCR31_DIR=$2: no '$1' in its output"
}

expect "SCR31_DIR=$tmp/none is not usable: no include/scr.h" "$tmp/none"
# An scr.h of another SCR (no SCR_Have_restart, which 3.x has).
mkdir -p "$tmp/old/include" "$tmp/old/lib"
echo 'int SCR_Init(void);' >"$tmp/old/include/scr.h"
touch "$tmp/old/lib/libscr.so"
expect "its scr.h has no SCR_Have_restart" "$tmp/old"
echo "many_files_scr31_args: ok"
