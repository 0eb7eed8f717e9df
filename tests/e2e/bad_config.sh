#!/usr/bin/env bash
# Scenario 9: bad configuration makes SCR_Init fail with a message naming the
# key (said once, not once per process), and leaves the existing prefix (index, datasets, halt file), cache and
# control directories exactly as they were. Afterwards a good run still
# resumes from the existing checkpoint. A key SCR++ does not know (an unknown
# SCR_* environment variable, a config file's unknown key) is only a warning
# naming it.
source "$(dirname "$0")/lib.sh"
e2e_begin bad_config
ARGS=(-n 30 -c 10)

run_job SCR_FLUSH=1 -- "$E2E_NP" "$HEAT" -n 20 -c 10 --crash-at 20
expect_crashed "job that leaves a prefix and a cache behind"
expect_index step.20 loadable 1

digest() {
  {
    tree_digest "$PREFIX" './.scrconf'
    tree_digest "$CACHE"
    tree_digest "$CNTL"
  } | sha256sum | cut -d' ' -f1
}
before="$(digest)"

# bad_init WHAT EXPECTED_MESSAGE [VAR=VALUE...]
bad_init() {
  local what="$1" message="$2"
  shift 2
  run_job "$@" -- "$E2E_NP" "$HEAT" "${ARGS[@]}"
  expect_failed "job with $what"
  expect_err "SCR_Init"
  expect_err "$message"
  # Every process fails, and the error is said once (by rank 0), not once per process.
  assert_eq "$(grep -c -F "$message" "$LAST_ERR")" 1 "copies of the error on stderr ($what)"
  expect_err "SCR_Init failed"
  expect_no_out "RESULT"
  [[ "$(digest)" == "$before" ]] || fail "the job with $what changed the prefix, cache or control directory"
  say "rejected $what: $(grep -m1 -F "$message" "$LAST_ERR")"
}

bad_init "SCR_CACHE_SIZE=abc" "SCR_CACHE_SIZE=abc: not an integer" SCR_CACHE_SIZE=abc
bad_init "SCR_CACHE_SIZE=0" "SCR_CACHE_SIZE=0" SCR_CACHE_SIZE=0
bad_init "SCR_FLUSH=-1" "SCR_FLUSH=-1" SCR_FLUSH=-1
bad_init "SCR_COPY_TYPE=FOO" "SCR_COPY_TYPE=FOO: must be one of SINGLE, PARTNER, XOR, RS" SCR_COPY_TYPE=FOO
bad_init "SCR_SIM_NODES=a,b,c" "SCR_SIM_NODES lists 3 nodes but the job has $E2E_NP ranks" SCR_SIM_NODES=a,b,c
bad_init "a bad node name" "SCR_SIM_NODES" "SCR_SIM_NODES=n0,../n1"

conf="$E2E_DIR/bad.conf"
printf '# a user configuration file\nSCR_FLUSH=1\nSCR_CACHE_SIZE=two\n' >"$conf"
bad_init "a malformed value in SCR_CONF_FILE" "$conf:3: SCR_CACHE_SIZE=two" "SCR_CONF_FILE=$conf"
printf 'CKPT=0 TYPE=SINGLE SET_SIZE=x\n' >"$conf"
bad_init "a malformed descriptor item in SCR_CONF_FILE" "SET_SIZE=x" "SCR_CONF_FILE=$conf"
bad_init "a missing SCR_CONF_FILE" "$E2E_DIR/missing.conf" "SCR_CONF_FILE=$E2E_DIR/missing.conf"

# Nothing was damaged: a good run resumes from the checkpoint. Keys SCR++
# does not know, in the environment and in <prefix>/.scrconf, do not stop
# it: rank 0 names each once, a file's with its line and the nearest key.
printf 'SCR_CACHE_SIZ=2\nMY_APP_SETTING=on\n' >"$PREFIX/.scrconf"
run_job SCR_FLUSH=1 SCR_NOT_A_PARAMETER=1 -- "$E2E_NP" "$HEAT" "${ARGS[@]}"
expect_ok "good run after the bad ones"
expect_resumed_from step.20
expect_err "SCR_NOT_A_PARAMETER"
warning="$PREFIX/.scrconf:1: unknown key 'SCR_CACHE_SIZ' (did you mean SCR_CACHE_SIZE?)"
assert_eq "$(grep -c -F "$warning" "$LAST_ERR")" 1 "warnings about SCR_CACHE_SIZ"
expect_err "$PREFIX/.scrconf:2: unknown key 'MY_APP_SETTING'"
expect_result_equals_uninterrupted "${ARGS[@]}"
rm "$PREFIX/.scrconf"
e2e_pass
