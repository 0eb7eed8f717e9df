#!/usr/bin/env bash
# Names at their limits and application files named like SCR++'s own files
# (names_check.c), 4 ranks on 4 simulated nodes, for each scheme and bypass:
# the longest dataset name round-trips through flush and fetch, one byte more,
# or a control character in a name, is refused (cache and bypass alike), and
# every file reads back with its own bytes after a restart from
# the cache (with a lost node) and from the prefix.
source "$(dirname "$0")/lib.sh"
E2E_NP=4
E2E_NODES=n0,n1,n2,n3
e2e_begin names
PROG="$SCRPP_BUILD/tests/e2e/names_check"
need_file "$PROG" "names_check is not built"

ok() { [[ $LAST_RC -eq 0 ]] || fail "names_check $1 exited with $LAST_RC"; expect_out "NAMES $1 OK"; }

for setting in "SCR_COPY_TYPE=XOR" "SCR_COPY_TYPE=RS SCR_SET_FAILURES=2" "SCR_COPY_TYPE=PARTNER" \
                "SCR_CACHE_BYPASS=1"; do
  use_dirs "$E2E_DIR/$(tr ' =' '__' <<<"$setting")"
  # shellcheck disable=SC2086
  run_job SCR_FLUSH=1 SCR_SET_SIZE=4 $setting -- 4 "$PROG" write
  ok write
  expect_said "longer than 1023 bytes"
  if [[ "$setting" != SCR_CACHE_BYPASS=1 ]]; then
    lose_node n2
    # shellcheck disable=SC2086
    run_job SCR_FLUSH=1 SCR_SET_SIZE=4 $setting -- 4 "$PROG" restart
    ok restart
  fi
  lose_all_nodes
  # shellcheck disable=SC2086
  run_job SCR_FLUSH=1 SCR_SET_SIZE=4 $setting -- 4 "$PROG" restart
  ok restart
  say "$setting: names round-trip"
done
e2e_pass
