//! The word lists of `missing-anti-trigger`: what a boundary sentence names or directs, and
//! what marks a sentence as something other than one.

use std::sync::LazyLock;

use regex::Regex;

use crate::text;

/// Words that put a contrast on the model's choice of tool or action: `use X rather than`,
/// `instead of calling this tool`.
pub(super) const CHOICE: &[&str] = &[
    "use", "using", "call", "calling", "invoke", "invoking", "run", "running", "prefer", "choose",
    "pick", "select", "tool", "tools",
];

/// Words that describe what the tool gives back or does on its own (not `default`, a noun as
/// often: `if one option is the obvious default, … instead`).
pub(super) const RESULT: &[&str] = &[
    "return",
    "returns",
    "returned",
    "returning",
    "yield",
    "yields",
    "give",
    "gives",
    "produce",
    "produces",
    "output",
    "outputs",
    "respond",
    "responds",
    "emit",
    "emits",
    "defaults",
    "defaulted",
];

/// What a contrast compares when it is about the tool's outcome: `instead of erroring`.
pub(super) const OUTCOME: &[&str] = &[
    "an",
    "error",
    "errors",
    "erroring",
    "failing",
    "throwing",
    "raising",
    "exception",
    "exceptions",
    "null",
    "nothing",
    "empty",
    "false",
    "true",
];

/// Verbs (as stems) of a statement about the tool's side effects or needs, after `does not`:
/// `does not mutate data`, `doesn't require an API key`.
pub(super) const SIDE_EFFECTS: &[&str] = &[
    "mutat", "modif", "chang", "alter", "writ", "delet", "persist", "stor", "sav", "affect",
    "touch", "requir", "need",
];

/// What a fallback condition says failed: `if that does not work`.
pub(super) const FALLBACK: &[&str] = &["work", "help", "succeed", "suffice", "answer", "resolve"];

pub(super) const CONDITION: &[&str] =
    &["if", "when", "whether", "unless", "once", "until", "while"];

pub(super) const PARAMETER: &[&str] = &[
    "option",
    "options",
    "number",
    "count",
    "flag",
    "parameter",
    "setting",
    "ability",
    "whether",
    "how",
    "many",
];

pub(super) const ARTICLES: &[&str] = &["the", "a", "an"];

pub(super) const NOT_ORDERS: &[&str] = &[
    "the", "a", "an", "this", "that", "it", "its", "each", "every", "all", "any", "some", "you",
    "we", "they", "i", "one", "data", "content", "output", "input", "when", "if",
];

pub(super) const DIRECTING: &[&str] = &[
    "use", "call", "run", "invoke", "try", "choose", "pick", "see", "consider",
];

/// First words of a clause that state the case another tool is for.
pub(super) const OPENERS: &[&str] = &[
    "for",
    "to",
    "if",
    "when",
    "whenever",
    "unless",
    "where",
    "otherwise",
    "else",
    "instead",
    "rather",
    "but",
];

/// Words after `use X` that state the case it is for.
pub(super) const MARKERS: &[&str] = &[
    "for", "when", "whenever", "if", "instead", "rather", "unless", "whereas", "to",
];

/// Words of a step before or after this tool.
pub(super) const WORKFLOW: &[&str] = &[
    "first",
    "before",
    "beforehand",
    "prior",
    "then",
    "after",
    "afterwards",
    "next",
    "until",
];

