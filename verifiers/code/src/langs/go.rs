//! Go test programs (HumanEval-X's `func TestX(t *testing.T)` with testify's `assert.New(t)` /
//! `assert.Equal`): the trusted program and the candidate's server, generated around [`WIRE`].
//!
//! The trusted program is the test code's imports and the declaration's helpers, the entry point
//! (and each forwarded function) as a stub calling the live candidate, the test functions as
//! written, and a `main` running them through the standard `testing` package, as `go test`
//! does. testify's `assert` is rewardbox's own ([`TESTIFY`], the package's documented semantics),
//! and reports each assertion as a case by the line of the test code that called it. The
//! candidate's program is its own source with a server answering calls before its `main`.
//!
//! Imports are by use: each program gets those of its own imports (the test code's and the
//! declaration's, the candidate's) that its code uses, since the two programs split what was
//! one file and Go rejects an unused import. With `add_imports`, as CodeGeeX's harness builds
//! HumanEval-X's Go programs, the candidate's program also gets each standard package of that
//! harness's list that it uses (`strings.` in its code) without importing it.

use crate::langs::StaticCase;
use crate::langs::source::{blank, matching, split_top_level};

/// The wire, included in both programs after their imports.
pub const WIRE: &str = include_str!("../wire/wire.go");

/// testify's assertions, included in the trusted program when its test code imports testify.
pub const TESTIFY: &str = include_str!("../wire/testify.go");

/// The wire's imports, aliased so that they meet none of a program's own names.
const WIRE_IMPORTS: &[(&str, &str)] = &[
    ("rewardboxWireBufio", "bufio"),
    ("rewardboxWireFmt", "fmt"),
    ("rewardboxWireHex", "encoding/hex"),
    ("rewardboxWireMath", "math"),
    ("rewardboxWireOs", "os"),
    ("rewardboxWireReflect", "reflect"),
    ("rewardboxWireStrconv", "strconv"),
    ("rewardboxWireStrings", "strings"),
];

/// The trusted program's own imports: the test runner and the assertions' caller lines.
const TRUSTED_IMPORTS: &[(&str, &str)] = &[
    ("rewardboxWireTesting", "testing"),
    ("rewardboxWireRuntime", "runtime"),
];

/// testify's import path, which [`TESTIFY`] stands in for.
const TESTIFY_PATH: &str = "github.com/stretchr/testify/assert";

/// The standard packages CodeGeeX's harness imports into a HumanEval-X Go program that uses
/// them (`IMPORT_HELPER["go"]`).
const STANDARD_BY_USE: &[&str] = &[
    "math",
    "strings",
    "fmt",
    "strconv",
    "time",
    "bytes",
    "regexp",
    "sort",
    "math/rand",
    "crypto/md5",
];

/// Go's comments and string, raw string and rune literals.
fn go_literals() -> &'static [(&'static str, &'static str)] {
    &[
        ("//", "\n"),
        ("/*", "*/"),
        ("\"", "\""),
        ("`", "`"),
        ("'", "'"),
    ]
}

/// One import: its name in the file (an alias, or `None` for the path's last element) and path.
#[derive(Debug, Clone, PartialEq)]
struct Import {
    alias: Option<String>,
    path: String,
}

impl Import {
    /// The name the file refers to the package by.
    fn name(&self) -> &str {
        self.alias
            .as_deref()
            .unwrap_or_else(|| self.path.rsplit('/').next().unwrap_or(&self.path))
    }
}

/// A Go file taken apart: its imports, and the rest with the line it starts on (1-based).
#[derive(Debug)]
struct File<'a> {
    imports: Vec<Import>,
    body: &'a str,
    body_line: usize,
}

