#!/usr/bin/env python3
"""Timing for bench/ without hyperfine: Python 3's standard library only.

Commands of a group run interleaved, N rounds of A B C (the order rotates each round: B C A,
C A B, ...), after W warm-up rounds that are not counted, so that load from other processes and
the page cache fall on all of them alike. Each run is one child process, no shell, started by
bench/spawn.py (a small server, so that the peak RSS is the command's own and not the size of
the Python that measures): wall time from `time.perf_counter` around spawn and wait, CPU time
(user + system) and peak RSS from `os.wait4` (`ru_maxrss`; the rusage of a waited-for child
includes its own waited-for children, so a script's subprocesses count). A peak at or below the
server's own size (~9 MiB) is printed as "≤ that". Reported per command: the median and
min–max of wall time, the median CPU time, the median and highest peak RSS, the runs, and the
exit codes seen.

As a module (bench/goals.py): `group([(name, argv), ...], runs, warmup)`. As a program:

    python3 bench/timing.py [--runs N] [--warmup W] [--timeout S] NAME=COMMAND...

where COMMAND is split like a shell word list (shlex; no globs, no redirections).
"""
import argparse
import os
import shlex
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Run:
    wall: float  # seconds
    cpu: float  # seconds, user + system
    rss: int  # bytes, peak resident set size (at least the spawn server's, see spawn.py)
    status: int  # exit code, or -signal (-9: killed at its timeout)


class Spawner:
    """bench/spawn.py, started once: every command runs as its child (see spawn.py for why)."""

    def __init__(self):
        self.server = subprocess.Popen(
            [sys.executable, "-S", "-I", str(Path(__file__).with_name("spawn.py"))],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        ready = self.server.stdout.readline().split()
        if len(ready) != 2 or ready[0] != b"ready":
            raise OSError("bench/spawn.py did not start")
        self.floor = int(ready[1]) * 1024  # bytes: a peak at or below this reads "≤"

    def run(self, argv, timeout=None):
        payload = "\0".join([str(timeout or 0), *map(str, argv)]).encode("utf-8", "surrogateescape")
        self.server.stdin.write(b"%d\n" % len(payload) + payload)
        self.server.stdin.flush()
        answer = self.server.stdout.readline().decode()
        if not answer:
            raise OSError("bench/spawn.py ended")
        if answer.startswith("error "):
            raise OSError(answer[6:].strip())
        wall, cpu, rss, status, server = answer.split()
        self.floor = max(self.floor, int(server) * 1024)
        return Run(float(wall), float(cpu), int(rss) * 1024, int(status))


_spawner = None


def spawner():
    global _spawner
    if _spawner is None:
        _spawner = Spawner()
    return _spawner


def run(argv, timeout=None):
    """Runs argv once, its output to /dev/null; killed after `timeout` seconds if given."""
    return spawner().run(argv, timeout)


@dataclass
class Stats:
    name: str
    argv: list
    runs: list = field(default_factory=list)

    @property
    def walls(self):
        return [r.wall for r in self.runs]

    @property
    def wall(self):
        return statistics.median(self.walls)

    @property
    def wall_min(self):
        return min(self.walls)

    @property
    def wall_max(self):
        return max(self.walls)

    @property
    def cpu(self):
        return statistics.median(r.cpu for r in self.runs)

    @property
    def rss(self):
        return statistics.median(r.rss for r in self.runs)

    @property
    def rss_max(self):
        return max(r.rss for r in self.runs)

    @property
    def statuses(self):
        return sorted({r.status for r in self.runs})

    def peaks(self):
        """The median peak RSS and the highest, or one "≤" figure when both are."""
        if peak(self.rss_max).startswith("≤"):
            return peak(self.rss_max)
        return f"{peak(self.rss)} (max {peak(self.rss_max)})"

    def line(self):
        """One Markdown table row: name, median wall, min–max, CPU, peak RSS, runs, exit."""
        return (f"| {self.name} | {seconds(self.wall)} | {seconds(self.wall_min)}–"
                f"{seconds(self.wall_max)} | {seconds(self.cpu)} | {self.peaks()} | "
                f"{len(self.runs)} | "
                f"{', '.join(map(str, self.statuses))} |")


HEADER = ("| command | wall, median | wall, min–max | CPU (user+sys), median | peak RSS, median "
          "| runs | exit |\n|---|---|---|---|---|---|---|")


def group(commands, runs, warmup=1, progress=None, timeout=None):
    """Runs `commands` ([(name, argv)]) interleaved; returns {name: Stats} in the given order."""
    stats = {name: Stats(name, argv) for name, argv in commands}
    order = list(stats.values())
    for _ in range(warmup):
        for s in order:
            run(s.argv, timeout)
    for round_ in range(runs):
        shift = round_ % len(order)
        for s in order[shift:] + order[:shift]:
            s.runs.append(run(s.argv, timeout))
        if progress:
            progress(round_ + 1, runs)
    return stats


def paired_ratio(a, b, key="wall"):
    """Median over rounds of b/a (both Stats of one group, one run each per round)."""
    ratios = [getattr(y, key) / getattr(x, key)
              for x, y in zip(a.runs, b.runs) if getattr(x, key) > 0]
    return statistics.median(ratios) if ratios else float("nan")


def seconds(value):
    if value < 1:
        return f"{value * 1000:.1f} ms" if value < 0.1 else f"{value * 1000:.0f} ms"
    return f"{value:.2f} s"


def mib(value):
    return f"{value / 2**20:.1f} MiB"


def peak(value):
    """A peak RSS in MiB, or "≤ the spawn server's size" when it is not above it."""
    if _spawner is not None and value <= _spawner.floor:
        return f"≤ {mib(_spawner.floor)}"
    return mib(value)


def main():
    parser = argparse.ArgumentParser(
        description="Interleaved runs: median and min–max wall time, CPU time and peak RSS.")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=None,
                        help="kill a run after this many seconds (its exit reads -9)")
    parser.add_argument("commands", nargs="+", metavar="NAME=COMMAND")
    args = parser.parse_args()
    commands = []
    for item in args.commands:
        name, sep, command = item.partition("=")
        if not sep or not command.strip():
            sys.exit(f"timing.py: `{item}` is not NAME=COMMAND")
        commands.append((name, shlex.split(command)))
    try:
        stats = group(commands, args.runs, args.warmup, timeout=args.timeout)
    except OSError as error:
        sys.exit(f"timing.py: cannot run a command: {error}")
    print(HEADER)
    for s in stats.values():
        print(s.line())
    if len(commands) == 2:
        a, b = stats.values()
        print(f"\nmedian per-round ratio {b.name}/{a.name}: wall {paired_ratio(a, b):.3f}, "
              f"CPU {paired_ratio(a, b, 'cpu'):.3f}")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
