//! What the `search` checks share: the index over one file's tools or one session's, each
//! doc's owner, and the "why" of a ranking as a message shows it.

use crate::diagnostic::Field;
use crate::normalize::{Tool, ToolSet};
use crate::parse::Node;
use crate::rule::{Anchor, Ctx, SessionRef, SetRef};
use crate::rules::targets::helpers::{ServerName, wire_of};
use crate::search::docs::{Deferral, Naming, docs_of, is_server, searchable};
use crate::search::{Doc, Engine, Hit, Index};

/// A doc's owner: the index of its set among those searched, and the tool.
pub type Owner<'s, 'a> = (usize, &'s Tool<'a>);

/// The tools searched together, indexed once.
pub struct Searched<'s, 'a> {
    pub index: Index,
    /// The owner of each doc: the index of its set, and the tool.
    pub owners: Vec<Owner<'s, 'a>>,
}

/// The tools to search together, before the index is built (a check that may find nothing
/// to search for looks at them first): the deferred ones, as a tool search sees them.
pub struct Unindexed<'s, 'a> {
    pub docs: Vec<Doc>,
    pub owners: Vec<Owner<'s, 'a>>,
}

/// The tools of a file or session, each with its owner (the index of its set, and the tool)
/// and whether it is deferred.
pub struct Found<'s, 'a>(Vec<((Doc, Owner<'s, 'a>), bool)>);

impl<'s, 'a> Found<'s, 'a> {
    /// The tools a tool search can return: the deferred ones, or all when none is
    /// ([`searchable`]).
    pub fn deferred(self) -> Unindexed<'s, 'a> {
        let (kept, _) = searchable(self.0);
        let (docs, owners) = kept.into_iter().unzip();
        Unindexed { docs, owners }
    }

    /// Every tool, deferred or loaded (tools compared with each other, not searched for).
    pub fn all(self) -> Unindexed<'s, 'a> {
        let (docs, owners) = self.0.into_iter().map(|(item, _)| item).unzip();
        Unindexed { docs, owners }
    }
}

impl<'s, 'a> Unindexed<'s, 'a> {
    pub fn index(self) -> Searched<'s, 'a> {
        Searched {
            index: Index::new(self.docs),
            owners: self.owners,
        }
    }
}

/// One file's deferred tools, named as Claude Code sends them when the engine sees host names
/// and the file is an MCP server's (the server name as `targets` rules find it; the file name
/// when unknown: within one file it scores every tool alike).
pub fn of_set<'s, 'a>(set: &'s ToolSet<'a>, ctx: &Ctx<'_>, engine: Engine) -> Searched<'s, 'a> {
    found_in_set(set, ctx, engine).deferred().index()
}

/// Every tool of one file, named as [`of_set`] names them.
pub fn found_in_set<'s, 'a>(set: &'s ToolSet<'a>, ctx: &Ctx<'_>, engine: Engine) -> Found<'s, 'a> {
    let host = engine
        .host_names()
        .then(|| crate::targets::find("claude-code").ok())
        .flatten();
    let server = is_server(set);
    let server_name = server.then(|| ServerName::of(set, ctx).name);
    let naming = Naming {
        wire: host.as_deref().and_then(wire_of),
        server: server_name.as_deref(),
    };
    let deferral = Deferral::of_engine(engine);
    let found = docs_of(set, &ctx.file.name, &naming)
        .map(|(index, doc)| {
            let tool = &set.tools[index];
            ((doc, (0, tool)), deferral.defers(tool, server))
        })
        .collect();
    Found(found)
}

/// A session's deferred tools, named as its host sends them.
pub fn of_session<'s, 'a>(session: &SessionRef<'_>, sets: &'s [SetRef<'a>]) -> Searched<'s, 'a> {
    found_in_session(session, sets).deferred().index()
}

/// Every tool of a session, named as [`of_session`] names them.
pub fn found_in_session<'s, 'a>(session: &SessionRef<'_>, sets: &'s [SetRef<'a>]) -> Found<'s, 'a> {
    let wire = wire_of(session.host);
    let deferral = Deferral::of_host(&session.host.name, session.tool_search);
    let mut found = Vec::new();
    for (set_index, set) in sets.iter().enumerate() {
        let naming = Naming {
            wire,
            server: session.servers.get(set_index).copied(),
        };
        for (index, doc) in docs_of(set.set, &set.file.name, &naming) {
            let tool = &set.set.tools[index];
            // Every file of a session is a server the host connects to.
            found.push(((doc, (set_index, tool)), deferral.defers(tool, true)));
        }
    }
    Found(found)
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
