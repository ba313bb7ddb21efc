#!/usr/bin/env bash
# Builds toolcheck's release artifacts for one target into dist/ (or $DIST):
#   - the wheel (maturin, `bindings = "bin"`): dist/toolcheck-<version>-<tags>.whl
#   - the npm packages: dist/npm/toolcheck-<version>.tgz (the launcher) and the platform
#     package that holds the binary, dist/npm/toolcheck-cli-<platform>-<version>.tgz
#   - the archive with the binary, README, LICENSE, completions and man page, and its SHA-256:
#     dist/toolcheck-<version>-<target>.tar.gz (.zip on Windows) and .sha256
# The target is this machine's (rustc's host) unless TOOLCHECK_TARGET names another; the release
# workflow runs this script once per target. Cargo.toml's version is the one version of all.
# Needs maturin (MATURIN, else on PATH) and npm.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
dist="${DIST:-$repo/dist}"
maturin="${MATURIN:-maturin}"

version="$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)"
host="$(rustc -vV | sed -n 's/^host: //p')"
target="${TOOLCHECK_TARGET:-$host}"
exe=toolcheck
case "$target" in *windows*) exe=toolcheck.exe ;; esac

mkdir -p "$dist/npm"
# `--target` only for another target: the host's build stays in target/release, where the
# pre-commit check's `cargo install` finds it already built.
target_args=()
binary="target/release/$exe"
if [ "$target" != "$host" ]; then
    target_args=(--target "$target")
    binary="target/$target/release/$exe"
fi
"$maturin" build --release --locked "${target_args[@]}" --out "$dist"

# The npm packages: the platform's, then the launcher with one optional dependency per platform.
stage="$(mktemp -d "${TMPDIR:-/tmp}/toolcheck-dist.XXXXXX")"
trap 'rm -rf "$stage"' EXIT
node - "$repo/npm/platforms.json" "$repo/npm/toolcheck/package.json" "$target" "$version" "$stage" <<'JS'
const fs = require("node:fs");
const path = require("node:path");
const [platformsFile, launcherFile, target, version, stage] = process.argv.slice(2);
const platforms = JSON.parse(fs.readFileSync(platformsFile, "utf8"));
const launcher = JSON.parse(fs.readFileSync(launcherFile, "utf8"));
const platform = platforms[target];
if (!platform) {
  console.error(`no npm platform for ${target}: add it to npm/platforms.json`);
  process.exit(1);
}
const common = { version, license: launcher.license, description: launcher.description };
const pkg = {
  name: platform.package,
  ...common,
  description: `The toolcheck binary for ${target}`,
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
chmod 755 "$stage/platform/bin/$exe"
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
for command in $("$runner" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]\+\) .*/\1/p'); do
    [ "$command" = help ] || "$runner" man "$command" >"$stage/archive/$name/man/toolcheck-$command.1"
done
case "$target" in
*windows*)
    archive="$name.zip"
    (cd "$stage/archive" && rm -f "$dist/$archive" && zip -qr "$dist/$archive" "$name")
    ;;
*)
    archive="$name.tar.gz"
    tar -C "$stage/archive" -czf "$dist/$archive" "$name"
    ;;
esac
(cd "$dist" && sha256sum "$archive" >"$archive.sha256")
echo "built toolcheck $version for $target in $dist:"
(cd "$dist" && ls -1 ./*.whl "$archive" "$archive.sha256" npm/*.tgz)
