//! What needs a whole run before it writes: `--diff`, `--fix`, `--write-baseline`.

use std::ops::ControlFlow;

use crate::error::{Error, Result};
use crate::lint::{FileReport, Linter};
use crate::read::Input;

use super::super::args::LintArgs;
use super::super::print;

/// Lints the whole run for the options that need all of it: `--diff` (printed here),
/// `--fix` (applied here), `--write-baseline` (written here) and `--statistics`. `Break`:
/// nothing more to print; exit with this code.
pub(super) fn lint_whole(
    linter: &Linter,
    args: &LintArgs,
    mut inputs: Vec<Input>,
) -> Result<ControlFlow<i32, Vec<FileReport>>> {
    let mut reports = linter.lint_all(if args.fix {
        inputs.clone()
    } else {
        std::mem::take(&mut inputs)
    });
    if args.diff {
        let code = print_diff(&reports);
        if code == 0 && !args.quiet {
            // stdout stays an empty diff, for `patch` or `git apply`.
            eprintln!("nothing to fix: no finding of this run has a fix");
        }
        return Ok(ControlFlow::Break(code));
    }
    if args.fix {
        // A fix can reveal another (two findings on one span): a few passes at most, each on
        // the inputs as fixed (standard input is read once).
        let mut fixed = 0;
        for _ in 0..4 {
            let count = fix_files(&reports, args, &mut inputs)?;
            if count == 0 {
                break;
            }
            fixed += count;
            reports = linter.lint_all(inputs.clone());
        }
        if fixed > 0 {
            eprintln!("fixed {fixed} finding{}", if fixed == 1 { "" } else { "s" });
        }
        if fixes_stdin(args) {
            // As `ruff --fix -` does: the text, fixed or not, for an editor to put back.
            if let Some(input) = inputs.first() {
                use std::io::Write;
                std::io::stdout()
                    .write_all(&input.bytes)
                    .map_err(|error| Error::new(format!("cannot write the output: {error}")))?;
            }
        }
    }
    if let Some(path) = &args.write_baseline {
        let count = crate::suppress::baseline::write(path, &reports)?;
        let kept = match count.kept {
            0 => String::new(),
            1 => "; kept 1 entry of a file this run did not lint".to_string(),
            kept => format!("; kept {kept} entries of files this run did not lint"),
        };
        eprintln!(
            "wrote {} finding{} to the baseline {}{kept}",
            count.written,
            if count.written == 1 { "" } else { "s" },
            path.display()
        );
        return Ok(ControlFlow::Break(0));
    }
    Ok(ControlFlow::Continue(reports))
}

/// Prints each file's fixes as a unified diff; 1 when there is any, else 0.
pub(super) fn print_diff(reports: &[FileReport]) -> i32 {
    let mut any = false;
    for report in reports.iter().filter(|report| report.linted) {
        if let Some((fixed, _)) = crate::fix::apply(&report.file.text, &report.diagnostics) {
            print(&crate::fix::diff(
                &report.file.name,
                &report.file.text,
                &fixed,
            ));
            any = true;
        }
    }
    i32::from(any)
}

/// Whether `--fix` is on standard input: then its fixed text is the output, and the findings
/// go to stderr (`-` is the only input, [`check_fix_paths`]).
pub(super) fn fixes_stdin(args: &LintArgs) -> bool {
    args.fix && args.paths.iter().any(|path| path.as_os_str() == "-")
}

/// `--fix` prints standard input's fixed text: it cannot share the output with other files.
pub(super) fn check_fix_paths(args: &LintArgs) -> Result<()> {
    if fixes_stdin(args) && args.paths.len() > 1 {
        return Err(Error::new(
            "`--fix` on standard input prints its fixed text, so `-` must be the only path",
        )
        .with_help("fix the files in a run of their own, or lint them without `--fix`"));
    }
    Ok(())
}

/// Writes the fixes of every file read from disk and puts the fixed text in its `inputs`
/// (standard input's only there); returns how many findings they fixed.
pub(super) fn fix_files(
    reports: &[FileReport],
    args: &LintArgs,
    inputs: &mut [Input],
) -> Result<usize> {
    let by_name: std::collections::HashMap<String, usize> = inputs
        .iter()
        .enumerate()
        .map(|(index, input)| (input.name.clone(), index))
        .collect();
    let stdin = args
        .paths
        .iter()
        .any(|path| path.as_os_str() == "-")
        .then(|| args.stdin_filename.as_deref().unwrap_or("-"));
    let mut fixed = 0;
    for report in reports.iter().filter(|report| report.linted) {
        let Some(&index) = by_name.get(&report.file.name) else {
            continue;
        };
        if let Some((text, count)) = crate::fix::apply(&report.file.text, &report.diagnostics) {
            if Some(report.file.name.as_str()) == stdin {
                inputs[index].bytes = text.into_bytes();
                fixed += count;
                continue;
            }
            let path = std::path::Path::new(&report.file.name);
            // Another run or an editor may have written the file since it was read: its
            // changes would be lost under these fixes.
            if std::fs::read(path).ok().as_deref() != Some(inputs[index].bytes.as_slice()) {
                return Err(Error::new(format!(
                    "{} changed while toolcheck was fixing it; its fixes were not written",
                    report.file.name
                ))
                .with_help("run `toolcheck lint --fix` again on the file as it is now"));
            }
            crate::atomic_write::replace(path, text.as_bytes()).map_err(|error| {
                Error::new(format!(
                    "cannot write the fixes to {}: {error}",
                    report.file.name
                ))
            })?;
            inputs[index].bytes = text.into_bytes();
            fixed += count;
        }
    }
    Ok(fixed)
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::cli::args::{Cli, Command};
    use crate::cli::{load_config, registry};
    use crate::lint::Overrides;

    /// Another run or an editor writes the file between toolcheck's read and its fix: the fix
    /// is refused, and the other writer's text stays.
    #[test]
    fn fixes_are_not_written_over_a_file_changed_since_it_was_read() {
        let dir = std::env::temp_dir().join(format!("toolcheck-fix-race-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("tools.yaml");
        let text = "name: area\ndescription: Calculate an area. Not for volumes.\n\
                    input_schema: { type: dict, properties: { base: { type: integer } } }\n";
        std::fs::write(&path, text).unwrap();
        let name = path.display().to_string();
        let Command::Lint(args) =
            Cli::parse_from(["toolcheck", "lint", "--fix", "--no-config", &name]).command
        else {
            unreachable!("a lint command")
        };
        let config = load_config(&args.config).unwrap();
        let registry = registry(&config).unwrap();
        let linter = Linter::new(&registry, &config, &Overrides::default()).unwrap();
        let mut inputs = vec![Input {
            name: name.clone(),
            bytes: text.as_bytes().to_vec(),
        }];
        let reports = linter.lint_all(inputs.clone());
        assert!(
            crate::fix::apply(&reports[0].file.text, &reports[0].diagnostics).is_some(),
            "the fixture has a fix to write"
        );
        std::fs::write(&path, "edited meanwhile\n").unwrap();
        let error = fix_files(&reports, &args, &mut inputs).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("changed while toolcheck was fixing it"),
            "{error}"
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "edited meanwhile\n"
        );
        // Unchanged, the same fix is written.
        std::fs::write(&path, text).unwrap();
        assert_eq!(fix_files(&reports, &args, &mut inputs).unwrap(), 1);
        assert!(
            std::fs::read_to_string(&path)
                .unwrap()
                .contains("type: object")
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
