#!/usr/bin/env bash
# Install-to-first-lint time of each prebuilt channel (BENCHMARKS.md), from the packages
# scripts/build-dist.sh put in dist/: the seconds from an empty directory to the end of the first
# `toolcheck lint fixtures/examples`, three runs each, offline where the channel allows.
#   bash bench/install.sh          (after scripts/build-dist.sh; uv from PyPI for `uvx`)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
dist="${DIST:-$repo/dist}"
work="$(mktemp -d "${TMPDIR:-/tmp}/toolcheck-install.XXXXXX")"
trap 'rm -rf "$work"' EXIT
wheel="$(ls "$dist"/python/toolcheck-*.whl | head -n 1)"
archive="$(ls "$dist"/toolcheck-*.tar.gz | head -n 1)"
python3 -m venv "$work/uv" && "$work/uv/bin/pip" install --quiet --disable-pip-version-check uv
lint() { "$@" lint --output-format concise "$repo/fixtures/examples" >/dev/null || [ $? -eq 1 ]; }

channel() {
    local name="$1" install="$2"
    for run in 1 2 3; do
        rm -rf "$work/run" && mkdir "$work/run" && cd "$work/run"
        local start=$(date +%s%N)
        eval "$install"
        local ms=$((($(date +%s%N) - start) / 1000000))
        printf '%-34s run %d: %5d ms\n' "$name" "$run" "$ms"
    done
}
channel "pip install wheel (venv, offline)" \
    'python3 -m venv v && PIP_NO_INDEX=1 v/bin/pip install -q --disable-pip-version-check "$wheel" && lint v/bin/toolcheck'
channel "uvx --from wheel (offline)" \
    'UV_CACHE_DIR=$work/run/cache UV_OFFLINE=1 lint "$work/uv/bin/uvx" --from "$wheel" toolcheck'
channel "npm install tarballs (offline)" \
    'npm install --offline --cache $work/run/cache --no-audit --no-fund --silent "$dist"/npm/*.tgz && lint npx --offline toolcheck'
channel "release archive (tar + sha256sum)" \
    '(cd "$(dirname "$archive")" && sha256sum -c --quiet "$archive.sha256") && tar xzf "$archive" && lint ./toolcheck-*/toolcheck'
