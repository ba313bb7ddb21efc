mod invalid_manifest;

pub use invalid_manifest::InvalidManifest;
