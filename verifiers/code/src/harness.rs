//! Python programs the verifier runs in a sandbox of its own (never the candidate's): whether a
//! completion's text compiles as Python, and whether a task's prelude runs.

/// `ok(text)` returns True when `text` compiles as Python (it is never run).
pub const SYNTAX_CHECK: &str = r#"
def ok(text):
    try:
        compile(text, "<completion>", "exec")
    except (SyntaxError, ValueError):
        return False
    return True
"#;

/// `why(text)` returns "" when `text` (a task's `prelude`) compiles and runs to its end as
/// Python, else why not: the prelude is the task's, so its failure is the task's, never the
/// candidate's.
pub const PRELUDE_CHECK: &str = r#"
def why(text):
    try:
        code = compile(text, "<prelude>", "exec")
    except (SyntaxError, ValueError) as e:
        return "does not compile: %s: %s" % (type(e).__name__, e)
    try:
        exec(code, {"__name__": "__main__", "__builtins__": __builtins__})
    except BaseException as e:
        return "fails when run alone: %s: %s" % (type(e).__name__, e)
    return ""
"#;
