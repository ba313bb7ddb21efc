#!/usr/bin/env node
// Runs the toolcheck binary that npm installed beside this package: one optional dependency per
// platform holds it (npm installs only the one whose os, cpu and libc match), so nothing is
// downloaded after install and a registry mirror is enough.
"use strict";
const { spawnSync } = require("node:child_process");
const path = require("node:path");

const platforms = require(path.join(__dirname, "..", "platforms.json"));

function isMusl() {
  if (process.platform !== "linux") return false;
  try {
    // glibc's version is in the report only where node runs on glibc.
    return !process.report.getReport().header.glibcVersionRuntime;
  } catch {
    return false;
  }
}

function fail(message) {
  process.stderr.write(`toolcheck: ${message}\n`);
  process.exit(2);
}

const libc = isMusl() ? "musl" : "glibc";
const platform = Object.values(platforms).find(
  (p) => p.os === process.platform && p.cpu === process.arch && (!p.libc || p.libc === libc),
);
if (!platform) {
  fail(
    `no prebuilt binary for ${process.platform}-${process.arch}; ` +
      "build it from source (`cargo install --locked --path .` in a checkout of toolcheck) and " +
      "run the toolcheck on PATH",
  );
}

const exe = process.platform === "win32" ? "toolcheck.exe" : "toolcheck";
let binary;
try {
  binary = require.resolve(`${platform.package}/bin/${exe}`);
} catch {
  fail(
    `${platform.package}, which holds the binary, is not installed (npm skips optional ` +
      "dependencies with --omit=optional, and when it cannot fetch them): run npm install " +
      "again, without --omit=optional",
  );
}

const result = spawnSync(binary, process.argv.slice(2), { stdio: "inherit" });
if (result.error) fail(`cannot run ${binary}: ${result.error.message}`);
if (result.signal) process.kill(process.pid, result.signal);
process.exit(result.status ?? 2);