fn is_identifier_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Splits `source` into its package clause (dropped), its import declarations and the rest.
fn split_file(source: &str) -> Result<File<'_>, String> {
    let code = blank(source, go_literals);
    let mut at = 0;
    let mut imports = Vec::new();
    let skip = |at: usize| {
        at + code[at..]
            .bytes()
            .take_while(|b| b.is_ascii_whitespace() || *b == b';')
            .count()
    };
    let word_at = |at: usize, word: &str| {
        code[at..].starts_with(word)
            && !code[at + word.len()..]
                .bytes()
                .next()
                .is_some_and(is_identifier_byte)
    };
    at = skip(at);
    if word_at(at, "package") {
        at = code[at..].find('\n').map_or(code.len(), |n| at + n + 1);
    }
    loop {
        at = skip(at);
        if !word_at(at, "import") {
            break;
        }
        let keyword_end = at + "import".len();
        at = skip(keyword_end);
        let end = if code[at..].starts_with('(') {
            let close = code[at..]
                .find(')')
                .map(|n| at + n)
                .ok_or("an import declaration has no closing parenthesis")?;
            for spec in source[at + 1..close].split(['\n', ';']) {
                if let Some(import) = import_spec(spec) {
                    imports.push(import);
                }
            }
            close + 1
        } else {
            // The path is a literal, blanked in `code`: the spec runs to the end of the line.
            at = keyword_end;
            let end = code[at..].find('\n').map_or(code.len(), |n| at + n);
            if let Some(import) = import_spec(&source[at..end]) {
                imports.push(import);
            }
            end
        };
        at = end;
    }
    Ok(File {
        imports,
        body: &source[at..],
        body_line: source[..at].matches('\n').count() + 1,
    })
}

/// One import spec (`"math"`, `m "math"`, `_ "embed"`), comments aside.
fn import_spec(spec: &str) -> Option<Import> {
    let spec = spec.split("//").next().unwrap_or("").trim();
    let quote = spec.find(['"', '`'])?;
    let path = spec[quote + 1..].trim_end().trim_end_matches(['"', '`']);
    let alias = spec[..quote].trim();
    Some(Import {
        alias: (!alias.is_empty()).then(|| alias.to_string()),
        path: path.to_string(),
    })
}

/// Whether `code` (blanked) refers to package `name` (`name.` not after a `.` or identifier).
fn uses(code: &str, name: &str) -> bool {
    let bytes = code.as_bytes();
    code.match_indices(name).any(|(at, _)| {
        let before = at == 0 || !(is_identifier_byte(bytes[at - 1]) || bytes[at - 1] == b'.');
        let after = &code[at + name.len()..];
        before && after.trim_start_matches([' ', '\t']).starts_with('.')
    })
}

/// The imports of a program whose code (outside imports) is `code`, from `candidates`: those it
/// uses, and the blank (`_`) and dot imports, each path once.
fn imports_by_use(code: &str, candidates: &[Import]) -> Vec<Import> {
    let code = blank(code, go_literals);
    let mut chosen: Vec<Import> = Vec::new();
    for import in candidates {
        let name = import.name();
        let wanted = name == "_" || name == "." || uses(&code, name);
        let named_once = !chosen.iter().any(|c| c.name() == name);
        if wanted && named_once && !chosen.contains(import) {
            chosen.push(import.clone());
        }
    }
    chosen
}

fn standard_by_use() -> Vec<Import> {
    STANDARD_BY_USE
        .iter()
        .map(|path| Import {
            alias: None,
            path: path.to_string(),
        })
        .collect()
}

/// An import declaration of `imports` and the aliased `extra` ones.
fn import_block(imports: &[Import], extra: &[(&str, &str)]) -> String {
    let mut block = String::from("import (\n");
    for import in imports {
        match &import.alias {
            Some(alias) => block.push_str(&format!("\t{alias} \"{}\"\n", import.path)),
            None => block.push_str(&format!("\t\"{}\"\n", import.path)),
        }
    }
    for (alias, path) in extra {
        block.push_str(&format!("\t{alias} \"{path}\"\n"));
    }
    block.push_str(")\n");
    block
}

/// A function's signature: its name, parameters and results as written.
#[derive(Debug, Clone, PartialEq)]
pub struct GoSignature {
    name: String,
    parameters: String,
    results: String,
    /// Where `func` starts in the text it was found in.
    start: usize,
}

