//! The integration tests of Python's values (`rewardbox-python-values`): one test binary, a module
//! per file beside this one.

mod against_cpython;
