//! `toolcheck diff`.

use std::io::Write;

use crate::error::{Error, Result};
use crate::lint::{Linter, Overrides};

use super::args::{DiffArgs, DiffFailOn, DiffFormat};
use super::lint::internal_error;
use super::{load_config_all, print, print_error, registry, use_color};

/// `toolcheck diff`: both sides read with the config and discovery of `lint`, and linted with
/// the same settings.
pub(super) fn run(args: DiffArgs) -> Result<i32> {
    use crate::diff::{FailOn, Spec};
    let spec = match (&args.git, args.paths.as_slice()) {
        (Some(range), paths) => {
            let (old, new) = match range.split_once("..") {
                Some((old, new)) => (old.to_string(), Some(new.to_string())),
                None => (range.clone(), None),
            };
            Spec::Git {
                old,
                new,
                paths: paths.to_vec(),
            }
        }
        (None, [old, new]) => Spec::Paths {
            old: old.clone(),
            new: new.clone(),
        },
        (None, _) => {
            return Err(Error::new(format!(
                "`toolcheck diff` takes OLD and NEW, got {} path{}",
                args.paths.len(),
                if args.paths.len() == 1 { "" } else { "s" }
            ))
            .with_help(
                "give two files or two directories, or `--git REV [PATHS]` to compare PATHS at a \
                 revision with the working tree",
            ));
        }
    };
    let (config, config_errors) = load_config_all(&args.config)?;
    let overrides = Overrides {
        tokenizer: args.tokenizer,
        ..Overrides::default()
    };
    let (registry, linter) = Error::after(
        config_errors,
        registry(&config).and_then(|registry| {
            let linter = Linter::new(&registry, &config, &overrides)?;
            Ok((registry, linter))
        }),
    )?;
    let (old, new) = crate::diff::load::load(
        &spec,
        &config,
        &args.discovery.overrides(),
        config.max_file_size,
    )?;
    let report = crate::diff::diff(old, new, &registry, &linter);
    match args.format {
        DiffFormat::Human => print(&crate::diff::render::human(&report, use_color(args.color))),
        DiffFormat::Json => {
            let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
            // As `print`: a closed pipe is the reader's choice.
            let _ = crate::diff::render::write_json(&report, &mut stdout);
            let _ = stdout.flush();
        }
        DiffFormat::Markdown => print(&crate::diff::render::markdown(&report)),
    }
    for error in &report.internal_errors {
        let (file, message) = error.split_once(": ").unwrap_or((error, ""));
        print_error(&internal_error(file, message));
    }
    for unreadable in &report.unreadable {
        let (file, why) = unreadable.split_once(": ").unwrap_or((unreadable, ""));
        print_error(
            &Error::new(format!(
                "cannot compare {file}: it cannot be read as tools: {why}"
            ))
            .with_help("`toolcheck lint` on the file shows where it breaks"),
        );
    }
    let code = report.exit_code(match args.fail_on {
        DiffFailOn::Breaking => FailOn::Breaking,
        DiffFailOn::Risky => FailOn::Risky,
        DiffFailOn::Any => FailOn::Any,
        DiffFailOn::Never => FailOn::Never,
    });
    crate::parallel::drop_in_background(report);
    Ok(code)
}
