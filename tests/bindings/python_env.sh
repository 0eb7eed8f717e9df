# shellcheck shell=bash
# find_python: set PYTHON to a python3 that has mpi4py (Debian's
# python3-mpi4py lives in /usr/bin/python3's path; a python3 earlier in PATH,
# e.g. pyenv's, may lack it) and put this build's package on PYTHONPATH.
# Returns 1 if no python3 has mpi4py (the caller skips); a python3 with
# mpi4py but without cffi or numpy fails the scenario: the package needs cffi,
# and the scenario's array tests need numpy (it hides numpy itself where it
# tests the package without it).
find_python() {
  local py
  PYTHON=""
  for py in "${SCRPP_PYTHON:-}" python3 /usr/bin/python3; do
    if [[ -n "$py" ]] && "$py" -c "import mpi4py" 2>/dev/null; then
      PYTHON="$(command -v "$py")"
      break
    fi
  done
  [[ -n "$PYTHON" ]] || return 1
  "$PYTHON" -c "import cffi, numpy" 2>/dev/null ||
    fail "$PYTHON has mpi4py but not cffi and numpy (scripts/setup.sh installs python3-cffi python3-numpy)"
  export PYTHONPATH="$SCRPP_BUILD/python"
}
