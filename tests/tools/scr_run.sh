#!/usr/bin/env bash
# scr_run relaunching real jobs (heat under mpirun, simulated nodes).
#  a) a job that dies twice is relaunched twice and finishes with the same
#     RESULT as an uninterrupted run; scr_scavenge is called at the end; a
#     later scr_run in the same prefix clears the FINALIZED mark of the
#     finished job, so its own failure is relaunched
#  b) with too few runs the job does not finish (exit 4)
#  c) a node lost with the failed run is replaced by a spare at its position
#  d) --down-check declares a node down and no spare is left: fewer than
#     SCR_MIN_NODES nodes remain, no relaunch
#  e) the job asked to stop (halt file): no relaunch; a later scr_run does
#     not even start; a run that fails after SCR_Finalize counts as done
#  f) usage errors and a missing launcher
#  g) without SCR_MIN_NODES a relaunch needs as many nodes as the failed run
#     had (SCR_Init records them in .scr/nodes.scr, as SCR's library does),
#     not every node given: the others are spares; srun is told to leave the
#     down host out, a launcher that cannot be told is not relaunched
#  h) an earlier allocation's .scr/nodes.scr is removed when the runner starts
source "$(dirname "$0")/tools_lib.sh"
e2e_begin tools_scr_run
ARGS=(-n 40 -c 10)
BIN="$E2E_DIR/bin"
mkdir -p "$BIN"

