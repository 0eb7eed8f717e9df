#!/usr/bin/env bash
# The runtime's rooms only point down (docs/design.md, "The runtime's rooms"):
#   config < prefix < job < cache < transfer < the API state machine (top)
# Fails, listing the lines, when a file of a room includes a header of a
# room above it, when the cache engine or the transfers name the run's
# mutable Context (they take the read-only Job and the one service they
# use), or when a tool includes more of the runtime than the MPI-free
# configuration, the prefix store and the cache catalog (scr_scavenge marks
# node filemaps through it). The one name that points up on purpose: the
# filemap codec (prefix/dataset.hpp) declares CacheCatalog, its only writer,
# a friend. The room tests link their room's library alone
# (tests/runtime/CMakeLists.txt), so the linker checks calls as well.
# Usage: rooms.sh [source dir] (default: the checkout holding this script).
set -uo pipefail
root="${1:-$(cd "$(dirname "$0")/../.." && pwd)}"
cd "$root" || exit 2
for room in config prefix job cache transfer; do
  [[ -d "src/runtime/$room" ]] || { echo "rooms: $root has no src/runtime/$room" >&2; exit 2; }
done

failed=0
# check ROOM_DIR ALLOWED_REGEX: every '#include "runtime/..."' of the room's
# files must match ALLOWED_REGEX.
check() {
  local dir="$1" allowed="$2" out
  out="$(grep -rnE '#\s*include\s*"runtime/' "$dir" | grep -vE "#\s*include\s*\"runtime/($allowed)")"
  if [[ -n "$out" ]]; then
    echo "$dir includes a room above it:"
    echo "$out"
    failed=1
  fi
}
check src/runtime/config 'config/'
check src/runtime/prefix '(config|prefix)/'
check src/runtime/job '(config|prefix|job)/'
check src/runtime/cache '(config|prefix|job|cache)/'
check src/runtime/transfer '(config|prefix|job|cache|transfer)/'
check tools '(config|prefix)/|cache/catalog\.hpp'

context="$(grep -rnwE 'Context' src/runtime/{config,prefix,job,cache,transfer})"
if [[ -n "$context" ]]; then
  echo "the mutable Context named below the API state machine; take the Job and the service used:"
  echo "$context"
  failed=1
fi
((failed)) && exit 1
echo "rooms: config < prefix < job < cache < transfer < API state machine, and the tools use config, prefix and the catalog"
