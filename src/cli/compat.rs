//! `toolcheck compat`.

use crate::error::{Error, Result};
use crate::lint::{Linter, Overrides};

use super::args::{CompatArgs, CompatFormat};
use super::lint::internal_error;
use super::{
    gather, input_paths, load_config_all, print, print_error, registry, terminal_width, use_color,
};

/// `toolcheck compat`: the same config, discovery and inputs as `lint`; the inputs are parsed
/// once and linted once per target, with only the `targets` rules (and `invalid-manifest`).
pub(super) fn run(args: CompatArgs) -> Result<i32> {
    let paths = input_paths(&args.paths, args.stdin_filename.as_deref())?;
    let (config, config_errors) = load_config_all(&args.config)?;
    let overrides = |targets: Option<Vec<String>>| Overrides {
        select: Some(vec![crate::catalog::Family::Targets.as_str().to_string()]),
        targets,
        server_name: args.server_name.clone(),
        ..Overrides::default()
    };
    // Every error of the config and of the targets it or `--target` names, at once.
    let (registry, linter) = Error::after(
        config_errors,
        registry(&config).and_then(|registry| {
            let linter = Linter::new(&registry, &config, &overrides(args.target.clone()))?;
            Ok((registry, linter))
        }),
    )?;
    // As `lint` reads them: `--target`, else `targets:`.
    let targets: Vec<String> = linter
        .targets()
        .selected
        .iter()
        .map(|profile| profile.name.to_string())
        .collect();
    if targets.is_empty() {
        return Err(
            Error::new("`compat` needs at least one target").with_help(format!(
                "name them with `--target a,b` or `targets:` in toolcheck.yaml; known targets: {}",
                crate::targets::known().join(", ")
            )),
        );
    }
    let (inputs, errors) = gather(
        &config,
        &args.discovery,
        &paths,
        "compat",
        args.stdin_filename.as_deref(),
    )?;
    let inputs = Error::after(errors, Ok(inputs))?;
    let parsed = linter.parse_all(inputs);
    let tools = parsed.tools(linter.encoding);
    let mut runs = Vec::with_capacity(targets.len());
    for target in &targets {
        let linter = Linter::new(&registry, &config, &overrides(Some(vec![target.clone()])))?;
        runs.push(crate::compat::TargetRun {
            target: target.clone(),
            reports: linter.lint_parsed(&parsed),
        });
    }
    let invalid_manifest = &registry
        .native::<crate::rules::meta::invalid_manifest::InvalidManifest>()
        .code;
    let matrix = crate::compat::build(&tools, runs, invalid_manifest);
    print(&match args.format {
        CompatFormat::Json => matrix.json(),
        CompatFormat::Human => matrix.human(use_color(args.color), terminal_width()),
    });
    let mut internal = false;
    for file in &matrix.files {
        if let Some(message) = &file.internal_error {
            print_error(&internal_error(&file.file, message));
            internal = true;
        }
    }
    Ok(if internal { 2 } else { matrix.exit_code() })
}
