"""mistakes.py MODE: mistakes a Python user makes, under
mpirun -n 2 python3 -m mpi4py (tests/bindings/python/mistakes.sh):
  write   a name that is not a str (dataset and region) raises SCRError
          saying so; a scr.Regions dropped without close() while its array
          goes away; an array of objects refused by save_array inside a
          checkpoint, which stays valid; then regions "x" checkpointed as
          drop.1 and "OK write"
  read    only "x" protected: restore() gives drop.1 (the dropped Regions
          left nothing behind in it) with every element of x; "OK read"
  raw_write, raw_read  a checkpoint named with bytes that are not UTF-8:
          have_restart() gives a str that passes the same bytes back
"""
import gc
import sys

import numpy as np
from mpi4py import MPI

import scr

comm = MPI.COMM_WORLD
rank = comm.Get_rank()


def expect_error(what, fn, words):
    try:
        fn()
    except scr.SCRError as e:
        if words not in str(e):
            sys.exit(f"rank {rank}: {what}: SCRError {str(e)!r} does not say {words!r}")
        return
    except Exception as e:  # noqa: BLE001 -- any other type is the failure
        sys.exit(f"rank {rank}: {what}: raised {type(e).__name__} {e}, not SCRError")
    sys.exit(f"rank {rank}: {what}: no error")


def scratch_regions():
    regions = scr.Regions()
    regions.protect("scratch", np.zeros(1000))
    # returns without close(): the Regions and its array are dropped


def write():
    scr.init()
    expect_error("start_output(5)", lambda: scr.start_output(5, scr.FLAG_CHECKPOINT), "must be a str")
    expect_error("current(7)", lambda: scr.current(7), "must be a str")
    regions = scr.Regions()
    expect_error("protect(5, ...)", lambda: regions.protect(5, np.zeros(3)), "must be a str")
    scratch_regions()
    gc.collect()
    x = np.arange(10, dtype=np.float64) + rank
    regions.protect("x", x)
    with scr.checkpoint("drop.1") as ckpt:
        try:
            ckpt.save_array(f"drop.1/objects_{rank}.arr", np.array([object()]))
            sys.exit(f"rank {rank}: save_array of objects did not raise")
        except TypeError:
            pass
        ckpt.save_array(f"drop.1/x_{rank}.arr", x)
        regions.write()
    if not ckpt.valid:
        sys.exit(f"rank {rank}: drop.1 invalid after a refused save_array")
    regions.close()
    scr.finalize()
    if rank == 0:
        print("OK write", flush=True)


def read():
    scr.init()
    x = np.zeros(10)
    with scr.Regions() as regions:
        regions.protect("x", x)
        name = regions.restore()
    if name != "drop.1" or not np.array_equal(x, np.arange(10) + rank):
        sys.exit(f"rank {rank}: restore gave {name!r}, x {x}")
    with scr.restart() as rs:
        if rs:
            sys.exit(f"rank {rank}: a restart is still offered after restore()")
    scr.finalize()
    if rank == 0:
        print("OK read", flush=True)


RAW = b"bytes.\xe9"  # a name that is not UTF-8, as a C or Fortran program may write


def raw_write():
    scr.init()
    with scr.checkpoint(RAW) as ckpt:
        with open(ckpt.route(f"rank_{rank}.txt"), "w") as f:
            f.write(f"raw {rank}\n")
    if not ckpt.valid:
        sys.exit(f"rank {rank}: checkpoint {RAW!r} invalid")
    scr.finalize()
    if rank == 0:
        print("OK raw write", flush=True)


def raw_read():
    scr.init()
    name = scr.have_restart()  # a str that gives the same bytes back
    if not isinstance(name, str) or name.encode("utf-8", "surrogateescape") != RAW:
        sys.exit(f"rank {rank}: have_restart gave {name!r}")
    if scr.start_restart() != name:
        sys.exit(f"rank {rank}: start_restart named another checkpoint")
    with open(scr.route_file(f"rank_{rank}.txt")) as f:
        valid = f.read() == f"raw {rank}\n"
    if not scr.complete_restart(valid):
        sys.exit(f"rank {rank}: the restart from {name!r} failed")
    scr.current(name)  # passed back to the library as it came
    scr.finalize()
    if rank == 0:
        print("OK raw read", flush=True)


{"write": write, "read": read, "raw_write": raw_write, "raw_read": raw_read}[sys.argv[1]]()
