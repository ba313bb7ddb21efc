mod duplicate_tool_name;

pub use duplicate_tool_name::DuplicateToolName;
