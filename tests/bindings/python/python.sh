#!/usr/bin/env bash
# The Python package `scr` from the build tree, every job
#   mpirun -n 4 python3 -m mpi4py scr_app.py MODE ...
# on 2 simulated nodes (scr_app.py describes the modes):
#  1. run: checkpoints through `with scr.checkpoint()` and save_array; the
#     last rank is SIGKILLed after step.3 (no flush); the restart resumes
#     from the cache (step.3), flushes 4 and 5 and is killed again; with
#     every node's storage lost it resumes from the prefix (step.5). An
#     exception inside the `with` of step.7 on one rank makes step.7 invalid
#     everywhere; the next run resumes from step.6. A file damaged before
#     its checkpoint completed (so SCR's own checksums agree with it) is
#     caught by load_array's digest: that checkpoint is rejected and the
#     previous one used. Every result equals an uninterrupted run's.
#  2. arrays, with the package as `cmake --install` installs it: bit-exact
#     round trips of many dtypes, in plain files and through a checkpoint
#     read back by a second job; damaged and truncated files raise
#     IntegrityError.
#  3. api: each SCR 3.1 function, scr.output() and mark_invalid(); Drop,
#     Delete and Current checked on disk and in the index, Current by a
#     restart from the prefix.
#  4. control: need_checkpoint() with SCR_CHECKPOINT_INTERVAL=3 and
#     should_exit() with a halt file (CHECKPOINTS=2).
#  5. without NumPy (a numpy package that fails to import is first on
#     PYTHONPATH): config, a checkpoint of plain files and its restart work;
#     the array helpers raise ImportError (no_numpy.py).
# Skipped (exit 77) only when no python3 with mpi4py exists.
source "$(dirname "$0")/../../e2e/lib.sh"
APP="$SCRPP_SOURCE/tests/bindings/python/scr_app.py"

source "$(dirname "$0")/../python_env.sh"
if ! find_python; then
  echo "[e2e bindings_python] SKIP: no python3 with mpi4py (scripts/setup.sh installs python3-mpi4py)"
  exit 77
fi
e2e_begin bindings_python
PY=("$PYTHON" -m mpi4py "$APP")

expect_rc() { [[ $LAST_RC -eq "$1" ]] || fail "${2:-job} exited with $LAST_RC, expected $1"; }

# --- 1. run ----------------------------------------------------------------
run_job SCR_FLUSH=0 -- "$E2E_NP" "${PY[@]}" run 7 --crash-at 3
expect_crashed "job killed after step.3"
[[ ! -e "$PREFIX/pdata" ]] || fail "SCR_FLUSH=0 but array files reached the prefix"

run_job SCR_FLUSH=1 -- "$E2E_NP" "${PY[@]}" run 7 --crash-at 5
expect_crashed "restarted job killed after step.5"
expect_out "RESUMED step.3"
for r in $(seq 0 $((E2E_NP - 1))); do assert_file "$PREFIX/pdata/step.5/rank_${r}_u.arr" "flushed array"; done

# A bug in the loader on one rank: every rank raises (none is left waiting
# in a collective call) and step.5 is not condemned (resumed below).
run_job SCR_FLUSH=1 -- "$E2E_NP" "${PY[@]}" run 7 --loader-bug-rank 2
expect_failed "job whose loader has a bug on rank 2"
expect_err "KeyError"
expect_err "the loader failed on another process"

lose_all_nodes
run_job SCR_FLUSH=1 -- "$E2E_NP" "${PY[@]}" run 7 --fail-at 7
expect_rc 0 "job with an exception inside the with of step.7"
expect_out "RESUMED step.5"
expect_out "INVALID step.7"
index_show | grep -q " name=step.7 .*complete=1" && fail "step.7 is complete in the index after an exception:
$(index_show)"

run_job SCR_FLUSH=1 -- "$E2E_NP" "${PY[@]}" run 7 --corrupt-at 7
expect_rc 0 "job that damages its step.7 file"
expect_out "RESUMED step.6"
expect_index step.7 complete 1

lose_all_nodes
run_job SCR_FLUSH=1 -- "$E2E_NP" "${PY[@]}" run 7
expect_rc 0 "restart past the damaged step.7"
expect_out "REJECTED step.7"
expect_out "RESUMED step.6"
expect_err "SHA-256 mismatch"
expect_result_equals_uninterrupted_of "$PYTHON" -m mpi4py "$APP" run 7
say "run: killed, restarted from cache and prefix, invalid and damaged checkpoints skipped"

