#!/usr/bin/env bash
# Two independent SCR++ jobs in one launch of 8 processes: MPI_Comm_split by
# parity gives job A the even world ranks and job B the odd ones, each with
# SCRPP_Init_comm on its communicator and its own prefix, both with the job
# id of the launch (as a resource manager gives it). The simulated nodes
# hold two processes each, one of each job, so every lost node is lost
# under both. The jobs checkpoint at different steps (A every 3, B every 5)
# and each restarts from its own checkpoint: from the caches (after losing
# n1, rebuilt by XOR), then from its prefix (after losing every node). The
# program checks every byte it reads back.
source "$(dirname "$0")/lib.sh"
E2E_COPY_TYPE=XOR
E2E_NP=8
E2E_NODES=n0,n1,n2,n3
e2e_begin comm_two_jobs
PA="$E2E_DIR/run/prefix_a"
PB="$E2E_DIR/run/prefix_b"
mkdir -p "$PA" "$PB"
ARGS=(--split parity --every-a 3 --every-b 5 --end 20 --prefix-a "$PA" --prefix-b "$PB")

run_job SCR_JOB_ID=launch1 SCR_FLUSH=0 -- 8 "$COMM_JOBS" "${ARGS[@]}" --crash-at 10
expect_crashed "both jobs killed after step 10"
expect_ranks_say A 4 fresh
expect_ranks_say B 4 fresh
expect_no_checkpoint_files "$PA"
expect_no_checkpoint_files "$PB"
# One job directory per job on every node (the launch's job id, each job's
# own tag), in cache and control storage alike.
for n in n0 n1 n2 n3; do
  for base in "$CACHE" "$CNTL"; do
    count=$(find "$base/$n" -mindepth 2 -maxdepth 2 -type d -name 'scr.launch1.*' | wc -l)
    assert_eq "$count" 2 "job directories in $base/$n"
  done
done

lose_node n1
run_job SCR_JOB_ID=launch1 SCR_FLUSH=0 -- 8 "$COMM_JOBS" "${ARGS[@]}" --crash-at 13
expect_crashed "both jobs killed after step 13"
expect_ranks_say A 4 "resumed A.step.9"
expect_ranks_say B 4 "resumed B.step.10"
expect_no_checkpoint_files "$PA"
expect_no_checkpoint_files "$PB"

# From the caches again (A has step 12 since), then to the end, flushing
# every checkpoint to the job's own prefix.
run_job SCR_JOB_ID=launch1 SCR_FLUSH=1 -- 8 "$COMM_JOBS" "${ARGS[@]}"
assert_eq "$LAST_RC" 0 "exit code of the run to step 20"
expect_ranks_say A 4 "resumed A.step.12"
expect_ranks_say B 4 "resumed B.step.10"
expect_ranks_say A 4 done
expect_ranks_say B 4 done
for r in 0 1 2 3; do
  assert_file "$PA/A.18/rank_$r.dat"
  assert_file "$PB/B.20/rank_$r.dat"
done
[[ -z "$(find "$PA" -name 'B.*')" && -z "$(find "$PB" -name 'A.*')" ]] || fail "a job's files reached the other's prefix"

lose_all_nodes
run_job SCR_JOB_ID=launch1 -- 8 "$COMM_JOBS" "${ARGS[@]}"
assert_eq "$LAST_RC" 0 "exit code of the restart from the prefixes"
expect_ranks_say A 4 "resumed A.step.18"
expect_ranks_say B 4 "resumed B.step.20"
e2e_pass
