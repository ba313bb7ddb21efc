//! Native checks of the `wording` family; each rule's catalog entry is
//! `rules/wording/<rule-name>.yaml`.

pub mod absolute_words;
pub(crate) mod helpers;
pub mod missing_anti_trigger;
pub mod name_not_in_description;
pub mod no_english_keywords;
pub mod shouting;
pub mod this_tool_reference;
pub mod volatile_text;
