//! A Python program the verifier runs in a sandbox of its own (never the candidate's): it tells
//! whether a completion's text compiles as Python.

/// `ok(text)` returns True when `text` compiles as Python (it is never run).
pub const SYNTAX_CHECK: &str = r#"
def ok(text):
    try:
        compile(text, "<completion>", "exec")
    except (SyntaxError, ValueError):
        return False
    return True
"#;
