#!/usr/bin/env bash
# Writes the pre-commit hook repository for one toolcheck version (as ruff-pre-commit is for
# ruff) into DIR: pre-commit-mirror/'s files with @VERSION@ replaced, committed and tagged
# v<version> in a git repository. The version defaults to Cargo.toml's.
#   scripts/pre-commit-mirror.sh DIR [VERSION]
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:?usage: scripts/pre-commit-mirror.sh DIR [VERSION]}"
version="${2:-$(sed -n 's/^version = "\(.*\)"$/\1/p' "$repo/Cargo.toml" | head -n 1)}"
mkdir -p "$dir"
for file in .pre-commit-hooks.yaml pyproject.toml README.md; do
    sed "s/@VERSION@/$version/g" "$repo/pre-commit-mirror/$file" >"$dir/$file"
done
cd "$dir"
[ -d .git ] || git init --quiet
git add .pre-commit-hooks.yaml pyproject.toml README.md
git -c user.name=toolcheck -c user.email=release@toolcheck.invalid commit --quiet --allow-empty \
    -m "toolcheck $version"
git tag -f "v$version" >/dev/null
echo "pre-commit hook repository for toolcheck $version in $dir (tag v$version)"
