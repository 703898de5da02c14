//! The first lines that mark the two JavaScript programs of a test run (a benchmark's test code
//! calling a live candidate, `tests.asserts` in JavaScript). The `code` verifier writes them,
//! the JavaScript runner (`guests/js`) acts on them, and the host lets only such programs talk
//! through a pipe: a marked program reads its standard input a line at a time, where any other
//! JavaScript program reads all of it before it starts.

/// The first line of the trusted program running the test code: the runner sets up the wire's
/// calling side before it.
pub const TEST_PROGRAM: &str = "//\u{1e}rewardbox:test\n";

/// The first line of the live candidate's program: after the program's own code, the runner
/// answers the test program's calls on stdin until they end, and what the program prints goes
/// to stderr, away from the wire.
pub const SERVED_PROGRAM: &str = "//\u{1e}rewardbox:serve\n";

/// The line that opens a trusted program's test file run by a test framework (after
/// [`TEST_PROGRAM`], and after a TypeScript program's marking line): this prefix, then the form
/// as JSON (`framework`: `"jest"` or `"node"`, `module`: the name the tests import the candidate
/// as, `file`: the test file's name), then a newline. The runner sets up the framework
/// (`guests/js/src/testing.js`) before the test file runs.
pub const TEST_FRAMEWORK: &str = "//\u{1e}rewardbox:framework ";

/// Whether `source` is one of the two programs of a test run.
pub fn is_test_run(source: &str) -> bool {
    source.starts_with(TEST_PROGRAM) || source.starts_with(SERVED_PROGRAM)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_marked_first_line_makes_a_test_run() {
        assert!(is_test_run("//\u{1e}rewardbox:test\nconsole.log(1)"));
        assert!(is_test_run("//\u{1e}rewardbox:serve\nconst f = 1"));
        assert!(!is_test_run("console.log(1)\n//\u{1e}rewardbox:test\n"));
        assert!(!is_test_run("//rewardbox:test\n"));
    }
}
