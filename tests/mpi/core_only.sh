#!/usr/bin/env bash
# The core without MPI: configures this source tree with -DSCR_CORE_ONLY=ON
# (no find_package(MPI), and a <mpi.h> that stops the compiler first on the
# include path) and checks, without compiling it again (the main build has
# compiled every one of these files already):
#  - the configuration does not look for MPI;
#  - every source of the core (configuration, the prefix store, the cache
#    engine, the redundancy engine, the message layer's interface with its
#    in-process communicators) and of every tool goes through the
#    preprocessor with that include path: none includes <mpi.h>, directly or
#    through another header;
#  - no program of the core-only build links an MPI library, and every tool
#    is one of them.
# With no <mpi.h> in any of its sources, no object can call MPI (an MPI
# identifier spelled out without the header is what mpi_layering finds).
# Preprocessing is a tenth of compiling here: the check takes seconds where
# building the core again took one to two minutes of the CI's two cores.
# Usage: core_only.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src="$1"
build="$2"
log="$build.log"
rm -rf "$build"
mkdir -p "$build"
if ! cmake -S "$src" -B "$build" -DSCR_CORE_ONLY=ON -DCMAKE_BUILD_TYPE=None \
     -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$log" 2>&1; then
  echo "core-only configuration failed:"
  tail -30 "$log"
  exit 1
fi
if grep -q '^MPI_FOUND:.*=TRUE\|^MPI_CXX_FOUND:.*=TRUE' "$build/CMakeCache.txt"; then
  echo "the core-only configuration looked for MPI"
  exit 1
fi

# Every compile command of the core-only build, its output and -c swapped
# for the preprocessor's -E into /dev/null; two at a time.
commands="$build/preprocess.cmds"
python3 - "$build/compile_commands.json" "$commands" <<'PY'
import json, shlex, sys
entries = json.load(open(sys.argv[1]))
with open(sys.argv[2], "w") as out:
    for e in entries:
        args = shlex.split(e["command"])
        keep, skip = [], False
        for a in args:
            if skip:
                skip = False
                continue
            if a in ("-o", "-MF", "-MT"):
                skip = True
                continue
            if a in ("-c", "-MD"):
                continue
            keep.append(a)
        keep += ["-E", "-o", "/dev/null"]
        out.write("cd %s && %s\n" % (shlex.quote(e["directory"]), shlex.join(keep)))
    print(len(entries), file=sys.stderr)
PY
sources=$(wc -l <"$commands")
if ((sources < 100)); then
  echo "core-only: only $sources sources to check; the core-only configuration lost its targets"
  exit 1
fi
failed="$build/preprocess.failed"
: >"$failed"
tr '\n' '\0' <"$commands" |
  xargs -0 -P 2 -I{} bash -c '{} 2>>"$0.err" || echo "$1" >>"$0"' "$failed" {}
if [[ -s "$failed" ]]; then
  echo "core-only: these sources do not go through the preprocessor without MPI:"
  cat "$failed"
  grep -m5 'error' "$failed.err" || true
  exit 1
fi

# Programs of the core-only build: every tool, none linking an MPI library.
for tool in scr_index scr_halt scr_inspect scr_scavenge scr_run scr_ckpt_interval; do
  [[ -f "$build/tools/$tool/CMakeFiles/$tool.dir/link.txt" ]] || { echo "core-only build makes no $tool"; exit 1; }
done
linked=$(grep -lE '(^| )-lmpi|libmpi[._]|openmpi' $(find "$build" -name link.txt) || true)
if [[ -n "$linked" ]]; then
  echo "core-only programs link MPI:"
  echo "$linked"
  exit 1
fi
echo "core-only: $sources sources preprocessed without <mpi.h>; $(find "$build" -name link.txt | wc -l) targets link no MPI"
