#!/usr/bin/env bash
# SCR 3.1's spellings of scr_index and scr_halt on a real prefix (made by the
# heat demo under mpirun): every SCR option works, with SCR's meaning, and
# gives the same result as SCR++'s spelling of the same request. Two copies
# of the prefix receive the same requests, one in each spelling, and their
# listings must stay identical. Then scr_ckpt_interval on an event log in the
# library's format, scr_prerun and scr_postrun.
#  a) listing: scr_index, -l, --list, -p/--prefix forms: one output, SCR's
#     layout byte for byte (FLUSHED the flush's time); --details SCR++'s table
#  b) scr_index -c/-d/-a/--drop-after/-b against --current/--drop/--add/...;
#     a request that changes nothing exits 0 as SCR's, 2 with --strict
#  c) scr_halt -c/-b/-a/-s/-i/-l/-r, --unset-*, DIR arguments, no option;
#     -l and every change print SCR's "Halt file settings for FILE:" layout;
#     requests that change nothing exit 0 (2 with --strict)
#  d) scr_ckpt_interval: cost, failures, MTBF, Young and Daly from a log file
#  e) scr_prerun prepares a prefix; scr_postrun with nothing to scavenge,
#     and with a job it cannot identify; scr_list_down_nodes -d;
#     scr_should_exit's --runs and --min-nodes, as SCR's loop script passes them
#  f) scr_mpirun runs the job through scr_run's loop without a resource
#     manager (its nodes recorded in .scr/nodes.scr, which scr_should_exit
#     then needs, not the whole allocation), and so does SCR's `scr_run mpirun ...`; scr_srun outside SLURM
#     and SCR's --run-cmd are refused
source "$(dirname "$0")/tools_lib.sh"
e2e_begin tools_scr_compat
T="$SCRPP_BUILD/tools"
make_prefix
A="$E2E_DIR/a" B="$E2E_DIR/b"
cp -a "$PREFIX" "$A"
cp -a "$PREFIX" "$B"

# same_output NAME: the two last outputs (A's as $1, B's as $2) are equal once
# the prefix paths are set aside.
same() {
  assert_eq "$(sed "s#$A#P#g" "$1")" "$(sed "s#$B#P#g" "$2")" "$3: SCR's and SCR++'s spellings differ"
}
# both "SCR ARGS" "SCR++ ARGS" RC: run one spelling on A, the other on B;
# both exit RC, print the same, and leave the same index and halt file.
# BOTH_OUT and BOTH_ERR hold the stdout and stderr files of the two runs.
both() {
  local scr_words="$1" ours="$2" rc="$3" tool="${4:-$SCR_INDEX}"
  local -a a_args b_args
  read -r -a a_args <<<"${scr_words//@/$A}"
  read -r -a b_args <<<"${ours//@/$B}"
  run_tool "$tool" "${a_args[@]}"
  expect_rc "$rc"
  local out_a="$LAST_OUT"
  BOTH_OUT=("$LAST_OUT") BOTH_ERR=("$LAST_ERR")
  run_tool "$tool" "${b_args[@]}"
  expect_rc "$rc"
  BOTH_OUT+=("$LAST_OUT") BOTH_ERR+=("$LAST_ERR")
  same "$out_a" "$LAST_OUT" "$(basename "$tool") $scr_words / $ours"
  run_tool "$SCR_INDEX" -l -p "$A"
  local list_a="$LAST_OUT"
  run_tool "$SCR_INDEX" --list --prefix "$B"
  same "$list_a" "$LAST_OUT" "the index after $scr_words / $ours"
  run_tool "$SCR_HALT" -l "$A"
  local halt_a="$LAST_OUT"
  run_tool "$SCR_HALT" --list --prefix "$B"
  same "$halt_a" "$LAST_OUT" "the halt file after $scr_words / $ours"
}

# both_said TEXT: both runs of the last `both` said TEXT on stderr.
both_said() {
  local f
  for f in "${BOTH_ERR[@]}"; do
    grep -qF -- "$1" "$f" || fail "stderr of the last request lacks '$1': $(cat "$f")"
  done
}

