#!/usr/bin/env bash
# Install what SCR++ needs from Debian, if missing. Safe to run again.
set -euo pipefail

# slurmctld, slurmd, slurm-client (Debian's slurm-wlm) and munge: the tests of
# SCR's job commands start a one-node SLURM with scripts/slurm_local.sh.
packages=(build-essential cmake pkg-config libopenmpi-dev openmpi-bin libisal-dev
          libgtest-dev googletest libbenchmark-dev
          gfortran python3-mpi4py python3-cffi python3-numpy  # the Fortran and Python bindings
          slurmctld slurmd slurm-client munge                  # the one-node SLURM of the job-command tests
          iproute2 util-linux)                                 # the cluster in a box (tests/cluster)
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
# The packages must not start munged, slurmctld or slurmd as system services
# (without a configuration their start fails the install; the tests start
# their own): deny service starts during the install unless a policy exists.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null
  $SUDO chmod 755 "$policy"
  trap '$SUDO rm -f "$policy"' EXIT
fi
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
