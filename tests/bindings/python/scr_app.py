"""The Python test program of tests/bindings/python/python.sh, run as
    mpirun -n 4 python3 -m mpi4py scr_app.py MODE [options]

Modes:
  run N        evolve per-rank NumPy state for N steps, checkpointing every
               step through `with scr.checkpoint(...)` and save_array; on
               start restart with scr.load_restart (falls back past a
               checkpoint any rank cannot load). Options:
                 --crash-at S    last rank SIGKILLs itself after checkpoint S
                 --fail-at S     rank 1 raises inside the `with` of step S; the
                                 phase must come out invalid on every rank,
                                 then the job stops cleanly
                 --corrupt-at S  rank 2 damages its array file of step S
                                 before the phase completes (SCR sees a valid
                                 checkpoint; only save_array's digest can
                                 tell), then the job stops cleanly
               Rank 0 prints RESUMED <name>, REJECTED <name> for checkpoints
               it was offered but could not use, and
               RESULT steps=N digest=<sha256 of every rank's state>.
  arrays       round-trip arrays of many dtypes and layouts bit-exact: in
               plain files, and through checkpoint arrays.1 (written by a
               first run, read back by a second); check that damaged or
               truncated files raise IntegrityError. Prints
               ARRAYS OK restored=<arrays read through SCR> checks=<n>.
  api NAME     the SCR 3.1 functions one by one (see api_first/api_second).
  control      scr.need_checkpoint() under SCR_CHECKPOINT_INTERVAL and
               scr.should_exit() under a halt file: prints NEED <steps> and
               STOPPED <step>.
Every check that fails raises, and `-m mpi4py` turns an uncaught exception
into MPI_Abort: a non-zero exit code.
"""
import hashlib
import os
import signal
import sys

import numpy as np
from mpi4py import MPI

import scr

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()


def say(*words):
    if rank == 0:
        print(*words, flush=True)


def expect(ok, what):
    if not ok:
        raise AssertionError(f"rank {rank}: {what}")


def option(name, default=None):
    return int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


# --- run -----------------------------------------------------------------------

def specials():
    """Values whose bits only a byte-exact round trip preserves."""
    bits = np.array([0x7FF8000000000001, 0xFFF0000000000000, 0x8000000000000000,
                     0x0000000000000001, 0x7FF4DEADBEEF0000 + rank], dtype=np.uint64)
    return bits.view(np.float64)


def initial_state():
    return {"u": np.linspace(0.0, 1.0, 257) + rank, "n": np.zeros(3, dtype=np.int64),
            "s": specials()}


def advance(state, step):
    state["u"] = np.sin(state["u"]) * 1.5 + step * 1e-3
    state["n"] = state["n"] + np.array([1, step, rank], dtype=np.int64)


def save_state(ckpt, state):
    for key, arr in state.items():
        ckpt.save_array(f"pdata/{ckpt.name}/rank_{rank}_{key}.arr", arr)


def load_state(rs):
    state = {key: rs.load_array(f"pdata/{rs.name}/rank_{rank}_{key}.arr") for key in ("u", "n", "s")}
    expect(state["s"].tobytes() == specials().tobytes(), "special values changed on the way")
    expect(state["u"].dtype == np.float64 and state["u"].shape == (257,), "u lost dtype or shape")
    return state


