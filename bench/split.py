#!/usr/bin/env python3
"""Splits tool-set files into one MCP-shaped tool object per file (name, description,
inputSchema, and snippet/guidelines when the source has them), for peers that read one tool
per file (tool-scan) and so that every tool runs through the same files.

  split.py OUT_DIR FILE...
"""
import json
import sys
from pathlib import Path

SCHEMA_KEYS = ("input_schema", "inputSchema", "parameters", "parametersJsonSchema", "schema")


def tools(root):
    if isinstance(root, dict) and "jsonrpc" in root and "result" in root:
        root = root["result"]
    if isinstance(root, list):
        items = root
    elif isinstance(root, dict) and isinstance(root.get("tools"), list):
        items = []
        for item in root["tools"]:
            if isinstance(item, dict) and isinstance(item.get("functionDeclarations"), list):
                items.extend(item["functionDeclarations"])
            else:
                items.append(item)
    elif isinstance(root, dict) and isinstance(root.get("functionDeclarations"), list):
        items = root["functionDeclarations"]
    else:
        items = [root]
    for item in items:
        if isinstance(item, dict) and isinstance(item.get("function"), dict):
            item = item["function"]
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            continue
        kind = item.get("type")
        if kind not in (None, "function") and not any(k in item for k in SCHEMA_KEYS):
            continue  # a provider built-in without a schema, skipped as toolcheck skips it
        yield item


def write(out, paths):
    """Writes the tools of `paths` into `out` as 00001.tool.json, ...; returns how many."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for path in paths:
        try:
            root = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for tool in tools(root):
            mcp = {"name": tool["name"], "description": tool.get("description") or ""}
            schema = next((tool[k] for k in SCHEMA_KEYS if isinstance(tool.get(k), dict)), None)
            mcp["inputSchema"] = schema if schema is not None else {"type": "object"}
            for key, alias in (("snippet", "promptSnippet"), ("guidelines", "promptGuidelines")):
                value = tool.get(key, tool.get(alias))
                if value is not None:
                    mcp[key] = value
            count += 1
            (out / f"{count:05d}.tool.json").write_text(json.dumps(mcp, ensure_ascii=False))
    return count


def main():
    print(write(sys.argv[1], sys.argv[2:]))


if __name__ == "__main__":
    main()
