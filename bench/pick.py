#!/usr/bin/env python3
"""Picks COUNT tool-set files that hold exactly TOOLS tools between them, deterministically, for
issue 17's "602 real tools (30 servers)" (bench/run.sh: 30 of the 55 servers of
../shared/corpora/mcp). Prints the chosen paths, one a line.

The rule: go through the files in name order and take each one unless taking it would leave
no way to reach exactly COUNT files and TOOLS tools with the files after it (a subset-sum over
(files, tools) pairs decides). So the choice is the first in name order that fits, mixes large
and small servers as the alphabet does, and changes only when the corpus does. When no choice
fits exactly, the nearest total below TOOLS is taken, and said on stderr. Tools are counted as
bench/split.py counts them (what toolcheck reads as tools).

  pick.py COUNT TOOLS FILE...
"""
import json
import sys
from pathlib import Path

from split import tools


def count(path):
    try:
        return sum(1 for _ in tools(json.loads(Path(path).read_text(encoding="utf-8"))))
    except (OSError, ValueError):
        return 0


def pick(sizes, want_files, want_tools):
    """Indices into `sizes` of the first choice in order of `want_files` files holding
    `want_tools` tools, or None."""
    n = len(sizes)
    # reach[i]: the (files, tools) pairs the files i.. can make, bounded by the wanted ones.
    reach = [set() for _ in range(n + 1)]
    reach[n] = {(0, 0)}
    for i in range(n - 1, -1, -1):
        reach[i] = set(reach[i + 1])
        for files, total in reach[i + 1]:
            if files < want_files and total + sizes[i] <= want_tools:
                reach[i].add((files + 1, total + sizes[i]))
    if (want_files, want_tools) not in reach[0]:
        return None
    chosen, files, total = [], want_files, want_tools
    for i, size in enumerate(sizes):
        if files and size <= total and (files - 1, total - size) in reach[i + 1]:
            chosen.append(i)
            files, total = files - 1, total - size
    return chosen


def choose(paths, want_files, want_tools):
    """(the chosen paths in name order, their tools); the total is below `want_tools` only when
    no choice fits exactly. None when there are fewer than `want_files` paths."""
    paths = sorted(paths, key=lambda p: Path(p).name)
    sizes = [count(p) for p in paths]
    for target in range(want_tools, -1, -1):
        chosen = pick(sizes, want_files, target)
        if chosen is not None:
            return [paths[i] for i in chosen], target
    return None


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: bench/pick.py COUNT TOOLS FILE...")
    want_files, want_tools = int(sys.argv[1]), int(sys.argv[2])
    chosen = choose(sys.argv[3:], want_files, want_tools)
    if chosen is None:
        sys.exit(f"pick.py: fewer than {want_files} files")
    paths, total = chosen
    if total != want_tools:
        print(f"pick.py: no {want_files} files hold {want_tools} tools; took {total}",
              file=sys.stderr)
    for path in paths:
        print(path)


if __name__ == "__main__":
    main()
