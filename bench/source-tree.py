#!/usr/bin/env python3
"""The source-discovery benchmark (docs/sources.md, BENCHMARKS.md): a tree of 5,000 TypeScript
files of which 20 register tools, linted whole. Writes the tree, then times `toolcheck lint` over
it (best and median of N runs, wall time) and checks that it found the 20 files' tools.

    python3 bench/source-tree.py [--runs N] [--registering N] [--bin target/release/toolcheck]
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


def write_tree(root, files=5000, registering=20):
    step = files // registering
    for i in range(files):
        directory = os.path.join(root, "src", f"m{i // 100:02d}")
        os.makedirs(directory, exist_ok=True)
        template = REGISTERS if i % step == 0 else ORDINARY
        with open(os.path.join(directory, f"f{i:04d}.ts"), "w") as out:
            out.write(template.format(i=i))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "toolcheck"))
    parser.add_argument("--registering", type=int, default=20)
    parser.add_argument("--dir")
    args = parser.parse_args()
    root = args.dir or tempfile.mkdtemp(prefix="toolcheck-source-tree.")
    try:
        write_tree(root, registering=args.registering)
        command = [args.bin, "lint", "--no-config", "--format", "json", root]
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            done = subprocess.run(command, capture_output=True, text=True)
            times.append(time.perf_counter() - start)
            if done.returncode not in (0, 1):
                raise SystemExit(f"toolcheck failed ({done.returncode}): {done.stderr}")
        summary = json.loads(done.stdout)["summary"]
        print(f"5,000 .ts files, {args.registering} registering: {summary['files']} files linted, "
              f"{summary['tools']} tools; wall time best {min(times):.3f} s, "
              f"median {statistics.median(times):.3f} s over {args.runs} runs")
        if summary["files"] != args.registering or summary["tools"] != args.registering:
            raise SystemExit(f"expected {args.registering} files and tools")
    finally:
        if not args.dir:
            shutil.rmtree(root)


if __name__ == "__main__":
    main()
