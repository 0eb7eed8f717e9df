"""heat1d: a 1-D heat diffusion over MPI ranks (mpi4py + NumPy),
checkpointed with SCR++'s Python package.

    mpirun -n 4 python3 -m mpi4py examples/python/heat1d.py [-n steps] [-c every] [--crash-at step]

Each rank owns a slice of a rod with a hot middle third. Every `every`
steps it saves its slice through `with scr.checkpoint(...)` and
save_array (dtype, shape and digest kept); on start, scr.load_restart()
resumes from the newest checkpoint every rank can read. --crash-at kills
the last rank with SIGKILL after that step, as a node failure would.
Rank 0 ends with
    RESULT steps=<n> checksum=<sha256 of the whole rod>
which is the same for an interrupted-and-restarted run as for an
uninterrupted one.
"""
import argparse
import hashlib
import os
import signal

import numpy as np
from mpi4py import MPI

import scr

CELLS_PER_RANK = 1000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", dest="steps", type=int, default=200)
    parser.add_argument("-c", dest="every", type=int, default=50)
    parser.add_argument("--crash-at", type=int, default=-1)
    args = parser.parse_args()

    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()

    def say(text):
        if rank == 0:
            print(f"[heat-py] {text}", flush=True)

    scr.init()
    name, rod = scr.load_restart(lambda rs: rs.load_array(f"{rs.name}/rank_{rank}.arr"))
    first = int(name.split(".")[1]) if name else 0
    if name:
        say(f"resumed from checkpoint '{name}' (step {first})")
    else:
        cells = np.arange(rank * CELLS_PER_RANK, (rank + 1) * CELLS_PER_RANK)
        total = size * CELLS_PER_RANK
        rod = np.where((cells >= total // 3) & (cells < 2 * total // 3), 100.0, 0.0)
        say("no checkpoint found: starting from step 0")

    left = rank - 1 if rank > 0 else MPI.PROC_NULL
    right = rank + 1 if rank < size - 1 else MPI.PROC_NULL
    for step in range(first + 1, args.steps + 1):
        # Halo cells; at the rod's ends a cell is its own neighbour (no heat leaves).
        halo_l, halo_r = np.array([rod[0]]), np.array([rod[-1]])
        comm.Sendrecv(rod[-1:], dest=right, recvbuf=halo_l, source=left)
        comm.Sendrecv(rod[:1], dest=left, recvbuf=halo_r, source=right)
        padded = np.concatenate([halo_l, rod, halo_r])
        rod = padded[1:-1] + 0.25 * (padded[:-2] - 2.0 * padded[1:-1] + padded[2:])
        if step % args.every == 0:
            with scr.checkpoint(f"step.{step}") as ckpt:
                ckpt.save_array(f"step.{step}/rank_{rank}.arr", rod)
            if not ckpt.valid:
                raise SystemExit(f"checkpoint step.{step} failed")
            say(f"step {step}: checkpoint 'step.{step}' saved")
        if step == args.crash_at:
            # Let rank 0 finish reporting this step before the SIGKILL
            # makes mpiexec kill it.
            comm.Barrier()
        if step == args.crash_at and rank == size - 1:
            print(f"[heat-py] rank {rank}: simulating a failure at step {step} (SIGKILL)", flush=True)
            os.kill(os.getpid(), signal.SIGKILL)
        if scr.should_exit():
            say(f"step {step}: SCR asks the job to stop; exiting cleanly")
            break

    whole = comm.gather(rod.tobytes())
    scr.finalize()
    if rank == 0:
        print(f"RESULT steps={args.steps} checksum={hashlib.sha256(b''.join(whole)).hexdigest()}", flush=True)


if __name__ == "__main__":
    main()
