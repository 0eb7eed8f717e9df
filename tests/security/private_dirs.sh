#!/usr/bin/env bash
# Node-local storage stays private: control and cache directories are 0700
# and owned by the user, and a symbolic link planted where SCR++ would create
# them (another user on a shared /dev/shm) is refused, never followed.
source "$(dirname "$0")/../e2e/lib.sh"
E2E_NP=2 E2E_NODES=n0,n1
e2e_begin private_dirs

run_job -- 2 "$HEAT" -n 10 -c 10 -g 16 16
expect_ok
for dir in "$CACHE"/n0/*/scr.* "$CNTL"/n1/*/scr.* "$CACHE"/n1/* "$CNTL"/n0/*; do
  assert_eq "$(stat -c %a "$dir")" 700 "mode of $dir"
  assert_eq "$(stat -c %u "$dir")" "$(id -u)" "owner of $dir"
done

# A link planted at the per-user directory of a node's cache.
victim="$E2E_DIR/victim"
mkdir -p "$victim"
user_dir="$(basename "$(dirname "$(ls -d "$CACHE"/n0/*/scr.*)")")"
use_dirs "$E2E_DIR/planted"
mkdir -p "$CACHE/n1"
ln -s "$victim" "$CACHE/n1/$user_dir"
run_job -- 2 "$HEAT" -n 10 -c 10 -g 16 16
expect_failed
expect_said "$CACHE/n1/$user_dir is a symbolic link"
[[ -z "$(ls -A "$victim")" ]] || fail "SCR++ wrote through the planted link into $victim"

# A link planted at the job directory itself (the job id is recorded in the
# prefix, so it is known in advance).
use_dirs "$E2E_DIR/planted_job"
run_job -- 2 "$HEAT" -n 10 -c 10 -g 16 16
expect_ok
job="$(basename "$(ls -d "$CNTL"/n0/*/scr.*)")"
rm -rf "$CNTL/n0/$user_dir/$job"
ln -s "$victim" "$CNTL/n0/$user_dir/$job"
run_job -- 2 "$HEAT" -n 10 -c 10 -g 16 16
expect_failed
expect_said "symbolic link"
[[ -z "$(ls -A "$victim")" ]] || fail "SCR++ wrote through the planted link into $victim"
e2e_pass
