//! The integration tests of the `code` verifier, built natively: one test binary, a module per
//! file beside this one.

mod default_validator_vs_problemtools;
