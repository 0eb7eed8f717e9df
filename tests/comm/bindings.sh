#!/usr/bin/env bash
# SCR++ on a communicator from each binding: C++ (scr::Library(comm)),
# Fortran (SCRPP_INIT_COMM with mpi_f08's COMM%MPI_VAL) and Python
# (scr.init(comm=...) with an mpi4py communicator). Each program splits 4
# processes by parity into jobs A and B with their own prefixes; a first
# run checkpoints, a second one restarts each job from its own checkpoint
# in cache (bytes checked by the program) and checkpoints again. Python is
# skipped when no python3 has mpi4py, Fortran when it is not built.
source "$(dirname "$0")/lib.sh"
source "$SCRPP_SOURCE/tests/bindings/python_env.sh"
E2E_NODES=n0,n1
e2e_begin comm_bindings

# two_runs NAME PROGRAM...: the program's prefixes and step come last.
two_runs() {
  local name="$1"
  shift
  local pa="$E2E_DIR/$name/a" pb="$E2E_DIR/$name/b"
  mkdir -p "$pa" "$pb"
  run_job SCR_FLUSH=0 -- 4 "$@" "$pa" "$pb" 1
  assert_eq "$LAST_RC" 0 "$name: exit code of the first run"
  expect_ranks_say A 2 fresh
  expect_ranks_say B 2 fresh
  run_job SCR_FLUSH=0 -- 4 "$@" "$pa" "$pb" 2
  assert_eq "$LAST_RC" 0 "$name: exit code of the restart"
  expect_ranks_say A 2 "resumed A.step.1"
  expect_ranks_say B 2 "resumed B.step.1"
  say "$name: both jobs restarted their own checkpoints"
}

two_runs cpp "$SCRPP_BUILD/tests/comm/comm_jobs_cpp"
if [[ -x "$SCRPP_BUILD/tests/comm/comm_jobs_f" ]]; then
  two_runs fortran "$SCRPP_BUILD/tests/comm/comm_jobs_f"
else
  say "Fortran not built: skipped"
  skipped=1
fi
if find_python; then
  two_runs python "$PYTHON" -m mpi4py "$SCRPP_SOURCE/tests/comm/comm_jobs.py"
  # Only job A has a checkpoint: job B's load_restart returns at once, and
  # job A's must agree within job A alone.
  pa="$E2E_DIR/python_one/a" pb="$E2E_DIR/python_one/b"
  mkdir -p "$pa" "$pb"
  run_job SCR_FLUSH=0 -- 4 "$PYTHON" -m mpi4py "$SCRPP_SOURCE/tests/comm/comm_jobs.py" "$pa" "$pb" 0
  assert_eq "$LAST_RC" 0 "python_one: exit code of the first run"
  run_job SCR_FLUSH=0 -- 4 "$PYTHON" -m mpi4py "$SCRPP_SOURCE/tests/comm/comm_jobs.py" "$pa" "$pb" 1
  assert_eq "$LAST_RC" 0 "python_one: exit code of the restart of job A alone"
  expect_ranks_say A 2 "resumed A.step.0"
  expect_ranks_say B 2 fresh
else
  say "no python3 with mpi4py: Python skipped"
  skipped=1
fi
# A language that could not run is a skip (ctest's 77), not a pass.
[[ -z "${skipped:-}" ]] || exit 77
e2e_pass
