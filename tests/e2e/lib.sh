# shellcheck shell=bash
# Shared helpers of the end-to-end scenarios (tests/e2e/*.sh, tests/api,
# tests/install). Source it first thing:
#
#   source "$(dirname "$0")/lib.sh"
#   e2e_begin restart_cache          # fresh dirs under /tmp, traps, banner
#   run_job -- 4 "$HEAT" -n 40 -c 10 --crash-at 25
#   expect_crashed
#   run_job -- 4 "$HEAT" -n 40 -c 10
#   expect_ok; expect_resumed_from step.20
#   expect_result_equals_uninterrupted -n 40 -c 10
#   e2e_pass
#
# Knobs (environment):
#   E2E_COPY_TYPE   redundancy scheme of every job (default SINGLE)
#   E2E_NP          ranks per job (default 4)
#   E2E_NODES       simulated nodes (default n0,n1)
#   E2E_TIMEOUT     seconds before a job counts as hung (default 120)
#   E2E_KEEP=1      keep the temp directory even when the scenario passes
#
# ctest exports SCR_BUILD_DIR/SCR_SOURCE_DIR (cmake/ScrTesting.cmake). Their
# names start with SCR_, and the library warns about unknown SCR_* variables,
# so they are copied to SCRPP_BUILD/SCRPP_SOURCE and every SCR_* variable is
# removed from the environment: a job sees exactly the SCR_* settings the
# scenario passes to run_job.
set -euo pipefail

SCRPP_SOURCE="${SCR_SOURCE_DIR:-${SCRPP_SOURCE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}}"
SCRPP_BUILD="${SCR_BUILD_DIR:-${SCRPP_BUILD:-$SCRPP_SOURCE/build}}"
while read -r _var; do unset "$_var"; done < <(compgen -e | grep '^SCR_' || true)
unset _var
export SCRPP_SOURCE SCRPP_BUILD

MPIEXEC="${MPIEXEC:-mpirun}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_btl="${OMPI_MCA_btl:-self,vader}" OMPI_MCA_mpi_yield_when_idle=1

E2E_COPY_TYPE="${E2E_COPY_TYPE:-SINGLE}"
E2E_NP="${E2E_NP:-4}"
E2E_NODES="${E2E_NODES:-n0,n1}"
E2E_TIMEOUT="${E2E_TIMEOUT:-120}"

# Programs the scenarios run (not all use each).
# shellcheck disable=SC2034
HEAT="$SCRPP_BUILD/examples/heat/heat"
# shellcheck disable=SC2034
HEAT_CPP="$SCRPP_BUILD/examples/cpp/heat_cpp"
E2E_TOOL="$SCRPP_BUILD/tests/e2e/scr_e2e_tool"

E2E_NAME=""
E2E_DIR=""       # the scenario's temp directory
PREFIX=""        # SCR_PREFIX of the jobs (their working directory)
CACHE=""         # SCR_CACHE_BASE (node n lives in $CACHE/n)
CNTL=""          # SCR_CNTL_BASE
JOB_N=0          # jobs run so far
LAST_OUT=""      # stdout, stderr and exit code of the last job
LAST_ERR=""
LAST_RC=0
LAST_CMD=""

# --- reporting -----------------------------------------------------------------

say() { printf '[e2e %s] %s\n' "$E2E_NAME" "$*"; }

# Print the reason, the last job's command and output, and stop with exit 1.
fail() {
  printf '\n[e2e %s] FAIL: %s\n' "$E2E_NAME" "$*" >&2
  if [[ -n "$LAST_OUT" ]]; then
    printf -- '--- last job (rc=%s): %s\n' "$LAST_RC" "$LAST_CMD" >&2
    printf -- '--- stdout (last 40 lines):\n' >&2
    tail -n 40 "$LAST_OUT" >&2 || true
    printf -- '--- stderr (last 40 lines):\n' >&2
    tail -n 40 "$LAST_ERR" >&2 || true
  fi
  [[ -n "$E2E_DIR" ]] && printf -- '--- files kept in %s\n' "$E2E_DIR" >&2
  E2E_FAILED=1
  exit 1
}

