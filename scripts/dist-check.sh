#!/usr/bin/env bash
# Proves the prebuilt channels for this machine's platform, as a user meets them:
#   1. scripts/build-dist.sh builds the wheel, the npm tarballs and the archive into dist/;
#   2. a fresh venv installs the wheel with no network (a network namespace where one can be
#      made, and no index); `toolcheck --version` and a lint of fixtures/examples run;
#   3. an empty directory installs the npm tarballs the same way, with an empty cache; `npx
#      toolcheck` runs the same lint;
#   4. the pre-commit hook repository (scripts/pre-commit-mirror.sh) installs the wheel through
#      PIP_FIND_LINKS: the first `pre-commit run --all-files` blocks a flawed manifest, the second
#      reuses the environment. Both times are printed (BENCHMARKS.md has the measured figures).
# maturin and pre-commit come from PyPI into a venv here. Exit 0: passed, or skipped with a
# message when python3's venv, PyPI or npm is unavailable.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/toolcheck-dist.XXXXXX")"
trap 'rm -rf "$work"' EXIT

skip() {
    echo "dist check skipped: $1"
    exit 0
}
fail() {
    echo "FAIL: $1"
    exit 1
}
# Seconds since $1 (a `date +%s%N` reading), with two decimals.
elapsed() {
    local ns=$(($(date +%s%N) - $1))
    printf '%d.%02d' $((ns / 1000000000)) $((ns % 1000000000 / 10000000))
}

command -v python3 >/dev/null || skip "python3 not found"
command -v npm >/dev/null || skip "npm not found"
python3 -m venv "$work/tools" >/dev/null 2>&1 || skip "python3 cannot create a venv"
"$work/tools/bin/python" -m pip install --quiet --disable-pip-version-check maturin pre-commit \
    >"$work/pip.log" 2>&1 || { cat "$work/pip.log"; skip "cannot install maturin and pre-commit from PyPI"; }

echo "--- build (scripts/build-dist.sh)"
export DIST="$repo/dist"
rm -rf "$DIST"
MATURIN="$work/tools/bin/maturin" bash "$repo/scripts/build-dist.sh"
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$repo/Cargo.toml" | head -n 1)"
wheels=("$DIST"/python/toolcheck-"$version"-*.whl)
[ -f "${wheels[0]}" ] || fail "no wheel for $version in $DIST/python"

# What every channel must print: the version, and the examples' findings (exit 1, not 2).
check_runs() {
    local label="$1"
    shift
    local out
    out="$("$@" --version)" || fail "$label: --version failed"
    [ "$out" = "toolcheck $version" ] || fail "$label: --version printed '$out'"
    local status=0
    "$@" lint --output-format concise "$repo/fixtures/examples" >"$work/lint.log" 2>&1 || status=$?
    [ "$status" -eq 1 ] || { cat "$work/lint.log"; fail "$label: lint exited $status, not 1"; }
    grep -q "TC209" "$work/lint.log" || { cat "$work/lint.log"; fail "$label: no TC209 in the lint"; }
    echo "$label: $out; lint of fixtures/examples: $(wc -l <"$work/lint.log") lines, exit 1"
}

# Offline for real where a network namespace can be made (root, or user namespaces): no
# network at all; else only the package managers' own offline flags.
offline=()
if unshare -n true 2>/dev/null; then
    offline=(unshare -n)
    echo "installs and runs below have no network (unshare -n)"
else
    echo "no network namespace here: installs below are offline by --no-index and --offline only"
fi

echo "--- pip install the wheel, offline"
python3 -m venv "$work/venv"
start=$(date +%s%N)
"${offline[@]}" env PIP_NO_INDEX=1 "$work/venv/bin/pip" install --quiet \
    --disable-pip-version-check "${wheels[0]}"
echo "pip install took $(elapsed "$start") s"
check_runs "pip" "${offline[@]}" "$work/venv/bin/toolcheck"

echo "--- npm install the tarballs, offline, empty cache"
mkdir "$work/npm-project"
cd "$work/npm-project"
start=$(date +%s%N)
"${offline[@]}" npm install --offline --cache "$work/npm-cache" --no-audit --no-fund --silent \
    "$DIST"/npm/*.tgz
echo "npm install took $(elapsed "$start") s"
check_runs "npx" "${offline[@]}" npx --offline --cache "$work/npm-cache" toolcheck

# The launcher without its platform's package: exit 2, naming the package and what to do.
mkdir "$work/npm-launcher-only"
cd "$work/npm-launcher-only"
"${offline[@]}" npm install --offline --cache "$work/npm-cache-2" --no-audit --no-fund --silent \
    --omit=optional "$DIST/npm/toolcheck-$version.tgz"
status=0
npx --offline --cache "$work/npm-cache-2" toolcheck --version >"$work/launcher.log" 2>&1 || status=$?
[ "$status" -eq 2 ] && grep -q "@toolcheck/cli-.* is not installed" "$work/launcher.log" || {
    cat "$work/launcher.log"
    fail "the launcher without a platform package exited $status"
}
echo "npx without the platform package: $(cat "$work/launcher.log")"

echo "--- the pre-commit hook repository, with the wheel through PIP_FIND_LINKS"
bash "$repo/scripts/pre-commit-mirror.sh" "$work/mirror"
export PRE_COMMIT_HOME="$work/pre-commit-home" PIP_FIND_LINKS="$DIST/python"
project="$work/project"
mkdir -p "$project/tools"
cd "$project"
git init --quiet
cp "$repo/scripts/flawed-manifest.yaml" tools/weather.tool.yaml
cat >.pre-commit-config.yaml <<YAML
repos:
  - repo: $work/mirror
    rev: v$version
    hooks:
      - id: toolcheck
YAML
git add .
pre_commit="$work/tools/bin/pre-commit"
status=0
start=$(date +%s%N)
"$pre_commit" run --all-files --color never >"$work/first.log" 2>&1 || status=$?
first="$(elapsed "$start")"
cat "$work/first.log"
[ "$status" -eq 1 ] || fail "the first run exited $status, not 1 (a flawed manifest)"
grep -q "TC209 absolute-words" "$work/first.log" || fail "no TC209 in the hook's output"
status=0
start=$(date +%s%N)
"$pre_commit" run --all-files --color never >"$work/second.log" 2>&1 || status=$?
second="$(elapsed "$start")"
[ "$status" -eq 1 ] || { cat "$work/second.log"; fail "the second run exited $status, not 1"; }
echo "pre-commit with the wheel: first run $first s (installs the hook), second run $second s"
# Ceilings at ten times the measured figures (5 s and 0.2 s): catch a build from source or a hang.
[ "${first%.*}" -lt 300 ] || fail "the first run took $first s: did it build from source?"
[ "${second%.*}" -lt 20 ] || fail "the second run took $second s"
echo "dist check passed"
