# shellcheck shell=bash
# Helpers of the SCRPP_Init_comm scenarios: tests/e2e/lib.sh plus the
# program comm_jobs.c and checks of what its processes print.
source "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"

COMM_JOBS="$SCRPP_BUILD/tests/comm/comm_jobs"

# expect_lines N TEXT: the last job printed the line TEXT exactly N times.
expect_lines() {
  local n
  n=$(grep -cxF -- "$2" "$LAST_OUT" || true)
  assert_eq "$n" "$1" "lines '$2' in the output"
}

# expect_ranks_say JOB RANKS WORDS: ranks 0..RANKS-1 of JOB each printed
# "job JOB rank r WORDS" once.
expect_ranks_say() {
  local job="$1" ranks="$2" words="$3" r
  for ((r = 0; r < ranks; ++r)); do expect_lines 1 "job $job rank $r $words"; done
}

# expect_no_checkpoint_files DIR: nothing of a checkpoint reached DIR.
expect_no_checkpoint_files() {
  [[ -z "$(find "$1" -name 'rank_*.dat')" ]] || fail "checkpoint files reached $1: $(find "$1" -name 'rank_*.dat')"
}
