#!/usr/bin/env bash
# Proves the pre-commit hook with the real pre-commit: in a throwaway git repo, a manifest
# with an absolute word must fail the hook with TC209, and the fixed manifest must pass. Then,
# as the README's snippet is used (`rev:` a commit SHA of this repository, its HEAD): a commit
# of one staged file of a baselined project passes with `--max-warnings 0`, and in a TypeScript
# server's repository a commit that makes a description say ALWAYS is blocked, the finding at
# that line of the `.ts` file.
#
# This is the hook that builds from source; scripts/dist-check.sh proves the prebuilt one.
# `pre-commit try-repo` clones this repository (committed files, plus tracked and staged
# changes through a temporary commit; untracked files are not seen) and builds toolcheck
# with `cargo install`, which takes minutes. pre-commit itself is installed into a venv here.
#
# Exit 0: passed, or skipped because Python's venv or PyPI is unavailable (says so).
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/toolcheck-pre-commit.XXXXXX")"
trap 'rm -rf "$work"' EXIT

skip() {
    echo "pre-commit check skipped: $1"
    exit 0
}

command -v python3 >/dev/null || skip "python3 not found"
python3 -m venv "$work/venv" >/dev/null 2>&1 || skip "python3 cannot create a venv"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check pre-commit \
    >"$work/pip.log" 2>&1 || { cat "$work/pip.log"; skip "cannot install pre-commit from PyPI"; }
pre_commit="$work/venv/bin/pre-commit"
echo "using $("$pre_commit" --version)"

# Keep pre-commit's cache inside the throwaway directory. try-repo builds the hook in a new
# temporary store each time; the repository's own target directory lets both builds reuse the
# release build of scripts/build-dist.sh (.ci/run runs it first): what a clean build costs a
# user is in BENCHMARKS.md, and the prebuilt hook (scripts/dist-check.sh) is the one to use.
export PRE_COMMIT_HOME="$work/cache"
export CARGO_TARGET_DIR="$repo/target"

project="$work/project"
mkdir -p "$project/tools"
cd "$project"
git init --quiet
git config user.email "check@example.invalid"
git config user.name "pre-commit check"
cp "$repo/scripts/flawed-manifest.yaml" tools/weather.tool.yaml
# Not a manifest: the hook's `files:` pattern must keep it away from toolcheck.
echo '{"name": "not-a-manifest", "version": "1.0.0"}' >package.json
git add .

echo "--- pre-commit try-repo (builds toolcheck; slow the first time)"
start=$SECONDS
status=0
"$pre_commit" try-repo "$repo" toolcheck --all-files --color never >"$work/fail.log" 2>&1 || status=$?
echo "first run (with the build) took $((SECONDS - start)) s"
cat "$work/fail.log"
if [ "$status" -eq 0 ]; then
    echo "FAIL: the hook passed on a manifest with an absolute word"
    exit 1
fi
grep -q "TC209 absolute-words" "$work/fail.log" || { echo "FAIL: no TC209 in the hook's output"; exit 1; }
if grep -q "package.json" "$work/fail.log"; then
    echo "FAIL: the hook linted package.json"
    exit 1
fi

sed -i 's/ Always answer in Celsius\./ It answers in Celsius./' tools/weather.tool.yaml
git add .
echo "--- after the fix"
start=$SECONDS
"$pre_commit" try-repo "$repo" toolcheck --all-files --color never >"$work/pass.log" 2>&1 || {
    cat "$work/pass.log"
    echo "FAIL: the hook failed on the fixed manifest"
    exit 1
}
echo "second run took $((SECONDS - start)) s"
cat "$work/pass.log"
grep -q "Passed" "$work/pass.log" || { echo "FAIL: pre-commit did not report Passed"; exit 1; }

echo "--- one staged file of a baselined project, --max-warnings 0, rev: HEAD's SHA"
# HEAD, not the work tree: run on a clean clone (as .ci/run is) to check uncommitted changes.
sha="$(git -C "$repo" rev-parse HEAD)"
baselined="$work/baselined"
mkdir -p "$baselined/tools"
cd "$baselined"
git init --quiet
git config user.email "check@example.invalid"
git config user.name "pre-commit check"
for name in deploy restart; do
    cat >"tools/$name.tool.yaml" <<YAML
name: ${name}_service
description: Always ${name} the staging service first. Not for production.
YAML
done
cat >.pre-commit-config.yaml <<YAML
repos:
  - repo: $repo
    rev: $sha
    hooks:
      - id: toolcheck
        args: [--max-warnings, "0"]
YAML
echo "baseline: toolcheck-baseline.json" >toolcheck.yaml
"$CARGO_TARGET_DIR/release/toolcheck" lint --write-baseline toolcheck-baseline.json
git add . && git commit --quiet -m "baselined"
# An edit to one file that keeps its recorded finding; only that file is staged.
sed -i 's/ Not for production\./ Not for production hosts./' tools/deploy.tool.yaml
git add tools/deploy.tool.yaml
"$pre_commit" run --color never >"$work/staged.log" 2>&1 || {
    cat "$work/staged.log"
    echo "FAIL: the hook failed on one staged file whose findings the baseline records"
    exit 1
}
cat "$work/staged.log"
grep -q "Passed" "$work/staged.log" || { echo "FAIL: pre-commit did not report Passed"; exit 1; }

echo "--- a TypeScript server: a description made to say ALWAYS blocks the commit, at its line"
# The same hook environment as above (this repository at HEAD's SHA): nothing is built again.
server="$work/ts-server"
mkdir -p "$server/src"
cd "$server"
git init --quiet
git config user.email "check@example.invalid"
git config user.name "pre-commit check"
cat >src/server.ts <<'TS'
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

const server = new McpServer({ name: "docs", version: "1.0.0" });

server.registerTool(
  "search_docs",
  {
    description: "Search the manual. Use it when you need a page of it. Not for code.",
    inputSchema: { query: z.string().describe("The words to look for.") },
  },
  async ({ query }) => ({ content: [{ type: "text", text: query }] }),
);
TS
echo 'export const answer = 42;' >src/util.ts
echo '{"name": "docs-server", "version": "1.0.0"}' >package.json
sed "s/rev: .*/rev: $sha/" "$baselined/.pre-commit-config.yaml" | sed '/args:/d' >.pre-commit-config.yaml
"$pre_commit" install --install-hooks >/dev/null
git add . && git commit --quiet -m "a clean server" || { echo "FAIL: the hook blocked a clean server"; exit 1; }
sed -i 's/description: "Search the manual\./description: "This tool will ALWAYS search the manual./' src/server.ts
git add src/server.ts
if git commit -m "emphasis" >"$work/ts.log" 2>&1; then
    cat "$work/ts.log"
    echo "FAIL: the commit of a description with ALWAYS went through"
    exit 1
fi
cat "$work/ts.log"
grep -q "src/server.ts:9:" "$work/ts.log" || { echo "FAIL: the finding does not point at line 9 of src/server.ts"; exit 1; }
grep -q "TC209 absolute-words" "$work/ts.log" || { echo "FAIL: no TC209 in the hook's output"; exit 1; }
echo "pre-commit check passed"
