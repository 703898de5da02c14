//! The languages a candidate may be written in: the shared table of the `languages` crate.

pub use rewardbox_languages::Language;
