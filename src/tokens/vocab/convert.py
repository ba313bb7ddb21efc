#!/usr/bin/env python3
"""Converts a tiktoken vocabulary (`<name>.tiktoken`: one `base64-token rank` per line) into
`<name>.tokens`, the form build.rs reads: every token in rank order, each as one length byte
and then its bytes. Checks the file's SHA-256 against tiktoken's, that ranks run 0..n without
gaps, and that no token is longer than 255 bytes.

    python3 src/tokens/vocab/convert.py path/to/o200k_base.tiktoken path/to/cl100k_base.tiktoken

The `.tiktoken` files ship in the tiktoken-rs crate (`assets/`) and at
https://openaipublic.blob.core.windows.net/encodings/<name>.tiktoken.
"""

import base64
import hashlib
import os
import sys

# The hashes tiktoken checks (tiktoken_ext/openai_public.py).
SHA256 = {
    "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
}


def convert(path):
    name = os.path.basename(path).removesuffix(".tiktoken")
    data = open(path, "rb").read()
    digest = hashlib.sha256(data).hexdigest()
    if SHA256.get(name) != digest:
        sys.exit(f"{path}: SHA-256 {digest} is not tiktoken's {name}")
    tokens = {}
    for line in data.splitlines():
        if not line:
            continue
        token, rank = line.split()
        tokens[int(rank)] = base64.b64decode(token)
    if sorted(tokens) != list(range(len(tokens))):
        sys.exit(f"{path}: ranks are not 0..{len(tokens)}")
    out = bytearray()
    for rank in range(len(tokens)):
        token = tokens[rank]
        if not 0 < len(token) < 256:
            sys.exit(f"{path}: token {rank} is {len(token)} bytes")
        out.append(len(token))
        out += token
    target = os.path.join(os.path.dirname(os.path.abspath(__file__)), name + ".tokens")
    open(target, "wb").write(out)
    print(f"{target}: {len(tokens)} tokens, {len(out)} bytes")


for arg in sys.argv[1:]:
    convert(arg)
