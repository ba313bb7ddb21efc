#!/usr/bin/env python3
"""A minimal MCP server over stdio that serves a static tools/list from a file, so that peers
that only read live servers (lap-score) can run offline on corpus files.

  mcp_stub.py TOOLS_FILE   (any tool-set shape bench/split.py reads)
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from split import SCHEMA_KEYS, tools  # noqa: E402


def main():
    root = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    listed = []
    for tool in tools(root):
        schema = next((tool[k] for k in SCHEMA_KEYS if isinstance(tool.get(k), dict)), None)
        schema = dict(schema or {})
        # MCP clients insist on a root `type: object`; BFCL writes `dict`.
        schema["type"] = "object"
        listed.append({"name": tool["name"], "description": tool.get("description") or "",
                       "inputSchema": schema})
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if "id" not in message:
            continue  # a notification
        method = message.get("method")
        if method == "initialize":
            result = {"protocolVersion": message.get("params", {}).get("protocolVersion", "2025-06-18"),
                      "capabilities": {"tools": {}},
                      "serverInfo": {"name": "toolcheck-bench-stub", "version": "0"}}
        elif method == "tools/list":
            result = {"tools": listed}
        else:
            result = {}
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
