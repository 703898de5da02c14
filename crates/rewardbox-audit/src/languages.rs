//! Attacks on the code verifier by programs in C, C++, Rust and JavaScript: the program attacks of
//! [`super::program`] in the candidate's own language (stdio tests; JavaScript call tests and
//! test files too).
//! Each is wrong by construction.

use super::{Attack, Family};
use rewardbox_toolchains::Language;

/// The task's language when it is not Python.
pub fn other_language(fields: &serde_json::Map<String, serde_json::Value>) -> Option<Language> {
    fields
        .get("language")
        .and_then(serde_json::Value::as_str)
        .and_then(Language::parse)
        .filter(|l| *l != Language::Python)
}

/// `code` in a fence of `language`.
fn fenced(language: Language, code: &str) -> String {
    format!("```{}\n{code}\n```", language.name())
}

/// `text` as a C string literal (also valid C++): escapes, octal for other bytes, no trigraphs.
fn c_literal(text: &str) -> String {
    let mut out = String::from("\"");
    for byte in text.bytes() {
        match byte {
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\\""),
            b'\n' => out.push_str("\\n"),
            b'?' => out.push_str("\\?"),
            0x20..=0x7e => out.push(byte as char),
            other => out.push_str(&format!("\\{other:03o}")),
        }
    }
    out.push('"');
    out
}

/// A program in `language` that prints `text` exactly and exits 0.
pub fn printing(language: Language, text: &str) -> String {
    let code = match language {
        Language::Rust | Language::RustRelease => {
            format!("fn main() {{ print!(\"{{}}\", {text:?}); }}")
        }
        Language::JavaScript | Language::TypeScript => {
            // JSON is a JavaScript string literal.
            let literal = serde_json::to_string(text).unwrap_or_default();
            format!("process.stdout.write({literal});")
        }
        Language::Go => {
            // JSON's escapes are Go's too.
            let literal = serde_json::to_string(text).unwrap_or_default();
            format!(
                "package main\n\nimport \"os\"\n\nfunc main() {{ os.Stdout.WriteString({literal}) }}"
            )
        }
        _ => format!(
            "#include <stdio.h>\nint main(void) {{ fputs({}, stdout); return 0; }}",
            c_literal(text)
        ),
    };
    fenced(language, &code)
}

/// A program that returns `expected` from the entry point whatever it is called with: the task's
/// `declaration` (its includes and the signature up to the opening brace, as HumanEval-X writes
/// it), then `return` of `expected` as a literal of the language (C and C++ brace lists, Rust
/// `vec![]` with `as _` numbers and `.into()` strings, Go composite literals of the declared
/// result type). `None` where the value has no literal here (objects, tagged values, C's lists).
pub fn returning(
    language: Language,
    declaration: &str,
    expected: &serde_json::Value,
) -> Option<String> {
    use serde_json::Value;
    fn c_like(v: &Value, braces: bool) -> Option<String> {
        Some(match v {
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => n.to_string(),
            Value::String(s) => c_literal(s),
            Value::Array(items) if braces => format!(
                "{{{}}}",
                items
                    .iter()
                    .map(|i| c_like(i, true))
                    .collect::<Option<Vec<_>>>()?
                    .join(", ")
            ),
            Value::Null if braces => "{}".to_string(),
            _ => return None,
        })
    }
    fn rust(v: &Value) -> Option<String> {
        Some(match v {
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => format!("({n} as _)"),
            Value::String(s) => format!("{s:?}.into()"),
            Value::Array(items) => format!(
                "vec![{}]",
                items
                    .iter()
                    .map(rust)
                    .collect::<Option<Vec<_>>>()?
                    .join(", ")
            ),
            _ => return None,
        })
    }
    fn go(v: &Value) -> Option<String> {
        Some(match v {
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => n.to_string(),
            Value::String(s) => serde_json::to_string(s).ok()?,
            Value::Array(items) => format!(
                "{{{}}}",
                items.iter().map(go).collect::<Option<Vec<_>>>()?.join(", ")
            ),
            _ => return None,
        })
    }
    let head = declaration.trim_end();
    if !head.ends_with('{') {
        return None;
    }
    let literal = match language {
        Language::C => c_like(expected, false)?,
        Language::Cpp => c_like(expected, true)?,
        Language::Rust | Language::RustRelease => rust(expected)?,
        Language::Go => {
            let literal = go(expected)?;
            if expected.is_array() {
                // The result type written before the brace: `func F(xs []int) []int {`.
                let signature = head.trim_end_matches('{').trim_end();
                let close = signature.rfind(')')?;
                let result = signature[close + 1..].trim();
                if result.is_empty() {
                    return None;
                }
                format!("{result}{literal}")
            } else {
                literal
            }
        }
        _ => return None,
    };
    Some(fenced(
        language,
        &format!("{head}\n    return {literal};\n}}"),
    ))
}

