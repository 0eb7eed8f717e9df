#!/usr/bin/env bash
# One job per prefix and one per job directory. While job A runs:
#  - job B on the same prefix is refused at SCR_Init with an error naming A
#    (its job id, host and pid), and the prefix index is left untouched;
#  - scr_index refuses to change that index;
#  - job C with A's job id on the same node storage (another prefix) is
#    refused too.
# After A is killed, its locks are gone with it and a new job runs normally.
source "$(dirname "$0")/../e2e/lib.sh"
E2E_NP=2 E2E_NODES=n0,n1
e2e_begin one_job
SCR_INDEX="$SCRPP_BUILD/tools/scr_index/scr_index"
need_file "$SCR_INDEX" "scr_index is not built"

run_job SCR_JOB_ID=jobA SCR_FLUSH=1 -- 2 "$HEAT" -n 20 -c 10 -g 16 16
expect_ok "first run of job A"
index_before="$(sha256sum "$PREFIX/.scr/index.scr")"

# Job A again, running until it is killed. Its step count is unique to this
# run, so stopping it never touches another test's jobs.
forever=$((1000000000 + $$ % 100000))
(cd "$PREFIX" && env SCR_CACHE_BYPASS=0 SCR_JOB_ID=jobA SCR_CACHE_BASE="$CACHE" SCR_CNTL_BASE="$CNTL" \
   SCR_SIM_NODES="$E2E_NODES" SCR_FLUSH=0 timeout -k 5 120 "$MPIEXEC" -n 2 "$HEAT" -n "$forever" -c "$forever" -g 16 16 \
   >"$E2E_DIR/jobA.out" 2>&1) &
job_a=$!
stop_job_a() { pkill -KILL -f -- "-n $forever -c $forever" 2>/dev/null || true; wait "$job_a" 2>/dev/null || true; }
trap 'rc=$?; stop_job_a; (exit $rc); e2e_cleanup' EXIT
# The lock files stay after the first run (with its text): wait until job A
# really holds both locks (flock -n fails), not just until the files exist.
held() { [[ -e "$1" ]] && ! flock -n "$1" true; }
for _ in $(seq 600); do
  held "$PREFIX/.scr/job.lock" && held "$(echo "$CNTL"/n1/*/scr.jobA/job.lock)" && break
  sleep 0.1
done
held "$PREFIX/.scr/job.lock" || fail "job A never took its prefix lock:
$(cat "$E2E_DIR/jobA.out")"

run_job SCR_JOB_ID=jobB -- 2 "$HEAT" -n 20 -c 10 -g 16 16
expect_failed "job B on job A's prefix"
expect_said "another job is using this prefix directory"
expect_said "job jobA (host"
assert_eq "$(sha256sum "$PREFIX/.scr/index.scr")" "$index_before" "the prefix index after job B"

if "$SCR_INDEX" --prefix "$PREFIX" --drop step.10 >"$E2E_DIR/index.out" 2>&1; then
  fail "scr_index changed the index of a prefix a job is using"
fi
grep -q "job jobA" "$E2E_DIR/index.out" || fail "scr_index did not name the job: $(cat "$E2E_DIR/index.out")"
assert_eq "$(sha256sum "$PREFIX/.scr/index.scr")" "$index_before" "the prefix index after scr_index"

saved_prefix="$PREFIX"
PREFIX="$E2E_DIR/other_prefix"
mkdir -p "$PREFIX"
run_job SCR_JOB_ID=jobA -- 2 "$HEAT" -n 20 -c 10 -g 16 16
expect_failed "job C with job A's id on the same node storage"
expect_said "another job is using this job directory"
PREFIX="$saved_prefix"

stop_job_a
run_job SCR_JOB_ID=jobB SCR_FLUSH=1 -- 2 "$HEAT" -n 20 -c 10 -g 16 16
expect_ok "a job after job A ended"
e2e_pass
