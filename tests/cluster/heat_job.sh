# shellcheck shell=bash
# The heat demo as the scenarios run it across the nodes, 2 ranks on each
# node named, through the e2e helpers (source tests/e2e/lib.sh and
# cluster.sh first):
#
#   cluster_need
#   heat_cluster_begin NAME NODES             # the cluster up, N=(its nodes)
#   HEAT_JOB_SETTINGS=(SCR_FLUSH=1)           # given to every job
#   heat_reference NODE... -- HEAT_ARGS...    # REFERENCE: its RESULT line
#   heat_job NODE... -- [VAR=VALUE...] HEAT_ARGS...
#   expect_reference_result [WHAT]
#
# No SCR_SIM_NODES: a node is its host name. The job's own VAR=VALUE
# entries come after the scenario's, so they override them.
HEAT_JOB_SETTINGS=()

# heat_cluster_begin NAME NODES: the scenario begun (e2e_begin) with its
# files in /tmp, which the nodes share (each has a /dev/shm of its own), a
# cluster of NODES nodes started, and N=(its node names). (The variables
# are lib.sh's and the scenario's.)
# shellcheck disable=SC2034
heat_cluster_begin() {
  SCR_E2E_TMP=/tmp E2E_NP=8  # not exported
  e2e_begin "$1"
  cluster_start "$2"
  MPIEXEC="$CLUSTER_MPIRUN"
  N=("${CLUSTER_NODES[@]}")
}

# heat_job NODE... -- [VAR=VALUE...] HEAT_ARGS...: 2 ranks on each NODE.
heat_job() {
  local -a nodes=() vars=()
  while [[ "$1" != -- ]]; do nodes+=("$1"); shift; done
  shift
  while [[ "${1:-}" == *=* ]]; do vars+=("$1"); shift; done
  export CLUSTER_HOSTS
  CLUSTER_HOSTS="$(cluster_hosts 2 "${nodes[@]}")"
  run_job SCR_SIM_NODES= "${HEAT_JOB_SETTINGS[@]}" "${vars[@]}" -- $((2 * ${#nodes[@]})) "$HEAT" "$@"
}

# heat_reference NODE... -- HEAT_ARGS...: the uninterrupted run, in
# directories of its own; REFERENCE is set to its RESULT line.
heat_reference() {
  use_dirs "$E2E_DIR/reference"
  # shellcheck disable=SC2034  # read by run_job in lib.sh
  CACHE=/dev/shm/reference CNTL=/dev/shm/reference.cntl
  heat_job "$@"
  expect_ok "uninterrupted reference run"
  REFERENCE="$(result_line)"
}

# expect_reference_result [WHAT]: the last job ended with the uninterrupted
# run's result (the bytes restored were the bytes written).
expect_reference_result() {
  [[ "$(result_line)" == "$REFERENCE" ]] ||
    fail "${1:+$1: }'$(result_line)' differs from the uninterrupted run's '$REFERENCE'"
}
