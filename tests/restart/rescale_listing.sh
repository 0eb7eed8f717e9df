#!/usr/bin/env bash
# The listing API (scr/scr_ext.h) and routing any file of the checkpoint,
# at the same and at a different size:
#  - a checkpoint in cache, restarted by 8 ranks (its writers): the list
#    gathers every rank's files;
#  - the same checkpoint written with cache bypass, restarted by 8 and by 6
#    ranks: every rank routes every file (ranks of a node at once);
# in each case the list (name, writer rank, size) is what the prefix of an
# uninterrupted bypass run holds, every byte read through SCR_Route_file
# equals those files, and a name that is not part of the checkpoint is
# refused while the restart itself succeeds. The C++ API (scr::Restart::
# ranks, files) lists the same at 6 ranks.
source "$(dirname "$0")/../e2e/lib.sh"
E2E_NP=8 E2E_NODES=n0,n1,n2,n3
e2e_begin rescale_listing
PROBE="$SCRPP_BUILD/tests/restart/rescale_probe"
LIST_CPP="$SCRPP_BUILD/tests/restart/rescale_list_cpp"
need_file "$PROBE" "rescale_probe is not built"
need_file "$LIST_CPP" "rescale_list_cpp is not built"
args=(-n 20 -c 10 -g 64 32)

# The expected listing, from the bypass run's prefix.
use_dirs "$E2E_DIR/bypass"
run_job SCR_CACHE_BYPASS= -- 8 "$HEAT" "${args[@]}"
expect_ok
reference="$PREFIX"
expected="$(for r in 0 1 2 3 4 5 6 7; do
  echo "FILE step.20/rank_$r.dat $r $(stat -c %s "$reference/step.20/rank_$r.dat")"; done)"

# probe NP NODES OUTDIR [SCR settings...]: run the probe, check its listing
# and the bytes it copied out.
probe() {
  local np="$1" nodes="$2" out="$3"
  shift 3
  rm -rf "$out"
  mkdir -p "$out"
  run_job "$@" SCR_SIM_NODES="$nodes" -- "$np" "$PROBE" "$out" --bogus step.20/rank_8.dat
  [[ $LAST_RC -eq 0 ]] || fail "probe on $np ranks failed (rc $LAST_RC)"
  expect_out "WRITERS 8 FILES 8"
  assert_eq "$(grep '^FILE ' "$LAST_OUT")" "$expected" "listing on $np ranks"
  expect_out "BOGUS refused"
  expect_out "COMPLETE 1 FAILED_ON 0"
  for r in 0 1 2 3 4 5 6 7; do
    cmp -s "$out/step.20/rank_$r.dat" "$reference/step.20/rank_$r.dat" ||
      fail "rank_$r.dat read on $np ranks differs from the uninterrupted run's"
  done
  say "$np ranks: listing and bytes match"
}

say "same size, from cache"
use_dirs "$E2E_DIR/cache"
run_job SCR_FLUSH=0 -- 8 "$HEAT" "${args[@]}"
expect_ok
probe 8 n0,n1,n2,n3 "$E2E_DIR/out.cache8" SCR_FLUSH=0

say "same size and 6 ranks, from the prefix (bypass)"
PREFIX="$reference"
probe 8 n0,n1,n2,n3 "$E2E_DIR/out.prefix8" SCR_CACHE_BYPASS=
probe 6 n0,n1,n2 "$E2E_DIR/out.prefix6" SCR_CACHE_BYPASS=
run_job SCR_CACHE_BYPASS= SCR_SIM_NODES=n0,n1,n2 -- 6 "$LIST_CPP"
[[ $LAST_RC -eq 0 ]] || fail "rescale_list_cpp failed (rc $LAST_RC)"
expect_out "WRITERS 8 FILES 8"
assert_eq "$(grep '^FILE ' "$LAST_OUT")" "$expected" "C++ listing on 6 ranks"
e2e_pass
