//! The integration tests of the confined compilers (`rewardbox-toolchains`): one test binary, a
//! module per file beside this one.

mod compile;