/// The last top-level function named `name` (or any, when `None`) in `text`, methods aside.
fn find_signature(text: &str, name: Option<&str>) -> Option<GoSignature> {
    let code = blank(text, go_literals);
    let bytes = code.as_bytes();
    let mut depth = 0i32;
    let mut found = None;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' | b'(' | b'[' => depth += 1,
            b'}' | b')' | b']' => depth -= 1,
            _ => {}
        }
        let is_func = depth == 0
            && code[i..].starts_with("func")
            && (i == 0 || !is_identifier_byte(bytes[i - 1]))
            && code[i + 4..].starts_with([' ', '\t']);
        if !is_func {
            i += 1;
            continue;
        }
        let after = i + 4 + code[i + 4..].len() - code[i + 4..].trim_start().len();
        let ident_len = code[after..]
            .bytes()
            .take_while(|b| is_identifier_byte(*b))
            .count();
        let ident = &code[after..after + ident_len];
        let open = after + ident_len;
        if ident_len > 0
            && code[open..].starts_with('(')
            && name.is_none_or(|n| n == ident)
            && let Some(close) = matching(&code, open)
        {
            let brace = body_brace(&code, close + 1);
            found = Some(GoSignature {
                name: ident.to_string(),
                parameters: text[open + 1..close].trim().to_string(),
                results: text[close + 1..brace].trim().to_string(),
                start: i,
            });
        }
        i += 4;
    }
    found
}