need_file() { [[ -e "$1" ]] || fail "$1 does not exist (${2:-build it first})"; }

# Where scenarios keep their files: node-local memory (/dev/shm) as a
# cache usually is, when it has room (2 GiB free; a container's small
# /dev/shm does not), else /tmp. SCR_E2E_TMP overrides both.
e2e_tmp_base() {
  if [[ -n "${SCR_E2E_TMP:-}" ]]; then echo "$SCR_E2E_TMP"; return; fi
  local free_kib
  free_kib=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')
  if [[ -w /dev/shm && "${free_kib:-0}" -ge $((2 << 20)) ]]; then echo /dev/shm; else echo /tmp; fi
}

# Start a scenario: a fresh temp directory with prefix/, cache/, cntl/.
e2e_begin() {
  E2E_NAME="$1"
  [[ "$E2E_COPY_TYPE" == SINGLE ]] || E2E_NAME="$1[$E2E_COPY_TYPE]"
  E2E_FAILED=0
  E2E_DIR="$(mktemp -d "$(e2e_tmp_base)/scr-e2e.$1.XXXXXX")"
  trap e2e_cleanup EXIT
  use_dirs "$E2E_DIR/run"
  say "copy type $E2E_COPY_TYPE, $E2E_NP ranks on nodes $E2E_NODES, files in $E2E_DIR"
}

# Point PREFIX/CACHE/CNTL at <base>/{prefix,cache,cntl} (created).
use_dirs() {
  PREFIX="$1/prefix"
  CACHE="$1/cache"
  CNTL="$1/cntl"
  mkdir -p "$PREFIX" "$CACHE" "$CNTL"
}

e2e_cleanup() {
  local rc=$?
  local m
  for m in "${E2E_MOUNTS[@]}"; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
  if [[ $rc -eq "$E2E_SKIP" ]]; then
    [[ -n "$E2E_DIR" ]] && rm -rf "$E2E_DIR"
  elif [[ $rc -ne 0 && "${E2E_FAILED:-0}" -eq 0 ]]; then
    printf '[e2e %s] FAIL: the script stopped with status %s (a command failed; see above)\n' \
      "$E2E_NAME" "$rc" >&2
    [[ -n "$E2E_DIR" ]] && printf -- '--- files kept in %s\n' "$E2E_DIR" >&2
  elif [[ $rc -eq 0 && "${E2E_KEEP:-0}" != 1 && -n "$E2E_DIR" ]]; then
    rm -rf "$E2E_DIR"
  fi
}

e2e_pass() { say "PASS"; }

# --- real storage ---------------------------------------------------------------

E2E_SKIP=77      # ctest's SKIP_RETURN_CODE of the scenarios that mount
E2E_MOUNTS=()    # tmpfs mounts of the scenario, unmounted when it ends

# mount_tmpfs DIR SIZE: a tmpfs of SIZE (e.g. 8m) at DIR (made), unmounted
# when the scenario ends: storage that really fills up. Needs root (and the
# right to mount); elsewhere the scenario says why and is skipped.
# disk_probe's jobs with the prefix on a tmpfs of SIZE mounted at
# $E2E_DIR/MOUNT: sets PROBE and PREFIX (root only; skipped elsewhere).
probe_with_tmpfs_prefix() {  # MOUNT SIZE
  PROBE="$SCRPP_BUILD/tests/e2e/disk_probe"
  need_file "$PROBE"
  mount_tmpfs "$E2E_DIR/$1" "$2"
  PREFIX="$E2E_DIR/$1/prefix"
  mkdir -p "$PREFIX"
}

mount_tmpfs() {
  if [[ $(id -u) -ne 0 ]]; then
    say "SKIP: mounting a small tmpfs needs root"
    exit "$E2E_SKIP"
  fi
  mkdir -p "$1"
  if ! mount -t tmpfs -o "size=$2" tmpfs "$1" 2>/dev/null; then
    say "SKIP: cannot mount a tmpfs at $1"
    exit "$E2E_SKIP"
  fi
  E2E_MOUNTS+=("$1")
}

