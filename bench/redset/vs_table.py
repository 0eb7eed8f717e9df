#!/usr/bin/env python3
"""The table of the side-by-side runs of SCR++'s engine (redset_bench) and
redset 0.4.0's (redset_baseline) on the same cells: scripts/bench.sh
(ONLY=redset-vs, simulated nodes) and bench/cluster/run.sh (ONLY=redset-vs,
hosts of the cluster in a box). Each line of RESULTS is
{"bench": BENCH, "engine": "scr"|"redset", "round": N, "result": <JSON line of the driver>};
a round pairs the two engines' runs of a cell, one right after the other.

usage: vs_table.py RESULTS.jsonl BENCH
"""
import json
import sys


def span(v):
    return f"{min(v):.2f}-{max(v):.2f}" if len(v) > 1 else f"{v[0]:.2f}" if v else "-"


def main():
    path, bench = sys.argv[1], sys.argv[2]
    rows = [json.loads(line) for line in open(path) if f'"bench":"{bench}"' in line]
    cells, failed = {}, 0
    for r in rows:
        x = r["result"]
        if x.get("failed"):
            failed += 1
            continue
        key = (x["scheme"].lower(), x["nodes"], x["bytes_per_rank"] >> 20)
        cells.setdefault(key, {}).setdefault(r["round"], {})[r["engine"]] = x
    print("speed-up = redset / SCR++ per round (wall time; cpu: user+sys summed over ranks); medians of REPEAT;"
          " x floor, x rfloor: SCR++'s encode and rebuild over their floors")
    print(f"{'scheme':>8} {'nodes':>5} {'MiB':>4} {'SCR++ enc s':>11} {'redset enc s':>12} {'encode x':>10} "
          f"{'enc cpu x':>10} {'SCR++ reb s':>11} {'redset reb s':>12} {'rebuild x':>10} {'reb cpu x':>10} "
          f"{'RSS SCR++/redset':>16} {'x floor':>9} {'x rfloor':>9} {'ok':>3}")
    order = {"xor": 0, "partner": 1, "rs": 2}
    for key in sorted(cells, key=lambda k: (order.get(k[0], 9), k[1], k[2])):
        pairs = [v for v in cells[key].values() if "scr" in v and "redset" in v]
        if not pairs:
            continue
        f = lambda e, m: [p[e][m] for p in pairs]
        ratio = lambda m: [p["redset"][m] / p["scr"][m] for p in pairs if p["scr"][m] > 0]
        ok = all(p["scr"]["verified"] and p["redset"]["verified"] for p in pairs)
        print(f"{key[0]:>8} {key[1]:>5} {key[2]:>4} {span(f('scr', 'encode_s')):>11} "
              f"{span(f('redset', 'encode_s')):>12} {span(ratio('encode_s')):>10} {span(ratio('encode_cpu_s')):>10} "
              f"{span(f('scr', 'rebuild_s')):>11} {span(f('redset', 'rebuild_s')):>12} "
              f"{span(ratio('rebuild_s')):>10} {span(ratio('rebuild_cpu_s')):>10} "
              f"{max(f('scr', 'peak_rss_mib')):>7.1f}/{max(f('redset', 'peak_rss_mib')):<8.1f} "
              f"{span(f('scr', 'encode_over_floor')):>9} {span(f('scr', 'rebuild_over_floor')):>9} "
              f"{'yes' if ok else 'NO':>3}")
    if failed:
        print(f"({failed} runs failed and are left out)")


if __name__ == "__main__":
    main()
