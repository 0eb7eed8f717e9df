#!/usr/bin/env bash
# The cache catalog (src/runtime/cache/catalog.*) is the one owner of the filemaps:
# fails, listing the lines, when any other file under src/ besides the
# filemap's codec (src/runtime/prefix/dataset.*) makes a filemap (Filemap::load,
# empty, from_tree), names a file filemap_<rank>.scr or a key only filemaps
# carry (REDDESC, FLUSHING), or saves or advances a filemap itself. The tools
# read filemaps through rt::Filemap; they may not change one either (their
# one change, scr_scavenge marking a dataset flushed, is the catalog's
# mark_flushed_in). Usage:
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
violations="$(grep -vE '^src/runtime/(prefix/dataset|cache/catalog)\.(c|h)pp' <<<"$hits")"
tool_hits="$(grep -rnE '"REDDESC"|"FLUSHING"|(fm|filemap)[A-Za-z_]*(\.|->)(save|advance)\(' tools)"
if (($? > 1)); then
  echo "catalog_ownership: grep failed" >&2
  exit 2
fi
violations="$(printf '%s\n%s' "$violations" "$tool_hits" | sed '/^$/d')"
if [[ -n "$violations" ]]; then
  echo "filemaps changed outside the cache catalog; add a verb to src/runtime/cache/catalog.hpp instead:"
  echo "$violations"
  exit 1
fi
echo "catalog_ownership: only the cache catalog makes, changes and writes filemaps"
