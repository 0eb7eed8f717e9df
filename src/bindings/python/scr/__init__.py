"""SCR++ for Python: checkpoint/restart of MPI programs (use with mpi4py).

The functions of SCR 3.1's Python module, with the same names and results
(scr.init(), scr.route_file(), scr.start_output(), ...), plus a Pythonic
layer: context managers for the phases (scr.checkpoint(), scr.output(),
scr.restart(), scr.load_restart()), pathlib.Path results, and verified NumPy
array files (scr.save_array(), scr.load_array()). See docs/bindings.md.

    from mpi4py import MPI
    import scr
    scr.init()
    name, state = scr.load_restart(lambda rs: rs.load_array("state.arr"))
    with scr.checkpoint("step.10") as ckpt:
        ckpt.save_array("state.arr", state)
    scr.finalize()
"""
from .core import (FLAG_CHECKPOINT, FLAG_NONE, FLAG_OUTPUT, MAX_FILENAME, SUCCESS, complete_checkpoint,
                   complete_output, complete_restart, config, current, delete, drop, finalize,
                   get_version, have_restart, init, need_checkpoint, restart_files, restart_ranks,
                   route_file, should_exit, start_checkpoint, start_output, start_restart,
                   RestartFile)
from .errors import IntegrityError, SCRError
from .phases import Output, Restart, checkpoint, load_restart, output, restart
from .arrays import load as load_array, save as save_array
from .regions import Regions

__version__ = get_version()

__all__ = ["FLAG_CHECKPOINT", "FLAG_NONE", "FLAG_OUTPUT", "MAX_FILENAME", "SUCCESS",
           "complete_checkpoint", "complete_output", "complete_restart", "config", "current", "delete",
           "drop", "finalize", "get_version", "have_restart", "init", "need_checkpoint", "restart_files",
           "restart_ranks", "RestartFile", "route_file",
           "should_exit", "start_checkpoint", "start_output", "start_restart",
           "IntegrityError", "SCRError", "Output", "Restart", "checkpoint", "load_restart", "output",
           "restart", "load_array", "save_array", "Regions"]