def run():
    steps = int(sys.argv[2])
    crash_at, fail_at, corrupt_at = option("--crash-at"), option("--fail-at"), option("--corrupt-at")
    bug_rank = option("--loader-bug-rank")
    scr.init()

    def loader(rs):
        try:
            return load_state(rs)
        except scr.IntegrityError as e:
            print(f"rank {rank}: {e}", file=sys.stderr, flush=True)
            raise

    offered = []

    def logged_loader(rs):
        offered.append(rs.name)
        if rank == bug_rank:
            raise KeyError("a bug in the loader")
        return loader(rs)

    name, state = scr.load_restart(logged_loader)
    for rejected in offered[:-1] if name else offered:
        say("REJECTED", rejected)
    first = 0
    if name:
        first = int(name.split(".")[1])
        expect(int(state["n"][0]) == first, f"{name} holds the state of step {state['n'][0]}")
        say("RESUMED", name)
    else:
        state = initial_state()

    step = first
    for step in range(first + 1, steps + 1):
        advance(state, step)
        try:
            with scr.checkpoint(f"step.{step}") as ckpt:
                save_state(ckpt, state)
                if step == fail_at and rank == 1:
                    raise RuntimeError("a failure while writing the checkpoint")
                if step == corrupt_at and rank == 2:
                    path = ckpt.route(f"pdata/{ckpt.name}/rank_{rank}_u.arr")
                    with open(path, "r+b") as f:
                        f.seek(-100, os.SEEK_END)
                        byte = f.read(1)
                        f.seek(-100, os.SEEK_END)
                        f.write(bytes([byte[0] ^ 0x10]))
        except RuntimeError:
            expect(step == fail_at and rank == 1, "unexpected exception")
        if step == fail_at:
            expect(ckpt.valid is False, f"step.{step} completed as valid after an exception on rank 1")
            say("INVALID", ckpt.name)
            break
        expect(ckpt.valid is True, f"step.{step} did not complete")
        if step == corrupt_at:
            break
        if step == crash_at and rank == size - 1:
            os.kill(os.getpid(), signal.SIGKILL)
        if scr.should_exit():
            break

    digests = comm.gather(hashlib.sha256(state["u"].tobytes() + state["n"].tobytes()).hexdigest())
    scr.finalize()
    if step == steps and not (fail_at or corrupt_at):
        say(f"RESULT steps={steps} digest={hashlib.sha256(''.join(digests or []).encode()).hexdigest()}")


# --- arrays --------------------------------------------------------------------

def sample_arrays():
    rng = np.random.default_rng(rank)
    out = {
        "f8": rng.standard_normal((5, 7)),
        "f4_fortran": np.asfortranarray(rng.standard_normal((3, 4, 5)).astype(np.float32)),
        "c16": (rng.standard_normal(6) + 1j * rng.standard_normal(6)),
        "i1": np.arange(-128, 128, dtype=np.int8),
        "u8": np.array([0, 1, 2**64 - 1], dtype=np.uint64),
        "be_i4": np.arange(10, dtype=">i4"),
        "bool": rng.random(9) > 0.5,
        "f2": rng.standard_normal(11).astype(np.float16),
        "specials": specials(),
        "zero_d": np.array(3.25),
        "empty": np.zeros((0, 3), dtype=np.int16),
        "strided": np.arange(40.0).reshape(5, 8)[::2, 1::3],
        "record": np.array([(1, 2.5, b"ab"), (rank, -0.0, b"xyz")],
                           dtype=[("id", "<i4"), ("x", "<f8"), ("tag", "S3")]),
        "unicode": np.array(["α", "beta"], dtype="<U4"),
    }
    return out


def same(a, b):
    a_c = np.ascontiguousarray(a)
    b_c = np.ascontiguousarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a_c.tobytes() == b_c.tobytes()


