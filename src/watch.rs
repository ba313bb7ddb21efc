//! `lint --watch`: lint, then lint again whenever a linted file, the config file or the set of
//! files changes. Polling (a stat of each file a few times a second) rather than OS file events:
//! no dependency, the same on every platform and file system, and cheap for the tens of files
//! a tool set has.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

/// How often the files are looked at.
const POLL: Duration = Duration::from_millis(250);

/// What a change is measured by: each watched file's path, modification time and length.
type State = Vec<(PathBuf, Option<SystemTime>, u64)>;

/// Runs `lint` now and after every change of the files `watched` returns (it is asked again
/// each time, so a new or deleted file counts), until the process is stopped.
pub fn run(mut watched: impl FnMut() -> Vec<PathBuf>, mut lint: impl FnMut()) -> ! {
    let mut last = state(watched());
    lint();
    loop {
        std::thread::sleep(POLL);
        let now = state(watched());
        if now != last {
            last = now;
            lint();
        }
    }
}

fn state(mut paths: Vec<PathBuf>) -> State {
    paths.sort();
    paths.dedup();
    paths
        .into_iter()
        .map(|path| {
            let metadata = std::fs::metadata(&path).ok();
            let modified = metadata.as_ref().and_then(|m| m.modified().ok());
            let len = metadata.map_or(0, |m| m.len());
            (path, modified, len)
        })
        .collect()
}
