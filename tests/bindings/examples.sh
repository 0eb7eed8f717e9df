#!/usr/bin/env bash
# The bindings' examples, 4 ranks on 2 simulated nodes:
#  - heat_f90 (examples/fortran): killed at step 25, restarted from the
#    cache (step.20), killed at 35, every node lost, restarted from the
#    prefix (step.30); its final checksum equals the C heat demo's for the
#    same arguments, and an uninterrupted heat_f90 run agrees too. It also
#    resumes, to the same checksum, a C demo run killed at step 25.
#  - heat1d.py (examples/python): killed at step 130, restarted from the
#    cache (step.100); result equals an uninterrupted run's.
# Python part skipped when no python3 has mpi4py.
source "$(dirname "$0")/../e2e/lib.sh"
e2e_begin bindings_examples
HEAT_F90="$SCRPP_BUILD/examples/fortran/heat_f90"
ARGS=(-n 40 -c 10)

resumed_from_f90() { sed -n "s/^\[heat-f90\] resumed from checkpoint '\([^']*\)'.*/\1/p" "$LAST_OUT"; }

run_job SCR_FLUSH=0 -- "$E2E_NP" "$HEAT_F90" "${ARGS[@]}" --crash-at 25
expect_crashed "heat_f90 killed at step 25"
run_job SCR_FLUSH=1 -- "$E2E_NP" "$HEAT_F90" "${ARGS[@]}" --crash-at 35 --crash-rank 3
expect_crashed "heat_f90 killed at step 35"
assert_eq "$(resumed_from_f90)" step.20 "checkpoint heat_f90 resumed from (cache)"
lose_all_nodes
run_job SCR_FLUSH=1 -- "$E2E_NP" "$HEAT_F90" "${ARGS[@]}"
expect_ok "heat_f90 restarted from the prefix"
assert_eq "$(resumed_from_f90)" step.30 "checkpoint heat_f90 resumed from (prefix)"
expect_result_equals_uninterrupted "${ARGS[@]}"                  # the C demo
expect_result_equals_uninterrupted_of "$HEAT_F90" "${ARGS[@]}"   # Fortran, uninterrupted
say "heat_f90 matches the C heat demo after two kills"

# The checkpoint files are the C demo's, byte for byte: heat_f90 resumes a
# run of the C demo killed at step 25.
use_dirs "$E2E_DIR/cross"
run_job SCR_FLUSH=0 -- "$E2E_NP" "$HEAT" "${ARGS[@]}" --crash-at 25
expect_crashed "C heat killed at step 25"
run_job SCR_FLUSH=0 -- "$E2E_NP" "$HEAT_F90" "${ARGS[@]}"
expect_ok "heat_f90 continuing the C demo's run"
assert_eq "$(resumed_from_f90)" step.20 "checkpoint heat_f90 resumed from (written by the C demo)"
expect_result_equals_uninterrupted "${ARGS[@]}"

source "$(dirname "$0")/python_env.sh"
if ! find_python; then
  say "SKIP heat1d.py: no python3 with mpi4py"
else
  HEAT_PY=("$PYTHON" -m mpi4py "$SCRPP_SOURCE/examples/python/heat1d.py")
  use_dirs "$E2E_DIR/py"
  run_job SCR_FLUSH=0 -- "$E2E_NP" "${HEAT_PY[@]}" -n 150 -c 50 --crash-at 130
  expect_crashed "heat1d.py killed at step 130"
  run_job SCR_FLUSH=0 -- "$E2E_NP" "${HEAT_PY[@]}" -n 150 -c 50
  expect_ok "heat1d.py restarted"
  expect_out "[heat-py] resumed from checkpoint 'step.100' (step 100)"
  expect_result_equals_uninterrupted_of "${HEAT_PY[@]}" -n 150 -c 50
fi
e2e_pass
