#!/usr/bin/env bash
# Asynchronous flush: SCR_Complete_output returns before the flush is done,
# the application keeps computing while it runs (counted in steps, not
# timed: the flush is throttled with SCR_FLUSH_ASYNC_BW so it cannot finish
# at once), and every flushed byte matches what was written. Under MPI without
# thread support the flush is synchronous instead.
source "$(dirname "$0")/../e2e/lib.sh"
E2E_NP=4 E2E_NODES=n0,n1 E2E_COPY_TYPE=XOR
e2e_begin async_flush
BENCH="$SCRPP_BUILD/bench/runtime/scr_bench"
need_file "$BENCH"
bytes=$((4 << 20))
# 2 MiB/s per node for 8 MiB per node: about four seconds of flushing.
run_job SCR_FLUSH=1 SCR_FLUSH_ASYNC=1 SCR_FLUSH_ASYNC_BW=2MB -- 4 "$BENCH" write $bytes 1000000
expect_ok_rc() { [[ $LAST_RC -eq 0 ]] || fail "job failed (rc=$LAST_RC)"; }
expect_ok_rc
steps="$(sed -n 's/.*"steps_during_flush":\([0-9]*\).*/\1/p' "$LAST_OUT")"
say "the application ran $steps compute steps while the flush was in flight"
((steps > 0)) || fail "no compute step overlapped the asynchronous flush"
expect_index bench.1 loadable 1
# Synchronous flush for contrast: the flush is over when Complete returns.
use_dirs "$E2E_DIR/sync"
run_job SCR_FLUSH=1 SCR_FLUSH_ASYNC=0 -- 4 "$BENCH" write $bytes 1000000
expect_ok_rc
assert_eq "$(sed -n 's/.*"steps_during_flush":\([0-9]*\).*/\1/p' "$LAST_OUT")" 0 "steps during a synchronous flush"
# MPI started without thread support: no second thread, so the asynchronous
# flush is done synchronously (and still completely).
use_dirs "$E2E_DIR/single"
run_job SCR_FLUSH=1 SCR_FLUSH_ASYNC=1 SCR_FLUSH_ASYNC_BW=2MB BENCH_MPI_SINGLE=1 -- 4 "$BENCH" write $bytes 1000000
expect_ok_rc
assert_eq "$(sed -n 's/.*"steps_during_flush":\([0-9]*\).*/\1/p' "$LAST_OUT")" 0 "steps during a flush without thread support"
expect_index bench.1 loadable 1
# Every byte: restart from the prefix only and compare with the pattern.
use_dirs "$E2E_DIR/run"
lose_all_nodes
run_job -- 4 "$BENCH" restart
expect_ok_rc
grep -q '"data_ok":1' "$LAST_OUT" || fail "flushed data differs from what was written"
grep -q '"restarted":"bench.1"' "$LAST_OUT" || fail "restart did not load bench.1"
e2e_pass
