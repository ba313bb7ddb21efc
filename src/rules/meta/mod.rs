mod invalid_manifest;
mod unused_suppression;

pub use invalid_manifest::InvalidManifest;
pub use unused_suppression::UnusedSuppression;
