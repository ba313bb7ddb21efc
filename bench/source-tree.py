#!/usr/bin/env python3
"""The source-discovery benchmark (docs/sources.md, BENCHMARKS.md): a tree of 5,000 TypeScript
(or, with --language python or go, Python or Go) files of which 20 register tools, linted whole. Writes the tree, then times `toolcheck lint` over
it (best and median of N runs, wall time) and checks that it found the 20 files' tools.

    python3 bench/source-tree.py [--runs N] [--registering N] [--language typescript|python|go]
                                 [--bin target/release/toolcheck]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time

ORDINARY = '''import {{ readFile }} from "node:fs/promises";
import type {{ Config }} from "../config{i}.js";

/** Loads the settings of module {i} and merges them with the defaults. */
export async function load{i}(path: string, defaults: Config): Promise<Config> {{
  const text = await readFile(path, "utf8");
  const parsed = JSON.parse(text) as Partial<Config>;
  const merged = {{ ...defaults, ...parsed }};
  if (merged.retries < 0 || merged.retries > 10) {{
    throw new Error(`retries must be between 0 and 10, not ${{merged.retries}}`);
  }}
  return merged;
}}

export class Cache{i}<K, V> {{
  private entries = new Map<K, {{ value: V; at: number }}>();
  constructor(private readonly ttl: number) {{}}
  get(key: K): V | undefined {{
    const entry = this.entries.get(key);
    if (!entry || Date.now() - entry.at > this.ttl) return undefined;
    return entry.value;
  }}
  set(key: K, value: V): void {{
    this.entries.set(key, {{ value, at: Date.now() }});
  }}
}}
'''

REGISTERS = '''import {{ McpServer }} from "@modelcontextprotocol/sdk/server/mcp.js";
import {{ z }} from "zod";

export function register{i}(server: McpServer) {{
  server.registerTool(
    "search_{i}",
    {{
      title: "Search collection {i}",
      description: "Search collection {i} by keyword. Use it when the user asks for records " +
        "of that collection. Not for editing records.",
      inputSchema: {{
        query: z.string().describe("The words to look for."),
        limit: z.number().int().min(1).max(50).default(10).describe("How many results."),
      }},
    }},
    async ({{ query }}) => ({{ content: [{{ type: "text", text: query }}] }}),
  );
}}
'''

PY_ORDINARY = '''"""Settings of module {i}, merged with the defaults."""

import json
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Config{i}:
    retries: int = 3
    hosts: list[str] = field(default_factory=list)


def load{i}(path: Path, defaults: Config{i}) -> Config{i}:
    """Loads the settings at `path` and merges them with `defaults`."""
    parsed = json.loads(path.read_text("utf8"))
    merged = {{**defaults.__dict__, **parsed}}
    if not 0 <= merged["retries"] <= 10:
        raise ValueError(f"retries must be between 0 and 10, not {{merged['retries']}}")
    return Config{i}(**merged)


class Cache{i}:
    def __init__(self, ttl: float) -> None:
        self.ttl = ttl
        self.entries: dict[str, tuple[object, float]] = {{}}

    def get(self, key: str) -> object | None:
        entry = self.entries.get(key)
        return entry[0] if entry else None
'''

PY_REGISTERS = '''from typing import Annotated

from mcp.server.fastmcp import FastMCP
from pydantic import Field

mcp = FastMCP("collection-{i}")


@mcp.tool(title="Search collection {i}")
def search_{i}(
    query: Annotated[str, Field(description="The words to look for.")],
    limit: Annotated[int, Field(ge=1, le=50, description="How many results.")] = 10,
) -> str:
    """Search collection {i} by keyword. Use it when the user asks for records of that
    collection. Not for editing records."""
    return query
'''

GO_ORDINARY = """// Package m{i} loads the settings of module {i} and merges them with the defaults.
package m{i}

import (
	"encoding/json"
	"fmt"
	"os"
)

// Config{i} is the settings of module {i}.
type Config{i} struct {{
	Retries int      `json:"retries"`
	Hosts   []string `json:"hosts"`
}}

// Load{i} reads the settings at path and merges them with defaults.
func Load{i}(path string, defaults Config{i}) (Config{i}, error) {{
	text, err := os.ReadFile(path)
	if err != nil {{
		return defaults, err
	}}
	merged := defaults
	if err := json.Unmarshal(text, &merged); err != nil {{
		return defaults, err
	}}
	if merged.Retries < 0 || merged.Retries > 10 {{
		return defaults, fmt.Errorf("retries must be between 0 and 10, not %d", merged.Retries)
	}}
	return merged, nil
}}
"""

GO_REGISTERS = """package m{i}

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type SearchInput{i} struct {{
	Query string `json:"query" jsonschema:"The words to look for."`
	Limit int    `json:"limit,omitempty" jsonschema:"How many results."`
}}

func search{i}(ctx context.Context, req *mcp.CallToolRequest, in SearchInput{i}) (*mcp.CallToolResult, any, error) {{
	return nil, nil, nil
}}

// Register{i} adds the search tool of collection {i}.
func Register{i}(server *mcp.Server) {{
	mcp.AddTool(server, &mcp.Tool{{
		Name:  "search_{i}",
		Title: "Search collection {i}",
		Description: "Search collection {i} by keyword. Use it when the user asks for records " +
			"of that collection. Not for editing records.",
	}}, search{i})
}}
"""


def write_tree(root, files=5000, registering=20, language="typescript"):
    step = files // registering
    python = language == "python"
    for i in range(files):
        directory = os.path.join(root, "src", f"m{i // 100:02d}")
        os.makedirs(directory, exist_ok=True)
        registers = i % step == 0
        if python:
            template, extension = (PY_REGISTERS if registers else PY_ORDINARY), "py"
        elif language == "go":
            template, extension = (GO_REGISTERS if registers else GO_ORDINARY), "go"
        else:
            template, extension = (REGISTERS if registers else ORDINARY), "ts"
        with open(os.path.join(directory, f"f{i:04d}.{extension}"), "w") as out:
            out.write(template.format(i=i))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "toolcheck"))
    parser.add_argument("--registering", type=int, default=20)
    parser.add_argument("--dir")
    parser.add_argument("--language", choices=["typescript", "python", "go"], default="typescript")
    args = parser.parse_args()
    root = args.dir or tempfile.mkdtemp(prefix="toolcheck-source-tree.")
    try:
        write_tree(root, registering=args.registering, language=args.language)
        command = [args.bin, "lint", "--no-config", "--format", "json", root]
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            done = subprocess.run(command, capture_output=True, text=True)
            times.append(time.perf_counter() - start)
            if done.returncode not in (0, 1):
                raise SystemExit(f"toolcheck failed ({done.returncode}): {done.stderr}")
        summary = json.loads(done.stdout)["summary"]
        extension = {"python": "py", "go": "go"}.get(args.language, "ts")
        print(f"5,000 .{extension} files, {args.registering} registering: {summary['files']} files linted, "
              f"{summary['tools']} tools; wall time best {min(times):.3f} s, "
              f"median {statistics.median(times):.3f} s over {args.runs} runs")
        if summary["files"] != args.registering or summary["tools"] != args.registering:
            raise SystemExit(f"expected {args.registering} files and tools")
    finally:
        if not args.dir:
            shutil.rmtree(root)


if __name__ == "__main__":
    main()
