#!/usr/bin/env bash
# Cache bypass (SCR_CACHE_BYPASS=1) with every redundancy setting, with
# asynchronous flush set, with output datasets, and with SCR_Current, SCR_Drop
# and SCR_Delete: datasets go straight to the prefix, no redundancy file or
# cached file is ever written, restarts read the prefix in place. Bypass
# checkpoints beside cached ones: the newest is restarted from (also at
# another size, when the newest is damaged).
source "$(dirname "$0")/lib.sh"
E2E_NP=4
E2E_NODES=n0,n1
e2e_begin bypass
OPS="$SCRPP_BUILD/tests/e2e/bypass_ops"
need_file "$OPS" "bypass_ops is not built"

expect_nothing_cached() {
  [[ -z "$(find "$CACHE" -type f)" ]] || fail "$1: files in the cache: $(find "$CACHE" -type f | head -3)"
  [[ -z "$(find "$PREFIX" -name '*.redset')" ]] || fail "$1: redundancy files in the prefix"
}

for setting in "SCR_COPY_TYPE=SINGLE" "SCR_COPY_TYPE=PARTNER" "SCR_COPY_TYPE=XOR" \
                "SCR_COPY_TYPE=RS SCR_SET_FAILURES=1" "SCR_COPY_TYPE=XOR SCR_FLUSH_ASYNC=1 SCR_FLUSH=1"; do
  use_dirs "$E2E_DIR/$(tr ' =' '__' <<<"$setting")"
  # shellcheck disable=SC2086
  run_job SCR_CACHE_BYPASS=1 $setting -- 4 "$HEAT" -n 40 -c 10 -o 20 --crash-at 25
  expect_crashed "$setting"
  expect_nothing_cached "$setting"
  expect_index step.20 loadable 1
  expect_index heat.20 complete 1
  for r in 0 1 2 3; do
    assert_file "$PREFIX/step.20/rank_$r.dat" "($setting) checkpoint file"
    assert_file "$PREFIX/output/heat.20.rank_$r.txt" "($setting) output file"
  done
  lose_all_nodes
  # shellcheck disable=SC2086
  run_job SCR_CACHE_BYPASS=1 $setting -- 4 "$HEAT" -n 40 -c 10 -o 20
  expect_ok "$setting restart"
  expect_resumed_from step.20
  expect_result_equals_uninterrupted -n 40 -c 10 -o 20
  expect_nothing_cached "$setting restart"
done

# SCR_Drop, SCR_Delete and SCR_Current on bypass datasets.
use_dirs "$E2E_DIR/ops"
run_job SCR_CACHE_BYPASS=1 -- 4 "$OPS" write
expect_ops_ok() { [[ $LAST_RC -eq 0 ]] || fail "bypass_ops $1 exited with $LAST_RC"; expect_out "BYPASS-OPS $1 OK"; }
expect_ops_ok write
assert_eq "$(index_field out.4 id)" absent "out.4 after SCR_Drop"
assert_file "$PREFIX/out.4/rank_0.dat" "a dropped dataset keeps its files"
assert_eq "$(index_field b.2 id)" absent "b.2 after SCR_Delete"
assert_no_file "$PREFIX/b.2/rank_0.dat" "file of the deleted b.2"
assert_eq "$(index_current)" a.1 "current after SCR_Current"
run_job SCR_CACHE_BYPASS=1 -- 4 "$OPS" restart
expect_ops_ok restart
expect_out "RESTARTED-FROM a.1"
expect_nothing_cached ops

# Descriptors alternating between the cache and the prefix: a job restarted
# where its caches survived resumes from the newest checkpoint, here one
# written to the prefix (step.20) beside a cached one (step.10), as SCR does;
# and again after a node is lost.
use_dirs "$E2E_DIR/alternate"
CONF="$E2E_DIR/alternate.conf"
printf 'CKPT=0 TYPE=XOR\nCKPT=1 INTERVAL=2 BYPASS=1\n' >"$CONF"
run_job SCR_CONF_FILE="$CONF" -- 4 "$HEAT" -n 40 -c 10 --crash-at 25
expect_crashed alternate
assert_file "$PREFIX/step.20/rank_0.dat" "the bypass checkpoint"
run_job SCR_CONF_FILE="$CONF" -- 4 "$HEAT" -n 40 -c 10 --crash-at 25
expect_crashed "alternate, restarted"
expect_resumed_from step.20
lose_node n1
run_job SCR_CONF_FILE="$CONF" -- 4 "$HEAT" -n 40 -c 10
expect_ok "alternate, a node lost"
expect_resumed_from step.20
expect_result_equals_uninterrupted -n 40 -c 10

# SCR_CURRENT left exported for every relaunch of an allocation (the
# default, every checkpoint in the prefix): the first job of a new
# allocation (every node's storage gone) resumes from the checkpoint it
# names; a relaunch in the same allocation resumes from the newest one
# written since, not from the named one again.
use_dirs "$E2E_DIR/current_left_set"
run_job SCR_CACHE_BYPASS=1 -- 4 "$HEAT" -n 40 -c 10 --crash-at 25
expect_crashed "current_left_set, first job"
lose_all_nodes
run_job SCR_CACHE_BYPASS=1 SCR_CURRENT=step.10 -- 4 "$HEAT" -n 40 -c 10 --crash-at 35
expect_crashed "current_left_set, new allocation"
expect_resumed_from step.10
run_job SCR_CACHE_BYPASS=1 SCR_CURRENT=step.10 -- 4 "$HEAT" -n 40 -c 10
expect_ok "current_left_set, relaunched"
expect_resumed_from step.30
expect_result_equals_uninterrupted -n 40 -c 10

# At another size, the newest checkpoint (step.40, in the prefix) damaged:
# the cached step.30 is saved to the prefix first, step.40 fails its check,
# and the 2-rank job resumes from step.30.
use_dirs "$E2E_DIR/alternate_rescale"
args=(-n 60 -c 10 -g 64 32)
run_job SCR_CONF_FILE="$CONF" -- 4 "$HEAT" "${args[@]}" --crash-at 45
expect_crashed "alternate at 4 ranks"
corrupt_byte "$PREFIX/step.40/rank_2.dat" 10
run_job SCR_CONF_FILE="$CONF" -- 2 "$HEAT" "${args[@]}"
expect_ok "alternate at 2 ranks"
expect_resumed_from step.30
expect_result_equals_uninterrupted "${args[@]}"
e2e_pass
