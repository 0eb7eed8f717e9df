#!/usr/bin/env bash
# SCR_PREFIX_SIZE=2 keeps exactly the two newest checkpoints in the prefix
# (index entries, files and their directories); output datasets are never
# deleted by it, nor the directory they share.
source "$(dirname "$0")/../e2e/lib.sh"
E2E_NP=2 E2E_NODES=n0,n1
e2e_begin prefix_size
run_job SCR_FLUSH=1 SCR_PREFIX_SIZE=2 -- 2 "$HEAT" -n 50 -c 10 -o 20 -g 16 16
expect_ok
for s in 10 20 30; do
  expect_index "step.$s" loadable absent
  assert_no_file "$PREFIX/step.$s/rank_0.dat" "file of an old checkpoint"
  [[ ! -e "$PREFIX/step.$s" ]] || fail "the directory of deleted checkpoint step.$s is left behind"
done
for s in 40 50; do
  expect_index "step.$s" loadable 1
  assert_file "$PREFIX/step.$s/rank_1.dat"
done
assert_eq "$(index_show | grep -c 'name=step\.')" 2 "checkpoints in the index"
for s in 20 40; do
  expect_index "heat.$s" complete 1
  assert_file "$PREFIX/output/heat.$s.rank_0.txt"
done
[[ -d "$PREFIX/output" ]] || fail "the outputs' directory is gone"
assert_eq "$(index_current)" step.50 "current checkpoint"
e2e_pass