/// Boundaries in other words than the phrase list: a negated or restricted use (`should not
/// be used`, `never call`, `only use when`, `use it only for`, `only submit once …`, `only
/// works with`), a purpose the tool is not made for (`not suitable for`, `not designed to`), a
/// last resort, a deprecation of the tool (`Deprecated: use …`, `this tool is deprecated`),
/// the model acting without it (`decide it yourself`, `… and keep going`).
/// An `only` that restricts an argument (`only use absolute paths`, `only use a filter if`)
/// is none: the restricted use must have the tool as its object, or a case after it.
pub(super) static OTHER_WORDINGS: LazyLock<Regex> = LazyLock::new(|| {
    let use_verb = r"(?:use|used|call|called|invoke|invoked|run|trigger|triggered)";
    let negation = r"(?:do\s+not|don't|never|should\s+not|shouldn't|must\s+not|mustn't|cannot|can't|can\s+not|may\s+not|is\s+not\s+to|are\s+not\s+to)";
    let case = r"(?:when|whenever|if|for|after|once|until|in|with|as|on)";
    let tool = r"(?:this(?:\s+tool|\s+function)?|it|me|the\s+tool)";
    let patterns = [
        format!(r"\b{negation}\s+(?:be\s+)?{use_verb}\b(?P<other>\s+(?:any\s+)?(?:other|another)\b)?"),
        format!(r"\bonly\s+(?:be\s+)?{use_verb}\s+(?:{tool}|{case})\b"),
        format!(r"\b{use_verb}\s+(?:\S+\s+){{0,2}}?only\s+{case}\b"),
        // `Only allowed when …`, `Only uncompleted tasks can be deleted` (before `only <verb>
        // when`, which would take `allowed` for a verb and let the text go).
        r"\bonly\s+(?:allowed|permitted|possible|supported|enabled)\b".to_string(),
        r"\bonly\s+(?:[a-z-]+\s+){1,3}(?:can|may)\s+be\b".to_string(),
        r"\bonly\s+(?P<verb>[a-z]+)\s+(?:once|when|whenever|after|if|until)\b".to_string(),
        r"\bonly\s+(?:for|after|once|works|applies|supports|accepts|handles|available|valid|intended|meant|designed|suitable|useful)\b".to_string(),
        r"\bnot\s+(?:suitable|intended|designed|meant|recommended|appropriate|supported|available|built|made|allowed|applicable|ideal|optimi[sz]ed)\s+(?:for|to|when|if|with|on|in)\b".to_string(),
        r"\b(?:last\s+resort|sparingly)\b".to_string(),
        // `only` after what it restricts, where that is the tool's scope: a one-word aside
        // (`(Cloud only)`), or what it supports (`Supports HTTP/HTTPS only`, `is for surgical
        // edits only`). Not an argument's value (`list files of one type only`, `main
        // content only`), nor `read only`.
        r"\(\s*(?P<restricted>[a-z][a-z-]*)\s+only\s*\)".to_string(),
        r"\b(?:supports|accepts|handles|works\s+(?:with|on|for)|is\s+for|are\s+for)\s+(?:[\w/.-]+\s+){0,3}?[\w/.-]+\s+only\b".to_string(),
        r"(?:\A|[.;:(\n]\s*|\b(?:tool|function|endpoint|command|it|this)\s+(?:is|has\s+been)\s+(?:now\s+)?)deprecated\b".to_string(),
        // The case where the model acts without the tool (`decide it yourself`, `answer
        // directly`, `decide it, say so in one line, and keep going`, `proceed without
        // asking`).
        // An order, at the start of a clause: `returns the answer directly` is none.
        r"(?:\A|[.;:,(\n\u{2014}\u{2013}]\s*|\b(?:and|then|just|instead)\s+)(?:decide|answer|choose|pick|resolve|handle)\s+(?:it\s+|this\s+|that\s+|them\s+)?(?:yourself|directly|on\s+your\s+own)\b".to_string(),
        r"(?:\A|[.;:,(\n\u{2014}\u{2013}]\s*|\b(?:and|then|just|instead)\s+)(?:decide|answer|choose|pick)\s+(?:it|this|that|them)\b[^.;]{0,60}?\b(?:keep\s+going|carry\s+on|continue|proceed)\b".to_string(),
        r"\b(?:proceed|continue|go\s+ahead|keep\s+going)\s+without\s+(?:asking|calling|using|invoking)\b".to_string(),
    ];
    Regex::new(&format!("(?i){}", patterns.join("|"))).expect("the built-in patterns compile")
});

/// A word every branch of `OTHER_WORDINGS` needs: the pattern is compiled and run only on a
/// text that holds one.
pub(super) const OTHER_WORDINGS_NEED: &[&str] = &[
    "not",
    "n't",
    "never",
    "only",
    "resort",
    "sparingly",
    "deprecated",
    "decide",
    "answer",
    "choose",
    "pick",
    "resolve",
    "handle",
    "without",
];

pub(super) static OTHER_WORDING_NEED: text::AnyOf = text::AnyOf::new(OTHER_WORDINGS_NEED);
