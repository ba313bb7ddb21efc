#!/usr/bin/env python3
"""Paired runs of two binaries on the same arguments, alternating A B A B ... so that load from
other processes falls on both alike. Prints, for each binary, the median wall time, user+system
CPU time and peak RSS (from wait4, bench/timing.py), and the medians of the per-pair ratios
B/A. A benchmark, not a test.

    python3 bench/paired.py RUNS BINARY_A BINARY_B ARGS...
"""

import os
import statistics
import sys

from timing import run as timed


def run(argv):
    result = timed(argv)
    return result.wall, result.cpu, result.rss / 2**20


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: bench/paired.py RUNS BINARY_A BINARY_B ARGS...")
    runs, a, b, args = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
    results = ([], [])  # by position: A and B may be the same path (an A/A check of noise)
    run([a, *args])  # warm the page cache for both
    run([b, *args])
    for _ in range(runs):
        for binary, r in zip((a, b), results):
            r.append(run([binary, *args]))
    for binary, r in zip((a, b), results):
        wall = statistics.median(x[0] for x in r) * 1000
        cpu = statistics.median(x[1] for x in r) * 1000
        rss = statistics.median(x[2] for x in r)
        print(f"| {binary} | {wall:.1f} ms | {cpu:.1f} ms | {rss:.1f} MiB | {len(r)} |")
    pairs = list(zip(*results))
    wall = statistics.median(y[0] / x[0] for x, y in pairs)
    cpu = statistics.median(y[1] / x[1] for x, y in pairs if x[1] > 0)
    print(f"median per-pair ratio B/A: wall {wall:.3f}, CPU {cpu:.3f}; "
          f"load average {os.getloadavg()[0]:.2f}")


main()