/// Where the body's `{` is after a signature's parameters (from `from`): the first brace that
/// does not open an `interface{...}` or `struct{...}` type of the results; the end of `code`
/// when there is none.
fn body_brace(code: &str, from: usize) -> usize {
    let bytes = code.as_bytes();
    let mut i = from;
    while i < bytes.len() {
        if bytes[i] == b'{' {
            let before = code[from..i].trim_end();
            if !(before.ends_with("interface") || before.ends_with("struct")) {
                return i;
            }
            let mut depth = 0usize;
            while i < bytes.len() {
                match bytes[i] {
                    b'{' => depth += 1,
                    b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        i += 1;
    }
    code.len()
}

/// The fields of a parameter or result list: `(name, type)`, names `None` when the list has
/// none (`int, error`); a grouped `a, b int` gives both names the type.
fn fields(list: &str) -> Vec<(Option<String>, String)> {
    let list = list.trim();
    let list = list
        .strip_prefix('(')
        .and_then(|l| l.strip_suffix(')'))
        .unwrap_or(list);
    let parts: Vec<&str> = split_top_level(list, ',')
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let split = |part: &str| -> Option<(String, String)> {
        let name: String = part
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let rest = part[name.len()..].trim();
        let type_word = matches!(
            name.as_str(),
            "chan" | "func" | "map" | "struct" | "interface"
        );
        (!name.is_empty()
            && !rest.is_empty()
            && !type_word
            && part[name.len()..].starts_with([' ', '\t']))
        .then(|| (name, rest.to_string()))
    };
    let named = parts.iter().any(|p| split(p).is_some());
    if !named {
        return parts.iter().map(|p| (None, p.to_string())).collect();
    }
    let mut out: Vec<(Option<String>, String)> = Vec::new();
    let mut pending: Vec<String> = Vec::new();
    for part in parts {
        match split(part) {
            Some((name, ty)) => {
                for waiting in pending.drain(..) {
                    out.push((Some(waiting), ty.clone()));
                }
                out.push((Some(name), ty));
            }
            None => pending.push(part.to_string()),
        }
    }
    for waiting in pending {
        out.push((Some(waiting), String::new()));
    }
    out
}

/// The stub of `signature` in the trusted program: function `number` of the candidate's.
fn stub(signature: &GoSignature, number: usize) -> Result<String, String> {
    let parameters = fields(&signature.parameters);
    let mut names = Vec::new();
    for (name, _) in &parameters {
        match name.as_deref() {
            Some("_") | None => {
                return Err(format!(
                    "a parameter of `{}` has no name (the test program forwards each parameter by its name)",
                    signature.name
                ));
            }
            Some(name) => names.push(format!("&{name}")),
        }
    }
    let results = fields(&signature.results);
    let mut body = String::new();
    let mut targets = Vec::new();
    let mut returned = Vec::new();
    for (i, (name, ty)) in results.iter().enumerate() {
        match name {
            Some(name) => {
                targets.push(format!("&{name}"));
                returned.push(name.clone());
            }
            None => {
                body.push_str(&format!("\tvar rewardboxResult{i} {ty}\n"));
                targets.push(format!("&rewardboxResult{i}"));
                returned.push(format!("rewardboxResult{i}"));
            }
        }
    }
    let targets = if targets.is_empty() {
        String::new()
    } else {
        format!(", {}", targets.join(", "))
    };
    body.push_str(&format!(
        "\trewardboxWireCall({number}, \"{name}\", []interface{{}}{{{}}}{targets})\n",
        names.join(", "),
        name = signature.name,
    ));
    if !returned.is_empty() {
        body.push_str(&format!("\treturn {}\n", returned.join(", ")));
    }
    Ok(format!(
        "func {}({}) {} {{\n{body}}}\n",
        signature.name, signature.parameters, signature.results
    ))
}

/// What `declaration` holds before the entry point's `func` (its package clause, imports, types).
pub fn prefix<'a>(declaration: &'a str, entry: &str) -> Result<&'a str, String> {
    let signature = find_signature(declaration, Some(entry)).ok_or_else(|| {
        format!("the declaration does not define `{entry}` (no `func {entry}(...)`)")
    })?;
    Ok(&declaration[..signature.start])
}

/// The types of `entry`'s parameters and results as `declaration` writes them (a grouped
/// `a, b int` gives each its type).
pub fn entry_types(declaration: &str, entry: &str) -> Result<(Vec<String>, Vec<String>), String> {
    let signature = find_signature(declaration, Some(entry)).ok_or_else(|| {
        format!("the declaration does not define `{entry}` (no `func {entry}(...)`)")
    })?;
    let types =
        |list: &str| -> Vec<String> { fields(list).into_iter().map(|(_, ty)| ty).collect() };
    Ok((types(&signature.parameters), types(&signature.results)))
}

/// The test functions of `code` (blanked): `func TestX(t *testing.T)` at the top level.
fn test_functions(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in code.lines() {
        if let Some(rest) = line.strip_prefix("func Test") {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if rest[name.len()..].trim_start().starts_with('(')
                && !name.starts_with(|c: char| c.is_ascii_lowercase())
            {
                names.push(format!("Test{name}"));
            }
        }
    }
    names
}

/// The forwarded functions' signatures (`tests.forward`: `func EncodeCyclic(s string) string`).
fn forwarded(forward: &[String]) -> Result<Vec<GoSignature>, String> {
    forward
        .iter()
        .map(|text| {
            find_signature(&format!("{text} {{"), None).ok_or_else(|| {
                format!("\"tests.forward\" lists `{text}`, which is not a Go function signature")
            })
        })
        .collect()
}

/// The trusted test program: the test's imports, the declaration's helpers, the entry point and
/// each of `forward` calling the candidate, the test functions and a `main` running them.
pub fn trusted_program(
    declaration: &str,
    entry: &str,
    forward: &[String],
    test: &str,
) -> Result<String, String> {
    let signature = find_signature(declaration, Some(entry))
        .ok_or_else(|| format!("the declaration does not declare `func {entry}(...)`"))?;
    let declared = split_file(&declaration[..signature.start])?;
    let tests = split_file(test)?;
    let test_code = blank(tests.body, go_literals);
    let names = test_functions(&test_code);
    if names.is_empty() {
        return Err("the test code defines no test function (`func TestX(t *testing.T)`)".into());
    }
    let mut stubs = stub(&signature, 0)?;
    for (i, other) in forwarded(forward)?.iter().enumerate() {
        stubs.push_str(&stub(other, i + 1)?);
    }
    let testify = tests.imports.iter().any(|i| i.path == TESTIFY_PATH);
    let candidates: Vec<Import> = tests
        .imports
        .iter()
        .chain(&declared.imports)
        .filter(|i| i.path != TESTIFY_PATH)
        .cloned()
        .collect();
    let rows = table_rows(tests.body);
    let (body, subtests) = if rows.is_empty() {
        (tests.body.to_string(), String::new())
    } else {
        let lines: Vec<String> = rows
            .iter()
            .map(|(line, _)| (line + tests.body_line - 1).to_string())
            .collect();
        (
            with_subtest_reports(tests.body),
            format!(
                "var rewardboxWireRows = []int{{{}}}\n{SUBTESTS}",
                lines.join(", ")
            ),
        )
    };
    let own_code = format!("{}\n{}", declared.body, tests.body);
    let imports = imports_by_use(&own_code, &candidates);
    let runner: String = names
        .iter()
        .map(|n| format!("{{\"{n}\", {n}}}, "))
        .collect();
    Ok(format!(
        "package main\n\n{imports}\n//line declaration:{decl_line}\n{helpers}\n{stubs}\n//line test:{test_line}\n{body}\n\n//line rewardbox-wire:1\n{WIRE}\n{testify}{subtests}\nfunc main() {{\n\trewardboxWireTesting.Main(func(string, string) (bool, error) {{ return true, nil }}, []rewardboxWireTesting.InternalTest{{{runner}}}, nil, nil)\n}}\n",
        imports = import_block(&imports, &[WIRE_IMPORTS, TRUSTED_IMPORTS].concat()),
        decl_line = declared.body_line,
        helpers = declared.body,
        test_line = tests.body_line,
        testify = if testify {
            TESTIFY
        } else {
            "var _ = rewardboxWireRuntime.Caller\n"
        },
    ))
}

/// The candidate's program: its own source (in package `main`, imports by use, and with
/// `add_imports` the standard packages CodeGeeX's harness adds), then the wire and a server
/// answering calls of `entry` and `forward` before its `main`.
pub fn candidate_program(
    program: &str,
    entry: &str,
    forward: &[String],
    add_imports: bool,
) -> Result<String, String> {
    let file = split_file(program)?;
    let mut candidates = file.imports.clone();
    if add_imports {
        candidates.extend(standard_by_use());
    }
    let imports = imports_by_use(file.body, &candidates);
    let functions: Vec<String> = std::iter::once(Ok(entry.to_string()))
        .chain(forwarded(forward)?.into_iter().map(|s| Ok(s.name)))
        .collect::<Result<_, String>>()?;
    let code = blank(file.body, go_literals);
    let has_main = code.lines().any(|l| {
        l.strip_prefix("func main")
            .is_some_and(|rest| rest.trim_start().starts_with('('))
    });
    Ok(format!(
        "package main\n\n{imports}\n//line solution:{line}\n{body}\n\n//line rewardbox-serve:1\n{WIRE}\nfunc init() {{\n\trewardboxWireServe([]interface{{}}{{{functions}}})\n\trewardboxWireOs.Exit(0)\n}}\n{main}",
        imports = import_block(&imports, WIRE_IMPORTS),
        line = file.body_line,
        body = file.body,
        functions = functions.join(", "),
        main = if has_main { "" } else { "\nfunc main() {}\n" },
    ))
}

/// The cases of `test`: each line calling an assertion (`assert.Equal(`, or through the name
/// `assert.New(t)` was given), in order.
pub fn cases(test: &str) -> Vec<StaticCase> {
    let code = blank(test, go_literals);
    let mut receivers = vec!["assert".to_string()];
    for line in code.lines() {
        if let Some((left, right)) = line.split_once(":=")
            && right.trim_start().starts_with("assert.New(")
        {
            receivers.push(left.trim().to_string());
        }
    }
    let mut cases = Vec::new();
    for (index, line) in code.lines().enumerate() {
        let bytes = line.as_bytes();
        let calls = receivers.iter().any(|receiver| {
            line.match_indices(receiver.as_str()).any(|(at, _)| {
                let before =
                    at == 0 || !(is_identifier_byte(bytes[at - 1]) || bytes[at - 1] == b'.');
                let rest = &line[at + receiver.len()..];
                let method: String = rest
                    .strip_prefix('.')
                    .unwrap_or("")
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                before
                    && !method.is_empty()
                    && method != "New"
                    && rest[1 + method.len()..].trim_start().starts_with('(')
            })
        });
        if calls {
            let shown = test.lines().nth(index).unwrap_or("").trim();
            cases.push(StaticCase::line(index + 1, shown));
        }
    }
    if cases.is_empty() {
        return table_rows(test)
            .into_iter()
            .map(|(line, shown)| StaticCase::line(line, &shown))
            .collect();
    }
    cases
}

/// MultiPL-E's Go test: a table of `{ actual: candidate(...), expected: ... }` rows, each
/// checked in a subtest (`t.Run`). The rows' lines (1-based) and text, in order, when the test
/// code has this form; none otherwise.
fn table_rows(test: &str) -> Vec<(usize, String)> {
    let code = blank(test, go_literals);
    if !code.contains("t.Run(") {
        return Vec::new();
    }
    code.lines()
        .enumerate()
        .filter(|(_, line)| {
            line.split_once("actual:")
                .is_some_and(|(_, rest)| rest.contains('('))
        })
        .map(|(index, _)| {
            let shown = test.lines().nth(index).unwrap_or("").trim();
            (index + 1, shown.to_string())
        })
        .collect()
}

/// Test code with each `t.Run(` and `t.Errorf(` of a MultiPL-E table test going through
/// [`SUBTESTS`], which reports each subtest as the case of its table row. Lines are kept.
fn with_subtest_reports(test: &str) -> String {
    let code = blank(test, go_literals);
    let mut out = String::with_capacity(test.len() + 64);
    let mut last = 0;
    let bytes = code.as_bytes();
    let mut calls: Vec<(usize, &str, &str)> = code
        .match_indices("t.Run(")
        .map(|(at, m)| (at, m, "rewardboxWireRun(t, "))
        .chain(
            code.match_indices("t.Errorf(")
                .map(|(at, m)| (at, m, "rewardboxWireErrorf(t, ")),
        )
        .filter(|(at, _, _)| {
            *at == 0 || !(is_identifier_byte(bytes[at - 1]) || bytes[at - 1] == b'.')
        })
        .collect();
    calls.sort_unstable();
    for (at, matched, replacement) in calls {
        out.push_str(&test[last..at]);
        out.push_str(replacement);
        last = at + matched.len();
    }
    out.push_str(&test[last..]);
    out
}

/// The subtest reporter of [`with_subtest_reports`]: the n-th subtest run is the n-th table
/// row, reported by its line with the failure its test gave.
const SUBTESTS: &str = r#"
var rewardboxWireSubtest = 0
var rewardboxWireSubtestFailure = ""

func rewardboxWireRun(t *rewardboxWireTesting.T, name string, f func(t *rewardboxWireTesting.T)) bool {
	row := rewardboxWireSubtest
	rewardboxWireSubtest++
	rewardboxWireSubtestFailure = ""
	ok := t.Run(name, f)
	if row < len(rewardboxWireRows) {
		state := "pass"
		if !ok {
			state = "fail"
		}
		rewardboxWireReport("case line" + rewardboxWireStrconv.Itoa(rewardboxWireRows[row]) + " " + state + " " + rewardboxWireSubtestFailure)
	}
	return ok
}

func rewardboxWireErrorf(t *rewardboxWireTesting.T, format string, args ...interface{}) {
	if rewardboxWireSubtestFailure == "" {
		rewardboxWireSubtestFailure = rewardboxWireFmt.Sprintf(format, args...)
	}
	t.Errorf(format, args...)
}
"#;

/// The function a declaration opens: the last one it declares at its top level.
pub fn entry_of_declaration(declaration: &str) -> Option<String> {
    find_signature(declaration, None).map(|s| s.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_split_into_imports_and_the_rest() {
        let source = "// doc\npackage main\n\nimport \"fmt\"\nimport (\n    \"math\"\n    m2 \"math/rand\" // rng\n    _ \"embed\"\n)\n\nfunc F() {}\n";
        let file = split_file(source).unwrap();
        let paths: Vec<(&str, &str)> = file
            .imports
            .iter()
            .map(|i| (i.name(), i.path.as_str()))
            .collect();
        assert_eq!(
            paths,
            [
                ("fmt", "fmt"),
                ("math", "math"),
                ("m2", "math/rand"),
                ("_", "embed")
            ]
        );
        assert_eq!(file.body.trim(), "func F() {}");
        assert_eq!(file.body_line, 11);
        let bare = split_file("\n// doc\nfunc F() {\n").unwrap();
        assert!(bare.imports.is_empty());
        assert_eq!(bare.body_line, 3);
    }

    #[test]
    fn imports_are_chosen_by_use_outside_comments_and_strings() {
        let candidates: Vec<Import> = ["math", "strings", "math/rand", "fmt"]
            .iter()
            .map(|p| Import {
                alias: None,
                path: p.to_string(),
            })
            .collect();
        let code = "func F(s string) int {\n    // fmt.Println(s)\n    x := \"strings.Split\"\n    return rand.Intn(3) + int(math.Sqrt(4)) + len(x.y)\n}\n";
        let chosen: Vec<String> = imports_by_use(code, &candidates)
            .into_iter()
            .map(|i| i.path)
            .collect();
        assert_eq!(chosen, ["math", "math/rand"]);
    }

    #[test]
    fn fields_read_grouped_named_and_unnamed_lists() {
        let named = |list: &str| -> Vec<(Option<String>, String)> { fields(list) };
        assert_eq!(
            named("a, b int, s []string"),
            vec![
                (Some("a".into()), "int".into()),
                (Some("b".into()), "int".into()),
                (Some("s".into()), "[]string".into())
            ]
        );
        assert_eq!(
            named("(int, error)"),
            vec![(None, "int".into()), (None, "error".into())]
        );
        assert_eq!(
            named("map[string]int"),
            vec![(None, "map[string]int".into())]
        );
        assert_eq!(
            named("nums ...int"),
            vec![(Some("nums".into()), "...int".into())]
        );
        assert_eq!(named("(n int, ok bool)").len(), 2);
        assert_eq!(named(""), vec![]);
    }

    #[test]
    fn the_trusted_program_runs_the_tests_against_stubs() {
        let declaration = "import (\n    \"math\"\n)\n\n// doc\nfunc Poly(xs []int, x float64) float64 {\n    return math.Pow(x, 2)\n}\n// doc\nfunc FindZero(xs []int) float64 {\n";
        let test = "package main\n\nimport (\n    \"testing\"\n    \"math\"\n    \"github.com/stretchr/testify/assert\"\n)\nfunc TestFindZero(t *testing.T) {\n    assert := assert.New(t)\n    assert.Equal(true, math.Abs(Poly([]int{1}, FindZero([]int{1}))) < 1e-4)\n}\n";
        let trusted = trusted_program(declaration, "FindZero", &[], test).unwrap();
        assert!(
            trusted.starts_with("package main\n\nimport (\n\t\"testing\"\n\t\"math\"\n"),
            "{trusted}"
        );
        assert!(!trusted.contains("\"github.com/stretchr/testify/assert\""));
        assert!(trusted.contains("func Poly(xs []int, x float64) float64 {"));
        assert!(trusted.contains(
            "func FindZero(xs []int) float64 {\n\tvar rewardboxResult0 float64\n\trewardboxWireCall(0, \"FindZero\", []interface{}{&xs}, &rewardboxResult0)\n\treturn rewardboxResult0\n}"
        ));
        assert!(trusted.contains("//line test:8\nfunc TestFindZero(t *testing.T) {"));
        assert!(trusted.contains("{\"TestFindZero\", TestFindZero}, "));
        assert!(trusted.contains("func (rewardboxAssertPackage) Equal("));
        let ids: Vec<String> = cases(test).into_iter().map(|c| c.id).collect();
        assert_eq!(ids, ["line 10"]);
        let err = trusted_program(declaration, "Other", &[], test).unwrap_err();
        assert!(err.contains("`func Other(...)`"), "{err}");
        let err = trusted_program(declaration, "FindZero", &[], "func helper() {}\n").unwrap_err();
        assert!(err.contains("no test function"), "{err}");
    }

    #[test]
    fn the_candidate_program_gets_a_package_its_imports_by_use_and_a_server() {
        let program = "import (\n    \"math\"\n    \"sort\"\n)\n\n// doc\nfunc Add(x int, y int) int {\n    return x + y + len(strings.Fields(\"a\"))\n}\n";
        let candidate = candidate_program(
            program,
            "Add",
            &["func Helper(a, b int) (int, error)".into()],
            true,
        )
        .unwrap();
        // Without add_imports, `strings` stays unimported (go build will say so).
        let strict = candidate_program(program, "Add", &[], false).unwrap();
        assert!(strict.starts_with("package main\n\nimport (\n\trewardboxWireBufio \"bufio\""));
        assert!(candidate.starts_with(
            "package main\n\nimport (\n\t\"strings\"\n\trewardboxWireBufio \"bufio\""
        ));
        assert!(!candidate.contains("\t\"math\"\n") && !candidate.contains("\t\"sort\"\n"));
        assert!(candidate.contains("//line solution:7\n"));
        assert!(candidate.contains("rewardboxWireServe([]interface{}{Add, Helper})"));
        assert!(candidate.contains("\nfunc main() {}\n"));
        let with_main = candidate_program(
            "package main\nfunc Add() int { return 1 }\nfunc main() {}\n",
            "Add",
            &[],
            false,
        )
        .unwrap();
        assert_eq!(with_main.matches("func main()").count(), 1);
    }

    #[test]
    fn stubs_forward_grouped_variadic_and_several_results() {
        let signature = find_signature(
            "func Split(a, b int, rest ...string) (n int, err error) {",
            None,
        )
        .unwrap();
        let text = stub(&signature, 2).unwrap();
        assert!(
            text.contains(
                "rewardboxWireCall(2, \"Split\", []interface{}{&a, &b, &rest}, &n, &err)\n\treturn n, err\n"
            ),
            "{text}"
        );
        let empty = find_signature("func G(x interface{}) interface{} {\n", None).unwrap();
        assert_eq!(
            (empty.parameters.as_str(), empty.results.as_str()),
            ("x interface{}", "interface{}")
        );
        let pair = find_signature("func H() (struct{ A int }, [2]interface{}) {", None).unwrap();
        assert_eq!(pair.results, "(struct{ A int }, [2]interface{})");
        let unnamed = find_signature("func F(int) bool {", None).unwrap();
        assert!(stub(&unnamed, 0).unwrap_err().contains("no name"));
    }
    #[test]
    fn a_multipl_e_table_is_a_case_per_row_reported_by_its_subtest() {
        let test = "package main\n\nimport (\n    \"testing\"\n    \"fmt\"\n)\n\nfunc TestF(t *testing.T) {\n  candidate := F\n   tests := []test{\n     { actual: candidate(1), expected: 2 },\n     { actual: candidate(2), expected: 4 },\n   }\n\tfor i, tc := range tests {\n\t\tt.Run(fmt.Sprintf(\"test num % d\", i), func(t *testing.T) {\n\t\t\tif fmt.Sprintf(\"%v\", tc.actual) != fmt.Sprintf(\"%v\", tc.expected) {\n\t\t\t\tt.Errorf(\"expected '%s', got '%s'\", tc.expected, tc.actual)\n\t\t\t}\n\t\t})\n\t}\n}\n";
        let ids: Vec<String> = cases(test).into_iter().map(|c| c.id).collect();
        assert_eq!(ids, ["line 11", "line 12"]);
        let trusted =
            trusted_program("package main\n\nfunc F(x int) int {\n", "F", &[], test).unwrap();
        assert!(
            trusted.contains("var rewardboxWireRows = []int{11, 12}"),
            "{trusted}"
        );
        assert!(trusted.contains(
            "rewardboxWireRun(t, fmt.Sprintf(\"test num % d\", i), func(t *testing.T) {"
        ));
        assert!(trusted.contains(
            "rewardboxWireErrorf(t, \"expected '%s', got '%s'\", tc.expected, tc.actual)"
        ));
        assert_eq!(
            with_subtest_reports(test).lines().count(),
            test.lines().count(),
            "lines are kept"
        );
        // Test code without a table keeps its `t.Run` as written.
        let plain = "package main\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) {\n\tt.Run(\"a\", func(t *testing.T) {})\n}\n";
        assert!(table_rows(plain).is_empty());
        assert!(
            trusted_program("package main\n\nfunc F(x int) int {\n", "F", &[], plain)
                .unwrap()
                .contains("\tt.Run(\"a\"")
        );
    }
}
