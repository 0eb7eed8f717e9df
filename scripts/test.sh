#!/usr/bin/env bash
# Install what is missing, build, and run the whole test suite (unit, MPI,
# end-to-end). This is what CI runs (.ci/run).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"
cd "${BUILD_DIR:-$root/build}"
ctest --output-on-failure -j 2 --timeout 900
