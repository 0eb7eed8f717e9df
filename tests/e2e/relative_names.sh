#!/usr/bin/env bash
# Relative file names start in the working directory, as in SCR 3.1: the heat
# demo runs in <prefix>/run3 with SCR_PREFIX=<prefix>, so its "step.N/rank_R.dat"
# and "output/..." land in <prefix>/run3/ once flushed. It restarts from the
# cache (crash) and from the prefix (every node lost) through the same names,
# and the result matches an uninterrupted run. Run outside the prefix, a
# relative name is refused and nothing is written there. The regions example
# restarts at another size from a working directory below the prefix.
source "$(dirname "$0")/lib.sh"
e2e_begin relative_names
TOP="$PREFIX"
RUN="$TOP/run3"
mkdir -p "$RUN"
PREFIX="$RUN"  # run_job starts the jobs in $PREFIX: the working directory

run_job SCR_PREFIX="$TOP" SCR_FLUSH=1 -- 4 "$HEAT" -n 40 -c 10 -o 20 --crash-at 25
expect_crashed
for r in 0 1 2 3; do
  assert_file "$RUN/step.20/rank_$r.dat" "flushed checkpoint file below the working directory"
  assert_file "$RUN/output/heat.20.rank_$r.txt" "output file below the working directory"
done
assert_no_file "$TOP/step.20" "a checkpoint directory at the top of the prefix"
run_job SCR_PREFIX="$TOP" SCR_FLUSH=1 -- 4 "$HEAT" -n 40 -c 10 -o 20 --crash-at 35
expect_crashed
expect_resumed_from step.20
lose_all_nodes
run_job SCR_PREFIX="$TOP" SCR_FLUSH=1 -- 4 "$HEAT" -n 40 -c 10 -o 20
expect_ok
expect_resumed_from step.30
expect_result_equals_uninterrupted -n 40 -c 10 -o 20
assert_file "$RUN/step.40/rank_0.dat" "last checkpoint below the working directory"

# The regions heat example, run in <prefix>/run4, restarts at another size:
# it reads the writers' regions through the restart listing, whose names
# must route from that working directory too.
HEATR="$SCRPP_BUILD/examples/heat_regions/heat_regions"
use_dirs "$E2E_DIR/regions"
TOP2="$PREFIX"
RUN4="$TOP2/run4"
mkdir -p "$RUN4"
PREFIX="$RUN4"
run_job SCR_PREFIX="$TOP2" SCR_FLUSH=1 -- 4 "$HEATR" -n 30 -c 10 --crash-at 25
expect_crashed
lose_all_nodes
run_job SCR_PREFIX="$TOP2" SCR_FLUSH=1 -- 2 "$HEATR" -n 30 -c 10
expect_ok "heat_regions on 2 ranks in $RUN4"
expect_out "resumed at step 20 (written by 4 ranks)"

# A working directory outside the prefix: its relative names are outside too.
OUTSIDE="$E2E_DIR/outside"
mkdir -p "$OUTSIDE"
PREFIX="$OUTSIDE"
run_job SCR_PREFIX="$TOP/elsewhere" SCR_FLUSH=1 -- 4 "$HEAT" -n 20 -c 10
expect_failed
assert_eq "$(find "$OUTSIDE" -mindepth 1 | wc -l)" 0 "files written in a working directory outside the prefix"
e2e_pass
