#!/usr/bin/env bash
# toolcheck benchmarks (not tests): whole-corpus lint against a floor program, cold start,
# stress inputs, and peers on the same tools. Results go to stdout and bench/.cache/results.md;
# BENCHMARKS.md records a run.
#
#   bench/run.sh [--no-peers] [--runs N]
#
# Needs: cargo, python3, GNU time (/usr/bin/time), hyperfine (`apt-get install hyperfine`; the
# script only says so, it installs no system package). Peers are installed under
# bench/.cache (gitignored): tool-scan and lap-score in a venv from PyPI, Spectral from npm into
# a local prefix; each is skipped with a message when its registry or client is unavailable.
# CORPORA (default ../shared/corpora) and CARGO_TARGET_DIR (default target/) are honoured.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=$ROOT/bench/.cache
CORPORA=${CORPORA:-$ROOT/../shared/corpora}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
BIN=$CARGO_TARGET_DIR/release/toolcheck
FLOOR=$CARGO_TARGET_DIR/release/examples/floor
RUNS=10
PEERS=1
while [ $# -gt 0 ]; do
  case $1 in
    --no-peers) PEERS=0 ;;
    --runs) RUNS=$2; shift ;;
    *) echo "usage: bench/run.sh [--no-peers] [--runs N]" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$CACHE"
RESULTS=$CACHE/results.md
: > "$RESULTS"
say() { echo "$*" | tee -a "$RESULTS"; }

if ! command -v hyperfine > /dev/null; then
  echo "hyperfine not found: install it (e.g. apt-get install hyperfine) and run again" >&2
  exit 2
fi
if [ ! -x /usr/bin/time ]; then
  echo "/usr/bin/time (GNU time) not found: install it (apt-get install time)" >&2
  exit 2
fi

say "# toolcheck benchmark run"
say ""
say "- date: $(date -u +%Y-%m-%dT%H:%MZ)"
say "- machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(free -h | awk '/^Mem:/ {print $2}') memory, load average $(cut -d' ' -f1-3 /proc/loadavg)"
say "- toolchain: $(rustc --version)"
say ""

echo "building release binary and floor example..." >&2
(cd "$ROOT" && cargo build --release --quiet --bin toolcheck --example floor) || exit 2
say "- binary: $(stat -c %s "$BIN") bytes"

# /usr/bin/time -v: wall seconds and peak RSS (MB) of one run.
measure() {
  local out
  out=$(/usr/bin/time -v "$@" 2>&1 > /dev/null | grep -E 'Elapsed|Maximum resident')
  local wall rss
  wall=$(echo "$out" | awk -F': ' '/Elapsed/ {print $2}')
  rss=$(echo "$out" | awk -F': ' '/Maximum resident/ {printf "%.0f", $2 / 1024}')
  echo "$wall wall, $rss MB peak RSS"
}

# hyperfine mean ± sd in ms, from its JSON export.
hf() {
  local name=$1; shift
  hyperfine --style none --warmup "${WARMUP:-1}" --runs "$RUNS" -i --export-json "$CACHE/$name.json" "$@" > /dev/null 2>&1
  python3 - "$CACHE/$name.json" <<'EOF'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"{r['mean'] * 1000:.0f} ± {r['stddev'] * 1000:.0f} ms (min {r['min'] * 1000:.0f})  {r['command'][:90]}")
EOF
}

