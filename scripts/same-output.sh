#!/usr/bin/env bash
# Whether two toolcheck binaries print the same thing over every file of ../shared/corpora and
# fixtures/, in every output format: the check for a change meant to keep behaviour (a refactoring).
#   scripts/same-output.sh OLD_BINARY [NEW_BINARY]   (NEW defaults to target/release/toolcheck)
set -euo pipefail
cd "$(dirname "$0")/.."
old=$(realpath "$1")
new=$(realpath "${2:-target/release/toolcheck}")
corpora=../shared/corpora
if [ ! -d "$corpora" ]; then
    echo "no $corpora here: nothing to compare" >&2
    exit 2
fi
mapfile -t files < <(find "$corpora" fixtures -type f \( -name '*.json' -o -name '*.yaml' \) | sort)
out=$(mktemp -d)
status=0
for format in json sarif github human; do
    "$old" lint --no-config --format "$format" "${files[@]}" > "$out/old.$format" 2>&1 || true
    "$new" lint --no-config --format "$format" "${files[@]}" > "$out/new.$format" 2>&1 || true
    if cmp -s "$out/old.$format" "$out/new.$format"; then
        echo "$format: identical ($(wc -c < "$out/new.$format") bytes)"
    else
        echo "$format: DIFFERENT (diff $out/old.$format $out/new.$format)"
        status=1
    fi
done
exit $status