# The launcher the runner is given instead of mpirun. Run n appends the heat
# arguments in run<n>.args (e.g. --crash-at 15); after the run it deletes the
# storage of the node named in run<n>.lose (the node died with the job),
# writes the halt reason in run<n>.halt, and exits with run<n>.rc if present.
cat >"$BIN/launch" <<EOF
#!/usr/bin/env bash
dir="$E2E_DIR"
n=\$(( \$(cat "\$dir/runs" 2>/dev/null || echo 0) + 1 ))
echo "\$n" >"\$dir/runs"
extra=()
[[ -f "\$dir/run\$n.args" ]] && read -r -a extra <"\$dir/run\$n.args"
"$MPIEXEC" "\$@" "\${extra[@]}"
rc=\$?
if [[ -f "\$dir/run\$n.lose" ]]; then node="\$(cat "\$dir/run\$n.lose")"; rm -rf "\$CACHE_DIR/\$node" "\$CNTL_DIR/\$node"; fi
[[ -f "\$dir/run\$n.halt" ]] && "$SCR_HALT" --prefix "\$PWD" --immediate="\$(cat "\$dir/run\$n.halt")" >/dev/null
[[ -f "\$dir/run\$n.rc" ]] && rc="\$(cat "\$dir/run\$n.rc")"
exit "\$rc"
EOF
# A stand-in scr_scavenge that records how it was called.
cat >"$BIN/scr_scavenge" <<EOF
#!/usr/bin/env bash
echo "\$* nodes=\$SCR_SIM_NODES" >"$E2E_DIR/scavenged"
EOF
# A --down-check hook: n0 is down.
cat >"$BIN/n0_is_down" <<'EOF'
#!/usr/bin/env bash
[[ "$1" != n0 ]]
EOF
chmod +x "$BIN"/*

# fresh_run: new directories and run counter for a scenario.
fresh_run() {
  rm -rf "$E2E_DIR/run" "$E2E_DIR"/run*.args "$E2E_DIR"/run*.lose "$E2E_DIR"/run*.halt "$E2E_DIR"/run*.rc \
    "$E2E_DIR/runs" "$E2E_DIR/scavenged"
  use_dirs "$E2E_DIR/run"
}

# run_runner [PATH=...] SCR_RUN-ARGS...: scr_run in the prefix with the
# scenario's SCR settings (no SCR_SIM_NODES: the runner sets it per run).
run_runner() {
  local path="/usr/bin:/bin"
  if [[ "$1" == PATH=* ]]; then path="${1#PATH=}"; shift; fi
  JOB_N=$((JOB_N + 1))
  LAST_OUT="$E2E_DIR/runner$JOB_N.out"
  LAST_ERR="$E2E_DIR/runner$JOB_N.err"
  LAST_CMD="scr_run $*"
  set +e
  (cd "$PREFIX" && env PATH="$path" CACHE_DIR="$CACHE" CNTL_DIR="$CNTL" SCR_COPY_TYPE="$E2E_COPY_TYPE" \
    SCR_CACHE_BASE="$CACHE" SCR_CNTL_BASE="$CNTL" SCR_CACHE_BYPASS=0 SCR_FLUSH=1 \
    timeout -k 10 240 "$SCR_RUN" "$@") >"$LAST_OUT" 2>"$LAST_ERR" </dev/null
  LAST_RC=$?
  set -e
  [[ $LAST_RC -ne 124 ]] || fail "scr_run hung"
  return 0
}

expect_runs() { assert_file_content "$E2E_DIR/runs" "$1"; }
expect_line() { grep -qE -- "$1" "$LAST_OUT" || fail "scr_run's output lacks a line matching '$1'"; }

# a) dies twice, finishes
fresh_run
echo "--crash-at 15" >"$E2E_DIR/run1.args"
echo "--crash-at 25" >"$E2E_DIR/run2.args"
run_runner "PATH=$BIN:/usr/bin:/bin" --runs 3 --nodes n0,n1 --launcher "$BIN/launch" -- -n "$E2E_NP" "$HEAT" "${ARGS[@]}"
expect_rc 0
expect_runs 3
expect_line "^scr_run: run 1 of 3 on n0,n1: $BIN/launch -n $E2E_NP "
expect_line "^scr_run: run 1 failed \(exit [0-9]+\); no node is down; relaunching on n0,n1$"
expect_line "^scr_run: run 2 failed \(exit [0-9]+\); no node is down; relaunching on n0,n1$"
expect_line "^scr_run: run 3 finished \(exit 0\): the job is done$"
expect_out "resumed from checkpoint 'step.10'"
expect_out "resumed from checkpoint 'step.20'"
expect_result_equals_uninterrupted "${ARGS[@]}"
expect_out "scavenging: $BIN/scr_scavenge --prefix $PREFIX"
assert_file_content "$E2E_DIR/scavenged" "--prefix $PREFIX nodes=n0,n1"
# The finished job left FINALIZED; a new scr_run of the same job clears it.
rm -f "$E2E_DIR/runs" "$E2E_DIR"/run*.args
echo "--crash-at 45" >"$E2E_DIR/run1.args"
run_runner --runs 2 --nodes n0,n1 --no-scavenge --launcher "$BIN/launch" -- -n "$E2E_NP" "$HEAT" -n 50 -c 10
expect_rc 0
expect_runs 2
expect_line "^scr_run: removed FINALIZED=[^ ]+ left in the halt file by an earlier run of this job$"
expect_line "^scr_run: run 1 failed \(exit [0-9]+\); no node is down; relaunching on n0,n1$"
expect_out "not scavenging (--no-scavenge)"

# b) not enough runs
fresh_run
echo "--crash-at 15" >"$E2E_DIR/run1.args"
echo "--crash-at 25" >"$E2E_DIR/run2.args"
run_runner --runs 2 --nodes n0,n1 --launcher "$BIN/launch" -- -n "$E2E_NP" "$HEAT" "${ARGS[@]}"
expect_rc 4
expect_runs 2
expect_line "^scr_run: run 2 failed \(exit [0-9]+\); no runs left \(2 in all"
expect_out "scr_scavenge is not installed; skipping the scavenge"

# c) a lost node is replaced by a spare
fresh_run
echo "--crash-at 25" >"$E2E_DIR/run1.args"
echo n1 >"$E2E_DIR/run1.lose"
run_runner --runs 2 --nodes n0,n1 --spares n2,n3 --launcher "$BIN/launch" -- -n "$E2E_NP" "$HEAT" "${ARGS[@]}"
expect_rc 0
expect_runs 2
expect_line "^scr_run: run 1 failed \(exit [0-9]+\); node n1 is down; relaunching on n0,n2$"
expect_line "^scr_run: run 2 of 2 on n0,n2: "
expect_out "resumed from checkpoint 'step.20'"
expect_result_equals_uninterrupted "${ARGS[@]}"
[[ -d "$CACHE/n2" ]] || fail "the spare n2 never got node storage"
assert_no_file "$CACHE/n3" "the unused spare's storage"

# d) the hook says n0 is down, no spare: too few nodes
fresh_run
echo "--crash-at 15" >"$E2E_DIR/run1.args"
run_runner --runs 3 --nodes n0,n1 --down-check "$BIN/n0_is_down" --launcher "$BIN/launch" -- -n "$E2E_NP" "$HEAT" "${ARGS[@]}"
expect_rc 4
expect_runs 1
expect_line "^scr_run: run 1 failed \(exit [0-9]+\); node n0 is down; no spare left for n0; 1 node remains, fewer than the 2 required"

# e) halting
fresh_run
echo "--crash-at 15" >"$E2E_DIR/run1.args"
echo "maintenance" >"$E2E_DIR/run1.halt"
run_runner --runs 3 --nodes n0,n1 --launcher "$BIN/launch" -- -n "$E2E_NP" "$HEAT" "${ARGS[@]}"
expect_rc 4
expect_runs 1
expect_line "^scr_run: run 1 failed \(exit [0-9]+\); the job asked to stop \(halt requested: maintenance\); not relaunching$"
run_runner --runs 3 --nodes n0,n1 --launcher "$BIN/launch" -- -n "$E2E_NP" "$HEAT" "${ARGS[@]}"
expect_rc 2
expect_runs 1
expect_out "not starting: a halt condition holds (halt requested: maintenance)"
fresh_run
echo 3 >"$E2E_DIR/run1.rc"
run_runner --runs 3 --nodes n0,n1 --launcher "$BIN/launch" -- -n "$E2E_NP" "$HEAT" -n 10 -c 10
expect_rc 0
expect_runs 1
expect_line "^scr_run: run 1 failed \(exit 3\) after SCR_Finalize had run \(FINALIZED=[^ ]+\): the job is done$"

# g) real nodes h0,h1,h2 (the hook says h2 is down after the crash), no
# SCR_MIN_NODES: heat ran on this one host, so SCR_Init recorded 1 node and
# the job goes on without h2.
fresh_run
echo "--crash-at 15" >"$E2E_DIR/run1.args"
# (It prints the node it judges down, as scr_list_down_nodes does: not the
# job's output.)
cat >"$BIN/h2_is_down" <<'EOF'
#!/usr/bin/env bash
[[ "$1" != h2 ]] || { echo "$1"; exit 1; }
EOF
chmod +x "$BIN/h2_is_down"
# The run is not pinned to its nodes, so the launcher must be told to leave
# h2 out: srun's --exclude, as SCR's launcher does (this srun passes the rest on).
cat >"$BIN/srun" <<WRAPPER
#!/usr/bin/env bash
args=()
for a in "\$@"; do [[ "\$a" == --exclude=* ]] || args+=("\$a"); done
exec "$BIN/launch" "\${args[@]}"
WRAPPER
chmod +x "$BIN/srun"
E2E_COPY_TYPE=SINGLE run_runner --runs 3 --real-nodes --nodes h0,h1,h2 --down-check "$BIN/h2_is_down" \
  --launcher "$BIN/srun" -- -n "$E2E_NP" "$HEAT" "${ARGS[@]}"
expect_rc 0
expect_runs 2
expect_line "^scr_run: run 1 failed \(exit [0-9]+\); node h2 is down; no spare left for h2; relaunching on h0,h1$"
expect_line "^scr_run: run 2 of 3 on h0,h1: $BIN/srun --exclude=h2 -n "
! grep -qx h2 "$LAST_OUT" || fail "the down-check hook's output went into the job's"
expect_result_equals_uninterrupted "${ARGS[@]}"
# A launcher that cannot be told which hosts to leave out is not relaunched
# onto the down one.
fresh_run
echo "--crash-at 15" >"$E2E_DIR/run1.args"
E2E_COPY_TYPE=SINGLE run_runner --runs 3 --real-nodes --nodes h0,h1,h2 --down-check "$BIN/h2_is_down" \
  --launcher "$BIN/launch" -- -n "$E2E_NP" "$HEAT" "${ARGS[@]}"
expect_rc 4
expect_runs 1
expect_line "^scr_run: run 1 failed \(exit [0-9]+\); node h2 is down; no spare left for h2; launch cannot be told to leave h2 out"

# h) an earlier allocation's node count (.scr/nodes.scr, 4 nodes) is removed
# when the runner starts, as SCR's prerun does: a first run that fails before
# SCR_Init records its own is relaunched on the 2 nodes given.
fresh_run
mkdir -p "$PREFIX/.scr"
cp "$SCRPP_SOURCE/tests/fixtures/scr31/xor_np4/.scr/nodes.scr" "$PREFIX/.scr/nodes.scr"
cat >"$BIN/fail_once" <<WRAPPER
#!/usr/bin/env bash
[[ -e "$E2E_DIR/failed_once" ]] || { touch "$E2E_DIR/failed_once"; exit 1; }
exec "$BIN/launch" "\$@"
WRAPPER
chmod +x "$BIN/fail_once"
rm -f "$E2E_DIR/failed_once"
E2E_COPY_TYPE=SINGLE run_runner --runs 2 --real-nodes --nodes h0,h1 --down-check /bin/true \
  --launcher "$BIN/fail_once" -- -n "$E2E_NP" "$HEAT" "${ARGS[@]}"
expect_rc 0
expect_line "^scr_run: run 1 failed \(exit 1\); no node is down; relaunching on h0,h1$"

# f) usage errors, missing launcher
for bad in "--runs 2 $HEAT" "--runs 0 -- -n 4 $HEAT" "--spares n9 -- -n 4 $HEAT" "--nodes n0,n0 -- -n 4 $HEAT" "--"; do
  # shellcheck disable=SC2086
  run_runner $bad
  expect_rc 1
done
run_runner --nodes n0,n1 --launcher "$E2E_DIR/no-such-launcher" -- -n 4 "$HEAT"
expect_rc 2
expect_out "cannot run $E2E_DIR/no-such-launcher: No such file or directory"
e2e_pass