mapfile -t FILES < <(ls "$CORPORA"/*/*.json)
TOOLS=$("$BIN" lint --no-config --format json "${FILES[@]}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["summary"]["tools"])')

say ""
say "## Whole corpus: ${#FILES[@]} files, $TOOLS tools, $(du -ch "${FILES[@]}" | tail -1 | cut -f1)"
say ""
say "- toolcheck lint (all rules, JSON), /usr/bin/time -v: $(measure "$BIN" lint --no-config --format json "${FILES[@]}")"
say "- floor (serde_json + tiktoken-rs, each text once), /usr/bin/time -v: $(measure "$FLOOR" "${FILES[@]}")"
say "- floor with toolcheck's counter, /usr/bin/time -v: $(measure "$FLOOR" --toolcheck "${FILES[@]}")"
say "- toolcheck tokens (JSON), /usr/bin/time -v: $(measure "$BIN" tokens --no-config --format json "${FILES[@]}")"
say ""
say '```'
hf corpus -N \
  -n "toolcheck lint" "$BIN lint --no-config --format json ${FILES[*]}" \
  -n "floor" "$FLOOR ${FILES[*]}" \
  -n "floor --toolcheck" "$FLOOR --toolcheck ${FILES[*]}" \
  -n "toolcheck tokens" "$BIN tokens --no-config --format json ${FILES[*]}" \
  -n "toolcheck lint --ignore TC1 (no token rules)" "$BIN lint --no-config --format json --ignore TC1 ${FILES[*]}" | tee -a "$RESULTS"
say '```'
python3 - "$CACHE/corpus.json" <<'EOF' | tee -a "$RESULTS"
import json, sys
r = {x["command"]: x["mean"] for x in json.load(open(sys.argv[1]))["results"]}
lint, floor, own = r["toolcheck lint"], r["floor"], r["floor --toolcheck"]
print(f"\nlint mean {lint:.3f} s (target: under 1.0 s); ratio to the floor: {lint / floor:.2f}x "
      f"(tiktoken-rs), {lint / own:.2f}x (toolcheck's own counter); target: within 2x")
EOF

say ""
say "## Cold start on one small manifest"
# Every text of SMALL fits its budget in bytes, so no encoding is built; ASK has guidelines
# and a snippet longer in bytes than their token budgets, so the encoding must be built.
SMALL=$ROOT/fixtures/tokens/small.tools.yaml
ASK=$ROOT/fixtures/examples/ask_user_question.tool.yaml
say ""
say '```'
hf cold -N \
  -n "lint, no tokenizer (fixtures/tokens/small.tools.yaml)" "$BIN lint --no-config $SMALL" \
  -n "lint, with tokenizer (fixtures/examples/ask_user_question.tool.yaml)" "$BIN lint --no-config $ASK" \
  -n "toolcheck tokens (always tokenizes)" "$BIN tokens --no-config $SMALL" | tee -a "$RESULTS"
say '```'

say ""
say "## Stress inputs (bench/gen.py)"
python3 "$ROOT/bench/gen.py" "$CACHE/stress" > /dev/null
say ""
for file in big.tools.json many.tools.json deep.tool.json longdesc.tool.yaml aaaa.tool.yaml; do
  say "- $file ($(stat -c %s "$CACHE/stress/$file") bytes): lint $(measure "$BIN" lint --no-config --format json "$CACHE/stress/$file")"
done

if [ "$PEERS" = 1 ]; then
  say ""
  say "## Peers on the same tools (one MCP-shaped tool per file, bench/split.py)"
  SPLIT=$CACHE/split
  rm -rf "$SPLIT"
  N=$(python3 "$ROOT/bench/split.py" "$SPLIT" "${FILES[@]}")
  say ""
  say "$N tool files."
  say ""
  CMDS=(-n "toolcheck lint (all rules)" "$BIN lint --no-config --format json $SPLIT")
  VENV=$CACHE/venv
  if [ ! -x "$VENV/bin/tool-scan" ] || [ ! -x "$VENV/bin/lap" ]; then
    echo "installing tool-scan and lap-score from PyPI into $VENV..." >&2
    python3 -m venv "$VENV" && "$VENV/bin/pip" install -q tool-scan lap-score > /dev/null 2>&1 \
      || echo "PyPI unreachable or install failed: skipping tool-scan and lap-score" >&2
  fi
  if [ -x "$VENV/bin/tool-scan" ]; then
    CMDS+=(-n "tool-scan (1 job)" "$VENV/bin/tool-scan --json $SPLIT/*.tool.json")
    CMDS+=(-n "tool-scan --jobs $(nproc)" "$VENV/bin/tool-scan --json --jobs $(nproc) $SPLIT/*.tool.json")
  else
    say "- tool-scan: skipped (not installed)"
  fi
  SPECTRAL=$CACHE/npm/node_modules/.bin/spectral
  if [ ! -x "$SPECTRAL" ] && command -v npm > /dev/null; then
    echo "installing @stoplight/spectral-cli from npm into $CACHE/npm..." >&2
    npm install --prefix "$CACHE/npm" --no-audit --no-fund @stoplight/spectral-cli@6 > /dev/null 2>&1 \
      || echo "npm registry unreachable or install failed: skipping Spectral" >&2
  fi
  if [ -x "$SPECTRAL" ]; then
    CMDS+=(-n "spectral (bench/spectral-ruleset.yaml)" "$SPECTRAL lint --quiet -f json -r $ROOT/bench/spectral-ruleset.yaml $SPLIT/*.tool.json")
  else
    say "- Spectral: skipped (npm or the package unavailable)"
  fi
  say ""
  say '```'
  RUNS=3 WARMUP=0 hf peers "${CMDS[@]}" | tee -a "$RESULTS"
  say '```'

  # lap-score reads only OpenAPI files or live MCP servers, and fetches its cl100k_base
  # vocabulary at run time. Offline: bench/mcp_stub.py serves each corpus file as a stdio MCP
  # server, and tiktoken's cache is seeded with the identical cl100k_base.tiktoken that the
  # tiktoken-rs crate ships (file name: tiktoken's cache key for that encoding).
  if [ -x "$VENV/bin/lap" ] && ! "$VENV/bin/python" -c "import fastmcp" 2> /dev/null; then
    echo "installing lap-score[mcp] (fastmcp) into $VENV..." >&2
    "$VENV/bin/pip" install -q 'lap-score[mcp]' > /dev/null 2>&1 || true
  fi
  VOCAB=$(ls "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/tiktoken-rs-*/assets/cl100k_base.tiktoken 2> /dev/null | head -1)
  if [ -x "$VENV/bin/lap" ] && "$VENV/bin/python" -c "import fastmcp" 2> /dev/null && [ -n "$VOCAB" ]; then
    mkdir -p "$CACHE/tiktoken"
    cp "$VOCAB" "$CACHE/tiktoken/9b5ad71b2ce5302211f9c61530b329a4922fc6a4"
    say ""
    say "lap-score (\`lap lint --mcp\`, one stub server per corpus file, ${#FILES[@]} files, one run):"
    LAP_LOOP=$CACHE/lap-loop.sh
    rm -rf "$CACHE/lap" && mkdir -p "$CACHE/lap"
    {
      echo "export TIKTOKEN_CACHE_DIR=$CACHE/tiktoken"
      for index in "${!FILES[@]}"; do
        echo "$VENV/bin/lap lint --json --mcp 'python3 $ROOT/bench/mcp_stub.py ${FILES[$index]}' > $CACHE/lap/$index.json 2> /dev/null"
      done
    } > "$LAP_LOOP"
    say "- lap lint, all files: $(measure bash "$LAP_LOOP")"
    say "  ($(python3 -c 'import json, pathlib, sys
ok = 0
for p in pathlib.Path(sys.argv[1]).glob("*.json"):
    try:
        ok += "findings" in json.loads(p.read_text())
    except ValueError:
        pass
print(ok)' "$CACHE/lap") of ${#FILES[@]} files linted)"
    say "- toolcheck lint, the same files: $(measure "$BIN" lint --no-config --format json "${FILES[@]}")"
  else
    say "- lap-score: skipped (lap-score[mcp] not installed, or no cl100k_base vocabulary from the tiktoken-rs crate)"
  fi
fi

echo "results: $RESULTS" >&2
