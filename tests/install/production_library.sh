#!/usr/bin/env bash
# What users link is production code: libscr.so and libscr.a as built (what
# `cmake --install` copies; install.sh checks the installed copies too)
# hold no fault-injecting Env (io::FaultEnv, the SCR_FAULT_INJECT plans).
# The test variant of libscr.so must hold it, which shows that the check
# sees such symbols at all.
# Usage: production_library.sh LIBSCR_SO LIBSCR_A TESTING_LIBSCR_SO
set -euo pipefail
hooks='FaultEnv|FaultFile'

# The symbols of a library that name a test hook, demangled.
hook_symbols() {
  nm -C "$1" 2>/dev/null | grep -E "$hooks" || true
}

failed=0
for lib in "$1" "$2"; do
  [[ -f "$lib" ]] || { echo "missing $lib"; exit 1; }
  found="$(hook_symbols "$lib")"
  if [[ -n "$found" ]]; then
    echo "$lib carries test hooks:"
    head -5 <<<"$found"
    failed=1
  fi
done
if [[ -z "$(hook_symbols "$3")" ]]; then
  echo "the test variant $3 has no FaultEnv symbols: the check cannot see them"
  failed=1
fi
((failed)) && exit 1
echo "libscr.so and libscr.a hold no test hooks; the test variant does"