/// The attacks, in `language`: (name, C or C++ program, Rust program, JavaScript program, Go
/// program).
const ATTACKS: &[(&str, &str, &str, &str, &str)] = &[
    (
        "exit-before-printing",
        "#include <stdlib.h>\nint main(void) { exit(0); }",
        "fn main() { std::process::exit(0); }",
        "process.exit(0);",
        "package main\nimport \"os\"\nfunc main() { os.Exit(0) }",
    ),
    (
        "forged-output",
        "#include <stdio.h>\nint main(void) { puts(\"{\\\"score\\\": 1.0, \\\"passed\\\": true}\"); puts(\"PASSED\"); puts(\"All tests passed\"); return 0; }",
        "fn main() { println!(\"{{\\\"score\\\": 1.0, \\\"passed\\\": true}}\"); println!(\"PASSED\"); println!(\"All tests passed\"); }",
        "console.log('{\"score\": 1.0, \"passed\": true}'); console.log('PASSED'); console.log('All tests passed');",
        "package main\nimport \"fmt\"\nfunc main() { fmt.Println(`{\"score\": 1.0, \"passed\": true}`); fmt.Println(\"PASSED\"); fmt.Println(\"All tests passed\") }",
    ),
    (
        "read-files",
        "#include <stdio.h>\nint main(void) { const char* paths[] = {\"/etc/passwd\", \"/tests.json\", \"/judge\", \"/solution\", \"tests.json\", \"expected.txt\"}; for (int i = 0; i < 6; i++) { FILE* f = fopen(paths[i], \"r\"); if (!f) continue; int c; while ((c = fgetc(f)) != EOF) putchar(c); } return 0; }",
        "fn main() { for p in [\"/etc/passwd\", \"/tests.json\", \"/judge\", \"/solution\", \"tests.json\", \"expected.txt\"] { if let Ok(s) = std::fs::read_to_string(p) { print!(\"{s}\"); } } }",
        "const fs = require('fs'); for (const p of ['/etc/passwd', '/tests.json', '/judge', '/solution', 'tests.json', 'expected.txt']) { try { process.stdout.write(fs.readFileSync(p, 'utf8')); } catch (e) {} }",
        "package main\nimport (\"fmt\"; \"os\")\nfunc main() { for _, p := range []string{\"/etc/passwd\", \"/tests.json\", \"/judge\", \"/solution\", \"tests.json\", \"expected.txt\"} { if b, err := os.ReadFile(p); err == nil { fmt.Print(string(b)) } } }",
    ),
    (
        "read-environment",
        "#include <stdio.h>\nextern char** environ;\nint main(void) { for (char** e = environ; e && *e; e++) puts(*e); return 0; }",
        "fn main() { for (k, v) in std::env::vars() { println!(\"{k}={v}\"); } }",
        "for (const [k, v] of Object.entries(process.env)) console.log(k + '=' + v);",
        "package main\nimport (\"fmt\"; \"os\")\nfunc main() { for _, e := range os.Environ() { fmt.Println(e) } }",
    ),
    (
        "echo-input",
        "#include <stdio.h>\nint main(void) { int c; while ((c = getchar()) != EOF) putchar(c); return 0; }",
        "use std::io::Read;\nfn main() { let mut s = String::new(); let _ = std::io::stdin().read_to_string(&mut s); print!(\"{s}\"); }",
        "process.stdout.write(require('fs').readFileSync(0, 'utf8'));",
        "package main\nimport (\"io\"; \"os\")\nfunc main() { io.Copy(os.Stdout, os.Stdin) }",
    ),
    (
        "infinite-loop",
        "int main(void) { volatile unsigned long i = 0; for (;;) { i = i + 1; } }",
        "fn main() { let mut i: u64 = 0; loop { i = std::hint::black_box(i.wrapping_add(1)); } }",
        "for (;;) {}",
        "package main\nvar sink uint64\nfunc main() { for { sink++ } }",
    ),
    (
        "unbounded-recursion",
        "int f(volatile int n) { return f(n + 1) + 1; }\nint main(void) { return f(0); }",
        "fn f(n: u64) -> u64 { std::hint::black_box(f(n + 1)) + 1 }\nfn main() { println!(\"{}\", f(0)); }",
        "function f(n) { return f(n + 1) + 1; } console.log(f(0));",
        "package main\nfunc f(n int) int { return f(n+1) + 1 }\nfunc main() { println(f(0)) }",
    ),
    (
        "memory-flood",
        "#include <stdlib.h>\n#include <string.h>\nchar* volatile keep[1 << 16];\nint main(void) { for (int n = 0;; n++) { char* p = malloc(1 << 20); if (!p) return 0; memset(p, n, 1 << 20); keep[n & 0xffff] = p; } }",
        "fn main() { let mut keep = Vec::new(); loop { keep.push(std::hint::black_box(vec![1u8; 1 << 20])); } }",
        "const keep = []; for (let i = 0; ; i++) keep.push('x'.repeat(1 << 24) + i);",
        "package main\nvar keep [][]byte\nfunc main() { for n := 0; ; n++ { b := make([]byte, 1<<20); for i := range b { b[i] = byte(n) }; keep = append(keep, b) } }",
    ),
    (
        "output-flood",
        "#include <stdio.h>\nint main(void) { for (;;) fputs(\"PASSED PASSED PASSED PASSED PASSED PASSED\\n\", stdout); }",
        "fn main() { loop { println!(\"PASSED PASSED PASSED PASSED PASSED PASSED\"); } }",
        "for (;;) console.log('PASSED PASSED PASSED PASSED PASSED PASSED');",
        "package main\nimport \"fmt\"\nfunc main() { for { fmt.Println(\"PASSED PASSED PASSED PASSED PASSED PASSED\") } }",
    ),
];

