#!/usr/bin/env bash
# Builds toolcheck's release artifacts for one target into dist/ (or $DIST):
#   - the wheel (maturin, `bindings = "bin"`): dist/python/toolcheck-<version>-<tags>.whl
#   - the npm packages: dist/npm/toolcheck-<version>.tgz (the launcher) and the platform
#     package that holds the binary, dist/npm/toolcheck-cli-<platform>-<version>.tgz
#   - the archive with the binary, README, LICENSE, completions and man pages, and its SHA-256:
#     dist/toolcheck-<version>-<target>.tar.gz (.zip on Windows) and .sha256
# The target is this machine's (rustc's host) unless TOOLCHECK_TARGET names another; the release
# workflow runs this script once per target, with MATURIN_ARGS for the wheel's platform tag
# (`--zig --compatibility manylinux2014`). Cargo.toml's version is the one version of all.
# Needs maturin (MATURIN, else on PATH), node and npm.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
dist="${DIST:-$repo/dist}"
maturin="${MATURIN:-maturin}"

version="$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)"
repository="$(sed -n 's/^repository = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)"
host="$(rustc -vV | sed -n 's/^host: //p')"
target="${TOOLCHECK_TARGET:-$host}"
exe=toolcheck
case "$target" in *windows*) exe=toolcheck.exe ;; esac

mkdir -p "$dist/python" "$dist/npm"
stage="$(mktemp -d "${TMPDIR:-/tmp}/toolcheck-dist.XXXXXX")"
trap 'rm -rf "$stage"' EXIT
# `--target` only for another target: the host's build stays in target/release, where the
# pre-commit check's `cargo install` finds it already built.
target_args=()
if [ "$target" != "$host" ]; then
    target_args=(--target "$target")
fi
read -ra maturin_args <<<"${MATURIN_ARGS:-}"
"$maturin" build --release --locked "${target_args[@]}" "${maturin_args[@]}" --out "$stage/python"
wheel="$(ls "$stage"/python/*.whl)"
# Every channel ships the wheel's binary: the one maturin linked for the wheel's platform tag
# (with `--zig` it is not the one in target/release).
binary="$stage/$exe"
python="$(command -v python3 || command -v python)"
"$python" - "$wheel" "toolcheck-$version.data/scripts/$exe" "$binary" <<'PY'
import shutil, sys, zipfile
wheel, member, out = sys.argv[1:]
with zipfile.ZipFile(wheel) as archive, archive.open(member) as src, open(out, "wb") as dst:
    shutil.copyfileobj(src, dst)
PY
chmod 755 "$binary"
mv "$wheel" "$dist/python/"

# The npm packages: the platform's, then the launcher with one optional dependency per platform.
node - "$repo/npm/platforms.json" "$repo/npm/toolcheck/package.json" "$target" "$version" \
    "$repository" "$stage" <<'JS'
const fs = require("node:fs");
const path = require("node:path");
const [platformsFile, launcherFile, target, version, repository, stage] = process.argv.slice(2);
const platforms = JSON.parse(fs.readFileSync(platformsFile, "utf8"));
const launcher = JSON.parse(fs.readFileSync(launcherFile, "utf8"));
const platform = platforms[target];
if (!platform) {
  console.error(`no npm platform for ${target}: add it to npm/platforms.json`);
  process.exit(1);
}
// npm's provenance checks that the package names the repository the workflow ran in.
launcher.repository = { type: "git", url: `git+${repository}.git` };
const pkg = {
  name: platform.package,
  version,
  description: `The toolcheck binary for ${target}`,
  license: launcher.license,
  repository: launcher.repository,
  os: [platform.os],
  cpu: [platform.cpu],
  ...(platform.libc ? { libc: [platform.libc] } : {}),
  files: ["bin"],
  preferUnplugged: true,
};
fs.mkdirSync(path.join(stage, "platform", "bin"), { recursive: true });
fs.writeFileSync(path.join(stage, "platform", "package.json"), JSON.stringify(pkg, null, 2) + "\n");
launcher.version = version;
launcher.optionalDependencies = Object.fromEntries(
  Object.values(platforms).map((p) => [p.package, version]),
);
fs.mkdirSync(path.join(stage, "launcher", "bin"), { recursive: true });
fs.writeFileSync(path.join(stage, "launcher", "package.json"), JSON.stringify(launcher, null, 2) + "\n");
JS
cp "$binary" "$stage/platform/bin/$exe"
cp npm/toolcheck/bin/toolcheck.js "$stage/launcher/bin/"
cp npm/platforms.json README.md LICENSE "$stage/launcher/"
cp LICENSE "$stage/platform/"
(cd "$stage/platform" && npm pack --silent --pack-destination "$dist/npm" >/dev/null)
(cd "$stage/launcher" && npm pack --silent --pack-destination "$dist/npm" >/dev/null)

# The archive a release attaches and the Action downloads, with its checksum.
name="toolcheck-$version-$target"
mkdir -p "$stage/archive/$name/completions" "$stage/archive/$name/man"
cp "$binary" README.md LICENSE "$stage/archive/$name/"
# Completions and man pages are the same for every target: made by a binary that runs here (the
# host's, built when the target's cannot run on this machine).
runner="$binary"
if ! "$runner" --version >/dev/null 2>&1; then
    cargo build --release --locked
    runner="target/release/toolcheck"
fi
# Each shell's script under the name its completion directories expect.
for pair in bash:toolcheck.bash zsh:_toolcheck fish:toolcheck.fish powershell:_toolcheck.ps1 \
    elvish:toolcheck.elv; do
    "$runner" completions "${pair%%:*}" >"$stage/archive/$name/completions/${pair#*:}"
done
"$runner" man >"$stage/archive/$name/man/toolcheck.1"
# Each command's page (`man toolcheck-lint`): the commands `--help` lists, but `help`.
for command in $("$runner" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p'); do
    [ "$command" = help ] || "$runner" man "$command" >"$stage/archive/$name/man/toolcheck-$command.1"
done
case "$target" in
*windows*)
    archive="$name.zip"
    # Git for Windows has no zip; the runners have 7-Zip.
    if command -v zip >/dev/null; then
        (cd "$stage/archive" && rm -f "$dist/$archive" && zip -qr "$dist/$archive" "$name")
    else
        (cd "$stage/archive" && rm -f "$dist/$archive" && 7z a -tzip -bd "$dist/$archive" "$name" >/dev/null)
    fi
    ;;
*)
    archive="$name.tar.gz"
    tar -C "$stage/archive" -czf "$dist/$archive" "$name"
    ;;
esac
# macOS has shasum, not sha256sum; both print `<hash>  <name>`.
if command -v sha256sum >/dev/null; then
    (cd "$dist" && sha256sum "$archive" >"$archive.sha256")
else
    (cd "$dist" && shasum -a 256 "$archive" >"$archive.sha256")
fi
echo "built toolcheck $version for $target in $dist:"
(cd "$dist" && ls -1 python/*.whl "$archive" "$archive.sha256" npm/*.tgz)
