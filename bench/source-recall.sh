#!/usr/bin/env bash
# Recall of tools read from server source (docs/sources.md): fetches each server of
# bench/source-recall.txt from the npm registry, PyPI or a GitHub repository at the version its
# live listing was captured from, and compares what toolcheck reads from the package with that listing
# (bench/source_recall.rs). Needs npm, pip, git and ../shared/corpora (the listings).
#   bash bench/source-recall.sh          (packages cached in target/source-recall/)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
corpora="${CORPORA:-$repo/../shared/corpora}"
cache="$repo/target/source-recall"
[ -d "$corpora/mcp" ] || { echo "source recall skipped: $corpora/mcp is absent"; exit 0; }
mkdir -p "$cache"
list="$cache/list.txt"
: > "$list"
while read -r listing package; do
    case "$listing" in '' | '#'*) continue ;; esac
    dir="$cache/$(printf '%s' "$package" | tr '/@' '__')"
    if [ ! -d "$dir" ]; then
        case "$package" in
        github:*)
            # A repository at a commit (`github:owner/name@commit`, or `…@commit:path` for one
            # folder of it): from a local mirror (`$MIRRORS/owner+name/repo`, as the `fetch`
            # tool leaves them) when there is one, else cloned from GitHub.
            repository="${package#github:}"
            commit="${repository#*@}"
            folder=""
            case "$commit" in *:*) folder="${commit#*:}"; commit="${commit%%:*}" ;; esac
            repository="${repository%@*}"
            mirror="${MIRRORS:-/work/.mirror}/$(printf '%s' "$repository" | tr '/' '+')/repo"
            if [ ! -d "$mirror" ]; then
                mirror="$cache/clone-$(printf '%s' "$repository" | tr '/' '_')"
                [ -d "$mirror" ] || git clone --quiet --bare --filter=blob:none \
                    "https://github.com/$repository" "$mirror"
            fi
            mkdir -p "$dir"
            git -C "$mirror" archive "$commit" $folder | tar x -C "$dir"
            ;;
        *==*)
            # PyPI: the wheel (or the source distribution) of that version, unpacked.
            download="$cache/download"
            rm -rf "$download" && mkdir -p "$download"
            python3 -m pip download --quiet --no-deps --ignore-requires-python --dest "$download" "$package"
            mkdir -p "$dir"
            for file in "$download"/*; do
                case "$file" in
                *.whl | *.zip) python3 -m zipfile -e "$file" "$dir" ;;
                *) tar xzf "$file" -C "$dir" ;;
                esac
            done
            rm -rf "$download"
            ;;
        *)
            tarball="$(cd "$cache" && npm pack --silent "$package" | tail -n 1)"
            mkdir -p "$dir" && tar xzf "$cache/$tarball" -C "$dir" && rm "$cache/$tarball"
            ;;
        esac
    fi
    # Listings the corpora lack were captured with bench/capture-listing.py.
    listed="$corpora/mcp/$listing"
    # A listing elsewhere in the corpora is named by its path there.
    case "$listing" in */*) listed="$corpora/$listing" ;; esac
    [ -f "$repo/bench/listings/$listing" ] && listed="$repo/bench/listings/$listing"
    name="$(basename "${listing%.json}")"
    case "$listing" in */*) name="$(basename "$(dirname "$listing")")/$name" ;; esac
    case "$package" in github:*:*) dir="$dir/${package##*:}" ;; esac
    echo "$name $listed $dir" >> "$list"
done < "$repo/bench/source-recall.txt"
cargo run --quiet --release --example source_recall -- "$list"
