#!/usr/bin/env python3
"""Captures what an MCP server lists, as the corpora's listings were captured (SOURCES.md):
starts COMMAND over stdio, sends `initialize` (protocol 2025-06-18),
`notifications/initialized` and every page of `tools/list`, and prints
`{"tools": [...]}` (with `instructions` when the server gave some) exactly as sent.

    python3 bench/capture-listing.py [--env NAME=VALUE ...] -- COMMAND [ARG ...]

Used for the Python servers of docs/sources.md that ../shared/corpora lacks; their listings
are kept in bench/listings/.
"""

import json
import os
import subprocess
import sys
import threading


def main() -> int:
    args = sys.argv[1:]
    env = dict(os.environ)
    while args and args[0] == "--env":
        name, _, value = args[1].partition("=")
        env[name] = value
        args = args[2:]
    if not args or args[0] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    server = subprocess.Popen(
        args[1:],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    # A server that never answers must not hang the capture.
    timer = threading.Timer(120, server.kill)
    timer.start()
    try:
        return capture(server)
    finally:
        timer.cancel()
        server.kill()


def capture(server: subprocess.Popen) -> int:
    def send(message: dict) -> None:
        server.stdin.write((json.dumps(message) + "\n").encode())
        server.stdin.flush()

    def answer(request_id: int) -> dict:
        for line in server.stdout:
            try:
                message = json.loads(line)
            except json.JSONDecodeError:
                continue  # a log line on stdout
            if message.get("id") == request_id:
                if "error" in message:
                    raise SystemExit(f"error: {message['error']}")
                return message["result"]
        raise SystemExit("error: the server closed before it answered")

    send(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "toolcheck-capture", "version": "1"},
            },
        }
    )
    initialized = answer(1)
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    tools, cursor, request_id = [], None, 2
    while True:
        params = {"cursor": cursor} if cursor else {}
        send({"jsonrpc": "2.0", "id": request_id, "method": "tools/list", "params": params})
        page = answer(request_id)
        tools.extend(page.get("tools", []))
        cursor = page.get("nextCursor")
        request_id += 1
        if not cursor:
            break
    listing = {"tools": tools}
    if initialized.get("instructions"):
        listing["instructions"] = initialized["instructions"]
    print(json.dumps(listing, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
