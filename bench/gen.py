#!/usr/bin/env python3
"""Generates the stress inputs for bench/run.sh into a directory (default bench/.cache/stress).

  big.tools.json      ~5 MB MCP tools/list: 2,500 tools with long descriptions and schemas
  many.tools.json     a set of 200,000 small tools
  deep.tool.json      an input schema nested 10,000 levels deep
  longdesc.tool.yaml  one tool with a 1 MB English-like description
  aaaa.tool.yaml      one tool with a 1 MB description of a single repeated letter

Deterministic (fixed seed); nothing here is committed.
"""
import json
import random
import sys
from pathlib import Path

WORDS = ("search the product manual by keyword and return ten best matching pages "
         "when user asks how feature works not for source code questions call "
         "with query string limit integer results sorted relevance date").split()


def sentence(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def tool(rng, i, desc_words, props):
    return {
        "name": f"tool_{i}",
        "description": " ".join(sentence(rng, 12) for _ in range(desc_words // 12)),
        "inputSchema": {
            "type": "object",
            "properties": {
                f"p{j}": {"type": "string", "description": sentence(rng, 8)}
                for j in range(props)
            },
            "required": ["p0"] if props else [],
        },
    }


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent / ".cache" / "stress")
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(7)

    big = {"tools": [tool(rng, i, 120, 12) for i in range(2500)]}
    (out / "big.tools.json").write_text(json.dumps(big, indent=1))

    many = {"tools": [{"name": f"t{i}", "description": "Ping the server. Not for data.",
                       "inputSchema": {"type": "object"}} for i in range(200_000)]}
    (out / "many.tools.json").write_text(json.dumps(many))

    depth = 10_000
    deep = '{"name": "deep", "description": "Deep schema.", "inputSchema": '
    deep += '{"type": "object", "properties": {"x": ' * depth + '{"type": "string"}' + "}}" * depth + "}"
    (out / "deep.tool.json").write_text(deep)

    words = []
    size = 0
    while size < 1_000_000:
        w = rng.choice(WORDS)
        words.append(w)
        size += len(w) + 1
    (out / "longdesc.tool.yaml").write_text(
        "name: long\ndescription: " + json.dumps(" ".join(words)) + "\n")
    (out / "aaaa.tool.yaml").write_text("name: aaaa\ndescription: " + "a" * 1_000_000 + "\n")
    for path in sorted(out.iterdir()):
        print(f"{path}  {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
