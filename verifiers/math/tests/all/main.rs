//! The integration tests of the `math` verifier, built natively: one test binary, a module per
//! file beside this one (`cargo test -p rewardbox-verifier-math --test all -- <file>::`).

mod answer_styles;
mod answers;
mod equivalence_dataset;
mod generated_problems;
mod multi_part_answers;
