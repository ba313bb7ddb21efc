#!/usr/bin/env bash
# Seeds every target's corpus with the repository's fixtures and, when present, the real tool
# sets of ../shared/corpora (absent on a user's clone: then only the fixtures).
set -euo pipefail
cd "$(dirname "$0")"
targets=(parse_json parse_yaml parse_source normalize lint_file render_human)
for target in "${targets[@]}"; do
    mkdir -p "corpus/$target"
done
seed() {
    local file=$1 name
    name=$(printf '%s' "$file" | sha1sum | cut -c1-16)
    for target in "${targets[@]}"; do
        case "$target:$file" in
            parse_json:*.json | parse_yaml:*.yaml | parse_yaml:*.yml | parse_source:*.ts | parse_source:*.py | parse_source:*.go | normalize:* | lint_file:* | render_human:*)
                cp "$file" "corpus/$target/$name" ;;
        esac
    done
}
while IFS= read -r -d '' file; do
    seed "$file"
done < <(find ../fixtures -type f \( -name '*.json' -o -name '*.yaml' -o -name '*.yml' -o -name '*.ts' -o -name '*.py' -o -name '*.go' \) \
    -not -path '*/snapshots/*' -not -name 'sarif-schema-*' -size -256k -print0)
if [ -d ../../shared/corpora ]; then
    while IFS= read -r -d '' file; do
        seed "$file"
    done < <(find ../../shared/corpora -type f -name '*.json' -size -1M -print0)
fi
for target in "${targets[@]}"; do
    echo "$target: $(ls "corpus/$target" | wc -l) seeds"
done