# a) listing
run_tool "$SCR_INDEX" --prefix "$PREFIX"
expect_rc 0
ref="$LAST_OUT"
for form in "-l -p $PREFIX" "--list --prefix $PREFIX" "-p$PREFIX" "--prefix=$PREFIX" "-lp $PREFIX"; do
  # shellcheck disable=SC2086
  run_tool "$SCR_INDEX" $form
  expect_rc 0
  assert_eq "$(cat "$LAST_OUT")" "$(cat "$ref")" "scr_index $form"
done
(cd "$PREFIX" && "$SCR_INDEX" -l) >"$E2E_DIR/cwd.out"
assert_eq "$(cat "$E2E_DIR/cwd.out")" "$(cat "$ref")" "scr_index -l in the prefix"
# SCR's layout: checkpoints newest first, FLUSHED the stamp the index holds
# for the finished flush, a * under CUR, and nothing after the rows.
flushed_at() { python3 "$SCRPP_SOURCE/tests/scr31/scr31_check.py" flushed "$PREFIX/.scr/index.scr" "$1"; }
assert_eq "$(cat "$ref")" "DSET VALID FLUSHED             CUR NAME
   4 YES   $(flushed_at 4)   * step.40
   3 YES   $(flushed_at 3)     step.30
   2 YES   $(flushed_at 2)     step.20
   1 YES   $(flushed_at 1)     step.10" "scr_index's listing in SCR's layout"
# SCR++'s table stays available, with its own option.
run_tool "$SCR_INDEX" --details -p "$PREFIX"
expect_rc 0
head -n1 "$LAST_OUT" | grep -qE '^DSET +VALID +FLUSHED +TYPE +FAILED +SIZE +CREATED +CUR +NAME$' ||
  fail "the --details header is not SCR++'s: $(head -n1 "$LAST_OUT")"
grep -qE '^ +4 +YES +YES +checkpoint +no +[0-9.]+ KiB +20[0-9-]+ [0-9:]+ +\* +step\.40$' "$LAST_OUT" ||
  fail "the --details row of step.40 is not as documented"
expect_out "A restart from this prefix loads step.40 (CURRENT)."

# b) scr_index changes, one spelling on A, the other on B
both "-p @ -c step.20" "--prefix @ --current step.20" 0
both "-p @ -c step.20" "--prefix=@ --current=step.20" 0          # already CURRENT, as SCR
both_said "step.20 is already CURRENT; nothing changed"
before="$(tree_digest "$A/.scr")"
run_tool "$SCR_INDEX" -p "$A" -c step.20 --strict
expect_rc 2
assert_eq "$(tree_digest "$A/.scr")" "$before" "the index after a request that changes nothing"
both "-p @ -d step.40" "--prefix @ --drop step.40" 0
both "-p @ -a step.40" "--prefix @ --add step.40" 0
both "-p @ --drop-after step.20" "--prefix @ --drop-after=step.20" 0
both "-p @ --drop-after step.20" "--prefix @ --drop-after=step.20" 0   # nothing newer
both_said "no dataset is newer than step.20; nothing changed"
run_tool "$SCR_INDEX" -p "$A" --drop-after step.20 --strict
expect_rc 2
both "-p @ -a step.20" "--prefix @ --add step.20" 0              # indexed already
both_said "'step.20' is already in the index (dataset 2); nothing changed"
run_tool "$SCR_INDEX" -p "$A" -a 2 --strict
expect_rc 2
# --build adds a complete dataset the index lacks, as SCR's does
both "-p @ -b 3" "--prefix @ --build 3" 0
run_tool "$SCR_INDEX" -p "$A" -l
grep -qE '^   3 YES   [0-9T:-]{19}     step\.30$' "$LAST_OUT" || fail "-b 3 did not put step.30 back in the index"
both "-p @ -b step.30" "--prefix @ --build=step.30" 0            # intact and indexed
both "-p @ -c step.99" "--prefix @ --current step.99" 2         # an error in SCR too
run_tool "$SCR_INDEX" -p "$A" --details -c step.20
expect_rc 1
run_tool "$SCR_INDEX" -p "$A" -x
expect_rc 1
expect_err "unknown option '-x'"
for tool in "$SCR_INDEX" "$SCR_HALT"; do
  run_tool "$tool" -h
  expect_rc 0
  short_help="$LAST_OUT"
  run_tool "$tool" --help
  same "$short_help" "$LAST_OUT" "$(basename "$tool") -h / --help"
