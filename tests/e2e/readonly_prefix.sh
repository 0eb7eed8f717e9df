#!/usr/bin/env bash
# The prefix turns read-only under a running job (a read-only bind mount
# over it, as a file system remounted read-only after an error), 4 ranks on
# 2 nodes, SCR_FLUSH=1. step.1 was flushed before; the flushes of step.2
# and step.3 fail on every rank with an error that names the dataset and
# the read-only file system, and so does SCR_Finalize's; the checkpoints
# stay in cache. With the prefix writable again and every node lost, the
# next job restarts from step.1 in the prefix; with the caches back, from
# the newest cached one. Needs root (the mounts); skipped elsewhere.
source "$(dirname "$0")/lib.sh"
E2E_NP=4 E2E_NODES=n0,n1
e2e_begin readonly_prefix
probe_with_tmpfs_prefix disk 16m
settings=(SCR_FLUSH=1 SCR_CACHE_SIZE=2)

# The job writes step.1, waits while the prefix turns read-only, then
# writes step.2 and step.3.
go="$E2E_DIR/go"
start_job "${settings[@]}" -- 4 "$PROBE" 100000 "wait=$go" 200000 200000
await_out "PROBE waiting for"
mount --bind "$PREFIX" "$PREFIX"
E2E_MOUNTS=("$PREFIX" "${E2E_MOUNTS[@]}")  # unmounted before the tmpfs under it
mount -o remount,bind,ro "$PREFIX"
touch "$go"
finish_job
[[ $LAST_RC -eq 0 ]] || fail "disk_probe failed with exit code $LAST_RC"
expect_probe "complete_output step.1" 0,0,0,0
expect_probe "complete_output step.2" 1,1,1,1
expect_probe "complete_output step.3" 1,1,1,1
expect_probe finalize 1,1,1,1
expect_err "SCR_Complete_output: recording dataset step.2 in the prefix index"
expect_err "Read-only file system"
expect_err "SCR_Finalize: recording dataset step.3 in the prefix index"
mount -o remount,bind,rw "$PREFIX"
expect_index step.1 loadable 1
assert_eq "$(index_field step.3 id)" absent "step.3 in the prefix index"
say "flushes to the read-only prefix failed naming it; step.1 still current"

# Every node lost (their caches set aside for the next job): step.1, the
# checkpoint the prefix held safe, is the restart.
mv "$CACHE" "$E2E_DIR/kept.cache" && mv "$CNTL" "$E2E_DIR/kept.cntl" && mkdir -p "$CACHE" "$CNTL"
run_job "${settings[@]}" -- 4 "$PROBE"
[[ $LAST_RC -eq 0 ]] || fail "disk_probe failed with exit code $LAST_RC"
expect_out "PROBE restart step.1 bytes=100000 valid=1"

# The nodes' caches back as the read-only run left them: the newest
# checkpoint, step.3, is offered and, the prefix writable again, flushed at
# SCR_Finalize.
rm -rf "$CACHE" "$CNTL" && mv "$E2E_DIR/kept.cache" "$CACHE" && mv "$E2E_DIR/kept.cntl" "$CNTL"
run_job "${settings[@]}" -- 4 "$PROBE"
[[ $LAST_RC -eq 0 ]] || fail "disk_probe failed with exit code $LAST_RC"
expect_out "PROBE restart step.3 bytes=200000 valid=1"
expect_probe finalize 0,0,0,0
expect_index step.3 flushed 1
e2e_pass
