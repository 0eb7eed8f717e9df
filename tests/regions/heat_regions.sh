#!/usr/bin/env bash
# examples/heat_regions (memory regions only, no file of its own), 4 ranks
# on 2 simulated nodes, XOR: killed after step 25, restarted from the cache
# (step.20); killed again, every node lost, restarted as 2 ranks from the
# prefix. Each result equals an uninterrupted run's.
source "$(dirname "$0")/../e2e/lib.sh"
E2E_COPY_TYPE=XOR
e2e_begin regions_heat
PROG="$SCRPP_BUILD/examples/heat_regions/heat_regions"
need_file "$PROG" "heat_regions is not built"
ARGS=(-n 40 -c 10 -g 48 32)

run_job SCR_FLUSH=0 -- 4 "$PROG" "${ARGS[@]}" --crash-at 25
expect_crashed
run_job SCR_FLUSH=0 -- 4 "$PROG" "${ARGS[@]}"
[[ $LAST_RC -eq 0 ]] || fail "the restart from the cache exited with $LAST_RC"
expect_out "resumed at step 20 (written by 4 ranks)"
expect_result_equals_uninterrupted_of "$PROG" "${ARGS[@]}"

use_dirs "$E2E_DIR/prefix"
run_job SCR_FLUSH=1 -- 4 "$PROG" "${ARGS[@]}" --crash-at 25
expect_crashed
lose_all_nodes
run_job SCR_FLUSH=1 -- 2 "$PROG" "${ARGS[@]}"
[[ $LAST_RC -eq 0 ]] || fail "the restart as 2 ranks from the prefix exited with $LAST_RC"
expect_out "resumed at step 20 (written by 4 ranks)"
expect_result_equals_uninterrupted_of "$PROG" "${ARGS[@]}"
e2e_pass
