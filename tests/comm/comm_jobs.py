"""scr.init(comm=...) from Python: the processes of the launch split by
parity into jobs A and B, each working in its own prefix (argv[1], argv[2]).
Each job restarts from what SCR++ offers (scr.load_restart, checking its
rank's file), then writes checkpoint "<job>.step.<n>" (n: argv[3]; job B
none for step 0) and prints what it did, as comm_jobs.c. A communicator that is not mpi4py's is refused."""
import os
import sys

from mpi4py import MPI

import scr

world = MPI.COMM_WORLD
color = world.rank % 2
job = "AB"[color]
comm = world.Split(color, world.rank)
prefix, step = sys.argv[1 + color], sys.argv[3]
os.chdir(prefix)

try:
    scr.init(comm=42)
    sys.exit("scr.init accepted an int as communicator")
except scr.SCRError:
    pass

scr.init({"SCR_PREFIX": prefix}, comm=comm)
file = f"rank_{comm.rank}.dat"


def say(words):
    # One write per line: lines of several processes must not interleave.
    sys.stdout.write(f"job {job} rank {comm.rank} {words}\n")
    sys.stdout.flush()


def content(name):
    return f"{job} {comm.rank} {name};".encode() * 100


def load(phase):
    with open(scr.route_file(f"{phase.name}/{file}"), "rb") as f:
        if f.read() != content(phase.name):
            raise ValueError(f"{phase.name}/{file} holds other bytes")


# load_restart agrees over the job's communicator: one job restarting while
# the other has nothing to restart from must not wait for it.
name, _ = scr.load_restart(load)
say(f"resumed {name}" if name else "fresh")

# Step 0: job B writes nothing, so that only job A restarts next time.
if step == "0" and job == "B":
    scr.finalize()
    sys.exit(0)
name = f"{job}.step.{step}"
scr.start_output(name, scr.FLAG_CHECKPOINT)
with open(scr.route_file(f"{name}/{file}"), "wb") as f:
    f.write(content(name))
scr.complete_output(True)
scr.finalize()
