//! `toolcheck lint --show-settings`.

use crate::config::Config;
use crate::error::Result;
use crate::lint::Linter;
use crate::read::discover::{Discovery, InputPath};

use super::super::args::LintArgs;

/// `--show-settings`: what a run over `args.paths` would use, resolved.
pub(super) fn show_settings(config: &Config, linter: &Linter, args: &LintArgs) -> Result<String> {
    let list = |items: &[String]| {
        if items.is_empty() {
            "(none)".to_string()
        } else {
            items.join(", ")
        }
    };
    let mut out = String::new();
    let file = config.file.as_ref().map(|file| file.name.as_str());
    out.push_str(&format!(
        "config file: {}\n",
        file.unwrap_or("(none: defaults)")
    ));
    let root = std::path::absolute(&config.root).unwrap_or_else(|_| config.root.clone());
    out.push_str(&format!("root: {}\n", root.display()));
    let flags = &args.discovery;
    out.push_str(&format!(
        "include: {}\n",
        list(flags.include.as_ref().unwrap_or(&config.include))
    ));
    let mut exclude = flags.exclude.clone().unwrap_or(config.exclude.clone());
    exclude.extend(flags.extend_exclude.iter().cloned());
    out.push_str(&format!("exclude: {}\n", list(&exclude)));
    let discovery = flags.discovery.unwrap_or(config.discovery);
    out.push_str(&format!("discovery: {discovery:?}\n").to_lowercase());
    out.push_str(&format!("source-files: {}\n", config.source_files));
    out.push_str(&format!("tokenizer: {}\n", linter.encoding.as_str()));
    out.push_str(&format!("max-file-size: {} bytes\n", config.max_file_size));
    let baseline = args.baseline.clone().or_else(|| config.baseline.clone());
    out.push_str(&format!(
        "baseline: {}\n",
        baseline.map_or("(none)".to_string(), |path| path.display().to_string())
    ));
    let rulesets: Vec<String> = config
        .rulesets
        .iter()
        .map(|dir| dir.display().to_string())
        .collect();
    out.push_str(&format!("rulesets: {}\n", list(&rulesets)));
    out.push_str("per-file-ignores:");
    if config.per_file_ignores.is_empty() {
        out.push_str(" (none)");
    }
    out.push('\n');
    for (pattern, rules) in &config.per_file_ignores {
        let rules: Vec<String> = rules.iter().map(|rule| rule.value.clone()).collect();
        out.push_str(&format!("  {}: {}\n", pattern.value, rules.join(", ")));
    }
    out.push_str("sessions:");
    if config.sessions.is_empty() {
        out.push_str(" (none)");
    }
    out.push('\n');
    for session in &config.sessions {
        let files: Vec<String> = session
            .files
            .iter()
            .map(|file| match &file.server {
                Some(server) => format!("{} (server {server})", file.path.value),
                None => file.path.value.clone(),
            })
            .collect();
        out.push_str(&format!(
            "  {}: host {}, window {}, files: {}\n",
            session.name.value,
            session.host.value,
            session.window,
            files.join(", ")
        ));
    }
    let paths = Discovery::new(
        config.discovery_settings(),
        &args.discovery.overrides(),
        "lint",
    )?
    .discover(&args.paths)?
    .paths;
    out.push_str(&format!("files ({}):\n", paths.len()));
    for path in paths {
        match path {
            InputPath::Stdin => out.push_str("  - (standard input)\n"),
            InputPath::File(path) => out.push_str(&format!(
                "  {}\n",
                crate::read::discover::display_name(&path)
            )),
        }
    }
    out.push_str(&rules(linter));
    Ok(out)
}

/// Every rule's code, name, severity and options, a line each.
fn rules(linter: &Linter) -> String {
    let mut out = String::new();
    out.push_str("rules:\n");
    let width = linter
        .settings()
        .iter()
        .map(|rule| rule.name.len())
        .max()
        .unwrap_or(0);
    for rule in linter.settings() {
        let severity = rule.severity.map_or("off", |severity| severity.as_str());
        let mut line = format!("  {} {:<width$} {:<7}", rule.code, rule.name, severity);
        if !rule.options.is_empty() {
            line.push(' ');
            line.push_str(&serde_json::to_string(&rule.options).unwrap_or_default());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
