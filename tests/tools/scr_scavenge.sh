#!/usr/bin/env bash
# scr_scavenge after killed runs (heat, 8 ranks on 4 simulated nodes, XOR sets
# of 4: one per node-rank index, so losing a node costs each set one member).
#  a) a run killed after step.40 with nothing flushed, node n1 lost: scavenge
#     brings step.40 to the prefix, rebuilding n1's ranks; every file equals
#     the cached copy taken before the loss (bytes, mode, mtime), redundancy
#     files too; step.40 is complete, flushed and CURRENT
#  b) scavenging again does nothing (exit 2) and changes nothing
#  c) a restart with the caches wiped loads step.40 from the prefix and ends
#     with the uninterrupted RESULT
#  d) two nodes lost (two members of each set): refused (exit 3), nothing of
#     step.30 written, the flushed step.20 stays CURRENT; d2) the same when
#     one of them is a control directory replaced by a symbolic link
#  e) two checkpoints cached (and staged in another directory), the newest
#     beyond repair (two members of one set lost only its files): it is
#     reported not saved (exit 3) and the older one is saved and made CURRENT
#  e2) the newest checkpoint's redundancy data damaged on every other node and
#     n1 lost: its rebuild fails the CRC32C recorded at Complete, so it is not
#     saved; the older one is, and a restart from it gives the right answer
#  e3) the newest checkpoint's cached files changed on two members of one set
#     (same size, other bytes): both copies fail their CRC32C, the set cannot
#     rebuild two, so it is not saved; its JSON entry gives a note for each
#     changed file (why it failed), and nothing of it is left in the prefix
#  f) scr_run's scavenge hook runs the real scr_scavenge after the last run
#  g) bad arguments, a missing prefix or job id, a damaged index: clear
#     errors, nothing modified
source "$(dirname "$0")/tools_lib.sh"
SCR_SCAVENGE="$SCRPP_BUILD/tools/scr_scavenge/scr_scavenge"
need_file "$SCR_SCAVENGE" "scr_scavenge is not built"
e2e_begin tools_scr_scavenge
ARGS=(-n 40 -c 10)

# scavenge [ARGS...]: scr_scavenge configured through the environment, as
# scr_run calls it after the job's last run.
scavenge() {
  run_tool env SCR_CACHE_BYPASS=0 SCR_CACHE_BASE="$CACHE" SCR_CNTL_BASE="$CNTL" SCR_SIM_NODES="$E2E_NODES" \
    "$SCR_SCAVENGE" --prefix "$PREFIX" "$@"
}

# Every file of a dataset in a node cache snapshot, relative to its dataset directory.
snapshot_copy() {
  local snap="$1" name="$2"
  find "$snap" -path "*/scr.dataset.*/$name" -type f | head -n1
}

# expect_same_as_snapshot SNAPSHOT: each application file of step.40 in the
# prefix and each redundancy file in its .scr directory is the cached copy.
expect_same_as_snapshot() {
  local snap="$1" f copy n=0
  while read -r f; do
    copy="$(snapshot_copy "$snap" "$f")"
    [[ -n "$copy" ]] || fail "no cached copy of $f in the snapshot"
    cmp -s "$copy" "$PREFIX/$f" || fail "$f differs from its cached copy"
    assert_eq "$(stat -c '%a %y' "$PREFIX/$f")" "$(stat -c '%a %y' "$copy")" "mode and mtime of $f"
    n=$((n + 1))
  done < <(cd "$PREFIX" && find step.40 -type f | sort)
  assert_eq "$n" "$E2E_NP" "application files of step.40 in the prefix"
  for copy in $(find "$snap" -path '*/scr.dataset.*' -name 'reddesc.*.redset'); do
    f="$(ls "$PREFIX"/.scr/scr.dataset.*/"$(basename "$copy")")"
    cmp -s "$copy" "$f" || fail "redundancy file $(basename "$copy") differs from its cached copy"
  done
  say "all $n files and the redundancy files equal their cached copies"
}


# a) killed run, node n1 lost
run_job SCR_FLUSH=0 -- "$E2E_NP" "$HEAT" "${ARGS[@]}" --crash-at 40
expect_crashed
assert_no_file "$PREFIX/.scr/index.scr" "with SCR_FLUSH=0 the index"
cp -a "$CACHE" "$E2E_DIR/cache.snap"
lose_node n1
scavenge
expect_rc 0
expect_out "Saved step.40 (dataset"
expect_out "8 ranks, 8 files"
expect_out "ranks 2, 3 rebuilt from redundancy data; now CURRENT."
expect_out "A restart from this prefix loads step.40."
expect_err "node n1 has no control directory"
expect_same_as_snapshot "$E2E_DIR/cache.snap"
expect_index step.40 complete 1
expect_index step.40 flushed 1
assert_eq "$(index_current)" step.40 "CURRENT"
# The summary matches the files: scr_index --build verifies every size and CRC32C.
run_tool "$SCR_INDEX" --prefix "$PREFIX" --build step.40
expect_rc 0
expect_out "All 8 files of step.40"

