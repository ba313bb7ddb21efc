#!/usr/bin/env python3
"""Writes the hostile inputs measured in RELIABILITY.md into a directory (default
bench/.cache/hostile); bench/hostile.sh lints each one. Deterministic; nothing here is committed.

  always-1mb.json         one 1 MB description with 35,000 `always` (TC209)
  folded-1mb.yaml         a 1 MB folded (`>`) YAML description with an `always` every 82 bytes
  folded-20mb.yaml        the same, 20 MB
  laughs.yaml             a "billion laughs" of 1 KiB strings (11 KB)
  aliased-keys.yaml       a 64 KiB key aliased as 10,000 keys of one mapping (146 KB)
  tool-aliased.yaml       a 2 MB tool aliased 990 times
  properties-100k.json    100,000 properties of `type: dict` (TC407), 2.8 MB on one line
  spaces.json             65,536 spaces, then `!`
  wide-always.json        a description of 65,520 `x`, then ` always`
  firecrawl-oneline.json  firecrawl-mcp's tools/list on one line (needs ../shared/corpora)
  many-findings.json      12,000 tools on one line (2.7 MB), 108,002 findings
  deep-keys.yaml          250 keys of 8 KiB, each inside the one before (2 MB), no alias
  deep-keys.json          the same in JSON
  deep-tool.json          a tool whose schema nests 125 properties of 16 KiB names (2 MB)
  letters-2mb.json        a description of 2,000,000 random letters: one pre-token (issue 30)
  letters-30mb.json       the same, 30,000,000 letters
  tools-100k.json         100,000 small tools (issue 30)
  tools-100k.yaml         the same, as block YAML
  tools-100k-b.json       the same tools, each description reworded: `diff` against tools-100k.json
  sentence-20mb.json      a 20 MB description without a sentence end (issue 30)
  config-unknown-94k/     a toolcheck.yaml selecting 94,000 unknown rules, and one tool
  config-include-50k/     a toolcheck.yaml with 50,000 include globs
  config-pfi-50k/         a toolcheck.yaml with 50,000 per-file-ignores
  config-words-100k/      a toolcheck.yaml giving absolute-words 100,000 words
"""
import random
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "bench" / ".cache" / "hostile"
CORPORA = Path(os.environ.get("CORPORA", ROOT.parent / "shared" / "corpora"))


def write(name, text):
    (OUT / name).write_text(text, encoding="utf-8")


def tool(description):
    return {"name": "search_docs", "description": description,
            "inputSchema": {"type": "object", "properties": {}}}


def folded(size):
    words = ("Search the documentation, and always cite the most relevant pages for the user. "
             * (size // 82)).split(" ")
    lines, line = [], ""
    for word in words:
        if line and len(line) + len(word) + 1 > 80:
            lines.append("    " + line)
            line = ""
        line = f"{line} {word}" if line else word
    lines.append("    " + line)
    return ("name: search_docs\ndescription: >\n" + "\n".join(lines)
            + "\ninputSchema:\n  type: object\n  properties: {}\n")


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    write("always-1mb.json", json.dumps(tool("Search pages and always cite. " * 35_000)))
    write("folded-1mb.yaml", folded(1_000_000))
    write("folded-20mb.yaml", folded(20_000_000))

    text = "a0: &a0 " + "x" * 1024 + "\n"
    text += "a1: &a1 [" + ", ".join(["*a0"] * 1000) + "]\n"
    text += "a2: &a2 [" + ", ".join(["*a1"] * 997) + "]\n"
    write("laughs.yaml", text)

    text = "k: &k " + "k" * (1 << 16) + "\n"
    text += "m: {" + ", ".join(["*k : 1"] * 10_000) + "}\n"
    write("aliased-keys.yaml", text)

    long = "y" * 4000
    text = ("tools:\n  - &t\n    name: t\n    description: " + long
            + "\n    inputSchema:\n      type: object\n      properties:\n")
    text += "".join(f"        p{i}:\n          description: {long}\n" for i in range(500))
    text += "  - *t\n" * 990
    write("tool-aliased.yaml", text)

    properties = {f"p{i}": {"type": "dict"} for i in range(100_000)}
    write("properties-100k.json", json.dumps({
        "name": "t", "description": "d",
        "inputSchema": {"type": "object", "properties": properties}}))

    write("spaces.json", " " * 65_536 + "!")
    write("wide-always.json", json.dumps(tool("x" * 65_520 + " always")))

    firecrawl = CORPORA / "mcp" / "firecrawl-mcp.json"
    if firecrawl.exists():
        data = json.loads(firecrawl.read_text(encoding="utf-8"))
        write("firecrawl-oneline.json", json.dumps(data, separators=(",", ":"), ensure_ascii=False))

    tools = [{"name": f"tool_{i}", "description": f"Fetch item {i}. " + "You must retry. " * 8,
              "inputSchema": {"type": "object"}} for i in range(12_000)]
    write("many-findings.json", json.dumps({"tools": tools}))

    key = "k" * 8192
    write("deep-keys.yaml", "m: " + ("{" + key + ": ") * 250 + "1" + "}" * 250 + "\n")
    write("deep-keys.json", '{"m": ' + ('{"' + key + '": ') * 250 + "1" + "}" * 250 + "}\n")

    schema = {"type": "dict"}
    for level in reversed(range(125)):
        name = f"p{level:03d}" + "k" * (16 * 1024 - 4)
        schema = {"type": "object", "properties": {name: schema}}
    write("deep-tool.json", json.dumps({
        "name": "deep", "description": "Find pages. Not for writes.", "inputSchema": schema}))

    letters = random.Random(1)
    for name, size in (("letters-2mb.json", 2_000_000), ("letters-30mb.json", 30_000_000)):
        text = "".join(letters.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(size))
        write(name, json.dumps(tool(text)))
    for name, description in (("tools-100k.json", "Find a page. Not for writes."),
                              ("tools-100k-b.json", "Find one page. Not for writes.")):
        write(name, json.dumps({"tools": [
            {"name": f"tool_{i}", "description": description,
             "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}
            for i in range(100_000)]}))
    write("tools-100k.yaml", "tools:\n" + "".join(
        f"  - name: tool_{i}\n    description: Find a page. Not for writes.\n"
        "    inputSchema:\n      type: object\n      properties:\n"
        "        q:\n          type: string\n"
        for i in range(100_000)))
    write("sentence-20mb.json", json.dumps(tool("word, " * 3_333_333)))
    manifest = "name: a\ndescription: Add numbers. Not for text.\n"
    configs = {
        "config-unknown-94k": "rules:\n  select: [" + ", ".join(
            f"NOPE{i}" for i in range(94_000)) + "]\n",
        "config-include-50k": "include: [" + ", ".join(
            f"dir{i}/**/*.tool.yaml" for i in range(50_000)) + ', "*.tool.yaml"]\n',
        "config-pfi-50k": "rules:\n  per-file-ignores:\n" + "".join(
            f'    "dir{i}/*.yaml": [TC209]\n' for i in range(50_000)),
        "config-words-100k": "rules:\n  options:\n    absolute-words: { words: [" + ", ".join(
            f"word{i}" for i in range(100_000)) + "] }\n",
    }
    for name, config in configs.items():
        (OUT / name).mkdir(exist_ok=True)
        write(f"{name}/toolcheck.yaml", config)
        write(f"{name}/a.tool.yaml", manifest)


main()
