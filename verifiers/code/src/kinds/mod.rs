//! The kinds of tests a code task can have, one module each, all grading through the port
//! ([`crate::sandbox`]): [`stdio`] programs, entry-point calls ([`calls`] for Python's runner,
//! [`python_calls`] for Python's tagged values, [`js_calls`], [`typed_calls`] for C, C++, Rust
//! and Go, both over [`served_calls`]), a benchmark's own test code ([`test_code`]), JavaScript test files run by
//! their framework ([`test_files`]) and contest
//! problems ([`contest`]).

pub mod calls;
pub mod contest;
pub mod js_calls;
pub mod python_calls;
pub mod served_calls;
pub mod stdio;
pub mod test_code;
pub mod test_files;
pub mod typed_calls;