def arrays():
    scr.init()
    checks = restored = 0
    # A second run reads back the checkpoint of the first through SCR.
    with scr.restart() as rs:
        if rs:
            expect(rs.name == "arrays.1", f"offered {rs.name}")
            for key, arr in sample_arrays().items():
                back = rs.load_array(f"adata/rank_{rank}_{key}.arr")
                expect(same(arr, back), f"{key} changed on the way: {arr!r} -> {back!r}")
                expect(back.flags.writeable, f"{key} loaded read-only")
                restored += 1
    expect(not rs or rs.valid, "restart of arrays.1 failed")
    if not rs:
        with scr.checkpoint("arrays.1") as ckpt:
            for key, arr in sample_arrays().items():
                path = ckpt.save_array(f"adata/rank_{rank}_{key}.arr", arr)
                expect(isinstance(path, os.PathLike), "save_array returns a path")
        expect(ckpt.valid, "arrays.1 did not complete")

    # Plain files, outside SCR: every sample round-trips bit-exact.
    os.makedirs("adamage", exist_ok=True)
    for key, arr in sample_arrays().items():
        plain = os.path.join("adamage", f"rank_{rank}_{key}.arr")
        scr.save_array(plain, arr)
        expect(same(arr, scr.load_array(plain)), f"{key} changed in a plain file")
        checks += 1

    # Damage, outside SCR: every damaged copy must raise IntegrityError.
    base = f"adamage_{rank}"
    good = os.path.join("adamage", base + ".arr")
    scr.save_array(good, sample_arrays()["f8"])
    blob = open(good, "rb").read()
    bad = os.path.join("adamage", base + ".bad")
    damaged = {f"a flipped bit at byte {pos} of {len(blob)}": blob[:pos] + bytes([blob[pos] ^ 1]) + blob[pos + 1:]
               for pos in (0, 9, 14, 20, len(blob) // 2, len(blob) - 1)}
    damaged.update({f"a file truncated to {cut} bytes": blob[:cut] for cut in (len(blob) - 1, 30, 5)})
    for what, content in damaged.items():
        open(bad, "wb").write(content)
        try:
            scr.load_array(bad)
        except scr.IntegrityError:
            checks += 1
        else:
            raise AssertionError(f"{what} was not detected")
    try:
        scr.save_array(bad, np.array([object()]))
    except TypeError:
        checks += 1
    try:  # its mask would be lost
        scr.save_array(bad, np.ma.array([1, 2, 3], mask=[0, 1, 0]))
    except TypeError:
        checks += 1
    expect(same(scr.load_array(good), sample_arrays()["f8"]), "undamaged file no longer loads")
    checks, restored = comm.allreduce(checks), comm.allreduce(restored)
    scr.finalize()
    say(f"ARRAYS OK restored={restored} checks={checks}")


# --- api -------------------------------------------------------------------------

def expect_raises(fn, what, cause=None):
    """fn raises SCRError, whose message (the library's) holds `cause`."""
    try:
        fn()
    except scr.SCRError as e:
        if cause is not None and cause not in str(e):
            raise AssertionError(f"{what}: the error does not say '{cause}': {e}") from None
        return
    raise AssertionError(f"{what} did not raise")


def write_dataset(name, flags, text):
    scr.start_output(name, flags)
    path = scr.route_file(f"api/{name}/rank_{rank}.txt")
    expect(isinstance(path, str), "route_file returns str")
    with open(path, "w") as f:
        f.write(text)
    return scr.complete_output()  # valid=True by default, as SCR's scr.py


def api_first():
    """Fresh prefix: config, init, every output-side call, drop, delete,
    current, and errors as exceptions."""
    expect(scr.config("SCR_CACHE_SIZE") in (None, "2", "1"), "config query")
    expect(scr.config("SCR_CACHE_SIZE=3") is None, "config set returns None")
    expect(scr.config("SCR_CACHE_SIZE") == "3", "config query after set")
    expect(scr.config("SCR_CACHE_SIZE=") is None, "config unset returns None")
    scr.init({"SCR_CACHE_SIZE": 4, "SCR_DEBUG": None})
    expect(scr.config("SCR_CACHE_SIZE") == "4", "init(dict) set the parameter")
    expect_raises(lambda: scr.config("SCR_FLUSH=5"), "config set after init",
                  'SCR_Config("SCR_FLUSH=5") sets a parameter after SCR_Init')
    expect(scr.get_version() == "v3.1.0" == scr.__version__, "version")
    expect(scr.have_restart() is None, "fresh prefix offers a restart")
    expect(scr.FLAG_NONE == 0 and scr.FLAG_CHECKPOINT == 1 and scr.FLAG_OUTPUT == 2, "flags")
    expect(isinstance(scr.need_checkpoint(), bool), "need_checkpoint answers a bool")
    expect(write_dataset("ckpt.a", scr.FLAG_CHECKPOINT, f"a {rank}\n"), "ckpt.a")
    expect(write_dataset("ckpt.b", scr.FLAG_CHECKPOINT | scr.FLAG_OUTPUT, f"b {rank}\n"), "ckpt.b")
    expect(write_dataset("out.keep", scr.FLAG_OUTPUT, f"keep {rank}\n"), "out.keep")
    expect(write_dataset("out.drop", scr.FLAG_OUTPUT, f"drop {rank}\n"), "out.drop")
    expect(write_dataset("out.del", scr.FLAG_OUTPUT, f"del {rank}\n"), "out.del")
    scr.start_checkpoint()
    with open(scr.route_file(f"api/gen/rank_{rank}.txt"), "w") as f:
        f.write("generated\n")
    expect(scr.complete_checkpoint(True), "complete_checkpoint")
    # A phase one rank reports invalid fails everywhere.
    scr.start_output("ckpt.bad", scr.FLAG_CHECKPOINT)
    expect(scr.complete_output(rank != 2) is False, "complete_output with one invalid rank")
    # The context managers of the other two kinds of phase.
    with scr.output("out.ctx") as out:
        out.route(f"api/out.ctx/rank_{rank}.txt").write_text(f"ctx {rank}\n")
    expect(out.valid is True, "with scr.output() did not complete")
    with scr.checkpoint("ckpt.marked") as marked:
        if rank == 3:
            marked.mark_invalid()
    expect(marked.valid is False, "mark_invalid() on one rank left the checkpoint valid")
    scr.drop("out.drop")
    scr.delete("out.del")
    scr.drop("no.such.dataset")  # as in SCR: a warning, not an error
    expect(scr.complete_restart() is False, "complete_restart outside a restart phase")
    expect_raises(scr.start_restart, "start_restart with nothing offered")
    # SCR_Current before any restart was loaded offers the named checkpoint.
    scr.current("ckpt.b")
    expect(scr.have_restart() == "ckpt.b", "have_restart after current('ckpt.b')")
    expect_raises(lambda: scr.start_output("bad\0name", scr.FLAG_OUTPUT), "a name with a NUL")
    expect(scr.should_exit() is False, "should_exit")
    scr.finalize()
    expect_raises(scr.finalize, "finalize twice", "SCR_Finalize called twice")
    say("API FIRST OK")


def api_second():
    """Same prefix: ckpt.b was made current, so it is offered (not the newer
    generated checkpoint), and reading it through the 3.1 calls works."""
    scr.init()
    name = scr.have_restart()
    expect(name == "ckpt.b", f"offered {name}, expected ckpt.b (made current)")
    expect(scr.start_restart() == "ckpt.b", "start_restart name")
    # The listing (SCR++ extension): every rank's file, with its writer and size.
    expect(scr.restart_ranks() == size, "restart_ranks")
    want = [scr.RestartFile(f"api/ckpt.b/rank_{r}.txt", r, len(f"b {r}\n")) for r in range(size)]
    expect(scr.restart_files() == want, f"restart_files: {scr.restart_files()}")
    with open(scr.route_file(f"api/ckpt.b/rank_{rank}.txt")) as f:
        text = f.read()
    expect(scr.complete_restart(text == f"b {rank}\n"), "complete_restart")
    scr.finalize()
    say("API SECOND OK", name)


# --- control -----------------------------------------------------------------------

def control():
    scr.init()
    needed = []
    stopped = None
    for step in range(1, 10):
        if scr.need_checkpoint():
            needed.append(step)
            with scr.checkpoint(f"ctl.{step}") as ckpt:
                np.save(ckpt.route(f"cdata/ctl.{step}/rank_{rank}.npy"), np.full(4, step))
            expect(ckpt.valid, f"ctl.{step}")
        if scr.should_exit():
            stopped = step
            break
    scr.finalize()
    say("NEED", *needed)
    say("STOPPED", stopped)


if __name__ == "__main__":
    mode = sys.argv[1]
    {"run": run, "arrays": arrays, "control": control,
     "api": lambda: {"first": api_first, "second": api_second}[sys.argv[2]]()}[mode]()