# b) again: nothing to do
before="$(prefix_digest)"
scavenge --json
expect_rc 2
expect_out '"state": "skipped"'
expect_out '"reason": "already flushed"'
assert_eq "$(prefix_digest)" "$before" "the prefix after a second scavenge"

# c) a new allocation: caches wiped, restart from the prefix
rm -rf "${CACHE:?}"/* "${CNTL:?}"/*
run_job -- "$E2E_NP" "$HEAT" "${ARGS[@]}"
expect_ok "restart after the scavenge"
expect_resumed_from step.40
expect_result_equals_uninterrupted "${ARGS[@]}"

# d) beyond tolerance: step.20 flushed, step.30 only cached, n1 and n2 lost
use_dirs "$E2E_DIR/two_lost"
run_job SCR_FLUSH=2 -- "$E2E_NP" "$HEAT" -n 30 -c 10 --crash-at 30
expect_crashed
assert_eq "$(index_current)" step.20 "CURRENT before the scavenge"
lose_node n1
lose_node n2
before="$(prefix_digest)"
scavenge
expect_rc 3
expect_err "step.30 (dataset 3) was not saved: XOR set 0 lost the files of members"
expect_out "A restart from this prefix loads step.20."
assert_eq "$(prefix_digest)" "$before" "the prefix after a refused scavenge"
expect_index step.30 id absent
assert_eq "$(index_current)" step.20 "CURRENT after the refused scavenge"

# d2) node n2's control directory replaced by a symbolic link (planted in a
# shared tmpfs): not followed, as SCR_Init follows none; with n1 lost too,
# each set misses two members and nothing is saved.
use_dirs "$E2E_DIR/linked"
run_job SCR_FLUSH=2 -- "$E2E_NP" "$HEAT" -n 30 -c 10 --crash-at 30
expect_crashed
lose_node n1
mv "$CNTL/n2" "$E2E_DIR/n2.cntl"
ln -s "$E2E_DIR/n2.cntl" "$CNTL/n2"
scavenge
expect_rc 3
expect_err "$CNTL/n2 is a symbolic link"
expect_index step.30 id absent

# e) the newest checkpoint cannot be rebuilt: the next older one is saved
use_dirs "$E2E_DIR/fallback"
run_job SCR_FLUSH=0 SCR_CACHE_SIZE=2 -- "$E2E_NP" "$HEAT" "${ARGS[@]}" --crash-at 40
expect_crashed
rm "$CACHE"/n1/*/*/scr.dataset.4/step.40/rank_2.dat "$CACHE"/n2/*/*/scr.dataset.4/step.40/rank_4.dat
# Staged elsewhere, as on a cluster: --cache-base overrides the STORE in the filemaps.
mv "$CACHE" "$E2E_DIR/staged"
scavenge --cache-base "$E2E_DIR/staged"
expect_rc 3
expect_out "Not saved: step.40 (dataset 4): XOR set 0 lost the files of members 1 (rank 2), 2 (rank 4)"
expect_out "Saved step.30 (dataset 3, checkpoint): 8 ranks, 8 files"
expect_out "A restart from this prefix loads step.30."
expect_index step.40 id absent

# e2) the redundancy data of the newest checkpoint is damaged and a node lost:
# its rebuild would be wrong, so it is not saved; the intact older one is.
use_dirs "$E2E_DIR/damaged"
run_job SCR_FLUSH=0 SCR_CACHE_SIZE=2 -- "$E2E_NP" "$HEAT" "${ARGS[@]}" --crash-at 40
expect_crashed
for red in "$CACHE"/n[023]/*/*/scr.dataset.4/.scr/*.redset; do damage_data "$red"; done
lose_node n1
scavenge
expect_rc 3
expect_out "Not saved: step.40 (dataset 4)"
expect_out "Saved step.30 (dataset 3, checkpoint)"
expect_out "A restart from this prefix loads step.30."
expect_index step.40 loadable 0
for node in n0 n2 n3; do lose_node "$node"; done
run_job -- "$E2E_NP" "$HEAT" "${ARGS[@]}"
expect_ok "restart after scavenging past damaged redundancy data"
expect_resumed_from step.30
expect_result_equals_uninterrupted "${ARGS[@]}"

# e3) cached files changed after Complete on two members of one set
use_dirs "$E2E_DIR/changed"
run_job SCR_FLUSH=0 SCR_CACHE_SIZE=2 -- "$E2E_NP" "$HEAT" "${ARGS[@]}" --crash-at 40
expect_crashed
for f in "$CACHE"/n1/*/*/scr.dataset.4/step.40/rank_2.dat "$CACHE"/n2/*/*/scr.dataset.4/step.40/rank_4.dat; do
  python3 -c 'import sys; p = sys.argv[1]; b = bytearray(open(p, "rb").read()); b[100] ^= 0x5a; open(p, "wb").write(b)' "$f"