done

# c) scr_halt: options in both spellings, directories as arguments
H="$SCR_HALT"
both "-c 2 @" "--checkpoints 2 --prefix @" 0 "$H"
both "-b 2030-01-02T03:04:05 @" "--before=2030-01-02T03:04:05 --prefix @" 0 "$H"
both "-a 2030-01-03T03:04:05 @" "--after 2030-01-03T03:04:05 -p @" 0 "$H"
both "-s 600 @" "--seconds 600 --prefix @" 0 "$H"
# SCR's layout: its key names, times as asctime writes them. The job that
# made the prefix finished, which SCR's listing shows as its finalize reason.
asc() { LC_ALL=C date -d "$1" '+%a %b %e %H:%M:%S %Y'; }
run_tool "$SCR_HALT" -l "$A"
expect_rc 0
assert_eq "$(cat "$LAST_OUT")" "Halt file settings for $A/.scr/halt.scr:
  ExitReason:      SCR_FINALIZE_CALLED
  CheckpointsLeft: 2
  ExitAfter:       $(asc 2030-01-03T03:04:05)
  ExitBefore:      $(asc 2030-01-02T03:04:05)
  HaltSeconds:     600
  ExitBefore - HaltSeconds: $(asc 2030-01-02T02:54:05)" "scr_halt -l in SCR's layout"
# SCR names the halt file after DIR as typed.
(cd "$E2E_DIR" && "$SCR_HALT" -l a) >"$E2E_DIR/relative.out"
assert_eq "$(head -n1 "$E2E_DIR/relative.out")" "Halt file settings for a/.scr/halt.scr:" "scr_halt -l with a relative DIR"
# A change prints what it sets, then the settings, as SCR's does.
run_tool "$SCR_HALT" -c 3 --unset-seconds "$A"
expect_rc 0
assert_eq "$(cat "$LAST_OUT")" "Setting CheckpointsLeft
Unsetting HaltSeconds

Halt file settings for $A/.scr/halt.scr:
  ExitReason:      SCR_FINALIZE_CALLED
  CheckpointsLeft: 3
  ExitAfter:       $(asc 2030-01-03T03:04:05)
  ExitBefore:      $(asc 2030-01-02T03:04:05)" "scr_halt -c 3 --unset-seconds, as SCR prints it"
run_tool "$SCR_HALT" --checkpoints 3 --unset-seconds --prefix "$B"
expect_rc 0
# SCR++'s words stay available, with their own option.
run_tool "$SCR_HALT" --details "$A"
expect_out "halt before 2030-01-02 03:04:05"
expect_out "halt after 2030-01-03 03:04:05"
for key in "[CHECKPOINTS]" "[EXIT_BEFORE]" "[EXIT_AFTER]"; do expect_out "$key"; done
# Requests that change nothing: exit 0 as SCR's, saying so on stderr; 2 with --strict.
run_tool "$SCR_HALT" -c 3 "$A"
expect_rc 0
expect_err "CHECKPOINTS is already 3; nothing changed"
expect_out "  CheckpointsLeft: 3"
run_tool "$SCR_HALT" --unset-seconds "$A"
expect_rc 0
expect_err "HALT_SECONDS was not set; nothing changed"
assert_eq "$(head -n3 "$LAST_OUT")" "Unsetting HaltSeconds

