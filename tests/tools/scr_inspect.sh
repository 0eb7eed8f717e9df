#!/usr/bin/env bash
# scr_inspect on the directories of a real job (XOR, two simulated nodes):
#  a) a prefix: the index table and each dataset's summary (text and JSON);
#     a dataset dropped from the index is pointed out
#  b) a control directory: each filemap in words, found below SCR_CNTL_BASE
#  c) a cache directory: dataset files and redundancy header summaries
#  d) files print as before; damaged files and non-SCR directories: exit 1
#     naming them; usage errors: exit 2
source "$(dirname "$0")/tools_lib.sh"
e2e_begin tools_scr_inspect
run_job SCR_FLUSH=1 -- "$E2E_NP" "$HEAT" -n 20 -c 10
expect_ok "job producing the directories"

# a) prefix
run_tool "$SCR_INSPECT" "$PREFIX"
expect_rc 0
expect_out "Prefix $PREFIX"
expect_out "A restart from this prefix loads step.20 (CURRENT)."
expect_out "Dataset 2: step.20 (checkpoint 2), 4 ranks, 4 files, 32.1 KiB"
grep -qE "^ +3  data +step\.20/rank_3\.dat +8208  0x[0-9a-f]{8}$" "$LAST_OUT" ||
  fail "the prefix view lacks rank 3's file of step.20 with size and CRC"
[[ "$E2E_COPY_TYPE" == SINGLE ]] || expect_out "redundancy  reddesc.3.$(tr '[:upper:]' '[:lower:]' <<<"$E2E_COPY_TYPE")."
run_tool "$SCR_INSPECT" --json "$PREFIX"
expect_rc 0
expect_out '"kind": "prefix"'
expect_out '"restart": "step.20"'
expect_out '"name": "step.20/rank_3.dat"'
run_tool "$SCR_INDEX" --prefix "$PREFIX" --drop step.10
expect_rc 0
run_tool "$SCR_INSPECT" "$PREFIX/.scr"
expect_rc 0
expect_out "Not in the index: step.10 (scr_index --add step.10 adopts it)"
# A damaged index says nothing of what it lists: no dataset is called
# unindexed, and no --add is suggested that scr_index would refuse.
cp "$PREFIX/.scr/index.scr" "$E2E_DIR/index.keep"
corrupt_byte "$PREFIX/.scr/index.scr" 20
run_tool "$SCR_INSPECT" "$PREFIX"
expect_rc 1
grep -q "Not in the index" "$LAST_OUT" && fail "a damaged index's datasets were called unindexed"
cp "$E2E_DIR/index.keep" "$PREFIX/.scr/index.scr"
# SCR 3.1's summary.scr truncated (SCR++ reads its own summary.scrpp):
# SCR 3.1 could not restart from that dataset, which is damage (1).
summary31="$(ls "$PREFIX"/.scr/scr.dataset.*/summary.scr | head -1)"
cp "$summary31" "$E2E_DIR/summary.keep"
truncate -s 50 "$summary31"
run_tool "$SCR_INSPECT" "$PREFIX"
expect_rc 1
expect_err "SCR 3.1 could not restart from it"
cp "$E2E_DIR/summary.keep" "$summary31"

# b) control directories, found below the base
run_tool "$SCR_INSPECT" "$CNTL"
expect_rc 0
for r in 0 1 2 3; do expect_out "filemap_$r.scr (rank $r): 1 dataset"; done
expect_out "dataset 2: step.20 (checkpoint 2), complete, flushed"
expect_out "files: step.20/rank_2.dat"
[[ "$E2E_COPY_TYPE" != XOR ]] || expect_out "redundancy of rank 2: XOR, set 1 of 2, member 2 of 2, world ranks 0,2"
run_tool "$SCR_INSPECT" --json "$CNTL/n0"
expect_rc 0
expect_out '"kind": "control"'

# c) cache directory of node n1
run_tool "$SCR_INSPECT" "$CACHE/n1"
expect_rc 0
expect_out "scr.dataset.2: 4 files"
grep -qE "^ +8208  step\.20/rank_2\.dat$" "$LAST_OUT" || fail "the cache view lacks step.20/rank_2.dat with its size"
if [[ "$E2E_COPY_TYPE" == XOR ]]; then
  expect_out ": XOR, set 1 of 2, member 2 of 2, world ranks 0,2; chunk "
  expect_out "member 1 (world rank 0): step.20/rank_0.dat 8208 B"
fi

# d) files as before, damage, non-SCR directories, usage
run_tool "$SCR_INSPECT" "$PREFIX/.scr/index.scr"
expect_rc 0
expect_out "CURRENT = step.20"
red="$(find "$CACHE/n1" -name 'reddesc.*.redset' | head -n1)"
corrupt_byte "$red" 40
run_tool "$SCR_INSPECT" "$CACHE/n1"
expect_rc 1
expect_err "$red"
expect_out "damaged header"
mkdir -p "$E2E_DIR/plain/sub"
run_tool "$SCR_INSPECT" "$E2E_DIR/plain"
expect_rc 1
expect_err "$E2E_DIR/plain: not an SCR++ prefix, control or cache directory"
run_tool "$SCR_INSPECT"
expect_rc 2
run_tool "$SCR_INSPECT" --bogus "$PREFIX"
expect_rc 2
e2e_pass
