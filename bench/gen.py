#!/usr/bin/env python3
"""Generates the inputs of bench/run.sh into a directory (default bench/.cache/gen).

  stress/  big.tools.json      ~5 MB MCP tools/list: 2,500 tools with long descriptions and schemas
           many.tools.json     a set of 200,000 small tools in one file
           deep.tool.json      an input schema nested 10,000 levels deep
           longdesc.tool.yaml  one tool with a 1 MB English-like description
           aaaa.tool.yaml      one tool with a 1 MB description of a single repeated letter
  sets/    10k/ 50k/ 200k/     10,000, 50,000 and 200,000 tools spread over 1,000 files each
                               ({"tools": [...]}, pretty-printed like a tools/list capture)
  line/    oneline-10k.tools.json  10,000 tools on one minified line
           pretty-10k.tools.json   the same 10,000 tools pretty-printed (indent 2)

The tools of sets/ and line/ look like real ones (verb_noun names, a description of two or
three sentences, one to four described properties with types, enums, bounds and `required`),
about 500 bytes each, compact. Names are unique within a file.

  gen.py [OUT] [--stress] [--sets] [--line]    (no flag: all three)

Deterministic (fixed seeds); nothing here is committed.
"""
import argparse
import json
import random
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


def stress(out):
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


# Realistic tools: verb × qualifier × noun names (16 × 30 × 24 = 11,520 distinct names).
VERBS = ("search", "get", "list", "create", "update", "delete", "archive", "export",
         "import", "describe", "count", "assign", "close", "reopen", "move", "share")
QUALIFIERS = ("", "team", "project", "draft", "archived", "recent", "shared", "pinned",
              "starred", "public", "private", "workspace", "org", "user", "default",
              "scheduled", "open", "closed", "external", "internal", "billing", "audit",
              "pending", "linked", "child", "parent", "remote", "local", "cached", "custom")
NOUNS = ("issue", "pull_request", "file", "page", "document", "user", "project", "comment",
         "branch", "record", "table", "event", "message", "channel", "invoice", "customer",
         "ticket", "dashboard", "bucket", "label", "milestone", "webhook", "deployment", "report")
NAMES = [f"{verb}_{qualifier}_{noun}" if qualifier else f"{verb}_{noun}"
         for verb in VERBS for qualifier in QUALIFIERS for noun in NOUNS]

FIRST = {
    "search": "Search {q}{ns} by keyword and return the best matches, newest first.",
    "get": "Get one {q}{n} by its ID, with all of its fields.",
    "list": "List {q}{ns} in the workspace, {size} per page.",
    "create": "Create a {q}{n} with the given fields and return its ID.",
    "update": "Update the fields of an existing {q}{n}; fields left out keep their value.",
    "delete": "Delete a {q}{n} permanently. This cannot be undone.",
    "archive": "Archive a {q}{n} so that it no longer shows in lists.",
    "export": "Export {q}{ns} as CSV or JSON for a date range.",
    "import": "Import {q}{ns} from a CSV or JSON file that the user uploaded.",
    "describe": "Describe the fields and permissions of a {q}{n}.",
    "count": "Count {q}{ns} that match a filter, without returning them.",
    "assign": "Assign a {q}{n} to a user or a team.",
    "close": "Close a {q}{n}; closed items stay searchable.",
    "reopen": "Reopen a closed {q}{n}.",
    "move": "Move a {q}{n} to another project or folder.",
    "share": "Share a {q}{n} with a user, a team or a public link.",
}
LATER = (
    "Use it when the user names a {n} or asks about one.",
    "Not for {other}s: use the {other} tools for those.",
    "Returns at most {size} results; pass the cursor from the last call for more.",
    "Requires write access to the project.",
    "Results include the ID, title, state, owner and last update time.",
    "Times are ISO 8601 in UTC.",
    "Prefer the search tool when the ID is not known.",
)
PROPERTIES = (
    ("query", {"type": "string", "description": "Words to search for, e.g. 'login bug'."}),
    ("id", {"type": "string", "description": "The ID of the {n}, as returned by search."}),
    ("limit", {"type": "integer", "minimum": 1, "maximum": 100, "default": 20,
               "description": "Maximum number of results."}),
    ("cursor", {"type": "string",
                "description": "Cursor from a previous call, for the next page."}),
    ("state", {"type": "string", "enum": ["open", "closed", "all"], "default": "open",
               "description": "Which {ns} to include."}),
    ("project", {"type": "string", "description": "Project key, e.g. 'WEB'."}),
    ("since", {"type": "string", "format": "date-time",
               "description": "Only {ns} changed after this time."}),
    ("include_archived", {"type": "boolean", "default": False,
                          "description": "Also return archived {ns}."}),
)


def real_tool(rng, name):
    verb, noun = name.split("_", 1)[0], name.rsplit("_", 1)[-1]
    noun = "pull request" if name.endswith("pull_request") else noun
    qualifier = name[len(verb) + 1:-len(noun.replace(" ", "_"))].replace("_", " ")
    words = {"n": noun, "ns": noun + "s", "q": qualifier, "size": rng.choice((20, 50, 100)),
             "other": rng.choice([other for other in NOUNS if other != noun]).replace("_", " ")}
    sentences = [FIRST[verb]] + rng.sample(LATER, rng.randint(1, 2))
    description = " ".join(sentences).format(**words)
    chosen = rng.sample(PROPERTIES, rng.randint(1, 4))
    properties = {}
    for key, spec in chosen:
        spec = dict(spec)
        spec["description"] = spec["description"].format(**words)
        properties[key] = spec
    return {
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": properties, "required": [chosen[0][0]]},
    }


def tool_list(rng, count):
    """`count` tools with distinct names (count <= len(NAMES))."""
    return [real_tool(rng, name) for name in rng.sample(NAMES, count)]


def sets(out, files=1000, sizes=((10_000, "10k"), (50_000, "50k"), (200_000, "200k"))):
    for total, label in sizes:
        directory = out / label
        directory.mkdir(parents=True, exist_ok=True)
        for stale in directory.glob("*.tools.json"):
            stale.unlink()
        rng = random.Random(total)
        per_file, extra = divmod(total, files)
        for index in range(files):
            tools = tool_list(rng, per_file + (index < extra))
            (directory / f"{index:04d}.tools.json").write_text(
                json.dumps({"tools": tools}, indent=2))


def line(out, count=10_000):
    out.mkdir(parents=True, exist_ok=True)
    tools = {"tools": tool_list(random.Random(10), count)}
    (out / "oneline-10k.tools.json").write_text(json.dumps(tools, separators=(",", ":")))
    (out / "pretty-10k.tools.json").write_text(json.dumps(tools, indent=2) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", nargs="?", default=Path(__file__).parent / ".cache" / "gen",
                        type=Path)
    parser.add_argument("--stress", action="store_true")
    parser.add_argument("--sets", action="store_true")
    parser.add_argument("--line", action="store_true")
    args = parser.parse_args()
    every = not (args.stress or args.sets or args.line)
    if every or args.stress:
        stress(args.out / "stress")
    if every or args.sets:
        sets(args.out / "sets")
    if every or args.line:
        line(args.out / "line")
    for path in sorted(args.out.rglob("*")):
        if path.is_dir():
            files = [p for p in path.iterdir() if p.is_file()]
            print(f"{path}  {len(files)} files, {sum(p.stat().st_size for p in files):,} bytes")


if __name__ == "__main__":
    main()
