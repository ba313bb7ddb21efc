//! What the `search` checks share: the index over one file's tools or one session's, each
//! doc's owner, and the "why" of a ranking as a message shows it.

use crate::diagnostic::Field;
use crate::normalize::{Tool, ToolSet};
use crate::parse::Node;
use crate::rule::{Anchor, Ctx, SessionRef, SetRef};
use crate::rules::targets::helpers::{ServerName, wire_of};
use crate::search::docs::{Naming, docs_of, is_server};
use crate::search::{Doc, Engine, Hit, Index};

/// The tools searched together, indexed once.
pub struct Searched<'s, 'a> {
    pub index: Index,
    /// The owner of each doc: the index of its set, and the tool.
    pub owners: Vec<(usize, &'s Tool<'a>)>,
}

/// The tools to search together, before the index is built (a check that may find nothing
/// to search for looks at them first).
pub struct Unindexed<'s, 'a> {
    pub docs: Vec<Doc>,
    pub owners: Vec<(usize, &'s Tool<'a>)>,
}

impl<'s, 'a> Unindexed<'s, 'a> {
    pub fn index(self) -> Searched<'s, 'a> {
        Searched {
            index: Index::new(self.docs),
            owners: self.owners,
        }
    }
}

/// One file's tools, named as Claude Code sends them when the engine sees host names and the
/// file is an MCP server's (the server name as `targets` rules find it; the file name when
/// unknown: within one file it scores every tool alike).
pub fn of_set<'s, 'a>(set: &'s ToolSet<'a>, ctx: &Ctx<'_>, engine: Engine) -> Searched<'s, 'a> {
    docs_of_set(set, ctx, engine).index()
}

/// [`of_set`] before the index is built.
pub fn docs_of_set<'s, 'a>(
    set: &'s ToolSet<'a>,
    ctx: &Ctx<'_>,
    engine: Engine,
) -> Unindexed<'s, 'a> {
    let host = engine
        .host_names()
        .then(|| crate::targets::find("claude-code").ok())
        .flatten();
    let server = is_server(set).then(|| ServerName::of(set, ctx).name);
    let naming = Naming {
        wire: host.as_deref().and_then(wire_of),
        server: server.as_deref(),
    };
    let mut docs = Vec::with_capacity(set.tools.len());
    let mut owners = Vec::with_capacity(set.tools.len());
    for (index, doc) in docs_of(set, &ctx.file.name, &naming) {
        docs.push(doc);
        owners.push((0, &set.tools[index]));
    }
    Unindexed { docs, owners }
}

/// A session's tools, named as its host sends them.
pub fn of_session<'s, 'a>(session: &SessionRef<'_>, sets: &'s [SetRef<'a>]) -> Searched<'s, 'a> {
    docs_of_session(session, sets).index()
}

/// [`of_session`] before the index is built.
pub fn docs_of_session<'s, 'a>(
    session: &SessionRef<'_>,
    sets: &'s [SetRef<'a>],
) -> Unindexed<'s, 'a> {
    let wire = wire_of(session.host);
    let mut docs = Vec::new();
    let mut owners = Vec::new();
    for (set_index, set) in sets.iter().enumerate() {
        let naming = Naming {
            wire,
            server: session.servers.get(set_index).copied(),
        };
        for (index, doc) in docs_of(set.set, &set.file.name, &naming) {
            docs.push(doc);
            owners.push((set_index, &set.set.tools[index]));
        }
    }
    Unindexed { docs, owners }
}

/// A score as a message shows it.
pub fn number(score: f64) -> String {
    if score.fract() == 0.0 {
        format!("{score:.0}")
    } else {
        format!("{score:.2}")
    }
}

/// `score: term field +w, ...`: what a hit scored and why.
pub fn why(hit: &Hit) -> String {
    let terms: Vec<String> = hit
        .why
        .iter()
        .map(|m| format!("`{}` {} +{}", m.term, m.field.as_str(), number(m.weight)))
        .collect();
    if terms.is_empty() {
        number(hit.score)
    } else {
        format!("{}: {}", number(hit.score), terms.join(", "))
    }
}

/// `` `name` (score: term field +w, ...) ``, for a message.
pub fn explain(index: &Index, hit: &Hit) -> String {
    format!("`{}` ({})", index.docs[hit.doc].name, why(hit))
}

/// `1st`, `2nd`, `3rd`, `11th`.
pub fn ordinal(rank: usize) -> String {
    let suffix = match (rank % 10, rank % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{rank}{suffix}")
}

/// A finding about one tool of a search, made while the sets are searched and reported after.
pub(super) struct Finding<'a> {
    /// The index of the tool's set among those searched.
    pub set: usize,
    pub tool: &'a str,
    /// The node it points at (the tool's name).
    pub at: &'a Node,
    pub message: String,
    pub help: String,
}

/// Reports `finding` at its tool's name.
pub(super) fn report(ctx: &mut Ctx<'_>, finding: &Finding<'_>) {
    ctx.set_tool(Some(finding.tool));
    ctx.report(
        Field::Name,
        Anchor::Value(finding.at),
        finding.message.clone(),
    )
    .help(finding.help.clone());
    ctx.set_tool(None);
}
