#!/usr/bin/env bash
# Mistakes a Python user makes (mistakes.py describes them), on 2 ranks and
# 2 simulated nodes: a name of the wrong type, a scr.Regions dropped without
# close(), an array save_array refuses inside a checkpoint. The checkpoint
# written after them is valid and holds only the regions still protected,
# so a job protecting just those restores it. Skipped (77) without a
# python3 that has mpi4py.
source "$(dirname "$0")/../../e2e/lib.sh"
APP="$SCRPP_SOURCE/tests/bindings/python/mistakes.py"
source "$(dirname "$0")/../python_env.sh"
if ! find_python; then
  echo "[e2e bindings_python_mistakes] SKIP: no python3 with mpi4py"
  exit 77
fi
e2e_begin bindings_python_mistakes

run_job SCR_FLUSH=1 -- 2 "$PYTHON" -m mpi4py "$APP" write
[[ $LAST_RC -eq 0 ]] || fail "write exited with $LAST_RC"
expect_out "OK write"
lose_all_nodes
run_job SCR_FLUSH=1 -- 2 "$PYTHON" -m mpi4py "$APP" read
[[ $LAST_RC -eq 0 ]] || fail "read exited with $LAST_RC"
expect_out "OK read"
use_dirs "$E2E_DIR/raw"
run_job SCR_FLUSH=1 -- 2 "$PYTHON" -m mpi4py "$APP" raw_write
[[ $LAST_RC -eq 0 ]] || fail "raw_write exited with $LAST_RC"
expect_out "OK raw write"
run_job SCR_FLUSH=1 -- 2 "$PYTHON" -m mpi4py "$APP" raw_read
[[ $LAST_RC -eq 0 ]] || fail "raw_read exited with $LAST_RC"
expect_out "OK raw read"
e2e_pass
