#!/usr/bin/env bash
# A campaign SCR 3.1 started, continued by SCR++ on the cluster in a box (no
# SCR_SIM_NODES: 4 hosts of their own, 1 rank each, plus a spare):
#  1. a copy of tests/fixtures/scr31/xor_np4 (SCR 3.1.0 wrote it) restarts
#     from SCR's ckpt.4, every file read back byte for byte, and SCR++ writes
#     scrpp.5 in cache with XOR (not flushed: SCR_FLUSH=0);
#  2. one host is lost for real; the job restarts on the three others and the
#     spare, from scrpp.5 rebuilt out of the caches, and writes scrpp.6;
#  3. every host is lost; the job restarts from the prefix, where the newest
#     checkpoint is still SCR's ckpt.4, and SCR's files are unchanged.
source "$(dirname "$0")/../e2e/lib.sh"
source "$(dirname "$0")/cluster.sh"
cluster_need
# shellcheck disable=SC2034  # read by e2e_tmp_base in lib.sh
SCR_E2E_TMP=/tmp  # shared by the nodes (their /dev/shm is their own); not exported
E2E_COPY_TYPE=XOR
e2e_begin cluster_scr31_prefix
cluster_start 5
MPIEXEC="$CLUSTER_MPIRUN"
N=("${CLUSTER_NODES[@]}")
PROG="$SCRPP_BUILD/tests/scr31/scr31_app"
FIXTURE="$SCRPP_SOURCE/tests/fixtures/scr31/xor_np4"
need_file "$PROG" "scr31_app is not built"

# cjob NODE... -- NAME: scr31_app on one rank per node, reading into $E2E_DIR/NAME.
cjob() {
  local -a nodes=()
  while [[ "$1" != -- ]]; do nodes+=("$1"); shift; done
  export CLUSTER_HOSTS
  CLUSTER_HOSTS="$(cluster_hosts 1 "${nodes[@]}")"
  run_job SCR_SIM_NODES= SCR_CACHE_BYPASS=0 SCR_SET_SIZE=4 SCR_FLUSH=0 -- 4 "$PROG" "$E2E_DIR/read.$2" "$2"
  [[ $LAST_RC -eq 0 ]] || fail "scr31_app $2 exited with $LAST_RC"
  expect_out "scr31_app: ALL"
}

use_dirs "$E2E_DIR/campaign"
CACHE=/dev/shm/scr31 CNTL=/dev/shm/scr31.cntl
cp -a "$FIXTURE/." "$PREFIX/"
cjob "${N[@]:0:4}" -- scrpp.5
expect_out "RESTARTED ckpt.4"
diff -r "$FIXTURE/ckpt.4" "$E2E_DIR/read.scrpp.5/ckpt.4" >/dev/null || fail "ckpt.4 read back differs"

cluster_lose_node "${N[1]}"
cjob "${N[0]}" "${N[4]}" "${N[2]}" "${N[3]}" -- scrpp.6
expect_out "RESTARTED scrpp.5"
for r in 0 1 2 3; do
  assert_file_content "$E2E_DIR/read.scrpp.6/scrpp.5/rank_$r.dat" "scrpp.5 rank $r"
done

for n in "${N[0]}" "${N[4]}" "${N[2]}" "${N[3]}"; do cluster_lose_node "$n"; done
for n in "${N[@]:0:4}"; do cluster_boot_node "$n"; done
cjob "${N[@]:0:4}" -- scrpp.7
expect_out "RESTARTED ckpt.4"
(cd "$FIXTURE" && find . -type f ! -path ./.scr/index.scr ! -path ./.scr/halt.scr -exec cmp -s {} "$PREFIX/{}" \; -print) |
  wc -l | grep -qx "$(cd "$FIXTURE" && find . -type f ! -path ./.scr/index.scr ! -path ./.scr/halt.scr | wc -l)" ||
  fail "a file SCR 3.1 wrote was changed"
e2e_pass
