#!/usr/bin/env bash
# A shared (N-to-1) checkpoint file: 4 ranks on 2 simulated nodes each write
# their block of ckpt.<step>/state.dat (examples/shared/shared_file.c).
#  - Default settings (SCR 3.1's SCR_CACHE_BYPASS=1): the file goes straight to
#    the prefix, nothing is cached, the job restarts from it after a crash with
#    every byte verified by the program, and a corrupted byte makes the restart
#    fall back to the older checkpoint.
#  - Cache mode (SCR_CACHE_BYPASS=0): the shared checkpoint is refused at
#    Complete with an error naming bypass, and the older per-rank checkpoint
#    is still there for the restart.
source "$(dirname "$0")/lib.sh"
E2E_NP=4
E2E_NODES=n0,n1
e2e_begin shared_file
SHARED="$SCRPP_BUILD/examples/shared/shared_file"
need_file "$SHARED" "examples/shared is not built"
BYTES=65536

resumed() { sed -n "s/^\[shared\] resumed from checkpoint '\([^']*\)'.*/\1/p" "$LAST_OUT"; }

# --- default settings: bypass -----------------------------------------------------
run_job SCR_CACHE_BYPASS= -- 4 "$SHARED" -n 20 -c 5 -b $BYTES --crash-at 12
expect_crashed
expect_out "step 10: checkpoint ckpt.10 saved"
for s in 5 10; do
  assert_eq "$(stat -c %s "$PREFIX/ckpt.$s/state.dat")" $((4 * BYTES)) "size of the shared file of ckpt.$s"
  expect_index "ckpt.$s" loadable 1
done
assert_eq "$(index_current)" ckpt.10 "current checkpoint"
[[ -z "$(find "$CACHE" -type f)" ]] || fail "bypass wrote into the cache: $(find "$CACHE" -type f)"
[[ -z "$(find "$PREFIX" -name '*.redset')" ]] || fail "bypass wrote redundancy files"

run_job SCR_CACHE_BYPASS= -- 4 "$SHARED" -n 20 -c 5 -b $BYTES
expect_ok
assert_eq "$(resumed)" ckpt.10 "checkpoint resumed from"
expect_no_err MISMATCH
expect_out "RESULT steps=20 resumed=10"

# Damage rank 3's block of the newest checkpoint: its CRC no longer matches,
# so the restart falls back to ckpt.15 (written by the run above).
id20="$(index_field ckpt.20 id)"
corrupt_byte "$PREFIX/ckpt.20/state.dat" $((3 * BYTES + 100))
run_job SCR_CACHE_BYPASS= -- 4 "$SHARED" -n 20 -c 5 -b $BYTES
expect_ok
assert_eq "$(resumed)" ckpt.15 "checkpoint resumed from after ckpt.20 was damaged"
expect_no_err MISMATCH
expect_failed_or_replaced "$id20" ckpt.20

# --- cache mode: the shared checkpoint is refused, the older one survives ---------
use_dirs "$E2E_DIR/cache-mode"
run_job SCR_CACHE_SIZE=2 -- 4 "$SHARED" -n 12 -c 5 -b $BYTES --per-rank-until 5
expect_ok
expect_out "step 5: checkpoint ckpt.5 saved"
expect_out "step 10: checkpoint ckpt.10 failed"
expect_err "SCR_CACHE_BYPASS=1"
assert_eq "$(index_field ckpt.10 id)" absent "the refused ckpt.10 in the prefix index"
[[ -z "$(find "$CACHE" -path '*ckpt.10*')" ]] || fail "files of the refused ckpt.10 left in cache"
lose_node n1   # SINGLE cannot rebuild it: the restart must come from the prefix
run_job SCR_CACHE_SIZE=2 -- 4 "$SHARED" -n 12 -c 5 -b $BYTES --per-rank-until 5
expect_ok
assert_eq "$(resumed)" ckpt.5 "checkpoint resumed from in cache mode"
expect_no_err MISMATCH
e2e_pass