Halt file settings for $A/.scr/halt.scr:" "scr_halt --unset-seconds of an unset condition, as SCR prints it"
run_tool "$SCR_HALT" --unset-seconds --strict "$A"
expect_rc 2
both "-s 600 @" "--seconds 600 --prefix @" 0 "$H"
both "--unset-checkpoints @" "--unset-checkpoints --prefix @" 0 "$H"
both "--unset-before @" "--unset-before --prefix @" 0 "$H"
both "--unset-after @" "--unset-after --prefix @" 0 "$H"
both "--unset-seconds @" "--unset-seconds --prefix @" 0 "$H"
both "-i @" "--immediate --prefix @" 0 "$H"
run_tool "$SCR_HALT" --list --json --prefix "$A"
expect_out '"stop_now": true'
both "--unset-reason @" "--unset-immediate --prefix @" 0 "$H"
both "--unset-reason @" "--unset-immediate --prefix @" 0 "$H"   # not set: nothing changed
both_said "EXIT_REASON was not set; nothing changed"
run_tool "$SCR_HALT" --unset-reason --strict "$A"
expect_rc 2
# Without any option SCR halts the job now, with the reason JOB_HALTED.
both "@" "--immediate=JOB_HALTED --prefix @" 0 "$H"
run_tool "$SCR_HALT" -l "$A"
expect_out "  ExitReason:      JOB_HALTED"
both "-r @" "--remove --prefix @" 0 "$H"
assert_eq "$(cat "${BOTH_OUT[@]}")" "" "scr_halt -r's output (SCR deletes the file silently)"
run_tool "$SCR_HALT" -l "$A"
# FINALIZED is gone too: SCR deletes the whole halt file.
assert_eq "$(cat "$LAST_OUT")" "Halt file settings for $A/.scr/halt.scr:
  None" "scr_halt -l after -r"
# -r without a halt file: nothing to remove (SCR 2's rm -f), 2 with --strict.
both "-r @" "--remove --prefix @" 0 "$H"
both_said "no halt condition was set; nothing changed"
run_tool "$SCR_HALT" -r --strict "$A"
expect_rc 2
# Several directories, -v naming each halt file.
run_tool "$SCR_HALT" -v -c 1 "$A" "$B"
expect_rc 0
expect_out "scr_halt: $A/.scr/halt.scr"
expect_out "scr_halt: $B/.scr/halt.scr"
run_tool "$SCR_HALT" -lv "$A"
expect_out "  CheckpointsLeft: 1"
run_tool "$SCR_HALT" -r "$A" "$B"
expect_rc 0
run_tool "$SCR_HALT" -c "$A"
expect_rc 1
expect_err "--checkpoints: '$A' is not a whole number"

