#!/usr/bin/env python3
"""Tables of bench/scale/run.sh: per step and size, then how each figure grows.

The growth between two sizes N1 < N2 is the exponent k of N^k that joins
them: log(v2 / v1) / log(N2 / N1). 0 is constant, 1 linear in N, 2 quadratic.
"""
import json
import math
import sys

rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
steps = [r for r in rows if r["bench"] == "scale"]
sizes = sorted({r["N"] for r in steps})
names = []
for r in steps:
    if r["step"] not in names:
        names.append(r["step"])


def kib(b):
    return f"{b / 1024:.1f}"


def growth(a, b, na, nb):
    if a <= 0 or b <= 0:
        return "-"
    return f"{math.log(b / a) / math.log(nb / na):.2f}"


cols = [("wall s", "wall_s", lambda v: f"{v:.4f}"),
        ("cpu/rank ms", "cpu_mean_s", lambda v: f"{v * 1e3:.3f}"),
        ("rank0 cpu ms", "rank0_cpu_s", lambda v: f"{v * 1e3:.3f}"),
        ("msgs max", "messages_max", str),
        ("msgs mean", "messages_mean", lambda v: f"{v:.1f}"),
        ("KiB max", "bytes_max", kib),
        ("KiB mean", "bytes_mean", kib),
        ("rank0 peak KiB", "rank0_peak_bytes", kib)]
print("Per step (checkpoints: per checkpoint of that scheme; figures per rank are sent messages/bytes)")
print(f"{'step':<27} {'N':>6} {'ranks':>6} " + " ".join(f"{c[0]:>14}" for c in cols))
for name in names:
    for n in sizes:
        for r in steps:
            if r["N"] == n and r["step"] == name:
                print(f"{name:<27} {n:>6} {r['ranks']:>6} " + " ".join(f"{c[2](r[c[1]]):>14}" for c in cols))
print()
print("Growth exponent k (figure ~ N^k) between successive sizes")
print(f"{'step':<27} {'sizes':>12} " + " ".join(f"{c[0]:>14}" for c in cols))
for name in names:
    have = [r for n in sizes for r in steps if r["N"] == n and r["step"] == name]
    for a, b in zip(have, have[1:]):
        print(f"{name:<27} {str(a['N']) + '->' + str(b['N']):>12} " +
              " ".join(f"{growth(a[c[1]], b[c[1]], a['ranks'], b['ranks']):>14}" for c in cols))
files = [r for r in rows if r["bench"] == "scale-files"]
if files:
    kinds = sorted({k for r in files for k in r["largest"]})
    print()
    print("Largest metadata file of each kind, bytes")
    print(f"{'file':<48} " + " ".join(f"{'N=' + str(r['N']):>10}" for r in files) + f" {'growth':>8}")
    for k in kinds:
        v = [r["largest"].get(k, 0) for r in files]
        g = growth(v[-2], v[-1], files[-2]["N"], files[-1]["N"]) if len(v) > 1 else "-"
        print(f"{k:<48} " + " ".join(f"{x:>10}" for x in v) + f" {g:>8}")
print()
for r in rows:
    if r["bench"] == "scale-run":
        ok = "verified" if not r["failures"] and all(x == r["expected"] for x in r["restored"]) else "FAILED"
        print(f"N={r['N']}: {r['total_s']:.1f} s, process peak {r['max_rss_mib']:.0f} MiB, restarts "
              f"{','.join(r['restored'])} ({ok}){' ' + '; '.join(r['failures']) if r['failures'] else ''}")
    elif r["bench"] == "scale-schemes":
        print(f"N={r['N']}: schemes {r['schemes']}: {r['why']}")
    elif r["bench"] in ("scale-skipped", "scale-failed"):
        print(f"N={r['N']}: {r['bench'][6:]}: {r.get('why') or r.get('stderr')}")
