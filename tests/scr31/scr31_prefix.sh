#!/usr/bin/env bash
# A campaign SCR 3.1 started goes on under SCR++ (tests/fixtures/scr31: prefixes
# SCR 3.1.0 itself wrote, CURRENT the newest). For each fixture, in a copy of
# it, scr_index lists SCR's newest checkpoint first, and scr31_app (cache
# bypass, SCR++'s default, and cache with XOR):
#  - restarts from SCR's CURRENT, at the size that wrote it and at another
#    size, and reads back every file byte for byte;
#  - writes its own checkpoint, numbered after SCR's;
#  - changes no file SCR 3.1 wrote but the index, whose SCR entries stay as
#    they were (but for the FETCHED stamp of the restart);
#  - leaves its own dataset in SCR 3.1's layout (index entry, summary.scr,
#    rank2file maps with every key SCR 3.1 reads);
# then a second job restarts from SCR++'s own checkpoint.
# An index no library can read (damaged) is set aside, never deleted, and the
# job's checkpoints are saved in a new one.
source "$(dirname "$0")/../e2e/lib.sh"
E2E_NODES=n0,n1
e2e_begin scr31_prefix
PROG="$SCRPP_BUILD/tests/scr31/scr31_app"
FIXTURES="$SCRPP_SOURCE/tests/fixtures/scr31"
CHECK=(python3 "$SCRPP_SOURCE/tests/scr31/scr31_check.py")
need_file "$PROG" "scr31_app is not built"

ok_run() {
  [[ $LAST_RC -eq 0 ]] || fail "scr31_app ($1) exited with $LAST_RC"
  expect_out "scr31_app: ALL"
}

# expect_entry ID FIELD=VALUE...: the index line of dataset ID has them all.
expect_entry() {
  local id="$1" line kv
  shift
  line="$(index_show | grep "^id=$id " || true)"
  for kv in "$@"; do
    [[ " $line " == *" $kv "* ]] || fail "prefix index: dataset $id lacks $kv: '$line'"
  done
}

# fixture_sums FIXTURE DIR: checksums, in DIR, of every file SCR 3.1 wrote in
# FIXTURE that SCR++ must leave alone (all but the index, which it shares, and
# the halt file and the last run's node count, which every job rewrites).
fixture_sums() {
  (cd "$1" && find . -type f ! -path ./.scr/index.scr ! -path ./.scr/halt.scr ! -path ./.scr/nodes.scr -print0 | sort -z) |
    (cd "$2" && xargs -0 sha256sum)
}

# campaign FIXTURE RANKS-NOW CURRENT NEXT-ID [VAR=VALUE...]: restart from
# CURRENT (SCR's), write dataset NEXT-ID (checkpoint NEXT-ID), restart from it.
campaign() {
  local fixture="$1" np="$2" current="$3" next="$4" tag="$1.np$2"
  local ours="scrpp.$4" again="scrpp.$(($4 + 1))"
  shift 4
  use_dirs "$E2E_DIR/$tag"
  cp -a "$FIXTURES/$fixture/." "$PREFIX/"
  local before
  before="$(fixture_sums "$FIXTURES/$fixture" "$FIXTURES/$fixture")"
  local listed
  listed="$(cd "$PREFIX" && "$SCRPP_BUILD/tools/scr_index/scr_index" -l | sed -n 2p)"
  assert_eq "$(awk '{print $NF}' <<<"$listed")" "$current" "$tag: newest checkpoint scr_index lists"
  assert_eq "$(awk '{print $3}' <<<"$listed")" "$("${CHECK[@]}" flushed "$PREFIX/.scr/index.scr" "${current#ckpt.}")" \
    "$tag: FLUSHED as SCR stamped it"
  run_job SCR_COPY_TYPE=XOR SCR_SET_SIZE=2 "$@" -- "$np" "$PROG" "$E2E_DIR/$tag/read" "$ours"
  ok_run "$tag"
  expect_out "RESTARTED $current"
  diff -r "$FIXTURES/$fixture/$current" "$E2E_DIR/$tag/read/$current" >/dev/null ||
    fail "$tag: the files read back differ from $current as SCR 3.1 wrote it"
  [[ "$(fixture_sums "$FIXTURES/$fixture" "$PREFIX")" == "$before" ]] || fail "$tag: a file SCR 3.1 wrote was changed"
  "${CHECK[@]}" kept "$FIXTURES/$fixture/.scr/index.scr" "$PREFIX/.scr/index.scr" ||
    fail "$tag: SCR 3.1's index entries were not kept"
  expect_entry "$next" "name=$ours" "ckpt=$next" complete=1 flushed=1 loadable=1
  assert_eq "$(index_current)" "$ours" "current checkpoint"
  local theirs_dir="$FIXTURES/$fixture/.scr/scr.dataset.$((next - 1))" ours_dir="$PREFIX/.scr/scr.dataset.$next"
  for f in summary.scr rank2file rank2file.0.0; do
    "${CHECK[@]}" shape "$theirs_dir/$f" "$ours_dir/$f" || fail "$tag: $f is not in SCR 3.1's layout"
  done
  run_job SCR_COPY_TYPE=XOR SCR_SET_SIZE=2 "$@" -- "$np" "$PROG" "$E2E_DIR/$tag/read2" "$again"
  ok_run "$tag, second job"
  expect_out "RESTARTED $ours"
  for ((r = 0; r < np; ++r)); do
    assert_file_content "$E2E_DIR/$tag/read2/$ours/rank_$r.dat" "$ours rank $r"
  done
  expect_entry $((next + 1)) "name=$again" "ckpt=$((next + 1))" loadable=1
  say "$tag: restarted from SCR 3.1's $current and then from SCR++'s own"
}

campaign bypass_np4 4 ckpt.4 5 SCR_CACHE_BYPASS=1
campaign bypass_np4 2 ckpt.4 5 SCR_CACHE_BYPASS=1
campaign bypass_np4_rerun 4 ckpt.7 8 SCR_CACHE_BYPASS=1
campaign xor_np4 4 ckpt.4 5 SCR_CACHE_BYPASS=0 SCR_FLUSH=1
campaign xor_np1 1 ckpt.4 5 SCR_CACHE_BYPASS=0 SCR_FLUSH=1 SCR_SIM_NODES=n0
campaign bypass_np1 2 ckpt.4 5 SCR_CACHE_BYPASS=0 SCR_FLUSH=1

use_dirs "$E2E_DIR/unreadable"
cp -a "$FIXTURES/bypass_np4/." "$PREFIX/"
printf 'damaged' | dd of="$PREFIX/.scr/index.scr" bs=1 seek=40 conv=notrunc status=none
damaged="$(sha256sum <"$PREFIX/.scr/index.scr")"
run_job SCR_CACHE_BYPASS=1 -- 4 "$PROG" "$E2E_DIR/unreadable/read" scrpp.new
ok_run "damaged index"
expect_out "RESTARTED none"
set_aside=("$PREFIX"/.scr/index.scr.unreadable.*)
[[ -f "${set_aside[0]}" ]] || fail "the damaged index was not kept"
[[ "$(sha256sum <"${set_aside[0]}")" == "$damaged" ]] || fail "the damaged index set aside was changed"
expect_entry 5 name=scrpp.new loadable=1
say "a damaged index is set aside and the job's checkpoint saved"
e2e_pass
