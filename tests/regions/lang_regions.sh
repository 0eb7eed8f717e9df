#!/usr/bin/env bash
# lang_regions.sh NAME -- PROGRAM...: memory regions through one language's
# binding (cpp_regions.cpp, fortran_regions.f90, python_regions.py; each
# describes its modes). 4 ranks on 2 simulated nodes, XOR:
#  1. steps 1 and 2 checkpointed, then the job aborts (no SCR_Finalize);
#  2. regions of another size are refused with the memory untouched;
#  3. step 2 restored from the cache, every byte checked;
#  4. the same from the prefix after every node's storage is lost;
#  5. 2 ranks read the 4 writers' regions from the prefix.
# PROGRAM "python" stands for a python3 with mpi4py running the script
# after it (the scenario is skipped, exit 77, when there is none).
source "$(dirname "$0")/../e2e/lib.sh"
name="$1"
shift
[[ "${1:-}" == "--" ]] && shift
PROG=("$@")
if [[ "${PROG[0]}" == python ]]; then
  source "$(dirname "$0")/../bindings/python_env.sh"
  if ! find_python; then
    echo "[e2e $name] SKIP: no python3 with mpi4py"
    exit 77
  fi
  PROG=("$PYTHON" -m mpi4py "${PROG[@]:1}")
fi
E2E_COPY_TYPE=XOR
e2e_begin "$name"

ok_run() {
  [[ $LAST_RC -eq 0 ]] || fail "$1 exited with $LAST_RC"
  expect_out "$2"
}
write_and_abort() {
  run_job "$@" -- 4 "${PROG[@]}" write
  expect_failed
  expect_out "WROTE step.2"
}

write_and_abort SCR_FLUSH=0
run_job SCR_FLUSH=0 -- 4 "${PROG[@]}" mismatch
ok_run mismatch "REFUSED UNTOUCHED"
if [[ "$name" == regions_fortran ]]; then
  # the strided section's refusal names its cause, as every refusal does
  expect_err "scrpp_protect: region 2: the array is not contiguous"
fi
run_job SCR_FLUSH=0 -- 4 "${PROG[@]}" restore
ok_run "restore from the cache" "RESTORED step.2"

use_dirs "$E2E_DIR/prefix"
write_and_abort SCR_FLUSH=1
lose_all_nodes
run_job SCR_FLUSH=1 -- 4 "${PROG[@]}" restore
ok_run "restore from the prefix" "RESTORED step.2"

use_dirs "$E2E_DIR/fewer"
write_and_abort SCR_FLUSH=1
lose_all_nodes
run_job SCR_FLUSH=1 -- 2 "${PROG[@]}" rescale
ok_run "2 ranks from the prefix" "RESCALED 4 onto 2"
e2e_pass
