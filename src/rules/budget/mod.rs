mod guidelines_too_long;

pub use guidelines_too_long::GuidelinesTooLong;
