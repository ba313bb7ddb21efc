//! Native checks of the `wording` family; each rule's catalog entry is
//! `rules/wording/<rule-name>.yaml`.

pub mod absolute_words;
pub mod background_prose;
pub mod conditional_recommendation;
pub mod duplicate_guideline;
pub mod guideline_missing_tool_name;
pub mod guideline_restates_schema;
pub(crate) mod helpers;
pub mod missing_anti_trigger;
pub mod missing_description;
pub mod missing_trigger;
pub mod name_not_in_description;
pub mod no_english_keywords;
pub mod policy_written_twice;
pub mod shouting;
pub mod snippet_not_verb_first;
pub mod snippet_trailing_period;
pub mod this_tool_reference;
pub mod volatile_text;
