//! `toolcheck tokens`.

use crate::catalog::Registry;
use crate::config::Config;
use crate::error::{Error, Result};
use crate::targets::tool_search::ToolSearch;
use crate::tokens::Encoding;

use super::args::{TokensArgs, TokensFormat};
use super::{gather, input_paths, load_config, print, print_error, use_color};

/// `toolcheck tokens`: the same config, discovery and inputs as `lint`.
pub(super) fn run(args: TokensArgs) -> Result<i32> {
    let live = args.live.request(&args.paths, None)?;
    let paths = match live {
        Some(_) => Vec::new(),
        None => input_paths(&args.paths, args.stdin_filename.as_deref())?,
    };
    let config = load_config(&args.config)?;
    let target = match &args.target {
        Some(name) => {
            let profile = crate::targets::find(name)?;
            let Some(count) = profile.tokens.clone() else {
                return Err(Error::new(format!(
                    "`{}` does not say how it counts tokens (the model behind it varies)",
                    profile.name
                ))
                .with_help("count as its model's provider does, e.g. `--target anthropic`"));
            };
            Some((profile.name.to_string(), count))
        }
        None => None,
    };
    // The target's encoding, unless `--tokenizer` says otherwise.
    let encoding = args
        .tokenizer
        .or(target.as_ref().map(|(_, count)| count.encoding))
        .unwrap_or(config.tokenizer);
    if let Some(name) = &args.session {
        return tokens_of_session(&args, &config, name, target);
    }
    if let Some(live) = live {
        let session = live.session.clone();
        let (captures, errors) = live.capture(args.live.limits());
        let window = args.window.unwrap_or(crate::token_report::DEFAULT_WINDOW);
        let report = live_tokens(&captures, session.as_ref(), target, encoding, window)?;
        print_tokens(&args, &report);
        for error in &errors {
            print_error(error);
        }
        return Ok(match (errors.is_empty(), report.has_errors()) {
            (false, _) => 2,
            (true, true) => 1,
            (true, false) => 0,
        });
    }
    let (inputs, errors) = gather(
        &config,
        &args.discovery,
        &paths,
        "tokens",
        args.stdin_filename.as_deref(),
    )?;
    let window = args.window.unwrap_or(crate::token_report::DEFAULT_WINDOW);
    let mut report = crate::token_report::report(inputs, &Registry::builtin()?, encoding, window);
    if let Some((name, count)) = &target {
        report.count_as(name, count);
    }
    print_tokens(&args, &report);
    // A file that could not be read: the others' counts stand, and the run fails.
    for error in &errors {
        print_error(error);
    }
    Ok(match (errors.is_empty(), report.has_errors()) {
        (false, _) => 2,
        (true, true) => 1,
        (true, false) => 0,
    })
}

/// The token report of captured servers, counted as `target` counts; a host config's servers
/// as one session of its host, counted as that host counts unless `target` says otherwise.
pub(super) fn live_tokens(
    captures: &[crate::read::live::Capture],
    session: Option<&(String, String)>,
    target: Option<(String, crate::targets::profile::TokenCount)>,
    encoding: Encoding,
    window: usize,
) -> Result<crate::token_report::Report> {
    let inputs = captures.iter().map(|capture| capture.input()).collect();
    let mut report = crate::token_report::report(inputs, &Registry::builtin()?, encoding, window);
    let target = target.or_else(|| session.and_then(|(_, host)| host_count(host)));
    if let Some((name, count)) = &target {
        report.count_as(name, count);
    }
    if let Some((name, host)) = session {
        let servers: Vec<String> = captures.iter().map(|c| c.name.clone()).collect();
        session_of(
            &mut report,
            name,
            host,
            ToolSearch::from_env(),
            &servers,
            encoding,
        );
    }
    Ok(report)
}

/// How `host` counts tokens, when its profile says (claude-code: Claude's estimate).
fn host_count(host: &str) -> Option<(String, crate::targets::profile::TokenCount)> {
    let profile = crate::targets::find(host).ok()?;
    let count = profile.tokens.clone()?;
    Some((profile.name.to_string(), count))
}

/// `toolcheck tokens --session NAME`: the session's files of toolcheck.yaml, counted together.
pub(super) fn tokens_of_session(
    args: &TokensArgs,
    config: &Config,
    name: &str,
    target: Option<(String, crate::targets::profile::TokenCount)>,
) -> Result<i32> {
    let crate::config::sessions::SessionInputs {
        session,
        inputs,
        servers,
    } = crate::config::sessions::session_inputs(config, name)?;
    // Counted as `--target` says, else as the session's host counts: its share of the window
    // is the host's.
    let target = target.or_else(|| host_count(&session.host.value));
    let encoding = args
        .tokenizer
        .or(target.as_ref().map(|(_, count)| count.encoding))
        .unwrap_or(config.tokenizer);
    let window = args.window.unwrap_or(session.window);
    let mut report = crate::token_report::report(inputs, &Registry::builtin()?, encoding, window);
    if let Some((name, count)) = &target {
        report.count_as(name, count);
    }
    session_of(
        &mut report,
        name,
        &session.host.value,
        session.tool_search,
        &servers,
        encoding,
    );
    print_tokens(args, &report);
    Ok(if report.has_errors() { 1 } else { 0 })
}

/// The session total of `report`'s files, loaded as `host` loads them (`servers[i]` is the
/// server of file `i`).
fn session_of(
    report: &mut crate::token_report::Report,
    name: &str,
    host: &str,
    tool_search: ToolSearch,
    servers: &[String],
    encoding: Encoding,
) {
    let loading = (host == crate::targets::tool_search::DEFERRING_HOST)
        .then(|| report.load_as_host(tool_search, servers, encoding));
    // The host's own tools are deferred when its tool search is on for the session's.
    let defers = loading
        .as_ref()
        .is_some_and(|loading| tool_search.always_defers() || loading.deferred_tools > 0);
    let mut session = crate::token_report::SessionTokens::of(report, name, host, servers);
    session.host_loading = loading;
    let profile = crate::targets::find(host).ok();
    if let Some(own) = profile
        .as_ref()
        .and_then(|profile| profile.host_tools.as_ref())
    {
        session.host_tools = Some(crate::token_report::HostToolTokens::of(
            own,
            &session,
            report.window,
            defers,
        ));
    }
    report.session = Some(session);
}

pub(super) fn print_tokens(args: &TokensArgs, report: &crate::token_report::Report) {
    print(&match args.format {
        TokensFormat::Json => crate::token_report::render_json(report),
        TokensFormat::Human => crate::token_report::render_human(
            report,
            crate::token_report::Style {
                color: use_color(args.color),
            },
        ),
    });
}
