//! Native checks of the `results` family; each rule's catalog entry is
//! `rules/results/<rule-name>.yaml`. They read the texts a tool returns (`results:`, by
//! outcome): the model reads them after a call and they stay in the history, so they are
//! prompts, not logs.

pub mod outcome_not_in_description;
pub mod outcomes_read_alike;
pub mod result_without_next_step;