# --- 2. arrays, with the installed package -------------------------------------
install_build
export PYTHONPATH="$INSTALL/lib/python3/dist-packages"
loaded="$("$PYTHON" -c 'import scr._lib as l, scr; print(scr.__file__, l.path)')" ||
  fail "the installed package does not import"
read -r pkg lib <<<"$loaded"
[[ "$pkg" == "$INSTALL"/* && "$(realpath "$lib")" == "$INSTALL"/* ]] ||
  fail "the installed package ($pkg) loads $lib, not the libscr installed next to it"
say "installed package $pkg loads $lib"
use_dirs "$E2E_DIR/arrays"
run_job -- "$E2E_NP" "${PY[@]}" arrays
expect_rc 0 "arrays (first job)"
expect_out "ARRAYS OK restored=0 checks=100"
run_job -- "$E2E_NP" "${PY[@]}" arrays
expect_rc 0 "arrays (second job)"
expect_out "ARRAYS OK restored=56 checks=100"

export PYTHONPATH="$SCRPP_BUILD/python"

# --- 3. api ------------------------------------------------------------------------
use_dirs "$E2E_DIR/api"
run_job SCR_FLUSH=1 -- "$E2E_NP" "${PY[@]}" api first
expect_rc 0 "api first"
expect_out "API FIRST OK"
for r in $(seq 0 $((E2E_NP - 1))); do
  assert_file_content "$PREFIX/api/out.keep/rank_$r.txt" "keep $r"
  assert_file_content "$PREFIX/api/out.drop/rank_$r.txt" "drop $r"
  assert_file_content "$PREFIX/api/out.ctx/rank_$r.txt" "ctx $r"
  assert_no_file "$PREFIX/api/out.del/rank_$r.txt" "file of the deleted out.del"
done
assert_eq "$(index_field out.drop id)" absent "out.drop in the index after drop()"
assert_eq "$(index_field out.del id)" absent "out.del in the index after delete()"
assert_eq "$(index_current)" ckpt.b "current checkpoint after current()"
expect_index out.ctx complete 1
index_show | grep -q " name=ckpt.marked .*complete=1" && fail "ckpt.marked is complete after mark_invalid():
$(index_show)"
lose_all_nodes
run_job -- "$E2E_NP" "${PY[@]}" api second
expect_rc 0 "api second"
expect_out "API SECOND OK ckpt.b"

# --- 4. control ----------------------------------------------------------------------
use_dirs "$E2E_DIR/control"
write_halt CHECKPOINTS=2
run_job SCR_CHECKPOINT_INTERVAL=3 SCR_FLUSH=0 -- "$E2E_NP" "${PY[@]}" control
expect_rc 0 "control"
expect_out "NEED 3 6"
expect_out "STOPPED 6"
for n in ${E2E_NODES//,/ }; do
  [[ -n "$(cached_datasets "$n")" ]] || fail "node $n caches no dataset"
done

# --- 5. without NumPy ----------------------------------------------------------------
hidden="$E2E_DIR/numpy_hidden"
mkdir -p "$hidden/numpy"
echo 'raise ModuleNotFoundError("numpy is hidden by tests/bindings/python/python.sh", name="numpy")' \
  >"$hidden/numpy/__init__.py"
NO_NUMPY=(PYTHONPATH="$hidden:$SCRPP_BUILD/python" SCR_FLUSH=1)
NO_NUMPY_APP=("$PYTHON" -m mpi4py "$SCRPP_SOURCE/tests/bindings/python/no_numpy.py")
use_dirs "$E2E_DIR/no_numpy"
run_job "${NO_NUMPY[@]}" -- "$E2E_NP" "${NO_NUMPY_APP[@]}" first
expect_rc 0 "first job without NumPy"
expect_out "NO NUMPY FIRST OK"
for r in $(seq 0 $((E2E_NP - 1))); do assert_file_content "$PREFIX/plain/rank_$r.txt" "plain $r"; done
run_job "${NO_NUMPY[@]}" -- "$E2E_NP" "${NO_NUMPY_APP[@]}" second
expect_rc 0 "restart without NumPy"
expect_out "NO NUMPY SECOND OK plain.1"
say "without NumPy: config, checkpoint and restart work; the array helpers raise ImportError"
e2e_pass