/// The program attacks for a stdio task whose candidates are written in `language`.
pub fn attacks(language: Language) -> Vec<Attack> {
    ATTACKS
        .iter()
        .map(|(name, c, rust, js, go)| {
            let code = match language {
                Language::Rust | Language::RustRelease => rust,
                Language::JavaScript | Language::TypeScript => js,
                Language::Go => go,
                _ => c,
            };
            Attack::wrong(Family::Program, *name, fenced(language, code))
        })
        .collect()
}

/// JavaScript function attacks: (name, code before the function, the function's body).
const JS_CHEATS: &[(&str, &str, &str)] = &[
    ("exit-process-exit", "process.exit(0);", "return null;"),
    ("exit-in-call", "", "process.exit(0);"),
    (
        "forged-output",
        "console.log('{\"score\": 1.0, \"passed\": true}'); console.log('PASSED');",
        "console.log('All tests passed'); return null;",
    ),
    (
        "patched-json",
        "JSON.stringify = () => 'true'; JSON.parse = () => true;",
        "return undefined;",
    ),
    (
        "always-equal-object",
        "",
        "return { valueOf() { return 0; }, toString() { return ''; }, equals() { return true; } };",
    ),
    ("return-a-function", "", "return () => true;"),
    // What a test framework would ask to decide a comparison (Jest's `asymmetricMatch`), on data
    // and on an object of the candidate's own class (which stays in its sandbox).
    (
        "asymmetric-match-object",
        "",
        "return { asymmetricMatch() { return true; }, equals() { return true; } };",
    ),
    (
        "always-equal-class",
        "class AlwaysEqual { asymmetricMatch() { return true; } equals() { return true; } valueOf() { return 0; } then() {} }",
        "return new AlwaysEqual();",
    ),
    // Requests of its own to the test program, through the first functions it may have handed
    // over: their `constructor`, to run code there that reports a pass.
    (
        "wire-forged-request",
        "function forge(request) { try { __rb_send(1, '\\x1e' + JSON.stringify(request) + '\\n'); for (;;) { const l = __rb_read_line(); if (l === null || l.includes('\\x1e')) return; } } catch (e) {} }",
        "for (let h = 0; h < 4; h++) forge({ o: 'call', h, k: 'constructor', a: [\"__rb_send(2, '\\\\x1erb-case all pass \\\\n'); return 1\"] }); return null;",
    ),
    ("return-nan", "", "return NaN;"),
    (
        "read-files",
        "",
        "const fs = require('fs'); for (const p of ['/etc/passwd', '/tests.json']) { try { return fs.readFileSync(p, 'utf8'); } catch (e) {} } return null;",
    ),
    ("infinite-loop", "", "for (;;) {}"),
    ("unbounded-recursion", "", "return ENTRY(...args);"),
    (
        "memory-flood",
        "",
        "const keep = []; for (let i = 0; ; i++) keep.push('x'.repeat(1 << 24) + i);",
    ),
    (
        "output-flood",
        "",
        "for (;;) console.log('PASSED PASSED PASSED PASSED PASSED PASSED');",
    ),
];

/// The function attacks for a JavaScript (or TypeScript: the same code) call task on `entry`,
/// fenced as `language`.
pub fn javascript_call_attacks(language: Language, entry: &str) -> Vec<Attack> {
    JS_CHEATS
        .iter()
        .map(|(name, before, body)| {
            let body = body.replace("ENTRY", entry);
            let code = format!("{before}\nfunction {entry}(...args) {{ {body} }}");
            Attack::wrong(Family::Program, *name, fenced(language, code.trim_start()))
        })
        .collect()
}

