"""The Pythonic layer: the three SCR phases as context managers.

    with scr.checkpoint("step.10") as ckpt:
        np.save(ckpt.route("x.npy"), x)          # route() gives a pathlib.Path
        ckpt.save_array("y.arr", y)              # dtype, shape and digest kept

Leaving the block completes the phase: valid if the block ended normally
and mark_invalid() was not called; an exception marks it invalid (and is
not swallowed). Completion is collective, so afterwards `ckpt.valid` tells
every process whether all of them succeeded. restart() and load_restart()
do the same for reading.
"""
from pathlib import Path

from . import arrays, core
from .errors import IntegrityError, SCRError


class _Phase:
    def __init__(self):
        self._marked_invalid = False
        self.valid = None  # set on exit: True if every process succeeded

    def route(self, name):
        """The path (pathlib.Path) at which this process accesses file name."""
        return Path(core.route_file(name))

    def mark_invalid(self):
        """Report this process's part as failed when the phase completes."""
        self._marked_invalid = True

    def _local_valid(self, exc_type):
        return exc_type is None and not self._marked_invalid


class Output(_Phase):
    """An output phase: a checkpoint, an output dataset, or both (flags)."""

    def __init__(self, name, flags):
        super().__init__()
        self.name = name
        self.flags = flags

    def __enter__(self):
        core.start_output(self.name, self.flags)
        return self

    def __exit__(self, exc_type, exc, tb):
        self.valid = core.complete_output(self._local_valid(exc_type))
        return False

    def save_array(self, name, array):
        """Route file name and save array in it (see scr.arrays). An array
        that cannot be saved raises before the name is routed, so the
        dataset does not wait for a file that is never written."""
        encoded = arrays.encode(array)
        path = self.route(name)
        arrays.write(path, encoded)
        return path


class Restart(_Phase):
    """A restart phase over the checkpoint SCR offers. False (and nothing is
    started) when there is none: test it with `if not rs:` in the block."""

    def __init__(self):
        super().__init__()
        self.name = None

    def __bool__(self):
        return self.name is not None

    def __enter__(self):
        self.name = core.have_restart()
        if self.name is not None:
            core.start_restart()
        return self

    def __exit__(self, exc_type, exc, tb):
        if self.name is not None:
            self.valid = core.complete_restart(self._local_valid(exc_type))
        return False

    def load_array(self, name):
        """Route file name and load the array saved in it; IntegrityError if
        the file is damaged."""
        return arrays.load(self.route(name))

    @property
    def files(self):
        """Every file of the checkpoint, [RestartFile(name, rank, size)]."""
        return core.restart_files()

    @property
    def ranks(self):
        """How many processes wrote the checkpoint."""
        return core.restart_ranks()


def checkpoint(name, flags=0):
    """An output phase for checkpoint name (FLAG_CHECKPOINT, plus flags)."""
    return Output(name, core.FLAG_CHECKPOINT | flags)


def output(name, flags=0):
    """An output phase for output dataset name (FLAG_OUTPUT, plus flags)."""
    return Output(name, core.FLAG_OUTPUT | flags)


def restart():
    """A restart phase over the checkpoint SCR offers, if any."""
    return Restart()


def load_restart(loader, errors=(OSError, ValueError, SCRError)):
    """Restart from the newest checkpoint every process can read.

    Calls loader(phase) inside a restart phase for each checkpoint SCR
    offers, newest first. If loader raises one of `errors` on any process
    (a missing or damaged file: IntegrityError is a ValueError), that
    checkpoint is reported invalid and the next older one is tried.
    Returns (name, loader's result), or (None, None) when no checkpoint
    could be loaded. Any other exception (a bug in the loader, an
    interrupt) does not condemn the checkpoint: the phase completes as valid,
    every process learns that one failed, and the exception is raised on all
    of them (SCRError on those where nothing was raised), so no process is
    left waiting in a collective call.
    """
    from mpi4py import MPI  # the package is used with mpi4py; imported here so scr imports without it

    comm = core.job_comm()  # init()'s communicator: other processes never get here
    while True:
        failure = None
        with Restart() as rs:
            if not rs:
                return None, None
            try:
                value = loader(rs)
            except errors:
                rs.mark_invalid()
                value = None
            except BaseException as exc:  # noqa: B036 -- agreed on, then re-raised below
                failure, value = exc, None
        if comm.allreduce(failure is not None, op=MPI.LOR):
            if failure is not None:
                raise failure
            raise SCRError("load_restart: the loader failed on another process")
        if rs.valid:
            return rs.name, value


__all__ = ["Output", "Restart", "checkpoint", "output", "restart", "load_restart", "IntegrityError"]
