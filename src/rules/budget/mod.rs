mod guidelines_too_long;
mod results_too_long;
mod set_target;
mod too_many_tools;
mod tool_too_long;
mod toolset_too_large;

pub use guidelines_too_long::GuidelinesTooLong;
pub use results_too_long::ResultsTooLong;
pub use too_many_tools::TooManyTools;
pub use tool_too_long::ToolTooLong;
pub use toolset_too_large::ToolsetTooLarge;
