"""The package in a Python that cannot import NumPy (python.sh hides it), as
    mpirun -n 4 python3 -m mpi4py no_numpy.py first|second

first   config() sets and queries, init(), a checkpoint of plain text files
        through `with scr.checkpoint()`; save_array() (writing nothing) and
        load_array() raise ImportError naming NumPy. Prints NO NUMPY FIRST OK.
second  restarts from that checkpoint with scr.load_restart() and checks
        each rank's text. Prints NO NUMPY SECOND OK <name>.
Every failed check raises, which `-m mpi4py` turns into a non-zero exit.
"""
import os
import sys

from mpi4py import MPI

try:
    import numpy  # noqa: F401
except ImportError:
    pass
else:
    raise AssertionError("numpy imports: the test must run without it")

import scr

rank = MPI.COMM_WORLD.Get_rank()


def expect(ok, what):
    if not ok:
        raise AssertionError(f"rank {rank}: {what}")


def expect_numpy_error(fn, what):
    try:
        fn()
    except ImportError as e:
        expect("NumPy" in str(e), f"{what}: the error does not name NumPy: {e}")
        return
    raise AssertionError(f"{what} did not raise ImportError")


def text_of(r):
    return f"plain {r}\n"


def first():
    expect(scr.config("SCR_CACHE_SIZE=2") is None, "config set")
    expect(scr.config("SCR_CACHE_SIZE") == "2", "config query")
    scr.init()
    expect(scr.have_restart() is None, "a fresh prefix offers a restart")
    with scr.checkpoint("plain.1") as ckpt:
        ckpt.route(f"plain/rank_{rank}.txt").write_text(text_of(rank))
    expect(ckpt.valid is True, "the checkpoint of plain files is not valid")
    expect_numpy_error(lambda: scr.save_array(f"x_{rank}.arr", [1, 2, 3]), "save_array")
    expect(not os.path.exists(f"x_{rank}.arr"), "save_array wrote a file without NumPy")
    expect_numpy_error(lambda: scr.load_array("missing.arr"), "load_array")
    scr.finalize()
    if rank == 0:
        print("NO NUMPY FIRST OK", flush=True)


def second():
    scr.init()
    name, text = scr.load_restart(lambda rs: rs.route(f"plain/rank_{rank}.txt").read_text())
    expect(name == "plain.1", f"restarted from {name}, expected plain.1")
    expect(text == text_of(rank), f"read {text!r}")
    scr.finalize()
    if rank == 0:
        print("NO NUMPY SECOND OK", name, flush=True)


{"first": first, "second": second}[sys.argv[1]]()