done
scavenge --json
expect_rc 3
python3 - "$LAST_OUT" <<'PY' || fail "the JSON report of step.40 lacks a note per changed file"
import json, sys
report = json.load(open(sys.argv[1]))
d = [d for d in report["datasets"] if d["name"] == "step.40"][0]
assert d["state"] == "failed", d
changed = [n for n in d["notes"] if "rank_2.dat" in n or "rank_4.dat" in n]
assert len(changed) == 2, d["notes"]
PY
assert_no_file "$PREFIX/step.40" "the unsaved step.40's copies"
expect_index step.40 loadable 0

# f) scr_run scavenges at the end with the real scr_scavenge
use_dirs "$E2E_DIR/runner"
JOB_N=$((JOB_N + 1))
LAST_OUT="$E2E_DIR/runner.out" LAST_ERR="$E2E_DIR/runner.err" LAST_CMD="scr_run --runs 1"
set +e
(cd "$PREFIX" && env PATH="$(dirname "$SCR_SCAVENGE"):/usr/bin:/bin" SCR_COPY_TYPE=XOR SCR_FLUSH=0 SCR_CACHE_BYPASS=0 \
  SCR_CACHE_BASE="$CACHE" SCR_CNTL_BASE="$CNTL" timeout -k 10 120 "$SCR_RUN" --runs 1 \
  --nodes "$E2E_NODES" -- -n "$E2E_NP" "$HEAT" "${ARGS[@]}" --crash-at 25) >"$LAST_OUT" 2>"$LAST_ERR"
LAST_RC=$?
set -e
expect_rc 4
expect_out "scavenging: $SCR_SCAVENGE --prefix $PREFIX"
expect_out "scavenge finished"
expect_out "Saved step.20 (dataset 2, checkpoint): 8 ranks, 8 files"
expect_index step.20 loadable 1

# g) bad arguments and broken prefixes: errors, nothing modified
before="$(prefix_digest)"
scavenge --nodes n0,n0
expect_rc 1
expect_err "node n0 is listed twice"
scavenge --bogus
expect_rc 1
expect_err "--bogus"
scavenge extra
expect_rc 1
run_tool "$SCR_SCAVENGE" --prefix "$E2E_DIR/no-such-dir" --cache-base "$CACHE" --cntl-base "$CNTL"
expect_rc 2
expect_err "no-such-dir does not exist"
mkdir -p "$E2E_DIR/fresh"
run_tool "$SCR_SCAVENGE" --prefix "$E2E_DIR/fresh" --cache-base "$CACHE" --cntl-base "$CNTL"
expect_rc 1   # a configuration error, not "nothing to scavenge" (2)
expect_err "cannot tell which job to scavenge"
assert_no_file "$E2E_DIR/fresh/.scr" "a job id invented for an empty prefix:"
run_tool env SCR_CONF_FILE="$E2E_DIR/no-such.conf" SCR_CACHE_BYPASS=0 SCR_CACHE_BASE="$CACHE" SCR_CNTL_BASE="$CNTL" \
  SCR_SIM_NODES="$E2E_NODES" "$SCR_SCAVENGE" --prefix "$PREFIX"
expect_rc 1   # a user config file that is not there: not "nothing to scavenge"
expect_err "no-such.conf"
assert_eq "$(prefix_digest)" "$before" "the prefix after refused calls"
# A damaged index does not keep the cache's datasets from the prefix: it is
# set aside (never deleted) and a new one lists what the scavenge saves,
# also the checkpoint the cache marks flushed.
printf 'garbage' >"$PREFIX/.scr/index.scr"
scavenge
expect_rc 0
expect_err "set aside as"
aside=("$PREFIX"/.scr/index.scr.unreadable.*)
[[ -f "${aside[0]}" && "$(cat "${aside[0]}")" == garbage ]] || fail "the damaged index was not kept aside: ${aside[*]}"
expect_index step.20 loadable 1
run_tool "$SCR_SCAVENGE" --help
expect_rc 0
expect_out "usage: scr_scavenge"
e2e_pass
