"""SCR 3.1's Python functions, same names, arguments and results.

Each is a thin call of the C function of the same name. As in SCR 3.1:
route_file() is local to the calling process, everything else is
collective over MPI_COMM_WORLD (or the communicator given to init());
complete_restart() and complete_output()
return whether every process succeeded; the other calls raise SCRError (a
RuntimeError) when the library reports an error.
"""
import os
from typing import NamedTuple

from ._lib import ffi, lib
from .errors import SCRError

SUCCESS = 0
MAX_FILENAME = 1024
FLAG_NONE = 0
FLAG_CHECKPOINT = 1
FLAG_OUTPUT = 2


def _name(value, what):
    """A dataset name or config string as bytes for C; a NUL inside would
    silently cut it short in C, so it is refused. Only str and bytes are
    names: bytes(5) would be five NULs, not "5"."""
    if isinstance(value, str):
        data = value.encode("utf-8", "surrogateescape")  # a name _name_text gave back
    elif isinstance(value, (bytes, bytearray)):
        data = bytes(value)
    else:
        raise SCRError(f"{what} must be a str, not {type(value).__name__}: {value!r}")
    if b"\0" in data:
        raise SCRError(f"{what} contains a NUL character: {value!r}")
    return data


def _path(value):
    data = os.fsencode(value)
    if b"\0" in data:
        raise SCRError(f"file name contains a NUL character: {value!r}")
    return data


def _text(buf):
    return os.fsdecode(ffi.string(buf))


def _name_text(data):
    """A name from C as str: UTF-8, and bytes that are not (a name a C or
    Fortran program wrote) kept as surrogates, so that passing it back to
    _name gives the same bytes instead of raising UnicodeDecodeError."""
    return data.decode("utf-8", "surrogateescape")


def _check(rc, call):
    if rc != SUCCESS:
        # The library's own message, as printed on stderr, names the call
        # and the cause.
        buf = ffi.new("char[]", 4096)
        lib.SCRPP_Last_error(buf, len(buf))
        raise SCRError(_text(buf) or f"{call} failed")


def config(conf):
    """Set ("KEY=VALUE"), unset ("KEY=") or query ("KEY") a parameter.

    Returns the value of a query as str, None if the parameter has no value
    or after a set or unset. Raises SCRError if the library refuses it (a
    malformed string, a set after init()).
    """
    value = ffi.new("char**")
    _check(lib.SCRPP_Config_checked(_name(conf, "config string"), value), "SCR_Config")
    if value[0] == ffi.NULL:
        return None
    try:
        return ffi.string(value[0]).decode("utf-8")
    finally:
        lib.free(value[0])


def init(params=None, comm=None):
    """Start the library (after MPI is initialized).

    params, for convenience, is passed to config() first: a str, a list of
    str, or a dict whose items become "key=value" ("key=" for None).

    comm (SCR++ extension), an mpi4py communicator: SCR++ runs over its
    processes only (SCRPP_Init_comm); every later call is collective over
    it, and processes outside it never call scr. None: MPI_COMM_WORLD.
    """
    if comm is not None and not callable(getattr(comm, "py2f", None)):
        raise SCRError(f"scr.init comm must be an mpi4py communicator, not {type(comm).__name__}")
    if params:
        if isinstance(params, str):
            config(params)
        elif isinstance(params, (list, tuple)):
            for item in params:
                config(str(item))
        elif isinstance(params, dict):
            for key, val in params.items():
                config(f"{key}=" if val is None else f"{key}={val}")
        else:
            raise SCRError(f"scr.init params must be a str, list or dict, not {type(params).__name__}")
    try:
        from mpi4py import MPI  # noqa: F401  -- initializes MPI if the program has not
    except ImportError:
        pass
    global _job_comm
    if comm is None:
        _check(lib.SCR_Init(), "SCR_Init")
    else:
        _check(lib.SCRPP_Init_comm_f(comm.py2f()), "SCRPP_Init_comm")
    _job_comm = comm


# The communicator given to init() (None: MPI_COMM_WORLD), over which the
# package's own collectives run too (load_restart's agreement).
_job_comm = None


def job_comm():
    """The mpi4py communicator SCR runs over: init()'s comm, else COMM_WORLD."""
    if _job_comm is not None:
        return _job_comm
    from mpi4py import MPI

    return MPI.COMM_WORLD


def finalize():
    """Shut the library down (before MPI is finalized); flushes if needed."""
    _check(lib.SCR_Finalize(), "SCR_Finalize")


