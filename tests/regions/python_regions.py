"""python_regions.py MODE: memory regions through scr.Regions (NumPy arrays
by name). Every rank protects "step" (one int64) and "grid" (100 + 7*rank
float64); tests/regions/lang_regions.sh runs the modes:
  write     checkpoints steps 1 and 2 (a second write() in step 2's phase
            refused), prints "WROTE step.2", aborts
  mismatch  inside a restart phase, a grid of float32 (same count) and
            then of another shape: read() raises, nothing touched; an
            array that is not contiguous is refused at protect()
  restore   restore() gives step.2, every byte checked
  rescale   at another size: every writer's arrays through info() and
            load_from(), spread over the ranks
"""
import sys

import numpy as np
from mpi4py import MPI

import scr

comm = MPI.COMM_WORLD
rank, ranks = comm.Get_rank(), comm.Get_size()


def grid_of(writer, step):
    return writer * 1000.0 + step + np.arange(100 + 7 * writer) * 0.25


def all_say(ok, line):
    ok = comm.allreduce(1 if ok else 0, op=MPI.MIN) == 1
    if ok and rank == 0:
        print(line, flush=True)
    return ok


def main(mode):
    scr.init()
    step = np.zeros(1, dtype=np.int64)
    grid = np.full(100 + 7 * rank, -1.0)
    ok = False
    with scr.Regions() as regions:
        regions.protect("step", step)
        if mode == "write":
            regions.protect("grid", grid)

            def fill(s):
                step[0] = s
                grid[:] = grid_of(rank, s)

            fill(1)
            regions.checkpoint("step.1")
            # Step 2 in a phase of its own, written twice: the second write()
            # is refused and the first copy, which restore checks, stays.
            fill(2)
            refused = False
            with scr.checkpoint("step.2"):
                regions.write()
                fill(3)
                try:
                    regions.write()
                except scr.SCRError:
                    refused = True
                fill(2)
            all_say(refused, "WROTE step.2")
            comm.Barrier()  # rank 0 has printed before any rank aborts
            comm.Abort(9)  # a crash: no finalize
        elif mode == "mismatch":
            refused = []
            # Inside one restart phase (a refused restore() would end it).
            with scr.restart() as rs:
                for wrong in (grid.astype(np.float32), grid.reshape(1, -1)):
                    wrong[...] = 7
                    regions.protect("grid", wrong)
                    before, step_before = wrong.copy(), step.copy()
                    try:
                        regions.read()
                        refused.append(False)
                    except scr.SCRError:
                        refused.append(np.array_equal(before, wrong) and np.array_equal(step, step_before))
                refused.append(bool(rs))
            try:
                regions.protect("strided", np.zeros(10)[::2])
                refused.append(False)
            except scr.SCRError:
                refused.append(True)
            ok = all_say(all(refused), "REFUSED UNTOUCHED")
        elif mode == "restore":
            regions.protect("grid", grid)
            name = regions.restore()
            ok = all_say(name == "step.2" and step[0] == 2 and np.array_equal(grid, grid_of(rank, 2)),
                         "RESTORED step.2")
        elif mode == "rescale":
            regions.protect("grid", grid)
            with scr.restart() as rs:
                writers = rs.ranks
                ok = writers > ranks
                for w in range(rank, writers, ranks):
                    count, itemsize, tag = regions.info(w, "grid")
                    theirs = regions.load_from(w, "grid", np.empty(count))
                    their_step = regions.load_from(w, "step", np.zeros(1, dtype=np.int64))
                    ok = ok and itemsize == 8 and tag == f"<f8({count},)C" and their_step[0] == 2 and \
                        np.array_equal(theirs, grid_of(w, 2))
            ok = all_say(ok, f"RESCALED {writers} onto {ranks}")
    scr.finalize()
    return ok


if __name__ == "__main__":
    sys.exit(0 if main(sys.argv[1]) else 1)
