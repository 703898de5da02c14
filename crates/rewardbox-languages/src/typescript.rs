//! The first line that marks a program as TypeScript for the JavaScript runner (`guests/js`),
//! which strips its types before it runs it. The host's TypeScript runtime writes it; it comes
//! after a test run's own first line ([`crate::js_test_run`]), so a TypeScript program can be
//! either program of a test run.

use crate::js_test_run::{SERVED_PROGRAM, TEST_PROGRAM};

/// The marking line.
pub const TYPESCRIPT_PROGRAM: &str = "//\u{1e}rewardbox:typescript\n";

/// `source` marked as TypeScript: the marking line first, or right after a test run's.
pub fn mark(source: &str) -> String {
    for run in [TEST_PROGRAM, SERVED_PROGRAM] {
        if let Some(program) = source.strip_prefix(run) {
            return format!("{run}{TYPESCRIPT_PROGRAM}{program}");
        }
    }
    format!("{TYPESCRIPT_PROGRAM}{source}")
}

/// The TypeScript program in `source` (what follows the marking line), or `None` when it is not
/// marked: JavaScript.
pub fn marked(source: &str) -> Option<&str> {
    source.strip_prefix(TYPESCRIPT_PROGRAM)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mark_follows_a_test_runs_line() {
        assert_eq!(marked(&mark("let a: number")), Some("let a: number"));
        let served = mark(&format!("{SERVED_PROGRAM}let a: number"));
        let program = served.strip_prefix(SERVED_PROGRAM).unwrap();
        assert_eq!(marked(program), Some("let a: number"));
        assert!(crate::js_test_run::is_test_run(&served));
        assert_eq!(marked("let a = 1"), None);
    }
}
