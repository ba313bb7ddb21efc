//! `toolcheck snapshot`.

use crate::error::{Error, Result};

use super::args::SnapshotArgs;
use super::print_error;

/// `toolcheck snapshot`: write (or `--check`) each server's snapshot.
pub(super) fn run(args: SnapshotArgs) -> Result<i32> {
    let Some(live) = args
        .live
        .request(&args.command, args.server_name.as_deref())?
    else {
        return Err(Error::new("name the servers to snapshot").with_help(
            "`toolcheck snapshot --mcp -- CMD ARGS...` or `toolcheck snapshot --host-config \
             .mcp.json`",
        ));
    };
    let names = live.names();
    crate::snapshot::refuse_collisions(names.iter().map(String::as_str))?;
    let (captures, errors) = live.capture(args.live.limits());
    let mut code = 0;
    if args.check {
        crate::snapshot::refuse_collisions(captures.iter().map(|capture| capture.name.as_str()))?;
        for capture in &captures {
            let path = args.output.join(crate::snapshot::file_name(&capture.name));
            let shown = path.display();
            match crate::snapshot::check(capture, &path)? {
                crate::snapshot::Check::Same => eprintln!("{shown}: up to date"),
                crate::snapshot::Check::Missing => {
                    println!("{shown}: no snapshot of `{}` yet", capture.name);
                    code = 1;
                }
                crate::snapshot::Check::Differs(changes) => {
                    println!("{shown}: `{}` lists something else now", capture.name);
                    for change in changes {
                        println!("  {change}");
                    }
                    code = 1;
                }
            }
        }
        if code == 1 {
            eprintln!(
                "hint: run the same `toolcheck snapshot` without `--check` to update the \
                 snapshots, and review the change"
            );
        }
    } else {
        for path in crate::snapshot::write(&captures, &args.output)? {
            eprintln!("wrote {}", path.display());
        }
    }
    for error in &errors {
        print_error(error);
    }
    Ok(if errors.is_empty() { code } else { 2 })
}
