#!/usr/bin/env python3
"""Measures issue 17's goals and prints one table: measured figure, goal, met or not. bench/run.sh
builds the binaries and installs the peers, then runs this; it needs Python 3 only (timing:
bench/timing.py, inputs: bench/pick.py, bench/split.py, bench/gen.py).

    goals.py --bin BIN --floor FLOOR --corpora DIR --cache DIR [--runs N] [--heavy-runs N]
             [--tool-scan PATH] [--spectral PATH] [--build-seconds S] [--out FILE]

What runs (each group interleaved, see timing.py):
  602 real tools   30 servers of CORPORA/mcp holding 602 tools (pick.py), one tool per file
                   (split.py): toolcheck, tool-scan (1 job and --jobs = cores), Spectral;
                   heavy runs
  corpus/floor     every CORPORA/*/*.json: `lint`, the floor with toolcheck's counter
                   (`floor --toolcheck`, the goal's floor), the floor with tiktoken-rs,
                   `tokens`; N runs
  cold start       fixtures/tokens/small.tools.yaml (every text fits its budget in bytes: no
                   tokenizer) and fixtures/examples/ask_user_question.tool.yaml (guidelines
                   longer in bytes than their budget: the encoding is used); N runs
  sets             10k, 50k, 200k generated tools over 1,000 files each (gen.py); heavy runs
  one line         10k tools minified on one line and pretty-printed; N runs
  stress           gen.py's stress inputs, one run each (details only)
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import gen  # noqa: E402
import pick  # noqa: E402
import split  # noqa: E402
import timing  # noqa: E402
from timing import seconds  # noqa: E402

ROOT = HERE.parent
SMALL = ROOT / "fixtures/tokens/small.tools.yaml"
ASK = ROOT / "fixtures/examples/ask_user_question.tool.yaml"
SERVERS, SERVER_TOOLS = 30, 602
SET_SIZES = ((10_000, "10k"), (50_000, "50k"), (200_000, "200k"))
MB = 1_000_000
STRESS_TIMEOUT = 60


def log(message):
    print(message, file=sys.stderr, flush=True)


def load():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def output(argv):
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=60,
                              cwd=ROOT).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


class Report:
    def __init__(self):
        self.goals = []  # (measure, measured, goal, verdict)
        self.details = []  # lines of Markdown

    def goal(self, measure, measured, goal, met):
        verdict = {True: "met", False: "**not met**", None: "—"}[met]
        self.goals.append((measure, measured, goal, verdict))

    def group(self, title, stats, note="", timeout=None):
        self.details += ["", f"### {title}", ""]
        if note:
            self.details += [note, ""]
        self.details.append(timing.HEADER)
        self.details += [s.line() for s in stats.values()]
        self.details.append(f"\nload average after: {load()}")
        bad = [s for s in stats.values() if any(code not in (0, 1) for code in s.statuses)]
        for s in bad:
            if -9 in s.statuses and timeout:
                self.details.append(f"\n**{s.name}: killed after {timeout:.0f} s** (a run over "
                                    "the group's time limit): its wall time is that limit")
            else:
                self.details.append(f"\n**{s.name} exited with {s.statuses}**: its figures "
                                    "are not those of a finished run")
        return not bad


def measure(report, name, commands, runs, warmup, note="", timeout=None):
    log(f"measuring {name}: {len(commands)} commands, {runs} rounds interleaved "
        f"(+{warmup} warm-up), load {load()}")
    stats = timing.group(commands, runs, warmup, timeout=timeout,
                         progress=lambda done, total: log(f"  round {done}/{total}"))
    ok = report.group(name, stats, note, timeout)
    return stats, ok


def ratio_text(a, b):
    """b/a as '12.3×' (ratio of medians) with the per-round median beside it."""
    return (f"**{b.wall / a.wall:.2f}×** (ratio of medians; per round "
            f"{timing.paired_ratio(a, b):.2f}×, CPU {b.cpu / a.cpu:.2f}×)")


def peers(report, args):
    """602 real tools of 30 servers, one tool per file: toolcheck against tool-scan and Spectral."""
    chosen = pick.choose(list((Path(args.corpora) / "mcp").glob("*.json")), SERVERS,
                         SERVER_TOOLS)
    if chosen is None:
        report.goal(f"{SERVER_TOOLS} real tools ({SERVERS} servers) vs tool-scan",
                    f"not measured: fewer than {SERVERS} files in {args.corpora}/mcp",
                    "≥ 10× faster", None)
        return
    servers = [Path(p) for p in chosen[0]]
    out = Path(args.cache) / "mcp30"
    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob("*.tool.json"):
        stale.unlink()
    count = split.write(out, servers)
    tool_files = sorted(str(p) for p in out.glob("*.tool.json"))
    commands = [("toolcheck lint", [args.bin, "lint", "--no-config", "--format", "json", str(out)])]
    scans = []
    if args.tool_scan:
        cores = os.cpu_count() or 1
        scans = ["tool-scan (1 job)", f"tool-scan --jobs {cores}"]
        commands.append((scans[0], [args.tool_scan, "--json", *tool_files]))
        commands.append((scans[1], [args.tool_scan, "--json", "--jobs", str(cores), *tool_files]))
    if args.spectral:
        commands.append(("Spectral", [args.spectral, "lint", "--quiet", "-f", "json", "-r",
                                      str(HERE / "spectral-ruleset.yaml"), *tool_files]))
    commands.append((f"toolcheck lint, the {len(servers)} server files",
                     [args.bin, "lint", "--no-config", "--format", "json", *map(str, servers)]))
    versions = []
    if args.tool_scan:
        python = Path(args.tool_scan).parent / "python"
        version = "import importlib.metadata as m; print(m.version('tool-scan'))"
        versions.append("tool-scan " + output([str(python), "-c", version]))
    if args.spectral:
        versions.append("Spectral " + output([args.spectral, "--version"]))
    note = (f"{len(servers)} servers of `mcp/`, {count} tools, one MCP-shaped tool per file "
            f"(bench/split.py): {', '.join(p.stem for p in servers)}."
            + (" " + "; ".join(versions) + "." if versions else ""))
    stats, ok = measure(report, f"{count} real tools ({len(servers)} servers), one tool per file",
                        commands, args.heavy_runs, 1, note)
    ours = stats["toolcheck lint"]
    measure_name = f"{count} real tools ({len(servers)} servers) vs tool-scan, same files"
    if scans:
        best = min((stats[name] for name in scans), key=lambda s: s.wall)
        times = best.wall / ours.wall
        report.goal(measure_name,
                    f"toolcheck {seconds(ours.wall)}, {best.name} {seconds(best.wall)}: "
                    f"**{times:.1f}×** faster (per round {timing.paired_ratio(ours, best):.1f}×)",
                    "≥ 10× faster", ok and times >= 10)
    else:
        report.goal(measure_name, f"toolcheck {seconds(ours.wall)}; tool-scan not installed",
                    "≥ 10× faster", None)
    if args.spectral:
        theirs = stats["Spectral"]
        report.goal("the same vs Spectral (4 rules, bench/spectral-ruleset.yaml)",
                    f"Spectral {seconds(theirs.wall)}: **{theirs.wall / ours.wall:.0f}×** slower",
                    "none (same run)", None)


def corpus(report, args):
    files = sorted(str(p) for p in Path(args.corpora).glob("*/*.json"))
    if not files:
        report.goal("shared corpora vs the counting floor", f"not measured: no {args.corpora}",
                    "≤ 1.3× the floor", None)
        return
    try:
        summary = json.loads(subprocess.run(
            [args.bin, "lint", "--no-config", "--format", "json", *files],
            capture_output=True, text=True).stdout).get("summary", {})
        tools = f"{summary['tools']:,}"
    except (OSError, ValueError, KeyError, TypeError):
        tools = "?"
    size = sum(Path(f).stat().st_size for f in files)
    commands = [
        ("toolcheck lint", [args.bin, "lint", "--no-config", "--format", "json", *files]),
        ("floor --toolcheck", [args.floor, "--toolcheck", *files]),
        ("floor (tiktoken-rs)", [args.floor, *files]),
        ("toolcheck tokens", [args.bin, "tokens", "--no-config", "--format", "json", *files]),
    ]
    note = (f"{len(files)} files of {args.corpora}/*/*.json, {tools} tools, {size / MB:.1f} MB. "
            "The floor (bench/floor.rs) reads the files, parses them with serde_json and counts "
            "each text once, on all cores; `--toolcheck` counts with toolcheck's own counter.")
    stats, ok = measure(report, "shared corpora vs the floor", commands, args.runs, 1, note)
    lint, floor = stats["toolcheck lint"], stats["floor --toolcheck"]
    times = lint.wall / floor.wall
    report.goal(f"shared corpora ({tools} tools) vs the counting floor",
                f"lint {seconds(lint.wall)}, floor {seconds(floor.wall)}: "
                f"{ratio_text(floor, lint)}; "
                f"peak {timing.peak(lint.rss_max)} vs {timing.peak(floor.rss_max)}",
                "≤ 1.3× the floor", ok and times <= 1.3)


def cold(report, args):
    commands = [
        ("lint, with tokenizer (ask_user_question.tool.yaml)",
         [args.bin, "lint", "--no-config", str(ASK)]),
        ("lint, no tokenizer (small.tools.yaml)", [args.bin, "lint", "--no-config", str(SMALL)]),
        ("tokens (small.tools.yaml, always counts)",
         [args.bin, "tokens", "--no-config", str(SMALL)]),
    ]
    stats, ok = measure(report, "cold start, one small manifest", commands, args.runs, 1,
                        "Human output, as a user or a hook runs it.")
    ask, small = stats[commands[0][0]], stats[commands[1][0]]
    report.goal("cold start, one small manifest, with tokenizer",
                f"**{seconds(ask.wall)}** ({seconds(ask.wall_min)}–{seconds(ask.wall_max)}; "
                f"CPU {seconds(ask.cpu)}), **{timing.peak(ask.rss_max)}**",
                "≤ 30 ms, ≤ 30 MiB", ok and ask.wall <= 0.030 and ask.rss_max <= 30 * 2**20)
    report.goal("cold start, no tokenizer needed",
                f"**{seconds(small.wall)}** ({seconds(small.wall_min)}–{seconds(small.wall_max)}; "
                f"CPU {seconds(small.cpu)}), {timing.peak(small.rss_max)}",
                "~13 ms, kept (met: ≤ 15 ms)", ok and small.wall <= 0.015)


def sets(report, args):
    base = Path(args.cache) / "gen" / "sets"
    log(f"generating {', '.join(label for _, label in SET_SIZES)} tools over 1,000 files "
        f"into {base} (bench/gen.py)...")
    gen.sets(base, sizes=SET_SIZES)
    commands = [(f"{label} tools", [args.bin, "lint", "--no-config", "--format", "json",
                                    str(base / label)]) for _, label in SET_SIZES]
    size = {label: sum(p.stat().st_size for p in (base / label).iterdir())
            for _, label in SET_SIZES}
    note = ("Generated tools (bench/gen.py: verb_noun names, two or three sentences, one to four "
            "described properties; ~490 bytes compact), 1,000 pretty-printed files per set: "
            + ", ".join(f"{label} {size[label] / MB:.0f} MB" for _, label in SET_SIZES) + ".")
    stats, ok = measure(report, "generated sets over 1,000 files", commands, args.heavy_runs, 0,
                        note)
    per_tool = {label: stats[f"{label} tools"].wall / count for count, label in SET_SIZES}
    first, last = SET_SIZES[0][1], SET_SIZES[-1][1]
    growth = per_tool[last] / per_tool[first]
    report.goal("10k / 50k / 200k tools in 1,000 files: time",
                " / ".join(seconds(stats[f"{label} tools"].wall) for _, label in SET_SIZES)
                + "; " + " / ".join(f"{per_tool[label] * 1e6:.0f}" for _, label in SET_SIZES)
                + f" µs per tool (200k/10k: **{growth:.2f}×**)",
                "linear (met: µs per tool at 200k ≤ 1.2× at 10k)", ok and growth <= 1.2)
    peak = stats[f"{last} tools"].rss_max
    report.goal("10k / 50k / 200k tools in 1,000 files: peak memory",
                " / ".join(f"{stats[f'{label} tools'].rss_max / MB:.0f}" for _, label in SET_SIZES)
                + f" MB (200k: **{peak / MB:.0f} MB**, {peak / (300 * MB):.1f}× the goal)",
                "200k: peak ≤ 300 MB", ok and peak <= 300 * MB)


def one_line(report, args):
    base = Path(args.cache) / "gen" / "line"
    gen.line(base)
    one, pretty = base / "oneline-10k.tools.json", base / "pretty-10k.tools.json"
    commands = [
        ("10k tools, pretty-printed", [args.bin, "lint", "--no-config", "--format", "json",
                                       str(pretty)]),
        ("10k tools, one minified line", [args.bin, "lint", "--no-config", "--format", "json",
                                          str(one)]),
    ]
    note = (f"The same 10,000 generated tools in one file: {one.stat().st_size / MB:.1f} MB on "
            f"one line, {pretty.stat().st_size / MB:.1f} MB pretty-printed.")
    stats, ok = measure(report, "10k tools on one line", commands, args.runs, 1, note)
    a, b = stats[commands[0][0]], stats[commands[1][0]]
    times = b.wall / a.wall
    report.goal("10k tools on one minified line vs pretty-printed",
                f"{seconds(b.wall)} vs {seconds(a.wall)}: {ratio_text(a, b)}; "
                f"peak {timing.peak(b.rss_max)} vs {timing.peak(a.rss_max)}",
                "≈ the same (met: ≤ 1.2×)", ok and times <= 1.2)


def stress(report, args):
    base = Path(args.cache) / "gen" / "stress"
    gen.stress(base)
    commands = [(f"{p.name} ({p.stat().st_size / MB:.1f} MB)",
                 [args.bin, "lint", "--no-config", "--format", "json", str(p)])
                for p in sorted(base.iterdir())]
    measure(report, "stress inputs (one run each)", commands, 1, 0,
            "bench/gen.py's stress inputs; no goal, for RELIABILITY.md and BENCHMARKS.md. "
            f"A run is killed after {STRESS_TIMEOUT} s.", timeout=STRESS_TIMEOUT)


def binary(report, args):
    size = Path(args.bin).stat().st_size
    report.goal("release binary", f"**{size / MB:.1f} MB** ({size:,} bytes)", "≤ 20 MB",
                size <= 20 * MB)


def build(report, args):
    if args.build_seconds is None:
        report.goal("first `pre-commit run` (clean build from source)",
                    "not measured (`bench/run.sh --build`)", "≤ 4 min", None)
    else:
        s = args.build_seconds
        report.goal("first `pre-commit run` (clean build from source)",
                    f"**{int(s // 60)} min {s % 60:.0f} s** (`cargo build --release --locked`, "
                    f"empty target directory, {os.cpu_count()} cores)", "≤ 4 min",
                    s <= 240)


def header(args, started, start_load):
    commit = output(["git", "rev-parse", "--short", "HEAD"])
    if output(["git", "status", "--porcelain", "--untracked-files=no"]):
        commit += " (with uncommitted changes)"
    cpu = ""
    try:
        for text in Path("/proc/cpuinfo").read_text().splitlines():
            if text.startswith("model name"):
                cpu = text.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        kib = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f", {kib / 2**20:.0f} GiB memory"
    except (OSError, ValueError, IndexError):
        pass
    return [
        "# toolcheck benchmark run (bench/run.sh)",
        "",
        f"- date: {started:%Y-%m-%dT%H:%MZ}, commit {commit}, {output(['rustc', '--version'])}",
        f"- machine: {os.cpu_count()} cores ({cpu or platform.machine()}){memory}; load average "
        f"{start_load} at the start, {load()} at the end (1, 5, 15 min)",
        f"- runs: {args.runs} interleaved rounds per group, {args.heavy_runs} for the peers and "
        "the generated sets, after one warm-up round (none for the sets)",
    ]


METHOD = """\
Method: no hyperfine, Python 3 only (bench/timing.py). The commands of a group run interleaved,
one child process each, in rounds whose order rotates, so that load from other processes falls
on all of them alike; wall time is the median of the rounds (min–max in the details), CPU time is
user + system and peak RSS is `ru_maxrss`, both from `os.wait4`. Ratios are ratios of medians;
"per round" is the median of the ratios within a round. Memory goals are judged on the highest
peak of the runs. Output goes to /dev/null; a lint exit code of 1 (findings) is expected."""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True)
    parser.add_argument("--floor", required=True)
    parser.add_argument("--corpora", required=True)
    parser.add_argument("--cache", required=True)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--heavy-runs", type=int, default=None)
    parser.add_argument("--tool-scan", default="")
    parser.add_argument("--spectral", default="")
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--build-seconds", type=float, default=None)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    if args.runs < 1:
        sys.exit("goals.py: --runs must be at least 1")
    if args.heavy_runs is None:
        args.heavy_runs = min(args.runs, 3)
    started, start_load = datetime.now(timezone.utc), load()
    begin = time.monotonic()
    report = Report()
    if args.no_peers:
        report.goal(f"{SERVER_TOOLS} real tools ({SERVERS} servers) vs tool-scan",
                    "not measured (--no-peers)", "≥ 10× faster", None)
    else:
        peers(report, args)
    corpus(report, args)
    cold(report, args)
    sets(report, args)
    one_line(report, args)
    binary(report, args)
    build(report, args)
    stress(report, args)
    lines = header(args, started, start_load)
    lines += ["", "## Issue 17 goals", "",
              "| measure | measured | goal | |", "|---|---|---|---|"]
    lines += [f"| {m} | {v} | {g} | {verdict} |" for m, v, g, verdict in report.goals]
    lines += ["", METHOD, "", "## Details"] + report.details
    lines += ["", f"Measured in {time.monotonic() - begin:.0f} s."]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.out:
        Path(args.out).write_text(text)


if __name__ == "__main__":
    main()
