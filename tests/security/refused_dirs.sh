#!/usr/bin/env bash
# A directory SCR_Init refuses is left exactly as it was. Another user's or a
# symbolically linked per-user directory under the control or cache base
# (directly, or under a simulated node's directory), and another user's or a
# linked .scr directory in the prefix, make the job fail before anything is
# made inside them: owners, modes, times, entries and contents are unchanged,
# and so is whatever a link points to.
source "$(dirname "$0")/../e2e/lib.sh"
E2E_NP=2 E2E_NODES=n0,n1
e2e_begin refused_dirs
user=scruser
other=65534  # nobody: the tests run as root, so chown can give directories away

# Every entry at and below $1, links not followed: type, mode, owner, group,
# size, modification and change times, link target; then file checksums.
listing() {
  (
    cd "$(dirname "$1")"
    find "$(basename "$1")" -printf '%p %y %m %U %G %s %T@ %C@ %l\n' | LC_ALL=C sort
    find "$(basename "$1")" -type f -exec md5sum {} + | LC_ALL=C sort
  )
}

# A directory that is not ours to use, with some content of its own.
foreign_dir() {
  mkdir -p "$1/sub"
  echo "theirs" >"$1/file"
  echo "deeper" >"$1/sub/file"
  chown -R "$other:$other" "$1"
  chmod 700 "$1"
}

# A link where SCR++ would make a directory, pointing at a victim directory.
linked_dir() {
  mkdir -p "$(dirname "$1")" "$E2E_DIR/victim"
  echo "victim" >"$E2E_DIR/victim/file"
  ln -s "$E2E_DIR/victim" "$1"
}

# refused CASE DIR [VAR=VALUE...]: a fresh job must fail, DIR (and the
# victim a link points to) unchanged.
refused() {
  local case="$1" dir="$2"
  shift 2
  local before victim_before=""
  before="$(listing "$dir")"
  [[ -d "$E2E_DIR/victim" ]] && victim_before="$(listing "$E2E_DIR/victim")"
  run_job SCR_USER_NAME="$user" "$@" -- 2 "$HEAT" -n 10 -c 10 -g 16 16
  expect_failed "$case"
  # Refused for what the case is about, not for some other reason.
  grep -qE "is owned by uid|symbolic link" "$LAST_ERR" || fail "$case: the job failed without naming the refusal"
  [[ "$(listing "$dir")" == "$before" ]] || fail "$case: $dir changed:
$(diff <(echo "$before") <(listing "$dir") | head -20)"
  if [[ -n "$victim_before" ]]; then
    [[ "$(listing "$E2E_DIR/victim")" == "$victim_before" ]] ||
      fail "$case: SCR++ changed $E2E_DIR/victim through the link"
  fi
  say "refused $case"
}

# fresh NAME: new prefix, cache and control directories, no victim.
fresh() {
  rm -rf "$E2E_DIR/victim"
  use_dirs "$E2E_DIR/$1"
}

for base in CNTL CACHE; do
  for node in "" n1; do
    where="${base,,}${node:+ node $node}"
    nodes="SCR_SIM_NODES=${node:+$E2E_NODES}"
    fresh "foreign_${base}_${node:-none}"
    dir="${!base}${node:+/$node}/$user"
    foreign_dir "$dir"
    refused "another user's per-user directory under the $where" "$dir" "$nodes" SCR_JOB_ID=7

    fresh "linked_${base}_${node:-none}"
    dir="${!base}${node:+/$node}/$user"
    linked_dir "$dir"
    refused "a linked per-user directory under the $where" "$dir" "$nodes" SCR_JOB_ID=7
  done
done

# The prefix's .scr: with a job id given, and with one SCR_Init would record.
for job_id in 7 ""; do
  fresh "foreign_scr_${job_id:-none}"
  foreign_dir "$PREFIX/.scr"
  refused "another user's prefix .scr (SCR_JOB_ID=$job_id)" "$PREFIX/.scr" SCR_JOB_ID="$job_id"

  fresh "linked_scr_${job_id:-none}"
  linked_dir "$PREFIX/.scr"
  refused "a linked prefix .scr (SCR_JOB_ID=$job_id)" "$PREFIX/.scr" SCR_JOB_ID="$job_id"
done

# Our own directories in the same places are used as they are.
fresh own
mkdir -p "$CNTL/n0/$user" "$CACHE/$user" "$PREFIX/.scr"
chmod 700 "$CNTL/n0/$user" "$CACHE/$user"
run_job SCR_USER_NAME="$user" -- 2 "$HEAT" -n 10 -c 10 -g 16 16
expect_ok
run_job SCR_USER_NAME="$user" SCR_SIM_NODES= -- 2 "$HEAT" -n 10 -c 10 -g 16 16
expect_ok
e2e_pass
