#!/usr/bin/env bash
# The C++ API's error kinds and phase lifetimes (cpp_api_lifetimes.cpp): the
# job must exit 0 (a throwing destructor terminates it, a collective after
# finalize hangs it) and report every check passed.
source "$(dirname "$0")/../e2e/lib.sh"
e2e_begin api_cpp_lifetimes
PROG="$SCRPP_BUILD/tests/api/cpp_api_lifetimes"
need_file "$PROG" "cpp_api_lifetimes is not built"
run_job SCR_FLUSH=0 -- 2 "$PROG"
[[ $LAST_RC -eq 0 ]] || fail "cpp_api_lifetimes exited with $LAST_RC"
expect_out "cpp_api_lifetimes: ALL"
e2e_pass