# d) scr_ckpt_interval on an event log in the library's format: three
# checkpoints (median 4 s), one run that died without END and one that
# logged FAILURE, over 3 hours: MTBF 5400 s.
LOG="$E2E_DIR/log.jsonl"
cat >"$LOG" <<'LOG'
{"time":"2026-11-24T10:00:00Z","job":"7","user":"me","event":"START"}
{"time":"2026-11-24T10:20:00Z","job":"7","user":"me","event":"CHECKPOINT_COMPLETE","dataset":"ckpt.10","id":1,"seconds":3.5,"bytes":1048576}
{"time":"2026-11-24T11:00:00Z","job":"7","user":"me","event":"START"}
{"time":"2026-11-24T11:00:02Z","job":"7","user":"me","event":"RESTART","dataset":"ckpt.10","id":1}
{"time":"2026-11-24T11:30:00Z","job":"7","user":"me","event":"CHECKPOINT_COMPLETE","dataset":"ckpt.20","id":2,"seconds":4,"bytes":1048576}
{"time":"2026-11-24T11:40:00Z","job":"7","user":"me","event":"FAILURE","note":"rank 3 lost"}
{"time":"2026-11-24T12:00:00Z","job":"8","user":"me","event":"START"}
{"time":"2026-11-24T12:30:00Z","job":"8","user":"me","event":"CHECKPOINT_COMPLETE","dataset":"ckpt.30","id":3,"seconds":6,"bytes":1048576}
{"time":"2026-11-24T12:31:00Z","job":"8","user":"me","event":"FLUSH","dataset":"ckpt.30","id":3,"seconds":1.2}
{"time":"2026-11-24T13:00:00Z","job":"8","user":"me","event":"END"}
LOG
CI="$T/scr_ckpt_interval/scr_ckpt_interval"
run_tool "$CI" --log "$LOG"
expect_rc 0
expect_out "Checkpoint cost C: 4 s (median of 3 checkpoints)"
expect_out "Mean time between failures M: 5400.0 s (90.0 min) (2 failures in 10800 s (3.00 h))"
young=$(awk 'BEGIN{printf "%.1f", sqrt(2*4*5400)}')
expect_out "Young: sqrt(2*C*M) = $young s (3.5 min)"
daly=$(awk 'BEGIN{r=4/(2*5400); printf "%.0f", sqrt(2*4*5400)*(1+sqrt(r)/3+r/9)-4}')
expect_out "SCR_CHECKPOINT_SECONDS=$daly"
run_tool "$CI" --log "$LOG" --json
expect_out '"failures": 2'
expect_out '"mtbf_seconds": 5400'
mkdir -p "$A/.scr" && cp "$LOG" "$A/.scr/log.jsonl"
run_tool "$CI" -p "$A" --cost 10 --mtbf 3600
expect_rc 0
expect_out "Young: sqrt(2*C*M) = 268.3 s (4.5 min)"
grep -v FAILURE "$LOG" | grep -v '"job":"7","user":"me","event":"START"}' >"$E2E_DIR/calm.jsonl"
run_tool "$CI" --log "$E2E_DIR/calm.jsonl"
expect_rc 2
expect_err "give --mtbf"
run_tool "$CI" --log "$E2E_DIR/nowhere.jsonl"
expect_rc 2
run_tool "$CI" --log "$LOG" --cost -1
expect_rc 1
run_tool "$CI" --cost 1e308 --mtbf 1e308
expect_rc 1
# Not a log: refused at once (a device would be read forever).
run_tool timeout 20 "$CI" --log /dev/zero
expect_rc 1
run_tool "$CI" --log "$E2E_DIR"
expect_rc 1

# e) scr_prerun and scr_postrun
mkdir -p "$E2E_DIR/fresh"
run_tool "$T/scr_prerun/scr_prerun" -p "$E2E_DIR/fresh" -v
expect_rc 0
[[ -d "$E2E_DIR/fresh/.scr" ]] || fail "scr_prerun did not create .scr"
expect_out "scr_prerun: prefix $E2E_DIR/fresh"
# An earlier allocation's node count goes, as SCR's scr_prerun removes it.
cp "$SCRPP_SOURCE/tests/fixtures/scr31/xor_np4/.scr/nodes.scr" "$E2E_DIR/fresh/.scr/"
run_tool "$T/scr_prerun/scr_prerun" -p "$E2E_DIR/fresh"
expect_rc 0
assert_no_file "$E2E_DIR/fresh/.scr/nodes.scr" "nodes.scr after scr_prerun"
run_tool "$T/scr_prerun/scr_prerun" -p "$E2E_DIR/missing"
expect_rc 1
run_tool env PATH="$T/scr_scavenge:$PATH" SCR_CACHE_BASE="$CACHE" SCR_CNTL_BASE="$CNTL" \
  SCR_SIM_NODES="$E2E_NODES" "$T/scr_postrun/scr_postrun" -j mpirun -p "$PREFIX"
expect_rc 0
expect_out "scr_postrun: nothing to scavenge"
# A job it cannot identify is a failure, never "nothing to scavenge".
run_tool env -u SLURM_JOB_ID -u SLURM_JOBID -u SCR_JOB_ID PATH="$T/scr_scavenge:$PATH" SCR_CACHE_BASE="$CACHE" \
  SCR_CNTL_BASE="$CNTL" SCR_SIM_NODES="$E2E_NODES" "$T/scr_postrun/scr_postrun" -j mpirun -p "$E2E_DIR/fresh"
