#!/usr/bin/env bash
# Time and peak RSS of each hostile input of RELIABILITY.md (bench/hostile.py writes them to
# bench/.cache/hostile), for one or more release binaries: the best time and the highest peak
# of 3 runs each, with all rules (`lint --no-config`, or `diff` for the diff- rows); MB are
# MiB. A benchmark, not a test.
#
#   bench/hostile.sh [BINARY...]      (default target/release/toolcheck)
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=$ROOT/bench/.cache/hostile
if [ $# -eq 0 ]; then
  set -- "$ROOT/target/release/toolcheck"
fi
if [ ! -x /usr/bin/time ]; then
  echo "/usr/bin/time (GNU time) not found: install it (apt-get install time)" >&2
  exit 2
fi
python3 "$ROOT/bench/hostile.py" "$DIR" || exit 2

# name, output format, path
cases=(
  "dev-zero human /dev/zero"
  "always-1mb json $DIR/always-1mb.json"
  "folded-1mb json $DIR/folded-1mb.yaml"
  "folded-20mb json $DIR/folded-20mb.yaml"
  "laughs json $DIR/laughs.yaml"
  "aliased-keys json $DIR/aliased-keys.yaml"
  "tool-aliased json $DIR/tool-aliased.yaml"
  "properties-100k json $DIR/properties-100k.json"
  "spaces human $DIR/spaces.json"
  "wide-always human $DIR/wide-always.json"
  "firecrawl-oneline human $DIR/firecrawl-oneline.json"
  "many-findings human $DIR/many-findings.json"
  "many-findings json $DIR/many-findings.json"
  "deep-keys-yaml json $DIR/deep-keys.yaml"
  "deep-keys-json json $DIR/deep-keys.json"
  "deep-tool json $DIR/deep-tool.json"
  "letters-2mb json $DIR/letters-2mb.json"
  "letters-30mb json $DIR/letters-30mb.json"
  "tools-100k json $DIR/tools-100k.json"
  "tools-100k-yaml json $DIR/tools-100k.yaml"
  "diff-tools-100k json $DIR/tools-100k.json"
  "sentence-20mb json $DIR/sentence-20mb.json"
  "config-unknown-94k json $DIR/config-unknown-94k/a.tool.yaml"
  "config-include-50k json $DIR/config-include-50k/a.tool.yaml"
  "config-pfi-50k json $DIR/config-pfi-50k/a.tool.yaml"
  "config-words-100k json $DIR/config-words-100k/a.tool.yaml"
)

echo "| input | format | size | $(printf '%s | ' "$@")allowed |"
echo "|---|---|---|$(printf -- '---|%.0s' "$@")---|"
out=$(mktemp)
for case in "${cases[@]}"; do
  read -r name format path <<< "$case"
  [ -e "$path" ] || continue
  size=$(stat -L -c %s "$path" 2>/dev/null || echo 0)
  [ -f "$path" ] || size=0
  # A config case: its toolcheck.yaml is the input that counts. A diff case: `diff` of the
  # file and its `-b` twin, both counting.
  command=(lint --no-config --format "$format" "$path")
  if [[ $name == config-* ]]; then
    command=(lint --config "$(dirname "$path")/toolcheck.yaml" --format "$format" "$path")
    size=$(stat -L -c %s "$(dirname "$path")/toolcheck.yaml")
  elif [[ $name == diff-* ]]; then
    twin=${path%.json}-b.json
    command=(diff --no-config --format "$format" "$path" "$twin")
    size=$((size + $(stat -L -c %s "$twin")))
  fi
  row="| $name | $format | $((size / 1024)) KiB |"
  for bin in "$@"; do
    best=""; peak=0; code=""
    for _ in 1 2 3; do
      /usr/bin/time -f "%e %M %x" -o "$out" "$bin" "${command[@]}" > /dev/null 2>&1
      read -r wall rss code < <(tail -1 "$out")
      if [ -z "$best" ] || awk "BEGIN { exit !($wall < $best) }"; then best=$wall; fi
      [ "$rss" -gt "$peak" ] && peak=$rss
    done
    row="$row ${best} s, $((peak / 1024)) MB (exit $code) |"
  done
  # 10 times the input plus 100 MB, in MiB as the peaks are.
  echo "$row $(( size * 10 / 1048576 + 100 )) MB |"
done
rm -f "$out"
