#!/usr/bin/env bash
# A run killed (SIGKILL) in the middle of SCR_Complete_output, while writing
# the redundancy file of its third checkpoint (dataset 3), restarts from the previous
# complete checkpoint: from cache with SCR_CACHE_SIZE=2, from the prefix with
# SCR_CACHE_SIZE=1 (step.20 was flushed, SCR_FLUSH=2).
source "$(dirname "$0")/../e2e/lib.sh"
E2E_COPY_TYPE="${1:-XOR}" E2E_NP=8 E2E_NODES=n0,n1,n2,n3
e2e_begin killed_in_complete
args=(-n 40 -c 10 -g 64 32)
for size in 2 1; do
  use_dirs "$E2E_DIR/cache$size"
  run_job SCR_SET_SIZE=4 SCR_FLUSH=2 SCR_CACHE_SIZE=$size SCR_FAULT_INJECT=kill:scr.dataset.3/.scr/reddesc.:1 \
    -- 8 "$HEAT" "${args[@]}"
  expect_crashed
  expect_no_out "checkpoint 'step.30' saved"
  run_job SCR_SET_SIZE=4 SCR_FLUSH=2 SCR_CACHE_SIZE=$size SCR_DEBUG=1 -- 8 "$HEAT" "${args[@]}"
  expect_ok
  expect_resumed_from step.20
  if ((size == 1)); then expect_said "fetched checkpoint step.20"; else expect_no_err "fetched checkpoint"; fi
  expect_result_equals_uninterrupted "${args[@]}"
done
e2e_pass