expect_rc 1
expect_err "cannot tell which job to scavenge"
# Nor is a prefix that is not there (mistyped, not mounted).
run_tool env PATH="$T/scr_scavenge:$PATH" SCR_CACHE_BASE="$CACHE" SCR_CNTL_BASE="$CNTL" \
  SCR_SIM_NODES="$E2E_NODES" "$T/scr_postrun/scr_postrun" -j mpirun -p "$E2E_DIR/prefx"
expect_rc 1
assert_no_file "$E2E_DIR/prefx" "a prefix made by scr_postrun"
# With SCR switched off there is nothing to scavenge, prefix or not.
run_tool env SCR_ENABLE=0 PATH="$T/scr_scavenge:$PATH" "$T/scr_postrun/scr_postrun" -j mpirun -p "$E2E_DIR/prefx"
expect_rc 0
# Nor hosts of which none answers: what their caches hold is unknown.
printf '#!/bin/sh\nexit 255\n' > "$E2E_DIR/unreachable.sh" && chmod +x "$E2E_DIR/unreachable.sh"
run_tool env PATH="$T/scr_scavenge:$PATH" SCR_JOB_ID=gone SCR_NODE_REMOTE="$E2E_DIR/unreachable.sh" \
  SCR_NODELIST=h1,h2 "$T/scr_postrun/scr_postrun" -j mpirun -p "$PREFIX"
expect_rc 1
run_tool env SCR_JOB_ID=gone SCR_NODE_REMOTE="$E2E_DIR/unreachable.sh" \
  "$T/scr_scavenge/scr_scavenge" --prefix "$PREFIX" --hosts h1,h2
expect_rc 5
# A staged cache named on the command line that is not there: a mistake, not damage.
run_tool env SCR_JOB_ID=gone "$T/scr_scavenge/scr_scavenge" -p "$PREFIX" --cache-base "$E2E_DIR/no-such-cache"
expect_rc 2
expect_err "no-such-cache does not exist"

# A node given with -d (--down) is down with the nodes whose storage is gone:
# n0 keeps its storage, n1 lost it.
D="$E2E_DIR/down"
mkdir -p "$D/cache/n0" "$D/cntl/n0"
run_tool env SCR_SIM_NODES=n0,n1 SCR_CACHE_BASE="$D/cache" SCR_CNTL_BASE="$D/cntl" \
  "$T/scr_list_down_nodes/scr_list_down_nodes"
expect_rc 1
assert_eq "$(cat "$LAST_OUT")" "n1" "down nodes"
run_tool env SCR_SIM_NODES=n0,n1 SCR_CACHE_BASE="$D/cache" SCR_CNTL_BASE="$D/cntl" \
  "$T/scr_list_down_nodes/scr_list_down_nodes" -d n0
expect_rc 1
assert_eq "$(cat "$LAST_OUT")" "n[0-1]" "down nodes with -d n0"
# A bad option value is a usage error naming the option.
run_tool env SCR_SIM_NODES=n0,n1 SCR_CACHE_BASE="$D/cache" SCR_CNTL_BASE="$D/cntl" \
  "$T/scr_list_down_nodes/scr_list_down_nodes" --timeout abc
expect_rc 2
expect_err "--timeout=abc: not an integer"

# scr_should_exit as SCR's loop job script calls it: `--runs $runs` (0 ends
# the loop, any other count leaves the decision to the halt file and the
# nodes) and --min-nodes (instead of SCR_MIN_NODES). n0 has storage, n1 not.
SE="$T/scr_should_exit/scr_should_exit"
mkdir -p "$E2E_DIR/fresh/.scr"
should_exit() {
  run_tool env -u SLURM_JOB_ID -u SLURM_JOBID SCR_SIM_NODES=n0,n1 SCR_CACHE_BASE="$D/cache" \
    SCR_CNTL_BASE="$D/cntl" "$SE" -p "$E2E_DIR/fresh" -v "$@"
}
should_exit --runs 4 --min-nodes 1
expect_rc 1
expect_out "1 of 2 nodes up: another run may start"
should_exit --runs 0 --min-nodes 1
expect_rc 0
expect_out "no runs left"
should_exit --runs 4 --min-nodes 2
expect_rc 0
expect_out "fewer than the 2 needed"
should_exit --runs x
expect_rc 2

