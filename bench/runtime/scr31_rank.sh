#!/usr/bin/env bash
# Run by mpirun for each rank of many_files.sh's SCR 3.1 jobs: rank R acts as
# node R. Its cache and control directories are $SCR31_NODES/node<R>, bind-
# mounted (in a mount namespace of its own) on $SCR31_NODES/node: every rank
# sees its own cache at the same path, as on real nodes. SCR 3.1 needs that:
# its rebuild hands the lowest rank's cache directory to every rank, and a
# rank that has no store at that path crashes. Its host name is node<R>
# through the preloaded $SCR31_SHIM (rank_hostname.c).
# Usage: scr31_rank.sh PROGRAM ARGS...   (env: SCR31_NODES, SCR31_SHIM)
set -euo pipefail
r="${OMPI_COMM_WORLD_RANK:?scr31_rank.sh runs under Open MPI mpirun}"
mkdir -p "$SCR31_NODES/node$r/cache" "$SCR31_NODES/node$r/cntl" "$SCR31_NODES/node"
exec unshare -m --propagation private bash -c '
  mount --bind "$SCR31_NODES/node$0" "$SCR31_NODES/node" || exit 1
  export SCR_CACHE_BASE="$SCR31_NODES/node/cache" SCR_CNTL_BASE="$SCR31_NODES/node/cntl" LD_PRELOAD="$SCR31_SHIM"
  exec "$@"' "$r" "$@"
