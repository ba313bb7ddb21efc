#!/usr/bin/env bash
# CI's smoke run of the fuzz targets (fuzz/README.md): builds them with cargo-fuzz on nightly
# and runs each for a short time (TOOLCHECK_FUZZ_SECONDS, default 20) from a corpus seeded with
# the fixtures. A crash, leak or timeout fails the run and leaves its input in
# fuzz/artifacts/<target>/. Skips with a message when nightly or cargo-fuzz is unavailable;
# TOOLCHECK_SKIP_FUZZ=1 skips it.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

if [ "${TOOLCHECK_SKIP_FUZZ:-}" = 1 ]; then
    echo "fuzz smoke run skipped: TOOLCHECK_SKIP_FUZZ=1"
    exit 0
fi
if ! rustup run nightly rustc --version > /dev/null 2>&1; then
    echo "fuzz smoke run skipped: no nightly toolchain (rustup toolchain install nightly)"
    exit 0
fi
if ! cargo fuzz --version > /dev/null 2>&1; then
    echo "installing cargo-fuzz (cargo install cargo-fuzz --locked)"
    if ! cargo install cargo-fuzz --locked; then
        echo "fuzz smoke run skipped: cargo-fuzz could not be installed (crates.io unreachable?)"
        exit 0
    fi
fi

seconds=${TOOLCHECK_FUZZ_SECONDS:-20}
bash seed.sh > /dev/null
cargo +nightly fuzz build
for target in parse_json parse_yaml parse_source normalize lint_file render_human; do
    echo "fuzz smoke: $target for ${seconds} s"
    # -timeout: one input taking over 10 s is a hang. The run's own summary goes to stderr;
    # keep only its last lines unless it fails.
    log=$(mktemp)
    if ! cargo +nightly fuzz run "$target" "corpus/$target" -- \
        -dict=yaml-json.dict -max_total_time="$seconds" -max_len=65536 -timeout=10 \
        > "$log" 2>&1; then
        cat "$log"
        rm -f "$log"
        echo "fuzz smoke: $target failed; its input is in fuzz/artifacts/$target/" >&2
        exit 1
    fi
    grep -E '^#[0-9]+ *DONE|Done [0-9]+ runs' "$log" || tail -n 2 "$log"
    rm -f "$log"
done