# expect_probe CALL RCS: rank 0 of the last disk_probe job printed
# "PROBE CALL rc=RCS" (RCS: every rank's return code, comma separated).
expect_probe() {
  grep -qxF -- "PROBE $1 rc=$2" "$LAST_OUT" ||
    fail "expected '$1' to return $2 on the ranks; got: $(grep -F "PROBE $1 " "$LAST_OUT" || echo nothing)"
}

# --- jobs ------------------------------------------------------------------------

# run_job [VAR=VALUE...] -- NP PROGRAM [ARGS...]
# Runs PROGRAM under mpirun with NP ranks in $PREFIX, with the scenario's SCR
# settings (copy type, cache/control bases, simulated nodes); VAR=VALUE
# entries are added to, or override, them (VAR= removes a default). Never
# fails by itself: sets LAST_RC, LAST_OUT, LAST_ERR for the expect_* checks.
# A job that outlives E2E_TIMEOUT is killed and fails the scenario.
run_job() {
  local -a extra=()
  while [[ $# -gt 0 && "$1" != "--" ]]; do
    extra+=("$1")
    shift
  done
  [[ "${1:-}" == "--" ]] || fail "run_job: missing '--' before NP PROGRAM"
  shift
  local np="$1"
  shift
  need_file "$1" "program $1 is not built"
  # The scenarios exercise the cache: SCR_CACHE_BYPASS=0 unless a scenario
  # passes SCR_CACHE_BYPASS=1 (or SCR_CACHE_BYPASS= for the built-in default).
  local -a envs=("SCR_COPY_TYPE=$E2E_COPY_TYPE" "SCR_CACHE_BASE=$CACHE" "SCR_CNTL_BASE=$CNTL"
                 "SCR_SIM_NODES=$E2E_NODES" "SCR_CACHE_BYPASS=0")
  local kv e
  local -a kept
  for kv in "${extra[@]}"; do
    kept=()
    for e in "${envs[@]}"; do
      if [[ "${e%%=*}" != "${kv%%=*}" ]]; then kept+=("$e"); fi
    done
    envs=("${kept[@]}")
    if [[ -n "${kv#*=}" ]]; then envs+=("$kv"); fi
  done
  # Fault injection lives only in the test variant of libscr
  # (<build>/testing/libscr.so, same soname): the library users link has none.
  for e in "${envs[@]}"; do
    if [[ "$e" == SCR_FAULT_INJECT=* ]]; then
      envs+=("LD_LIBRARY_PATH=$SCRPP_BUILD/testing${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
      break
    fi
  done
  JOB_N=$((JOB_N + 1))
  LAST_OUT="$E2E_DIR/job$JOB_N.out"
  LAST_ERR="$E2E_DIR/job$JOB_N.err"
  LAST_CMD="(cd $PREFIX && ${envs[*]} $MPIEXEC -n $np $*)"
  local t0=$SECONDS
  set +e
  (cd "$PREFIX" && env "${envs[@]}" timeout -k 10 "$E2E_TIMEOUT" "$MPIEXEC" -n "$np" "$@") \
    >"$LAST_OUT" 2>"$LAST_ERR" </dev/null
  LAST_RC=$?
  set -e
  if [[ $LAST_RC -eq 124 ]] || ((SECONDS - t0 >= E2E_TIMEOUT)); then
    fail "job $JOB_N hung: killed after ${E2E_TIMEOUT}s"
  fi
  return 0
}

# start_job [VAR=VALUE...] -- NP PROGRAM [ARGS...]: run_job in the
# background, for a scenario that changes the storage under a running job;
# await_out waits for a line of it, finish_job for its end (then LAST_* are
# set as run_job sets them).
E2E_BG_PID=""
start_job() {
  local n=$((JOB_N + 1))
  (
    run_job "$@"
    echo "$LAST_RC" >"$E2E_DIR/job$n.rc"
  ) &
  E2E_BG_PID=$!
}

await_out() {
  local out="$E2E_DIR/job$((JOB_N + 1)).out" t0=$SECONDS
  until grep -qF -- "$1" "$out" 2>/dev/null; do
    kill -0 "$E2E_BG_PID" 2>/dev/null || fail "the background job ended without saying '$1'"
    ((SECONDS - t0 < E2E_TIMEOUT)) || fail "the background job never said '$1'"
    sleep 0.2
  done
}

finish_job() {
  wait "$E2E_BG_PID" || fail "background job $((JOB_N + 1)) hung or could not run (see above)"
  JOB_N=$((JOB_N + 1))
  LAST_OUT="$E2E_DIR/job$JOB_N.out"
  LAST_ERR="$E2E_DIR/job$JOB_N.err"
  LAST_RC="$(cat "$E2E_DIR/job$JOB_N.rc")"
  LAST_CMD="(background job $JOB_N)"
}

# The last job finished normally and printed its RESULT line.
expect_ok() {
  [[ $LAST_RC -eq 0 ]] || fail "${1:-job} failed with exit code $LAST_RC"
  result_line >/dev/null || fail "${1:-job} printed no RESULT line"
}

# The last job died (the app's --crash-at SIGKILL or an abort).
expect_crashed() {
  [[ $LAST_RC -ne 0 ]] || fail "${1:-job} was expected to die but exited 0"
  if result_line >/dev/null; then fail "${1:-job} was expected to die but printed a RESULT"; fi
  return 0
}

# The last job exited non-zero (any reason).
expect_failed() {
  [[ $LAST_RC -ne 0 ]] || fail "${1:-job} was expected to fail but exited 0"
}

result_line() { grep -m1 '^RESULT ' "$LAST_OUT"; }

# Reference runs, one per program and argument list, each in its own fresh
# directory; reference_result sets REF_RESULT to the run's RESULT line.
declare -A E2E_REFERENCE=()
REF_RESULT=""
reference_result() {
  local key="$*"
  if [[ -z "${E2E_REFERENCE[$key]:-}" ]]; then
    local saved_prefix="$PREFIX" saved_cache="$CACHE" saved_cntl="$CNTL"
    use_dirs "$E2E_DIR/ref${#E2E_REFERENCE[@]}"
    run_job -- "$E2E_NP" "$@"
    expect_ok "uninterrupted reference run ($*)"
    E2E_REFERENCE[$key]="$(result_line)"
    PREFIX="$saved_prefix" CACHE="$saved_cache" CNTL="$saved_cntl"
  fi
  REF_RESULT="${E2E_REFERENCE[$key]}"
}

# expect_result_equals_uninterrupted HEAT_ARGS...
# The last job's RESULT equals that of an uninterrupted heat run with these
# arguments (run once, in a separate directory).
expect_result_equals_uninterrupted() { expect_result_equals_uninterrupted_of "$HEAT" "$@"; }

# Same for any program printing a RESULT line: PROGRAM ARGS...
expect_result_equals_uninterrupted_of() {
  local got
  got="$(result_line)" || fail "no RESULT line to compare"
  local saved_out="$LAST_OUT" saved_err="$LAST_ERR" saved_rc="$LAST_RC" saved_cmd="$LAST_CMD"
  reference_result "$@"
  LAST_OUT="$saved_out" LAST_ERR="$saved_err" LAST_RC="$saved_rc" LAST_CMD="$saved_cmd"
  [[ "$got" == "$REF_RESULT" ]] ||
    fail "restarted run's '$got' differs from the uninterrupted run's '$REF_RESULT'"
  say "result matches the uninterrupted run: $got"
}

# Name of the checkpoint the last heat job resumed from, or "" (fresh start).
resumed_from() {
  sed -n "s/^\[heat[^]]*\] resumed from checkpoint '\([^']*\)'.*/\1/p" "$LAST_OUT" | head -n1
}

expect_resumed_from() {
  local got
  got="$(resumed_from)"
  [[ -n "$got" ]] || fail "expected a restart from '$1' but the job started from step 0"
  [[ "$got" == "$1" ]] || fail "expected a restart from '$1' but the job resumed from '$got'"
  say "resumed from $got"
}

expect_fresh_start() {
  local got
  got="$(resumed_from)"
  [[ -z "$got" ]] || fail "expected a fresh start but the job resumed from '$got'"
  expect_out "no checkpoint found: starting from step 0"
}

# Steps at which the last heat job saved a checkpoint, space separated.
checkpoint_steps() {
  sed -n 's/^\[heat[^]]*\] step \([0-9]*\): checkpoint .* saved.*/\1/p' "$LAST_OUT" | tr '\n' ' ' |
    sed 's/ $//'
}

expect_checkpoint_steps() {
  local got
  got="$(checkpoint_steps)"
  [[ "$got" == "$1" ]] || fail "expected checkpoints at steps '$1', got '$got'"
}

# --- output checks -------------------------------------------------------------

expect_out() { grep -qF -- "$1" "$LAST_OUT" || fail "stdout lacks '$1'"; }
expect_err() { grep -qF -- "$1" "$LAST_ERR" || fail "stderr lacks '$1'"; }
expect_no_out() { if grep -qF -- "$1" "$LAST_OUT"; then fail "stdout unexpectedly has '$1'"; fi; }
expect_no_err() { if grep -qF -- "$1" "$LAST_ERR"; then fail "stderr unexpectedly has '$1'"; fi; }
# Either stream.
expect_said() { grep -qF -- "$1" "$LAST_OUT" "$LAST_ERR" || fail "the job never said '$1'"; }

assert_eq() { [[ "$1" == "$2" ]] || fail "${3:-values differ}: expected '$2', got '$1'"; }
assert_file() { [[ -f "$1" ]] || fail "${2:-expected file} $1 is missing"; }
assert_no_file() { [[ ! -e "$1" ]] || fail "${2:-unexpected file} $1 exists"; }
assert_file_content() {
  [[ -f "$1" ]] || fail "$1 is missing"
  local got
  got="$(cat "$1")"
  [[ "$got" == "$2" ]] || fail "$1 holds '$got', expected '$2'"
}

# --- simulated nodes and storage -------------------------------------------------

# Lose a simulated node: delete its cache and control storage.
lose_node() {
  local node="$1"
  [[ -d "$CACHE/$node" || -d "$CNTL/$node" ]] || fail "lose_node: node $node has no storage to lose"
  rm -rf "${CACHE:?}/$node" "${CNTL:?}/$node"
  say "lost node $node"
}

lose_all_nodes() {
  local n
  IFS=',' read -r -a _nodes <<<"$E2E_NODES"
  for n in "${_nodes[@]}"; do lose_node "$n"; done
}

# Flip every bit of the byte at OFFSET of FILE (in place).
corrupt_byte() {
  local file="$1" offset="$2"
  [[ -f "$file" ]] || fail "corrupt_byte: $file does not exist"
  local size
  size="$(stat -c %s "$file")"
  [[ "$offset" -lt "$size" ]] || fail "corrupt_byte: offset $offset is past the end of $file ($size bytes)"
  local old new
  old="$(od -An -tu1 -j "$offset" -N1 "$file" | tr -d ' ')"
  new=$((old ^ 255))
  printf '%b' "\\$(printf '%03o' "$new")" | dd of="$file" bs=1 seek="$offset" count=1 conv=notrunc status=none
  local now
  now="$(od -An -tu1 -j "$offset" -N1 "$file" | tr -d ' ')"
  [[ "$now" -eq "$new" ]] || fail "corrupt_byte: could not change byte $offset of $file"
  say "flipped byte $offset of ${file#"$E2E_DIR"/} ($old -> $new)"
}

# damage_data FILE: change every 61st byte after the first 4 KiB (a redundancy
# file's header) without changing the size.
damage_data() {
  /usr/bin/env python3 - "$1" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
for i in range(4096, len(b), 61):
    b[i] ^= 0x5a
open(p, 'wb').write(bytes(b))
PY
  say "damaged the data of ${1#"$E2E_DIR"/}"
}

# Dataset directories (scr.dataset.<id>) in a node's cache, sorted by id.
cached_datasets() {
  local node="$1"
  find "$CACHE/$node" -mindepth 3 -maxdepth 3 -type d -name 'scr.dataset.*' -printf '%f\n' 2>/dev/null |
    sort -t. -k3 -n
}

# Every regular file under DIR with its checksum, as one digest per line
# (optionally excluding paths matching a find -path pattern).
tree_digest() {
  local dir="$1" exclude="${2:-}"
  (cd "$dir" && if [[ -n "$exclude" ]]; then find . -type f ! -path "$exclude"; else find . -type f; fi |
    LC_ALL=C sort | xargs -r sha256sum)
}

# --- the installed package -------------------------------------------------------

# install_build: `cmake --install` of the build into $E2E_DIR/install. Sets
# INSTALL (that prefix) and LIBDIR (the directory libscr.so went to).
install_build() {
  INSTALL="$E2E_DIR/install"
  cmake --install "$SCRPP_BUILD" --prefix "$INSTALL" >"$E2E_DIR/install.log" 2>&1 ||
    fail "cmake --install failed:
$(tail -20 "$E2E_DIR/install.log")"
  local libscr
  libscr="$(find "$INSTALL" -name 'libscr.so' | head -n1)"
  [[ -n "$libscr" ]] || fail "libscr.so was not installed"
  LIBDIR="$(dirname "$libscr")"
}

# --- prefix metadata (via scr_e2e_tool, i.e. the runtime's own readers) -------

# The prefix index, one dataset per line (see scr_e2e_tool.cpp).
index_show() {
  need_file "$E2E_TOOL" "scr_e2e_tool is not built"
  "$E2E_TOOL" index "$PREFIX" || fail "cannot read the prefix index of $PREFIX"
}

# index_field NAME FIELD: a field (complete, flushed, failed, loadable, id,
# ...) of the newest dataset called NAME, or "absent".
index_field() {
  local line
  line="$(index_show | grep " name=$1 " | tail -n1 || true)"
  if [[ -z "$line" ]]; then
    echo absent
    return
  fi
  sed -n "s/.*\(^\| \)$2=\([^ ]*\).*/\2/p" <<<"$line"
}

# expect_failed_or_replaced ID NAME: dataset ID (called NAME) is marked FAILED,
# or has left the index because a newer, loadable dataset of the same name was
# recorded since (the index lists one dataset per name, as SCR's does).
expect_failed_or_replaced() {
  local listing newer
  listing="$(index_show)"
  grep -q "^id=$1 name=$2 .* failed=1 " <<<"$listing" && return 0
  if ! grep -q "^id=$1 " <<<"$listing"; then
    newer="$(grep " name=$2 .* loadable=1" <<<"$listing" | sed -n 's/^id=\([0-9]*\) .*/\1/p' | tail -n1)"
    [[ -n "$newer" && "$newer" -gt "$1" ]] && return 0
  fi
  fail "dataset $1 ($2) is neither marked FAILED nor replaced by a newer loadable $2:
$listing"
}

expect_index() {
  local got
  got="$(index_field "$1" "$2")"
  [[ "$got" == "$3" ]] || fail "prefix index: dataset $1 has $2=$got, expected $3
$(index_show)"
}

index_current() { index_show | sed -n 's/^current=//p'; }

# write_halt KEY=VALUE...: the halt file as scr_halt would write it.
write_halt() {
  need_file "$E2E_TOOL" "scr_e2e_tool is not built"
  "$E2E_TOOL" halt "$PREFIX" "$@" || fail "cannot write the halt file"
}

# Does the copy type survive the loss of one simulated node?
scheme_survives_node_loss() { [[ "$E2E_COPY_TYPE" != SINGLE ]]; }

need_file "$HEAT" "the heat demo is not built (make heat)"

# Programs that announce each error they provoke print "EXPECT-ERROR <call>"
# on rank 0's stdout (tests/api/check.h). Each announced call must have its
# "SCR++ ERROR ...: <call>: <cause>" (or "<call> called ...") line on
# stderr, at least as often as it was announced, and no check may have
# failed.
expect_announced_errors() {
  local call want got
  while read -r call want; do
    got="$(grep -cE "^SCR\+\+ ERROR( rank 0)?: $call[: ]" "$LAST_ERR" || true)"
    ((got >= want)) || fail "$call was expected to fail $want time(s) with a message; stderr has $got"
  done < <(sed -n 's/^EXPECT-ERROR //p' "$LAST_OUT" | sort | uniq -c | awk '{print $2, $1}')
  if grep -q "CHECK FAILED" "$LAST_ERR"; then fail "checks failed:
$(grep "CHECK FAILED" "$LAST_ERR" | head -20)"; fi
}
