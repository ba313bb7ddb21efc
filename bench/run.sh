#!/usr/bin/env bash
# toolcheck benchmarks (not tests): issue 17's goals measured in one run and printed as one
# table (measured figure, goal, met or not), with the details of every command below it. Written
# to stdout and bench/.cache/results.md; BENCHMARKS.md records a run.
#
#   bench/run.sh [--quick] [--no-peers] [--runs N] [--build] [--lap]
#
#   --runs N    interleaved rounds per group (default 10; the peers and the generated sets of
#               10k/50k/200k tools run min(N, 3) rounds, they take seconds each)
#   --no-peers  skip tool-scan and Spectral
#   --quick     3 rounds, no peers: a fast check that everything runs (~3 min)
#   --build     also time a clean `cargo build --release --locked` into an empty target
#               directory under bench/.cache (~4 min on 2 cores; deleted afterwards)
#   --lap       also run lap-score once over the corpus (~4 min; see below)
#
# Needs: cargo and Python 3 (no hyperfine, no GNU time: bench/timing.py measures wall time, CPU
# time and peak RSS with os.wait4). What is measured and how: bench/goals.py. Peers are
# installed under bench/.cache (gitignored): tool-scan (and lap-score) in a venv from PyPI,
# Spectral from npm into a local prefix; each is skipped with a message when its registry or
# client is unavailable. CORPORA (default ../shared/corpora) and CARGO_TARGET_DIR (default
# target/) are honoured; without the corpora the goals on real tools say "not measured".
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=$ROOT/bench/.cache
CORPORA=${CORPORA:-$ROOT/../shared/corpora}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
BIN=$CARGO_TARGET_DIR/release/toolcheck
FLOOR=$CARGO_TARGET_DIR/release/examples/floor
RUNS=10
PEERS=1
BUILD=0
LAP=0
usage() { echo "usage: bench/run.sh [--quick] [--no-peers] [--runs N] [--build] [--lap]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --no-peers) PEERS=0 ;;
    --quick) RUNS=3; PEERS=0 ;;
    --runs)
      [ $# -ge 2 ] || usage
      RUNS=$2
      shift
      ;;
    --build) BUILD=1 ;;
    --lap) LAP=1 ;;
    -h | --help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) usage ;;
  esac
  shift
done
case $RUNS in
  '' | *[!0-9]* | 0) echo "--runs needs a whole number of at least 1, not \`$RUNS\`" >&2; exit 2 ;;
esac
if ! command -v python3 > /dev/null; then
  echo "python3 not found: install Python 3 and run again" >&2
  exit 2
fi
mkdir -p "$CACHE"
RESULTS=$CACHE/results.md

echo "building the release binary and the floor example..." >&2
(cd "$ROOT" && cargo build --release --quiet --bin toolcheck --example floor) || exit 2

ARGS=(--bin "$BIN" --floor "$FLOOR" --corpora "$CORPORA" --cache "$CACHE" --runs "$RUNS" --out "$RESULTS")

if [ "$BUILD" = 1 ]; then
  # First, so that nothing else of this script runs beside it.
  CLEAN=$CACHE/clean-build-target
  rm -rf "$CLEAN"
  echo "clean build: cargo build --release --locked into $CLEAN (takes minutes)..." >&2
  START=$(date +%s%N)
  if (cd "$ROOT" && CARGO_TARGET_DIR=$CLEAN cargo build --release --locked --quiet); then
    END=$(date +%s%N)
    ARGS+=(--build-seconds "$(python3 -c "print(($END - $START) / 1e9)")")
  else
    echo "the clean build failed: its time is not reported" >&2
  fi
  rm -rf "$CLEAN"
fi

