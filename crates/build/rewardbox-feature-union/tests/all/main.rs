//! The feature-union crate's one check, as a test binary.

mod same_features;
