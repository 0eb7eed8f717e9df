#!/usr/bin/env bash
# scr_index on a real prefix: the listing shows the datasets, and each change
# alters what the next restart from the prefix loads.
#  a) list (SCR's layout, SCR++'s --details table, JSON); listing changes nothing
#  b) --current step.20: the next restart loads step.20
#  c) --drop of the newest (and CURRENT) dataset: the next restart loads the older one
#  d) --add re-adopts the dropped dataset after verifying it; made CURRENT;
#     SCR's --remove NAME and --add ID do the same
#     (a restart sets CURRENT to what it loaded), the next restart loads it
#  e) --drop-after step.10: the next restart loads step.10; again: nothing
#     to do (exit 0 as SCR's, 2 with --strict)
#  f) --add refuses damaged datasets (wrong size, wrong CRC); a dataset
#     already indexed changes nothing
#  g) --current and --add refuse a dataset the runtime marked FAILED
source "$(dirname "$0")/tools_lib.sh"
e2e_begin tools_scr_index
make_prefix

# a) listing
run_tool "$SCR_INDEX" --prefix "$PREFIX"
expect_rc 0
expect_out "DSET VALID FLUSHED             CUR NAME"
grep -qE '^   4 YES   20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}   \* step\.40$' "$LAST_OUT" ||
  fail "the listing does not show step.40 in SCR's layout"
run_tool "$SCR_INDEX" --prefix "$PREFIX" --details
expect_rc 0
expect_out "DSET  VALID  FLUSHED  TYPE        FAILED      SIZE  CREATED"
for s in 10 20 30; do
  grep -qE "^ +[0-9]+  YES +YES +checkpoint +no +[0-9.]+ KiB +20[0-9-]+ [0-9:]+ +step\.$s$" "$LAST_OUT" ||
    fail "the listing has no complete, flushed, not current row for step.$s"
done
grep -qE "^ +[0-9]+  YES +YES +checkpoint +no +[0-9.]+ KiB +20[0-9-]+ [0-9:]+ +\* +step\.40$" "$LAST_OUT" ||
  fail "the listing does not mark step.40 as CURRENT with size and time"
expect_out "A restart from this prefix loads step.40 (CURRENT)."
before="$(scr_digest)"
run_tool "$SCR_INDEX" --prefix "$PREFIX" --json
expect_rc 0
expect_out '"current": "step.40"'
assert_eq "$(grep -c '"flushed": true' "$LAST_OUT")" 4 "datasets flushed in the JSON listing"
assert_eq "$(grep -c '"name": "step\.' "$LAST_OUT")" 4 "datasets in the JSON listing"
expect_digest "$before" "listing"

# b) --current
run_tool "$SCR_INDEX" --prefix "$PREFIX" --current step.20
expect_rc 0
expect_out "step.20 is now CURRENT (it was step.40)."
assert_eq "$(index_current)" step.20 "CURRENT as the runtime reads it"
restart_job -n 20
expect_resumed_from step.20

# c) --drop the newest, which is made CURRENT first
run_tool "$SCR_INDEX" --prefix "$PREFIX" --current step.40
expect_rc 0
run_tool "$SCR_INDEX" --prefix "$PREFIX" --drop step.40
expect_rc 0
expect_out "It was CURRENT"
expect_out "A restart from this prefix now loads step.30."
expect_index step.40 id absent
assert_file "$PREFIX/step.40/rank_0.dat" "--drop keeps the files:"
restart_job -n 30
expect_resumed_from step.30

# d) --add adopts it again
run_tool "$SCR_INDEX" --prefix "$PREFIX" --add step.40
expect_rc 0
expect_out "sizes and CRC32C verified"
expect_index step.40 loadable 1
run_tool "$SCR_INDEX" --prefix "$PREFIX" --current step.40
expect_rc 0
restart_job -n 40
expect_resumed_from step.40
# ... and with SCR's spellings: --remove NAME, then --add with the dataset id.
id40="$(index_field step.40 id)"
run_tool "$SCR_INDEX" --prefix "$PREFIX" --remove step.40
expect_rc 0
expect_index step.40 id absent
run_tool "$SCR_INDEX" --prefix "$PREFIX" -a "$id40"
expect_rc 0
expect_index step.40 id "$id40"
expect_index step.40 loadable 1

# e) --drop-after
run_tool "$SCR_INDEX" --prefix "$PREFIX" --drop-after step.10
expect_rc 0
for s in 20 30 40; do expect_index "step.$s" id absent; done
expect_index step.10 loadable 1
restart_job -n 10
expect_resumed_from step.10
before="$(scr_digest)"
run_tool "$SCR_INDEX" --prefix "$PREFIX" --drop-after step.10
expect_rc 0
expect_err "no dataset is newer than step.10; nothing changed"
run_tool "$SCR_INDEX" --prefix "$PREFIX" --drop-after step.10 --strict
expect_rc 2
expect_digest "$before" "--drop-after with nothing to drop"

# f) --add refuses what does not verify, and changes nothing
truncate -s 100 "$PREFIX/step.30/rank_1.dat"
run_tool "$SCR_INDEX" --prefix "$PREFIX" --add step.30
expect_rc 3
expect_err "step.30/rank_1.dat has 100 bytes, the summary says 8208"
corrupt_byte "$PREFIX/step.20/rank_2.dat" 100
run_tool "$SCR_INDEX" --prefix "$PREFIX" --add step.20
expect_rc 3
expect_err "step.20/rank_2.dat fails its CRC32C check"
run_tool "$SCR_INDEX" --prefix "$PREFIX" --add step.10
expect_rc 0
expect_err "'step.10' is already in the index (dataset 1); nothing changed"
run_tool "$SCR_INDEX" --prefix "$PREFIX" --add step.99
expect_rc 2
expect_err "has a summary for 'step.99'"
expect_digest "$before" "refused --add"

# g) a dataset a restart found damaged is marked FAILED; it cannot become CURRENT
corrupt_byte "$PREFIX/step.10/rank_0.dat" 100
restart_job -n 5
expect_fresh_start
expect_index step.10 failed 1
run_tool "$SCR_INDEX" --prefix "$PREFIX"
expect_rc 0
grep -qE "^   1 NO    [0-9T:-]{19}     step\.10$" "$LAST_OUT" || fail "the listing does not show step.10 as not valid"
run_tool "$SCR_INDEX" --prefix "$PREFIX" --details
expect_rc 0
grep -qE "^ +[0-9]+  NO +YES +checkpoint +yes .* step\.10$" "$LAST_OUT" || fail "the listing does not show step.10 as failed"
expect_out "A restart from this prefix finds no loadable checkpoint."
run_tool "$SCR_INDEX" --prefix "$PREFIX" --current step.10
expect_rc 4
expect_err "cannot make 'step.10' CURRENT: it is marked FAILED"
run_tool "$SCR_INDEX" --prefix "$PREFIX" --add step.10
expect_rc 4
expect_err "'step.10' is already in the index (dataset 1), marked FAILED"
e2e_pass