def route_file(fname):
    """The path at which to write (output phase) or read (restart phase) the
    file named fname; outside a phase, fname itself. Returns a str."""
    buf = ffi.new("char[]", MAX_FILENAME)
    _check(lib.SCR_Route_file(_path(fname), buf), "SCR_Route_file")
    return _text(buf)


def have_restart():
    """Name of the checkpoint SCR offers to restart from, or None."""
    flag = ffi.new("int*")
    buf = ffi.new("char[]", MAX_FILENAME)
    _check(lib.SCR_Have_restart(flag, buf), "SCR_Have_restart")
    return _name_text(ffi.string(buf)) if flag[0] else None


def start_restart():
    """Open the restart phase; returns the checkpoint's name."""
    buf = ffi.new("char[]", MAX_FILENAME)
    _check(lib.SCR_Start_restart(buf), "SCR_Start_restart")
    return _name_text(ffi.string(buf))


def complete_restart(valid=True):
    """Close the restart phase; True if every process read its data.
    valid: whether this process read its data (default True, as SCR's)."""
    return lib.SCR_Complete_restart(1 if valid else 0) == SUCCESS


def _flag(fn, call):
    flag = ffi.new("int*")
    _check(fn(flag), call)
    return bool(flag[0])


def need_checkpoint():
    """Whether a checkpoint is due (SCR_CHECKPOINT_INTERVAL and friends)."""
    return _flag(lib.SCR_Need_checkpoint, "SCR_Need_checkpoint")


def start_output(name, flags):
    """Open an output phase for dataset name; flags combine FLAG_*."""
    _check(lib.SCR_Start_output(_name(name, "dataset name"), int(flags)), "SCR_Start_output")


def complete_output(valid=True):
    """Close the output phase; True if every process wrote its files.
    valid: whether this process wrote its files (default True, as SCR's)."""
    return lib.SCR_Complete_output(1 if valid else 0) == SUCCESS


def start_checkpoint():
    """Open a checkpoint with a generated name (SCR's older interface)."""
    _check(lib.SCR_Start_checkpoint(), "SCR_Start_checkpoint")


def complete_checkpoint(valid):
    """Close the checkpoint of start_checkpoint(); True if all succeeded."""
    return lib.SCR_Complete_checkpoint(1 if valid else 0) == SUCCESS


def should_exit():
    """Whether the job should stop now (halt file, end of allocation)."""
    return _flag(lib.SCR_Should_exit, "SCR_Should_exit")


def current(name):
    """Mark checkpoint name as the one to restart from."""
    _check(lib.SCR_Current(_name(name, "dataset name")), "SCR_Current")


def drop(name):
    """Forget dataset name (its files are left alone)."""
    _check(lib.SCR_Drop(_name(name, "dataset name")), "SCR_Drop")


def delete(name):
    """Delete dataset name: its files in cache and prefix, and its entry."""
    _check(lib.SCR_Delete(_name(name, "dataset name")), "SCR_Delete")


class RestartFile(NamedTuple):
    """One file of the checkpoint being restarted (SCR++ extension)."""
    name: str   # as routed when written, relative to SCR_PREFIX
    rank: int   # the rank that wrote it (in the job that wrote it)
    size: int   # bytes


def restart_ranks():
    """Inside a restart phase: how many processes wrote the checkpoint
    (SCR++ extension; it may differ from this job's size)."""
    ranks = ffi.new("int*")
    _check(lib.SCRPP_Restart_ranks(ranks), "SCRPP_Restart_ranks")
    return ranks[0]


def restart_files():
    """Inside a restart phase: every file of the checkpoint, as a list of
    RestartFile(name, rank, size), by writing rank then name (SCR++
    extension). Any listed name may be given to route_file()."""
    count = ffi.new("int*")
    _check(lib.SCRPP_Restart_file_count(count), "SCRPP_Restart_file_count")
    name = ffi.new("char[]", MAX_FILENAME)
    rank = ffi.new("int*")
    size = ffi.new("unsigned long long*")
    files = []
    for i in range(count[0]):
        _check(lib.SCRPP_Restart_file(i, name, rank, size), "SCRPP_Restart_file")
        files.append(RestartFile(_name_text(ffi.string(name)), rank[0], size[0]))
    return files


def get_version():
    """The version of SCR this library implements, e.g. "v3.1.0", as SCR_VERSION spells it."""
    return ffi.string(lib.SCR_Get_version()).decode("utf-8")
