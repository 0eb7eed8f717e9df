#!/usr/bin/env bash
# A damaged prefix file among those a rank reads at a different size: its
# CRC32C check fails before the path is handed out, SCR_Complete_restart
# fails on every rank (even when every rank calls it valid) and the next
# older checkpoint is offered and used.
#  - heat on 6 ranks: only rank 2 reads the damaged rank_3.dat; the job
#    falls back to step.10 and ends with the uninterrupted run's checksum;
#  - the probe on 6 ranks says valid everywhere: the restart still fails on
#    all 6, step.20 is marked FAILED in the index and step.10 is offered.
source "$(dirname "$0")/../e2e/lib.sh"
E2E_NP=8 E2E_NODES=n0,n1,n2,n3
e2e_begin rescale_corrupt
PROBE="$SCRPP_BUILD/tests/restart/rescale_probe"
need_file "$PROBE" "rescale_probe is not built"
args=(-n 40 -c 10 -g 64 32)

use_dirs "$E2E_DIR/heat"
run_job SCR_FLUSH=1 -- 8 "$HEAT" "${args[@]}" --crash-at 25
expect_crashed
expect_index step.20 loadable 1
cp -a "$E2E_DIR/heat" "$E2E_DIR/probe"
corrupt_byte "$PREFIX/step.20/rank_3.dat" 1000
run_job SCR_FLUSH=1 SCR_SIM_NODES=n0,n1,n2 -- 6 "$HEAT" "${args[@]}"
expect_ok
expect_resumed_from step.10
expect_result_equals_uninterrupted "${args[@]}"

use_dirs "$E2E_DIR/probe"
corrupt_byte "$PREFIX/step.20/rank_3.dat" 1000
run_job SCR_FLUSH=1 SCR_SIM_NODES=n0,n1,n2 -- 6 "$PROBE" "$E2E_DIR/out" --valid
[[ $LAST_RC -eq 0 ]] || fail "probe failed (rc $LAST_RC)"
expect_out "COMPLETE 0 FAILED_ON 6"
expect_out "NEXT step.10"
expect_index step.20 failed 1
e2e_pass