# f) scr_mpirun and scr_srun's refusals
M="$E2E_DIR/m"
mkdir -p "$M/prefix" "$M/cache" "$M/cntl"
# (Run in the prefix: the job's relative file names start there, as in SCR.)
run_tool env -C "$M/prefix" -u SLURM_JOB_ID -u SLURM_JOBID PATH="$T/scr_postrun:$T/scr_scavenge:$PATH" SCR_PREFIX="$M/prefix" \
  SCR_CACHE_BYPASS=0 SCR_CACHE_BASE="$M/cache" SCR_CNTL_BASE="$M/cntl" SCR_SIM_NODES="$E2E_NODES" \
  "$T/scr_mpirun/scr_mpirun" -n "$E2E_NP" "$HEAT" -n 20 -c 10
expect_rc 0
expect_out "scr_mpirun: resource manager none"
expect_out "scr_mpirun: run 1 of 1 on $E2E_NODES: mpirun -n $E2E_NP $HEAT -n 20 -c 10"
expect_out "scr_mpirun: run 1 finished (exit 0): the job is done"
expect_out "RESULT steps=20"
expect_out "scr_postrun: nothing to scavenge"      # scr_mpirun ends with scr_postrun
# That run's SCR_Init recorded its nodes in SCR's .scr/nodes.scr; without
# SCR_MIN_NODES, scr_should_exit needs that many, not the whole allocation
# (here one node more, a spare without storage).
assert_eq "$("$SCR_INSPECT" "$M/prefix/.scr/nodes.scr" | grep NODES)" "NODES = $(tr , '\n' <<<"$E2E_NODES" | wc -l)" "nodes.scr"
run_tool "$SCR_HALT" --remove-finalized "$M/prefix"
run_tool env -u SLURM_JOB_ID -u SLURM_JOBID SCR_SIM_NODES="$E2E_NODES,spare" SCR_CACHE_BASE="$M/cache" \
  SCR_CNTL_BASE="$M/cntl" "$T/scr_should_exit/scr_should_exit" -p "$M/prefix" -v
expect_rc 1
expect_out "another run may start"
# SCR's scr_run, its launcher first, as SCR's job scripts call it: the same loop.
M2="$E2E_DIR/m2"
mkdir -p "$M2/prefix" "$M2/cache" "$M2/cntl"
run_tool env -C "$M2/prefix" -u SLURM_JOB_ID -u SLURM_JOBID PATH="$T/scr_postrun:$T/scr_scavenge:$PATH" SCR_PREFIX="$M2/prefix" \
  SCR_CACHE_BYPASS=0 SCR_CACHE_BASE="$M2/cache" SCR_CNTL_BASE="$M2/cntl" SCR_SIM_NODES="$E2E_NODES" \
  "$T/scr_run/scr_run" mpirun -n "$E2E_NP" "$HEAT" -n 20 -c 10
expect_rc 0
expect_out "scr_run: run 1 of 1 on $E2E_NODES: mpirun -n $E2E_NP $HEAT -n 20 -c 10"
expect_out "scr_run: run 1 finished (exit 0): the job is done"
expect_out "RESULT steps=20"
run_tool env -u SLURM_JOB_ID -u SLURM_JOBID "$T/scr_run/scr_run" srun -n 1 true
expect_rc 1
expect_err "not inside a SLURM allocation"
run_tool "$T/scr_run/scr_run" jsrun -n 1 true
expect_rc 1
expect_err "launcher 'jsrun' is not supported"
run_tool env -u SLURM_JOB_ID -u SLURM_JOBID "$T/scr_srun/scr_srun" -n 1 true
expect_rc 1
expect_err "not inside a SLURM allocation"
run_tool "$T/scr_srun/scr_srun" -n 1 --run-cmd=./app
expect_rc 1
expect_err "'--run-cmd=./app' (SCR's --run-cmd/--restart-cmd) is not supported"
run_tool "$T/scr_srun/scr_srun"
expect_rc 1
expect_err "usage: scr_srun"
e2e_pass
