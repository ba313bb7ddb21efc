mod guidelines_too_long;
mod tool_too_long;

pub use guidelines_too_long::GuidelinesTooLong;
pub use tool_too_long::ToolTooLong;
