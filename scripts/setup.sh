#!/usr/bin/env bash
# Install what SCR++ needs from Debian, if missing. Safe to run again.
set -euo pipefail

packages=(build-essential cmake pkg-config libopenmpi-dev openmpi-bin libisal-dev
          libgtest-dev googletest
          gfortran python3-mpi4py python3-cffi python3-numpy)  # the Fortran and Python bindings
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi
echo "setup: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
