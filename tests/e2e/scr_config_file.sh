#!/usr/bin/env bash
# An SCR 3.1 configuration file as SCR's documentation writes one, used
# unchanged: SCR_COPY_TYPE=FILE selects its CKPT lines, and its STORE lines
# carry SCR's store items (ENABLED, MKDIR, FLUSH). Two levels: SINGLE in the
# node's memory for every checkpoint, XOR on a second store for every second
# one; the XOR level is also the output level (OUTPUT=1, as in SCR's
# three-level example), which serves the checkpoints its INTERVAL divides as
# well. After a node is lost the job resumes from the newest checkpoint, the
# XOR one, rebuilt on the second store, and ends as an uninterrupted run.
source "$(dirname "$0")/lib.sh"
E2E_NP=2 E2E_NODES=n0,n1
e2e_begin scr_config_file
ARGS=(-n 40 -c 10 -g 16 16)
SSD="$E2E_DIR/run/ssd"
mkdir -p "$SSD"
cat >"$PREFIX/.scrconf" <<CONF
# SCR's two-level example (stores moved into the test's sandbox)
SCR_COPY_TYPE=FILE
STORE=$CACHE GROUP=NODE COUNT=1 ENABLED=1 MKDIR=1
STORE=$SSD GROUP=NODE COUNT=2 FLUSH=PTHREAD
CKPT=0 INTERVAL=1 GROUP=NODE STORE=$CACHE TYPE=SINGLE
CKPT=1 INTERVAL=2 GROUP=NODE STORE=$SSD TYPE=XOR SET_SIZE=2 OUTPUT=1
CONF

# The copy type comes from the file, not from the environment.
run_job SCR_COPY_TYPE= SCR_FLUSH=0 -- 2 "$HEAT" "${ARGS[@]}"
expect_ok "run with SCR's config file"
expect_checkpoint_steps "10 20 30 40"
cached_in() { find "$1" -path "*/$2/*" -name 'rank_*.dat' | wc -l; }
# Memory keeps one checkpoint (COUNT=1), the second store two (COUNT=2).
assert_eq "$(cached_in "$CACHE" step.30)" 2 "files of step.30 in the memory store"
assert_eq "$(cached_in "$CACHE" step.10)" 0 "files of step.10 left in the memory store (COUNT=1)"
assert_eq "$(cached_in "$SSD" step.40)" 2 "files of step.40 on the second store"
assert_eq "$(cached_in "$SSD" step.20)" 2 "files of step.20 on the second store"
assert_eq "$(find "$SSD" -name '*.xor.*.redset' | wc -l)" 4 "XOR redundancy files on the second store (2 checkpoints, 2 nodes)"
assert_eq "$(find "$CACHE" -name '*.redset' | wc -l)" 2 "SINGLE redundancy files in the memory store"

# Node n1 loses both stores: step.30 (SINGLE) is gone, step.40 is rebuilt from XOR.
lose_node n1
rm -rf "${SSD:?}/n1"
run_job SCR_COPY_TYPE= SCR_FLUSH=0 -- 2 "$HEAT" "${ARGS[@]}" -n 60
expect_ok "restart after losing n1"
expect_resumed_from step.40
[[ -z "$(find "$PREFIX" -name 'rank_*.dat')" ]] || fail "the restart went through the prefix"
expect_result_equals_uninterrupted "${ARGS[@]}" -n 60
e2e_pass
