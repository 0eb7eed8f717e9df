#!/usr/bin/env bash
# A checkpoint of 10,000 files per rank on 4 ranks (2 simulated nodes, XOR):
# checkpointed and flushed, restarted from the cache after a lost node, and
# from the prefix after every node was lost; every byte of every file read
# back (bench/runtime/many_files.c). The jobs run with the descriptor limit
# common on clusters (1,024), far below the number of files per rank.
source "$(dirname "$0")/lib.sh"
E2E_NP=4 E2E_NODES=n0,n1,n2,n3
e2e_begin many_files
PROG="$SCRPP_BUILD/bench/runtime/many_files"
need_file "$PROG" "many_files is not built"
FILES=10000 BYTES=100
settings=(SCR_COPY_TYPE=XOR SCR_SET_SIZE=4 SCR_FLUSH=1)
ulimit -n 1024

ok() {
  [[ $LAST_RC -eq 0 ]] || fail "many_files $1 exited with $LAST_RC"
  grep -q '"ok":1' "$LAST_OUT" || fail "many_files $1 did not read every file back"
  say "$1: $(grep -o '"seconds":[0-9.]*' "$LAST_OUT")"
}

run_job "${settings[@]}" -- 4 "$PROG" write $FILES $BYTES
ok write
assert_eq "$(find "$PREFIX/many.1" -type f | wc -l)" $((4 * FILES)) "files flushed to the prefix"
lose_node n1
run_job "${settings[@]}" -- 4 "$PROG" restart $FILES $BYTES
ok "restart from cache"
lose_all_nodes
run_job "${settings[@]}" -- 4 "$PROG" restart $FILES $BYTES
ok "restart from the prefix"
e2e_pass
