# Sourced by many_files.sh when SCR31_DIR is set: SCR 3.1 itself, run beside
# SCR++ on the same data. Checks SCR31_DIR (stops with a message and exit
# code 2 when it is unusable), builds many_files.c against it and the host
# name shim into a temporary directory, and defines run31, which runs one
# phase as an SCR 3.1 job of 4 ranks, each its own node (scr31_rank.sh).
# Needs: $here (this directory), $dir (the benchmark's scratch directory).
# Env: SCR31_DIR (SCR 3.1's install prefix), SCR31_SHIM (a gethostname shim
# to use instead of rank_hostname.c), SCR31_TIMEOUT (seconds per phase, 600).
scr31_die() {
  echo "many_files.sh: SCR31_DIR=$SCR31_DIR is not usable: $*" >&2
  exit 2
}
[[ -f "$SCR31_DIR/include/scr.h" ]] || scr31_die "no include/scr.h (SCR31_DIR is the prefix SCR 3.1 was installed into)"
[[ -e "$SCR31_DIR/lib/libscr.so" ]] || scr31_die "no lib/libscr.so"
grep -q SCR_Have_restart "$SCR31_DIR/include/scr.h" || scr31_die "its scr.h has no SCR_Have_restart (not SCR 3.x)"
# Each rank's cache must sit at the same path (scr31_rank.sh): a bind mount
# in a mount namespace of its own, which needs root.
unshare -m --propagation private true 2>/dev/null ||
  scr31_die "cannot make a mount namespace (unshare -m; run as root): each rank's cache needs the same path"
scr31_tmp="$(mktemp -d)"
scr31_prog="$scr31_tmp/many_files"
mpicc -O2 -I"$SCR31_DIR/include" "$here/many_files.c" -o "$scr31_prog" \
  -L"$SCR31_DIR/lib" -Wl,-rpath,"$SCR31_DIR/lib" -lscr 2>"$scr31_tmp/cc.log" ||
  scr31_die "many_files.c does not build against it: $(tail -3 "$scr31_tmp/cc.log")"
if [[ -n "${SCR31_SHIM:-}" ]]; then
  [[ -f "$SCR31_SHIM" ]] || scr31_die "SCR31_SHIM=$SCR31_SHIM does not exist"
  scr31_shim="$(cd "$(dirname "$SCR31_SHIM")" && pwd)/$(basename "$SCR31_SHIM")"
else
  scr31_shim="$scr31_tmp/rank_hostname.so"
  cc -O2 -shared -fPIC "$here/rank_hostname.c" -o "$scr31_shim" || scr31_die "cannot build rank_hostname.c"
fi
scr31_timeout="${SCR31_TIMEOUT:-600}"

# run31 <mode> <files> <bytes>: the job's JSON line; {"timeout":1} when it
# ran out of time; {"failed":1,"rc":N} when it printed none. Why a job
# failed goes to this script's stderr (scr31_why).
scr31_why() {
  grep -m3 -E 'SCR v[0-9.]+ (ERROR|ABORT)' "$scr31_tmp/stderr" >&2 || tail -5 "$scr31_tmp/stderr" >&2
}
run31() {
  local out rc=0 line
  out="$(cd "$dir/scr31/prefix" &&
    env USER="${USER:-$(id -un)}" SCR31_NODES="$dir/scr31" SCR31_SHIM="$scr31_shim" \
      SCR_PREFIX="$dir/scr31/prefix" SCR_JOB_ID=31 SCR_CACHE_BYPASS=0 SCR_COPY_TYPE=XOR SCR_SET_SIZE=4 \
      SCR_FLUSH=1000 timeout -k 30 "$scr31_timeout" mpirun -n 4 "$here/scr31_rank.sh" "$scr31_prog" "$@" \
      2>"$scr31_tmp/stderr")" || rc=$?
  line="$(grep '^{' <<<"$out" || true)"
  if ((rc == 124 || rc == 137)); then
    echo "many_files.sh: SCR 3.1 $1 of $2 files ran out of its ${scr31_timeout} s" >&2
    echo '{"timeout":1}'
  elif [[ -n "$line" ]]; then
    grep -q '"ok":1' <<<"$line" || { echo "many_files.sh: SCR 3.1 $1 of $2 files did not verify:" >&2; scr31_why; }
    echo "$line"
  else
    echo "many_files.sh: SCR 3.1 $1 of $2 files failed (exit $rc):" >&2
    scr31_why
    echo "{\"failed\":1,\"rc\":$rc}"
  fi
}
