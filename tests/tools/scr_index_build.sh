#!/usr/bin/env bash
# scr_index --build on prefixes flushed by real jobs (heat, 8 ranks on 4
# simulated nodes: redundancy sets of 4, ranks {0,2,4,6} and {1,3,5,7}).
#  a) XOR: a deleted file and a file with a flipped byte are rebuilt, bytes,
#     mode and mtime as flushed; the index is not touched; a restart from the
#     prefix then loads the dataset
#  b) XOR: two losses in one set are refused, nothing modified
#  c) RS (k = 2): two deleted files of one set are rebuilt; three are refused
#  d) nothing to rebuild (exit 0, as SCR; a dataset written with cache
#     bypass has no redundancy files, and the message does not claim any),
#     unknown dataset, bad arguments; SCR 3.1's damaged summary.scr written
#     again from SCR++'s
source "$(dirname "$0")/tools_lib.sh"
e2e_begin tools_scr_index_build


# expect_restored FILE...: each prefix file equals its copy in $SNAP, with its
# mode and modification time.
expect_restored() {
  local f
  for f in "$@"; do
    cmp -s "$SNAP/$f" "$PREFIX/$f" || fail "$f differs from the flushed original"
    assert_eq "$(stat -c '%a %y' "$PREFIX/$f")" "$(stat -c '%a %y' "$SNAP/$f")" "mode and mtime of $f"
  done
  say "restored exactly: $*"
}

# flushed_prefix [VAR=VALUE...]: a prefix with step.10 and step.20 flushed,
# and a copy of it in $SNAP.
flushed_prefix() {
  run_job SCR_FLUSH=1 "$@" -- "$E2E_NP" "$HEAT" -n 20 -c 10
  expect_ok "job producing the prefix"
  SNAP="$E2E_DIR/snap.$JOB_N"
  cp -a "$PREFIX" "$SNAP"
}

# a) XOR, one file per set
flushed_prefix
index_before="$(sha256sum "$PREFIX/.scr/index.scr")"
rm "$PREFIX/step.20/rank_3.dat"
corrupt_byte "$PREFIX/step.20/rank_6.dat" 200
run_tool "$SCR_INDEX" --prefix "$PREFIX" --build step.20
expect_rc 0
expect_err "rank 3: step.20/rank_3.dat is missing"
expect_err "rank 6: step.20/rank_6.dat fails its CRC32C check"
expect_out "Rebuilt rank 3 from XOR data:"
expect_out "Rebuilt rank 6 from XOR data:"
expect_out "step.20 (dataset 2): all 8 files and the redundancy files verified (sizes and CRC32C)."
expect_restored step.20/rank_3.dat step.20/rank_6.dat
assert_eq "$(sha256sum "$PREFIX/.scr/index.scr")" "$index_before" "the index after --build"
assert_eq "$(find "$PREFIX" -name '*tmp*' | wc -l)" 0 "temporary files left"
run_job SCR_FLUSH=1 SCR_CACHE_PURGE=1 -- "$E2E_NP" "$HEAT" -n 20 -c 10
expect_ok "restart from the rebuilt prefix"
expect_resumed_from step.20
# A dataset the index no longer lists is found by its name too, rebuilt and
# added back.
run_tool "$SCR_INDEX" --prefix "$PREFIX" --drop step.10
expect_rc 0
rm "$PREFIX/step.10/rank_4.dat"
run_tool "$SCR_INDEX" --prefix "$PREFIX" --build step.10
expect_rc 0
expect_out "Rebuilt rank 4 from XOR data:"
expect_restored step.10/rank_4.dat
run_tool "$SCR_INDEX" --prefix "$PREFIX" --list
expect_out "step.10"

# b) XOR, two files of one set
rm "$PREFIX/step.20/rank_1.dat" "$PREFIX/step.20/rank_5.dat"
before="$(prefix_digest)"
run_tool "$SCR_INDEX" --prefix "$PREFIX" --build 2
expect_rc 3
expect_err "cannot rebuild step.20: XOR set 1 lost the files of members 0 (rank 1), 2 (rank 5)"
expect_err "nothing was changed"
assert_eq "$(prefix_digest)" "$before" "the prefix after a refused --build"

# c) RS with two check chunks per member
use_dirs "$E2E_DIR/rs"
flushed_prefix SCR_COPY_TYPE=RS SCR_SET_FAILURES=2
rm "$PREFIX/step.10/rank_4.dat" "$PREFIX/step.10/rank_6.dat"
run_tool "$SCR_INDEX" --prefix "$PREFIX" --build step.10
expect_rc 0
expect_out "Rebuilt rank 4 from RS data:"
expect_out "Rebuilt rank 6 from RS data:"
expect_restored step.10/rank_4.dat step.10/rank_6.dat
rm "$PREFIX/step.10/rank_1.dat" "$PREFIX/step.10/rank_3.dat" "$PREFIX"/.scr/scr.dataset.1/reddesc.5.*
before="$(prefix_digest)"
run_tool "$SCR_INDEX" --prefix "$PREFIX" --build step.10
expect_rc 3
expect_err "RS set 1 lost the files of members 0 (rank 1), 1 (rank 3), 2 (rank 5); RS with 2 check chunks rebuilds at most 2 members per set"
assert_eq "$(prefix_digest)" "$before" "the prefix after a refused --build"

# d) nothing to rebuild (0, as SCR), unknown names, bad arguments
run_tool "$SCR_INDEX" --prefix "$PREFIX" --build step.20
expect_rc 0
expect_out "All 8 files of step.20 (dataset 2) and its redundancy files verified; nothing to rebuild."
run_tool "$SCR_INDEX" --prefix "$PREFIX" --build step.99
expect_rc 2
expect_err "no dataset named 'step.99'"
run_tool "$SCR_INDEX" --prefix "$PREFIX" --build
expect_rc 1
run_tool "$SCR_INDEX" --prefix "$PREFIX" --build step.20 --json
expect_rc 1
run_tool "$SCR_INDEX" --prefix "$PREFIX" --build step.20 --drop step.20
expect_rc 1
expect_err "choose one change per call"
assert_eq "$(prefix_digest)" "$before" "the prefix after bad calls"
use_dirs "$E2E_DIR/bypass"
run_job SCR_CACHE_BYPASS=1 -- "$E2E_NP" "$HEAT" -n 20 -c 10
expect_ok "job writing with cache bypass"
run_tool "$SCR_INDEX" --prefix "$PREFIX" --build step.20
expect_rc 0
expect_out "All 8 files of step.20 (dataset 2) verified; nothing to rebuild."
# SCR 3.1's summary.scr truncated: SCR++ restarts from its own summary, but
# SCR 3.1 could not; --build writes it again, as it was.
summary31="$PREFIX/.scr/scr.dataset.2/summary.scr"
cp "$summary31" "$E2E_DIR/summary31.good"
truncate -s 50 "$summary31"
run_tool "$SCR_INDEX" --prefix "$PREFIX" --build step.20
expect_rc 0
expect_err "written again from SCR++'s summary.scrpp"
cmp -s "$summary31" "$E2E_DIR/summary31.good" || fail "--build did not write SCR 3.1's summary.scr again as it was"
e2e_pass
