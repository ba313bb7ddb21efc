//! The processes of stdio servers: each in a process group of its own, stopped as the MCP
//! spec's shutdown describes (standard input closed, a grace period, then `SIGTERM` and
//! `SIGKILL` to the group), and every group still running ended when toolcheck is interrupted.

use std::process::ExitStatus;
use std::time::Duration;

use tokio::process::Child;

/// How long a server may take to exit once its standard input is closed.
const GRACE: Duration = Duration::from_secs(2);

/// The process groups of the servers running now: ended if toolcheck is interrupted.
#[cfg(unix)]
static RUNNING: std::sync::Mutex<std::collections::BTreeSet<i32>> =
    std::sync::Mutex::new(std::collections::BTreeSet::new());

/// Ends every server still running (Ctrl-C): its group is told to stop, then killed.
pub(super) fn end_all() {
    #[cfg(unix)]
    if let Ok(running) = RUNNING.lock() {
        for id in running.iter() {
            signal_group(*id, libc::SIGTERM);
        }
        std::thread::sleep(Duration::from_millis(200));
        for id in running.iter() {
            signal_group(*id, libc::SIGKILL);
        }
    }
}

/// The first of the signals that end a run (`SIGINT`, `SIGTERM`, `SIGHUP`): its number, and
/// what to say of it.
pub(super) async fn stop_signal() -> (i32, &'static str) {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
        (2, "interrupted")
    };
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let on = |kind: SignalKind, number: i32, what: &'static str| {
            let listener = signal(kind).ok();
            async move {
                match listener {
                    Some(mut listener) => {
                        listener.recv().await;
                        (number, what)
                    }
                    // Not listened to: this one never comes.
                    None => std::future::pending().await,
                }
            }
        };
        let others = super::first(
            on(SignalKind::terminate(), libc::SIGTERM, "terminated"),
            on(SignalKind::hangup(), libc::SIGHUP, "hung up"),
        );
        match super::first(interrupt, others).await {
            super::Either::Left(stop) => stop,
            super::Either::Right(super::Either::Left(stop) | super::Either::Right(stop)) => stop,
        }
    }
    #[cfg(not(unix))]
    interrupt.await
}

/// Makes toolcheck the parent of every orphan below it (Linux: a child subreaper), so that a
/// server's helper that detached itself (`setsid`, a daemon's double fork) can be ended.
pub(super) fn adopt_orphans() {
    #[cfg(target_os = "linux")]
    // SAFETY: `prctl` with these arguments reads and writes no memory of ours.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
}

/// Ends the processes left as toolcheck's children once its servers are stopped: descendants
/// that detached from a server's group and came back through [`adopt_orphans`]. Each is asked
/// to stop, then killed, and reaped; one that cannot be ended is named.
pub(super) fn end_orphans() {
    #[cfg(target_os = "linux")]
    {
        let mut left = children();
        if left.is_empty() {
            return;
        }
        for &pid in &left {
            // SAFETY: plain integers.
            unsafe { libc::kill(pid, libc::SIGTERM) };
        }
        for round in 0..60 {
            left.retain(|&pid| !reaped(pid));
            if left.is_empty() {
                return;
            }
            if round == 40 {
                for &pid in &left {
                    // SAFETY: plain integers.
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                }
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        for pid in left {
            eprintln!(
                "warning: process {pid}, started by a server and detached from it, could not be \
                 ended"
            );
        }
    }
}

/// toolcheck's child processes, from `/proc`.
#[cfg(target_os = "linux")]
fn children() -> Vec<i32> {
    let me = std::process::id().to_string();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            // `pid (comm) state ppid ...`: the fields after the last `)`.
            stat.rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1))
                == Some(me.as_str())
        })
        .collect()
}

/// Whether the child `pid` has exited (and is now reaped).
#[cfg(target_os = "linux")]
fn reaped(pid: i32) -> bool {
    let mut status = 0;
    // SAFETY: `status` is a valid place for the exit status.
    let waited = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
    waited == pid || waited == -1
}

/// The server's process group (its own: `process_group(0)`), so that what it started ends too.
pub(super) struct Group {
    #[cfg(unix)]
    id: Option<i32>,
}

impl Group {
    pub(super) fn of(child: &Child) -> Group {
        #[cfg(unix)]
        {
            let id = child.id().and_then(|id| i32::try_from(id).ok());
            if let (Some(id), Ok(mut running)) = (id, RUNNING.lock()) {
                running.insert(id);
            }
            Group { id }
        }
        #[cfg(not(unix))]
        {
            let _ = child;
            Group {}
        }
    }

    /// Waits for the server to exit after its standard input closed; then ends the group.
    /// Returns how the server exited, when it did.
    pub(super) async fn stop(&self, child: &mut Child) -> Option<ExitStatus> {
        let mut status = tokio::time::timeout(GRACE, child.wait())
            .await
            .ok()
            .and_then(|status| status.ok());
        #[cfg(unix)]
        if let Some(id) = self.id {
            // What the server started may outlive it: the whole group is asked, then told.
            if signal_group(id, libc::SIGTERM) {
                if status.is_none() {
                    status = tokio::time::timeout(GRACE / 2, child.wait())
                        .await
                        .ok()
                        .and_then(|status| status.ok());
                }
                for _ in 0..50 {
                    if !signal_group(id, 0) {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                signal_group(id, libc::SIGKILL);
            }
            if let Ok(mut running) = RUNNING.lock() {
                running.remove(&id);
            }
        }
        if status.is_none() {
            let _ = child.kill().await;
            status = child.try_wait().ok().flatten();
        }
        status
    }
}

/// Sends `signal` to the process group `id`; whether the group still had a process.
#[cfg(unix)]
fn signal_group(id: i32, signal: i32) -> bool {
    // SAFETY: `killpg` takes plain integers and touches no memory of ours.
    unsafe { libc::killpg(id, signal) == 0 }
}
