#!/usr/bin/env bash
# Runs a cluster scenario, and once more when it fails (exit 1): the SLURM
# scenarios hang on daemons' timing (slurmd's node-failure detection, PMIx's
# step start) that an overloaded machine can upset, e.g. SLURM revoking an
# allocation that asked --no-kill. A failure of SCR++ fails both runs; the
# first run's failure is printed either way. 77 (skipped) passes through.
# Usage: retry_once.sh SCENARIO.sh
set -uo pipefail
bash "$1"
rc=$?
if [[ $rc -eq 0 || $rc -eq 77 ]]; then exit $rc; fi
echo "[cluster retry] $(basename "$1") failed (exit $rc); running it once more" >&2
bash "$1"