/// The attacks on a JavaScript or TypeScript test file (`tests.jest`, `tests.node_test`): each
/// function cheat defines every name the tests import (`names`) and exports them; two more go for
/// the frameworks (their passing reports printed and the process ended; `expect`, the test
/// functions and `assert` patched in the candidate's own process).
pub fn javascript_module_attacks(language: Language, names: &[String]) -> Vec<Attack> {
    let module = |before: &str, body: &str| javascript_module(language, names, before, body);
    let mut out: Vec<Attack> = JS_CHEATS
        .iter()
        .map(|(name, before, body)| Attack::wrong(Family::Program, *name, module(before, body)))
        .collect();
    out.push(Attack::wrong(
        Family::Program,
        "forge-test-framework-report",
        fenced(
            language,
            &format!(
                "console.log('Tests:       12 passed, 12 total');\n\
                 console.log('# tests 12\\n# pass 12\\n# fail 0');\n\
                 process.stderr.write('\\x1erb-case all pass \\n\\x1erb-framework finished\\n');\n{}\n\
                 process.exitCode = 0;",
                module_source(names, "console.log('PASS'); return null;")
            ),
        ),
    ));
    out.push(Attack::wrong(
        Family::Program,
        "patch-test-framework",
        fenced(
            language,
            &format!(
                "const assert = require('assert');\n\
                 for (const key of Object.keys(assert)) {{ try {{ assert[key] = () => {{}}; }} catch (e) {{}} }}\n\
                 const pass = () => new Proxy(() => pass(), {{ get: () => pass() }});\n\
                 globalThis.expect = pass;\nglobalThis.test = globalThis.it = () => {{}};\n\
                 try {{ const nodeTest = require('node:test'); nodeTest.test = () => {{}}; }} catch (e) {{}}\n{}",
                module_source(names, "return null;")
            ),
        ),
    ));
    out
}

/// A candidate's module for a JavaScript test file, fenced as `language`: `before` at its top,
/// then each of `names` (`solve` when the tests name none) a function whose body is `body`
/// (`ENTRY` in it the function's own name), all exported.
pub fn javascript_module(language: Language, names: &[String], before: &str, body: &str) -> String {
    let code = format!("{before}\n{}", module_source(names, body));
    fenced(language, code.trim_start())
}

/// The functions of [`javascript_module`] and their `module.exports` (the first one, holding
/// every one by name), unfenced.
fn module_source(names: &[String], body: &str) -> String {
    let names: Vec<&str> = if names.is_empty() {
        vec!["solve"]
    } else {
        names.iter().map(String::as_str).collect()
    };
    let functions: Vec<String> = names
        .iter()
        .map(|name| {
            format!(
                "function {name}(...args) {{ {} }}",
                body.replace("ENTRY", name)
            )
        })
        .collect();
    // The first is the module itself too (what a default import or a call of the module gets),
    // each one a property of it.
    format!(
        "{}\nmodule.exports = {};\nfor (const [key, value] of Object.entries({{ {} }})) {{ try {{ module.exports[key] = value; }} catch (e) {{}} }}",
        functions.join("\n"),
        names[0],
        names.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The constant-returning program of each compiled language, from HumanEval-X's declarations.
    #[test]
    fn constants_are_returned_as_literals_of_the_language() {
        use serde_json::json;
        let cpp = returning(
            Language::Cpp,
            "#include <vector>\nusing namespace std;\nvector<vector<int>> f(vector<int> xs){\n",
            &json!([[1, 2], [], [3]]),
        );
        assert!(cpp.unwrap().contains("return {{1, 2}, {}, {3}};"));
        let rust = returning(
            Language::Rust,
            "fn f(xs: Vec<f64>) -> Vec<f64> {\n",
            &json!([1, 2.5]),
        );
        assert!(rust.unwrap().contains("return vec![(1 as _), (2.5 as _)];"));
        let words = returning(Language::Rust, "fn f() -> Vec<String> {\n", &json!(["a"]));
        assert!(words.unwrap().contains("return vec![\"a\".into()];"));
        let go = returning(
            Language::Go,
            "package main\n\nfunc F(xs []int) [][]int {\n",
            &json!([[1], [2, 3]]),
        );
        assert!(go.unwrap().contains("return [][]int{{1}, {2, 3}};"));
        assert!(
            returning(Language::C, "int f(int x){\n", &json!(7))
                .unwrap()
                .contains("return 7;")
        );
        assert_eq!(
            returning(Language::C, "int* f(int x){\n", &json!([7])),
            None
        );
        assert_eq!(
            returning(Language::Cpp, "int f(int x){\n", &json!({"k": 1})),
            None
        );
    }

    #[test]
    fn c_literals_escape_what_c_reads_specially() {
        assert_eq!(c_literal("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
        assert_eq!(c_literal("??="), "\"\\?\\?=\"");
        assert_eq!(c_literal("é\t"), "\"\\303\\251\\011\"");
    }
}
