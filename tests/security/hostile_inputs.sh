#!/usr/bin/env bash
# Names from outside cannot lead SCR++ out of its directories. Each hostile
# value of a path-forming input (job id, user name, simulated node names,
# base directories) makes SCR_Init fail with an error naming the input, and
# nothing is created, removed or chmod'ed anywhere in the sandbox around the
# job's directories (the sandbox stands in for /dev, /tmp, ...).
source "$(dirname "$0")/../e2e/lib.sh"
E2E_NP=2 E2E_NODES=n0,n1
e2e_begin hostile_inputs
sandbox="$E2E_DIR/sandbox"
long="$(printf 'a%.0s' $(seq 5000))"

# Everything but the prefix (where SCR_Init may record a new job id).
snapshot() {
  (cd "$sandbox" && find . -path ./outer/inner/prefix -prune -o -printf '%p %m %U\n' | LC_ALL=C sort)
}

# hostile NAME VALUE WHAT: a fresh job whose NAME=VALUE must be refused.
hostile() {
  local var="$1" value="$2" what="$3"
  rm -rf "$sandbox"
  mkdir -p "$sandbox/outer/inner"
  chmod 755 "$sandbox/outer" "$sandbox/outer/inner"
  use_dirs "$sandbox/outer/inner"
  local before
  before="$(snapshot)"
  run_job "$var=$value" -- 2 "$HEAT" -n 10 -c 10 -g 16 16
  expect_failed "$var=${value:0:40}"
  expect_said "$what"
  [[ "$(snapshot)" == "$before" ]] || fail "$var=${value:0:40}: the sandbox changed:
$(diff <(echo "$before") <(snapshot) | head -20)"
  say "refused $var=${value:0:40}"
}

for v in "x/../.." ".." "a/b" "/abs" $'a\001b' "$long"; do
  hostile SCR_JOB_ID "$v" "SCR_JOB_ID"
done
for v in ".." "." "a/b" "/abs" $'tab\tname' "$long"; do
  hostile SCR_USER_NAME "$v" "SCR_USER_NAME"
done
for v in "n0,../n1" "n0,a/b" "n0,.." $'n0,n\0011'; do
  hostile SCR_SIM_NODES "$v" "SCR_SIM_NODES"
done
hostile SCR_CACHE_BASE "relative/cache" "SCR_CACHE_BASE"
hostile SCR_CNTL_BASE "relative/cntl" "SCR_CNTL_BASE"
e2e_pass
