#!/usr/bin/env bash
# Only the implementation of communicators over MPI (src/mpi/mpi_comm.*,
# wait.*, error.cpp: library scr_mpi_impl), the API layer (src/api, which
# makes a communicator of the application's MPI_Comm) and the language
# bindings (src/bindings, which hand the application's communicators over)
# may talk to MPI. Fails, listing the lines, when
#  - any file under src/ or tools/ outside those and src/mpi names an MPI symbol
#    (an identifier starting MPI_, in code, comments or strings alike) or
#    includes <mpi.h>; CMake's imported targets (MPI::MPI_CXX) only link MPI
#    and are allowed;
#  - any other file of src/mpi includes <mpi.h>: the interface (comm.hpp)
#    and the in-process implementation stay MPI-free;
#  - a file outside src/api and scr_mpi_impl includes the MPI headers of the
#    message layer (mpi/mpi_comm.hpp, mpi/wait.hpp), which bring <mpi.h>.
# Usage: layering.sh [source dir] (default: the checkout holding this script).
set -uo pipefail
root="${1:-$(cd "$(dirname "$0")/../.." && pwd)}"
cd "$root" || exit 2
[[ -d src/mpi ]] || { echo "layering: $root has no src/mpi" >&2; exit 2; }

mpi_impl='^src/mpi/(mpi_comm\.(hpp|cpp)|wait\.(hpp|cpp)|error\.cpp):'
search() {
  local out status
  out="$(grep -rnIP "$@")"
  status=$?
  if ((status > 1)); then
    echo "layering: grep failed" >&2
    exit 2
  fi
  printf '%s' "$out"
}

failed=0
report() {
  [[ -n "$2" ]] || return 0
  echo "$1"
  echo "$2"
  failed=1
}

symbols="$(search '(?<!MPI::)\bMPI_|#\s*include\s*<mpi\.h>' src tools)"
report "MPI used outside the message layer; add what is needed to src/mpi instead:" \
  "$(grep -vE '^src/(mpi|api|bindings)/' <<<"$symbols")"
report "<mpi.h> included by the MPI-free part of src/mpi (only scr_mpi_impl may):" \
  "$(grep -E '^src/mpi/' <<<"$symbols" | grep -E ':[0-9]+:\s*#\s*include' | grep -vE "$mpi_impl")"
headers="$(search '#\s*include\s*"mpi/(mpi_comm|wait)\.hpp"' src tools)"
report "the MPI implementation's headers included outside src/api and scr_mpi_impl:" \
  "$(grep -vE "^src/api/|$mpi_impl" <<<"$headers")"
((failed)) && exit 1
echo "layering: MPI only in scr_mpi_impl, src/bindings and src/api"
