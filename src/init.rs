//! `toolcheck init`: a commented `toolcheck.yaml` with every key at its default, and with
//! `--example` a manifest that lints clean, in the current directory.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::error::{Error, Result};
use crate::read::globs::Globs;

#[derive(Debug, Args)]
pub struct InitArgs {
    /// Also write an example manifest, `tools/example.tool.yaml`
    #[arg(long)]
    pub example: bool,
    /// Overwrite files that already exist
    #[arg(long)]
    pub force: bool,
}

/// Where `init` writes the config.
pub const CONFIG_PATH: &str = "toolcheck.yaml";
/// Where `init --example` writes the example manifest.
pub const EXAMPLE_PATH: &str = "tools/example.tool.yaml";

/// The config `init` writes. Lines `# key: value` are keys at their defaults (uncommenting
/// them changes nothing); the other comment lines explain them.
pub const CONFIG_TEMPLATE: &str = r#"# toolcheck.yaml: settings for toolcheck, the linter for LLM tool definitions.
# Every key is optional; each is shown commented out with its default value.
# Uncomment a key to change it. `toolcheck rules` lists the rules, `toolcheck explain RULE`
# documents one.

# Globs of the files to lint when a directory is walked. They match a file's path relative to
# this file's directory, however the path is typed on the command line.
# include: ["**/*.tool.{yaml,yml,json}", "**/*.tools.{yaml,yml,json}"]

# Globs of files never linted when a directory is walked, e.g. ["vendor/**"].
# exclude: []

# How a walked directory's files are chosen: include (the globs above) or content (also any
# .json, .yaml or .yml file whose content is a tool definition, such as MCP tools/list captures).
# discovery: include

# Whether a walked directory's source files (.ts, .tsx, .js, .mjs, .cjs) that register tools
# (MCP SDK registerTool / tool, FastMCP addTool, tools written as tools/list returns them) are
# linted where the tools are written.
# source-files: true

# Token encoding for the token budgets: o200k_base or cl100k_base.
# tokenizer: o200k_base

# The largest file read, in bytes (32 MiB); a larger one is an error, not a slow run.
# max-file-size: 33554432

# Directories of your own rule files (the same format as toolcheck's rules/), e.g. ["./team-rules"].
# rulesets: []

# Report only findings that this file does not record (`toolcheck lint --write-baseline FILE`
# writes it), e.g. toolcheck-baseline.json. Relative to this file's directory.
# baseline: null

# Providers and hosts to check the tools against (the `targets` rules, TC6xx), e.g.
# [anthropic, openai-strict, gemini, claude-code, cursor]; `toolcheck explain --target NAME`
# shows what one accepts, with sources. None: the TC6xx rules find nothing.
# targets: []

# Files that one host loads together, judged as a whole by the set rules (TC107, TC108, TC502
# compare by the name the host sends), e.g.
# [{name: dev-laptop, host: claude-code, window: 200000, files: [servers/github.json]}];
# `tool-search:` (true, false, auto, auto:N) is Claude Code's ENABLE_TOOL_SEARCH.
# sessions: []

# rules:
#   Rules to run: codes (TC209), prefixes (TC2), names (absolute-words), families (wording), ALL.
#   select: [ALL]
#   Rules not to run, with the same selectors; at equal specificity ignore beats select.
#   ignore: []
#   Severity by rule or selector: error, warning, info or "off", e.g. {absolute-words: warning}.
#   severity: {}
#   Options by rule name, e.g. {description-too-long: {max-tokens: 600}}.
#   options: {}
#   Rules not to run on some files: a glob, optionally with #/json/pointer, to a list of rules,
#   e.g. {"legacy/**": [TC101]}.
#   per-file-ignores: {}
"#;

/// The example manifest `init --example` writes; it lints clean with the default config.
pub const EXAMPLE_MANIFEST: &str = r#"# An example tool in toolcheck's own manifest format. `toolcheck lint` checks it; edit it
# or replace it with your own tools (MCP, Anthropic, OpenAI and Gemini formats work too).
name: get_weather
description: |
  Get the current weather for a city. Use it when the user asks about conditions right now;
  do not use it for forecasts. Temperatures are in degrees Celsius.
input_schema:
  type: object
  properties:
    city:
      type: string
      description: The city name, such as Berlin or Lagos
  required: [city]
"#;

/// A note when the existing config would not lint the example by walking `dir`.
fn example_reach(dir: &Path, config: &str) -> String {
    let reached = crate::config::Config::load(&dir.join(config)).is_ok_and(|config| {
        let include = Globs::new(&config.root, &config.include);
        let exclude = Globs::new(&config.root, &config.exclude);
        let example = config.root.join(EXAMPLE_PATH);
        match (include, exclude) {
            (Ok(include), Ok(exclude)) => {
                let name = include.base().name(&example);
                include.matches(&name) && !exclude.matches(&name)
            }
            _ => false,
        }
    });
    if reached {
        String::new()
    } else {
        format!(
            "note: the `include`/`exclude` of {config} leave {EXAMPLE_PATH} out; lint it with `toolcheck lint {EXAMPLE_PATH}`\n"
        )
    }
}

/// Writes the files into the current directory; returns what to print.
pub fn run(args: &InitArgs) -> Result<String> {
    let cwd = std::env::current_dir()
        .map_err(|error| Error::new(format!("cannot read the current directory: {error}")))?;
    write_files(&cwd, args)
}

/// Writes the files into `dir`. Nothing is written when any of them exists without `force`,
/// except that `--example` beside an existing config writes the example alone: the config is
/// kept, and the output says so.
pub fn write_files(dir: &Path, args: &InitArgs) -> Result<String> {
    let mut files: Vec<(&str, &str)> = vec![(CONFIG_PATH, CONFIG_TEMPLATE)];
    if args.example {
        files.push((EXAMPLE_PATH, EXAMPLE_MANIFEST));
    }
    let mut kept = None;
    if !args.force {
        let existing: Vec<&str> = files
            .iter()
            .map(|(path, _)| *path)
            .filter(|path| dir.join(path).exists())
            .collect();
        if args.example && existing == [CONFIG_PATH] {
            files.retain(|(path, _)| *path != CONFIG_PATH);
            kept = Some(CONFIG_PATH);
        } else if !existing.is_empty() {
            return Err(Error::new(format!(
                "{} already exist{}; nothing was written",
                existing
                    .iter()
                    .map(|path| format!("`{path}`"))
                    .collect::<Vec<_>>()
                    .join(" and "),
                if existing.len() == 1 { "s" } else { "" }
            ))
            .with_help("pass --force to overwrite"));
        }
    }
    let mut out = String::new();
    for (path, text) in files {
        let full: PathBuf = dir.join(path);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent).map_err(|error| {
                Error::new(format!("cannot create `{}`: {error}", parent.display()))
            })?;
        }
        crate::atomic_write::replace(&full, text.as_bytes())
            .map_err(|error| Error::new(format!("cannot write `{path}`: {error}")))?;
        out.push_str(&format!("wrote {path}\n"));
    }
    if let Some(config) = kept {
        out.insert_str(0, &format!("kept {config}, which exists\n"));
        out.push_str(&example_reach(dir, config));
    }
    Ok(out)
}
