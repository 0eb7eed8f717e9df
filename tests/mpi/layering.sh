#!/usr/bin/env bash
# Only the MPI layer (src/mpi), the language bindings (src/bindings, which
# hand the application's communicators over) and the API calls that take one
# (src/api/init_comm.cpp) may talk to MPI. Fails, listing
# the lines, when any other file under src/ or tools/ names an MPI symbol
# (an identifier starting MPI_, in code, comments or strings alike) or
# includes <mpi.h> itself. CMake's imported targets (MPI::MPI_CXX) only link
# MPI and are allowed. Usage: layering.sh [source dir] (default: the checkout
# holding this script).
set -uo pipefail
root="${1:-$(cd "$(dirname "$0")/../.." && pwd)}"
cd "$root" || exit 2
[[ -d src/mpi ]] || { echo "layering: $root has no src/mpi" >&2; exit 2; }

hits="$(grep -rnIP '(?<!MPI::)\bMPI_|#\s*include\s*<mpi\.h>' src tools)"
status=$?
if ((status > 1)); then
  echo "layering: grep failed" >&2
  exit 2
fi
violations="$(grep -vE '^src/(mpi|bindings)/|^src/api/init_comm\.cpp:' <<<"$hits")"
if [[ -n "$violations" ]]; then
  echo "MPI used outside src/mpi; add what is needed to src/mpi instead:"
  echo "$violations"
  exit 1
fi
echo "layering: no MPI outside src/mpi, src/bindings and src/api/init_comm.cpp"
