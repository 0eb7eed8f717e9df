#!/usr/bin/env bash
# A campaign SCR 3.1 started goes on under SCR++ (tests/fixtures/scr31: prefixes
# SCR 3.1.0 itself wrote with ckpt.1-4, CURRENT ckpt.4). For each fixture, in a
# copy of it, scr31_app (cache bypass, SCR++'s default, and cache with XOR):
#  - restarts from ckpt.4, at the size that wrote it and at another size, and
#    reads back every file byte for byte;
#  - writes its own checkpoint, numbered after SCR's (dataset 5, checkpoint 5);
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
# the halt file, which every job rewrites).
fixture_sums() {
  (cd "$1" && find . -type f ! -path ./.scr/index.scr ! -path ./.scr/halt.scr -print0 | sort -z) |
    (cd "$2" && xargs -0 sha256sum)
}

# fixture ranks-that-wrote-it ranks-now [VAR=VALUE...]
campaign() {
  local fixture="$1" np="$3" tag="$1.np$3"
  shift 3
  use_dirs "$E2E_DIR/$tag"
  cp -a "$FIXTURES/$fixture/." "$PREFIX/"
  local before
  before="$(fixture_sums "$FIXTURES/$fixture" "$FIXTURES/$fixture")"
  run_job SCR_COPY_TYPE=XOR SCR_SET_SIZE=2 "$@" -- "$np" "$PROG" "$E2E_DIR/$tag/read" scrpp.5
  ok_run "$tag"
  expect_out "RESTARTED ckpt.4"
  diff -r "$FIXTURES/$fixture/ckpt.4" "$E2E_DIR/$tag/read/ckpt.4" >/dev/null ||
    fail "$tag: the files read back differ from ckpt.4 as SCR 3.1 wrote it"
  [[ "$(fixture_sums "$FIXTURES/$fixture" "$PREFIX")" == "$before" ]] || fail "$tag: a file SCR 3.1 wrote was changed"
  "${CHECK[@]}" kept "$FIXTURES/$fixture/.scr/index.scr" "$PREFIX/.scr/index.scr" ||
    fail "$tag: SCR 3.1's index entries were not kept"
  expect_entry 5 name=scrpp.5 ckpt=5 complete=1 flushed=1 loadable=1
  assert_eq "$(index_current)" scrpp.5 "current checkpoint"
  local theirs="$FIXTURES/$fixture/.scr/scr.dataset.4" ours="$PREFIX/.scr/scr.dataset.5"
  for f in summary.scr rank2file rank2file.0.0; do
    "${CHECK[@]}" shape "$theirs/$f" "$ours/$f" || fail "$tag: $f is not in SCR 3.1's layout"
  done
  run_job SCR_COPY_TYPE=XOR SCR_SET_SIZE=2 "$@" -- "$np" "$PROG" "$E2E_DIR/$tag/read2" scrpp.6
  ok_run "$tag, second job"
  expect_out "RESTARTED scrpp.5"
  for ((r = 0; r < np; ++r)); do
    assert_file_content "$E2E_DIR/$tag/read2/scrpp.5/rank_$r.dat" "scrpp.5 rank $r"
  done
  expect_entry 6 name=scrpp.6 ckpt=6 loadable=1
  say "$tag: restarted from SCR 3.1's ckpt.4 and then from SCR++'s own"
}

campaign bypass_np4 4 4 SCR_CACHE_BYPASS=1
campaign bypass_np4 4 2 SCR_CACHE_BYPASS=1
campaign xor_np4 4 4 SCR_CACHE_BYPASS=0 SCR_FLUSH=1
campaign bypass_np1 1 2 SCR_CACHE_BYPASS=0 SCR_FLUSH=1

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
