#!/usr/bin/env bash
# scr_index's errors: each names the problem, exits with its documented code
# and leaves everything as it was.
#  a) bad arguments: exit 1
#  b) a directory that does not exist, or is not a prefix: exit 2, nothing created
#  c) unknown dataset names: exit 2
#  d) a damaged index (one flipped byte, or cut short): exit 3 naming the
#     file, for the listing and for every change; not one byte changed
source "$(dirname "$0")/tools_lib.sh"
e2e_begin tools_tool_errors
make_prefix
before="$(scr_digest)"

# a) bad arguments
run_tool "$SCR_INDEX" --prefix "$PREFIX" --frobnicate
expect_rc 1
expect_err "unknown option '--frobnicate'"
expect_err "Try 'scr_index --help'"
run_tool "$SCR_INDEX" --prefix "$PREFIX" --current
expect_rc 1
expect_err "--current needs a value"
run_tool "$SCR_INDEX" --prefix "$PREFIX" --drop step.10 --current step.20
expect_rc 1
expect_err "choose one change per call"
run_tool "$SCR_INDEX" --prefix "$PREFIX" --drop step.10 --json
expect_rc 1
run_tool "$SCR_INDEX" --prefix "$PREFIX" stray
expect_rc 1
expect_err "unexpected argument 'stray'"
run_tool "$SCR_INDEX" --help
expect_rc 0
expect_out "Exit status:"
expect_digest "$before" "rejected arguments"

# b) not a prefix
run_tool "$SCR_INDEX" --prefix "$E2E_DIR/nowhere" --drop step.10
expect_rc 2
expect_err "$E2E_DIR/nowhere does not exist"
assert_no_file "$E2E_DIR/nowhere" "a missing prefix must not be created:"
mkdir -p "$E2E_DIR/plain"
for args in "" "--add step.10" "--current step.10"; do
  # shellcheck disable=SC2086
  run_tool "$SCR_INDEX" --prefix "$E2E_DIR/plain" $args
  expect_rc 2
  expect_err "$E2E_DIR/plain is not an SCR prefix: $E2E_DIR/plain/.scr/index.scr does not exist"
done
assert_no_file "$E2E_DIR/plain/.scr" "scr_index on a plain directory must not create"
(cd "$E2E_DIR/plain" && "$SCR_INDEX" >/dev/null 2>&1) && fail "scr_index in a plain directory succeeded"

# c) unknown names
for opt in --current --drop --drop-after; do
  run_tool "$SCR_INDEX" --prefix "$PREFIX" "$opt" step.99
  expect_rc 2
  expect_err "no dataset named 'step.99' in the index of $PREFIX"
done
expect_digest "$before" "unknown names"

# d) a damaged index: every command but --add and --build refuses, nothing changes
index="$PREFIX/.scr/index.scr"
for damage in flip cut; do
  cp "$index" "$E2E_DIR/index.good"
  if [[ $damage == flip ]]; then corrupt_byte "$index" 40; else truncate -s 20 "$index"; fi
  damaged="$(scr_digest)"
  for args in "" "--json" "--current step.20" "--drop step.20" "--drop-after step.10"; do
    # shellcheck disable=SC2086
    run_tool "$SCR_INDEX" --prefix "$PREFIX" $args
    expect_rc 3
    expect_err "$index"
  done
  expect_digest "$damaged" "scr_index on a damaged index"
  cp "$E2E_DIR/index.good" "$index"
done
run_tool "$SCR_INDEX" --prefix "$PREFIX"
expect_rc 0
expect_digest "$before" "the whole scenario"

# e) --add sets a damaged index aside (never deleted) and starts a new one,
# as SCR_Init and scr_scavenge do: adding to the prefix is what it must not
# stop.
truncate -s 20 "$index"
damaged="$(scr_digest)"
run_tool "$SCR_INDEX" --prefix "$PREFIX" --add no.such.name
expect_rc 2   # refused: the damaged index stays where it is
expect_digest "$damaged" "a refused --add on a damaged index"
run_tool "$SCR_INDEX" --prefix "$PREFIX" --add step.40
expect_rc 0
expect_err "set aside as"
expect_index step.40 loadable 1
aside=("$index".unreadable.*)
[[ -f "${aside[0]}" && $(stat -c %s "${aside[0]}") -eq 20 ]] || fail "the damaged index was not kept aside: ${aside[*]}"
e2e_pass