VENV=$CACHE/venv
if [ "$PEERS" = 1 ]; then
  if [ ! -x "$VENV/bin/tool-scan" ]; then
    echo "installing tool-scan from PyPI into $VENV..." >&2
    { python3 -m venv "$VENV" && "$VENV/bin/pip" install -q tool-scan; } > /dev/null 2>&1 \
      || echo "PyPI unreachable or install failed: skipping tool-scan" >&2
  fi
  if [ -x "$VENV/bin/tool-scan" ]; then
    ARGS+=(--tool-scan "$VENV/bin/tool-scan")
  fi
  SPECTRAL=$CACHE/npm/node_modules/.bin/spectral
  if [ ! -x "$SPECTRAL" ]; then
    if command -v npm > /dev/null; then
      echo "installing @stoplight/spectral-cli from npm into $CACHE/npm..." >&2
      npm install --prefix "$CACHE/npm" --no-audit --no-fund @stoplight/spectral-cli@6 > /dev/null 2>&1 \
        || echo "npm registry unreachable or install failed: skipping Spectral" >&2
    else
      echo "npm not found: skipping Spectral" >&2
    fi
  fi
  if [ -x "$SPECTRAL" ]; then
    ARGS+=(--spectral "$SPECTRAL")
  fi
else
  ARGS+=(--no-peers)
fi

python3 "$ROOT/bench/goals.py" "${ARGS[@]}" || exit 2

# lap-score reads only OpenAPI files or live MCP servers, and fetches its cl100k_base
# vocabulary at run time. Offline: bench/mcp_stub.py serves each corpus file as a stdio MCP
# server, and tiktoken's cache is seeded with the identical cl100k_base.tiktoken that the
# tiktoken-rs crate ships (file name: tiktoken's cache key for that encoding).
if [ "$LAP" = 1 ]; then
  shopt -s nullglob
  FILES=("$CORPORA"/*/*.json)
  VOCABS=("${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/tiktoken-rs-*/assets/cl100k_base.tiktoken)
  shopt -u nullglob
  VOCAB=${VOCABS[0]:-}
  if [ ! -x "$VENV/bin/lap" ] || ! "$VENV/bin/python" -c "import fastmcp" 2> /dev/null; then
    echo "installing lap-score[mcp] (fastmcp) from PyPI into $VENV..." >&2
    { [ -x "$VENV/bin/pip" ] || python3 -m venv "$VENV"; } > /dev/null 2>&1
    "$VENV/bin/pip" install -q 'lap-score[mcp]' > /dev/null 2>&1 || true
  fi
  {
    echo ""
    echo "## lap-score"
    echo ""
  } | tee -a "$RESULTS"
  if [ "${#FILES[@]}" -gt 0 ] && [ -x "$VENV/bin/lap" ] && "$VENV/bin/python" -c "import fastmcp" 2> /dev/null && [ -n "$VOCAB" ]; then
    mkdir -p "$CACHE/tiktoken"
    cp "$VOCAB" "$CACHE/tiktoken/9b5ad71b2ce5302211f9c61530b329a4922fc6a4"
    LAP_LOOP=$CACHE/lap-loop.sh
    rm -rf "$CACHE/lap" && mkdir -p "$CACHE/lap"
    {
      echo "export TIKTOKEN_CACHE_DIR=$CACHE/tiktoken"
      for index in "${!FILES[@]}"; do
        echo "$VENV/bin/lap lint --json --mcp 'python3 $ROOT/bench/mcp_stub.py ${FILES[$index]}' > $CACHE/lap/$index.json 2> /dev/null"
      done
    } > "$LAP_LOOP"
    echo "running lap-score once over ${#FILES[@]} files (minutes)..." >&2
    {
      echo "\`lap lint --mcp\`, one bench/mcp_stub.py server per corpus file, ${#FILES[@]} files, one run each:"
      echo ""
      python3 "$ROOT/bench/timing.py" --runs 1 --warmup 0 "lap lint, all files=$(printf '%q ' bash "$LAP_LOOP")" \
        "toolcheck lint, the same files=$(printf '%q ' "$BIN" lint --no-config --format json "${FILES[@]}")"
      echo ""
      python3 -c 'import json, pathlib, sys
ok = 0
for p in pathlib.Path(sys.argv[1]).glob("*.json"):
    try:
        ok += "findings" in json.loads(p.read_text())
    except ValueError:
        pass
print(f"lap-score linted {ok} of {sys.argv[2]} files")' "$CACHE/lap" "${#FILES[@]}"
    } | tee -a "$RESULTS"
  else
    echo "skipped: no corpus, lap-score[mcp] not installed, or no cl100k_base vocabulary from the tiktoken-rs crate" | tee -a "$RESULTS"
  fi
fi

echo "results: $RESULTS" >&2
