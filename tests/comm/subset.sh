#!/usr/bin/env bash
# Six writers of eight: world ranks 0..5 run SCR++ on their communicator
# (SCRPP_Init_comm), ranks 6 and 7 never call it. The writers checkpoint,
# are killed, lose a node and restart from the caches (XOR), then flush and
# restart from the prefix after losing every node; the program checks every
# byte it reads. Ranks 6 and 7 sit alone on simulated node n3: nothing of
# SCR++ may appear there.
source "$(dirname "$0")/lib.sh"
E2E_COPY_TYPE=XOR
E2E_NP=8
E2E_NODES=n0,n1,n2,n3
e2e_begin comm_subset
ARGS=(--split subset6 --every-a 3 --end 12)

run_job SCR_FLUSH=0 -- 8 "$COMM_JOBS" "${ARGS[@]}" --crash-at 7
expect_crashed "writers killed after step 7"
expect_ranks_say A 6 fresh
expect_no_checkpoint_files "$PREFIX"
assert_no_file "$CACHE/n3" "storage of the node without writers"
assert_no_file "$CNTL/n3" "storage of the node without writers"

lose_node n1
run_job SCR_FLUSH=0 -- 8 "$COMM_JOBS" "${ARGS[@]}"
assert_eq "$LAST_RC" 0 "exit code of the restart from the caches"
expect_ranks_say A 6 "resumed A.step.6"
expect_ranks_say A 6 done

expect_no_checkpoint_files "$PREFIX"

# Flushed at the end of the run (SCR_Finalize), then every node lost.
run_job -- 8 "$COMM_JOBS" --split subset6 --every-a 3 --end 15
assert_eq "$LAST_RC" 0 "exit code of the run to step 15"
expect_ranks_say A 6 "resumed A.step.12"
for n in n0 n1 n2; do lose_node "$n"; done
run_job -- 8 "$COMM_JOBS" --split subset6 --every-a 3 --end 15
assert_eq "$LAST_RC" 0 "exit code of the restart from the prefix"
expect_ranks_say A 6 "resumed A.step.15"
assert_no_file "$CACHE/n3" "storage of the node without writers"
e2e_pass
