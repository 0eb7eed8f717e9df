#!/usr/bin/env bash
# The cache catalog (src/runtime/cache/) is the one owner of the filemaps:
# fails, listing the lines, when any other file under src/ besides the
# filemap's codec (src/runtime/dataset.*) makes a filemap (Filemap::load,
# empty, from_tree), names a file filemap_<rank>.scr or a key only filemaps
# carry (REDDESC, FLUSHING), or saves or advances a filemap itself. The tools
# read filemaps through rt::Filemap and are not checked here. Usage:
# catalog_ownership.sh [source dir] (default: the checkout holding this script).
set -uo pipefail
root="${1:-$(cd "$(dirname "$0")/../.." && pwd)}"
cd "$root" || exit 2
[[ -d src/runtime/cache ]] || { echo "catalog_ownership: $root has no src/runtime/cache" >&2; exit 2; }

hits="$(grep -rnE 'Filemap::(load|empty|from_tree)|"REDDESC"|"FLUSHING"|"filemap_|(fm|filemap)[A-Za-z_]*(\.|->)(save|advance)\(' src)"
status=$?
if ((status > 1)); then
  echo "catalog_ownership: grep failed" >&2
  exit 2
fi
violations="$(grep -vE '^src/runtime/(dataset\.(c|h)pp|cache/)' <<<"$hits")"
if [[ -n "$violations" ]]; then
  echo "filemaps changed outside the cache catalog; add a verb to src/runtime/cache/catalog.hpp instead:"
  echo "$violations"
  exit 1
fi
echo "catalog_ownership: only the cache catalog makes, changes and writes filemaps"
