#!/usr/bin/env python3
"""The tables of bench/cluster/run.sh: for each measurement, the medians over
the pairs of jobs (one on the hosts of the cluster in a box, one on simulated
nodes, run one after the other) and the median of each pair's ratio, hosts
over simulated nodes, so that load from elsewhere, which moves both jobs of a
pair alike, cancels out.

usage: tables.py redset|runtime RESULTS.jsonl
"""
import json
import statistics
import sys

med = statistics.median


def pairs(rows, key):
    """{key(row): [{"cluster": row, "sim": row}, ...]}, the repetitions that have both."""
    groups = {}
    for r in rows:
        groups.setdefault(key(r), {}).setdefault(r["run"], {})[r["mode"]] = r
    return {k: [p for p in runs.values() if "sim" in p and "cluster" in p] for k, runs in groups.items()}


def ratio(ps, f):
    return med(f(p["cluster"]) / f(p["sim"]) for p in ps)


def footer(groups, columns):
    n = max((len(ps) for ps in groups.values()), default=0)
    print(f"(medians of {n} interleaved pairs; {columns}: hosts over simulated nodes, medians of each pair's ratio)")


def redset(rows):
    groups = pairs(rows, lambda r: (r["result"]["scheme"], r["result"]["bytes_per_rank"] >> 20, r["result"]["lost"]))
    write = lambda r: r["result"]["write_s"]
    enc = lambda r: r["result"]["encode_s"]
    reb = lambda r: r["result"]["rebuild_s"]
    send = lambda r: r["result"]["floor_parts_s"]["send"]
    over = lambda r: r["result"]["encode_over_write"]
    print(f"{'scheme':>8} {'MiB/rank':>8} {'lost':>4} | {'sim: write s':>12} {'encode s':>8} {'x write':>7} "
          f"{'rebuild s':>9} {'send s':>6} | {'hosts: write s':>14} {'encode s':>8} {'x write':>7} "
          f"{'rebuild s':>9} {'send s':>6} | {'encode':>6} {'rebuild':>7} {'send':>5} {'ok':>3}")
    for (scheme, mib, lost), ps in groups.items():
        if not ps:
            continue
        cols = [" ".join([f"{med(write(p[m]) for p in ps):>{w}.3f}", f"{med(enc(p[m]) for p in ps):>8.3f}",
                          f"{med(over(p[m]) for p in ps):>7.2f}", f"{med(reb(p[m]) for p in ps):>9.3f}",
                          f"{med(send(p[m]) for p in ps):>6.3f}"])
                for m, w in (("sim", 12), ("cluster", 14))]
        ok = all(p[m]["result"]["verified"] for p in ps for m in p)
        print(f"{scheme:>8} {mib:>8} {lost:>4} | {cols[0]} | {cols[1]} | {ratio(ps, enc):>6.2f} "
              f"{ratio(ps, reb):>7.2f} {ratio(ps, send):>5.2f} {'yes' if ok else 'NO':>3}")
    footer(groups, "the last three columns")
    print("(send: the floor's part that sends every rank's bytes to its neighbour in the set and receives"
          " as many, timed alone)")


def runtime(rows):
    groups = pairs(rows, lambda r: (r["scheme"], r["lost"]))
    init0 = lambda r: r["write"]["init_s"]
    comp = lambda r: r["write"]["complete_blocked_s"]
    init = lambda r: r["restart"]["init_s"]
    print(f"{'scheme':>8} {'lost':>4} | {'sim: Init s':>11} {'Complete s':>10} {'rebuild Init s':>14} | "
          f"{'hosts: Init s':>13} {'Complete s':>10} {'rebuild Init s':>14} | "
          f"{'Init':>6} {'Complete':>8} {'rebuild':>7} {'ok':>3}")
    for (scheme, lost), ps in groups.items():
        if not ps:
            continue
        cols = [" ".join([f"{med(init0(p[m]) for p in ps):>{w}.3f}", f"{med(comp(p[m]) for p in ps):>10.3f}",
                          f"{med(init(p[m]) for p in ps):>14.3f}"])
                for m, w in (("sim", 11), ("cluster", 13))]
        ok = all(p[m]["restart"]["data_ok"] == 1 and p[m]["write"]["rc"] == 0 for p in ps for m in p)
        print(f"{scheme:>8} {lost:>4} | {cols[0]} | {cols[1]} | {ratio(ps, init0):>6.2f} {ratio(ps, comp):>8.2f} "
              f"{ratio(ps, init):>7.2f} {'yes' if ok else 'NO':>3}")
    footer(groups, "the last three columns")
    print("(Init: SCR_Init of the first job, nothing to restart; rebuild Init: SCR_Init of the job on spares,"
          " rebuilding the lost nodes' files; ok: every restart read back every byte it wrote)")


def main():
    part, path = sys.argv[1], sys.argv[2]
    rows = [json.loads(line) for line in open(path) if f'"bench":"cluster_{part}"' in line]
    {"redset": redset, "runtime": runtime}[part](rows)


if __name__ == "__main__":
    main()
