//! Floor 0 of rewardbox: Python values read and compared as Python would.
//!
//! Python's built-in values as they cross a live candidate's boundary.
//!
//! A live candidate hands its results back as *value JSON* (see `guests/python/rb_values.py`):
//! plain JSON for `None`, `bool`, `int`, finite `float`, `str` and `list`, and one-key objects for
//! the rest (`$t` tuple, `$s` set, `$fs` frozenset, `$d` dict, `$b` bytes, `$f` a float that is
//! not finite, `$c` complex, `$h` a handle to an object that stayed in the candidate).
//!
//! This crate reads value JSON into [`Value`] exactly as the checking sandbox's CPython would
//! decode it ([`parse`]), and answers what a check asks of it there: Python's `==`
//! ([`Value::python_eq`]), truth ([`Value::truth`]) and `repr` ([`Value::repr`]). Wherever this
//! crate cannot be sure to give CPython's answer (a string repr with characters whose
//! printability needs Unicode's tables, the order a set prints in) it answers `None`, and the
//! caller asks CPython instead: it is never approximately right.

#![deny(missing_docs)]

mod eq;
mod parse;
mod repr;
mod text;
mod value;

pub use parse::{ParseError, parse};
pub use repr::{float_repr, str_repr};
pub use text::{PREVIEW_CHARS, head, preview, python_space, splitlines, strip};
pub use value::{Int, Value};

/// The most digits an `int` may have for the checking sandbox to read or print it (its
/// `sys.set_int_max_str_digits`): a larger one is outside what this crate models.
pub const MAX_INT_DIGITS: usize = 50_000;
