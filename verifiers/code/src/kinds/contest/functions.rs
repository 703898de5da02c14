//! IOI/CMS tasks whose submission implements functions that a grader calls
//! (`tests.judge.grader`): the grader and the submission run in sandboxes of their own, the
//! grader's calls of the submission's functions (and the submission's calls of the grader's)
//! crossing a pipe between them.
//!
//! CMS compiles the grader with the submission into one program, so a submission can read the
//! grader's input (the hidden values an interactive task's grader answers queries about) and
//! change its state (the count of queries it checks). Here the grader is a trusted program: it
//! alone reads the test's input and writes the output the checker judges; the submission's
//! process holds nothing but the arguments of the calls made to it.
//!
//! From the task's header the functions it declares are read; those the grader defines are the
//! grader's, those it calls and does not define are the submission's. Both programs are the
//! header, the wire ([`WIRE`]) and generated code, then the grader's or the submission's own
//! source (its `#include` of the header left out, the header being already there):
//!
//! - in the grader's program, each of the submission's functions is a proxy that writes the call
//!   to `/fifo/m_to_u0` and reads the return from `/fifo/u0_to_m`, serving the submission's
//!   calls of grader functions meanwhile;
//! - the submission's program has a `main` that serves calls from its stdin until the grader
//!   ends, and a proxy for each of the grader's functions.
//!
//! Arguments and results may be integers, `bool`, `char`, floating point (sent exactly),
//! `std::string`, and `std::vector`/`std::pair` of these, by value or by reference (a non-const
//! reference is sent back after the call). Pointers, arrays, structures and shared variables
//! cannot cross between sandboxes: a header with them is refused, naming the declaration.

use crate::kinds::contest::spec::Header;

/// The wire both programs are built with.
pub const WIRE: &str = include_str!("../../wire/functions.hpp");

/// The grader's ends of the pipe to the submission (see the host's `communicate`).
const GRADER_READS: &str = "/fifo/u0_to_m";
const GRADER_WRITES: &str = "/fifo/m_to_u0";

/// A parameter of a declared function.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// Its type as declared, without its name (`const std::vector<int> &`).
    pub declared: String,
    /// Its type without `const` and `&` (`std::vector<int>`).
    pub ty: String,
    /// Passed by non-const reference: its value after the call is sent back.
    pub by_reference: bool,
}

/// A function the header declares.
#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    /// Its name.
    pub name: String,
    /// Its return type as written (`void`: none).
    pub returns: String,
    /// Its parameters.
    pub params: Vec<Param>,
}

/// Which side implements each of the header's functions.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The functions, in the header's order (a function's number on the wire is its index).
    pub functions: Vec<Function>,
    /// The grader defines it (else the submission does, if the grader calls it).
    pub grader_defines: Vec<bool>,
    /// The grader calls it without defining it: the submission implements it.
    pub submission_implements: Vec<bool>,
}

/// `source` with comments and the contents of string and character literals blanked (lengths
/// and line breaks kept), for finding declarations and definitions.
fn code_only(source: &str) -> String {
    let bytes = source.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                out.push(b' ');
                i += 1;
            }
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            out.extend(b"  ");
            i += 2;
            while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                out.push(if bytes[i] == b'\n' { b'\n' } else { b' ' });
                i += 1;
            }
            out.extend(b"  ");
            i = (i + 2).min(bytes.len());
        } else if c == b'"' || c == b'\'' {
            out.push(c);
            i += 1;
            while i < bytes.len() && bytes[i] != c && bytes[i] != b'\n' {
                if bytes[i] == b'\\' {
                    out.push(b' ');
                    i += 1;
                }
                if i < bytes.len() {
                    out.push(b' ');
                    i += 1;
                }
            }
            if i < bytes.len() {
                out.push(bytes[i]);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Splits `text` at `separator` where no bracket is open.
fn split_top(text: &str, separator: char) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut depth = 0i32;
    for c in text.chars() {
        match c {
            '(' | '<' | '[' | '{' => depth += 1,
            ')' | '>' | ']' | '}' => depth -= 1,
            _ => {}
        }
        if c == separator && depth == 0 {
            parts.push(String::new());
        } else {
            parts.last_mut().expect("one part at least").push(c);
        }
    }
    parts
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Words that make a type, never a parameter's name.
const TYPE_WORDS: [&str; 12] = [
    "int", "long", "short", "char", "bool", "double", "float", "unsigned", "signed", "void",
    "const", "size_t",
];

/// Whether `ty` (no `const`, no `&`) is a type the wire carries.
fn crosses(ty: &str) -> bool {
    let ty = ty.trim();
    let inner = |prefix: &str| {
        ty.strip_prefix(prefix)
            .and_then(|rest| rest.trim().strip_suffix('>'))
    };
    if let Some(item) = inner("std::vector<").or_else(|| inner("vector<")) {
        return crosses(item);
    }
    if let Some(items) = inner("std::pair<").or_else(|| inner("pair<")) {
        let parts = split_top(items, ',');
        return parts.len() == 2 && parts.iter().all(|p| crosses(p));
    }
    if matches!(ty, "std::string" | "string") {
        return true;
    }
    let fixed = [
        "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
        "size_t",
    ];
    if fixed
        .iter()
        .any(|f| ty == *f || ty.strip_prefix("std::") == Some(f))
    {
        return true;
    }
    !ty.is_empty()
        && ty
            .split_whitespace()
            .all(|w| TYPE_WORDS.contains(&w) && w != "void" && w != "const")
}

/// A parameter's declaration (`const std::vector<int> &w`, `int`), or why it cannot cross.
fn param(text: &str, function: &str) -> Result<Param, String> {
    let text = text.split('=').next().unwrap_or_default().trim();
    if text.contains('*') || text.contains('[') {
        return Err(format!(
            "{function}'s parameter `{text}` is a pointer or an array, which cannot cross between \
             the grader's sandbox and the submission's"
        ));
    }
    let by_reference = text.contains('&');
    let constant = text.split(|c: char| !is_ident(c)).any(|w| w == "const");
    // Its name, when it has one: a last word that is not part of the type.
    let mut declared = text.to_string();
    let tail = text.trim_end_matches(is_ident);
    let last = &text[tail.len()..];
    if !last.is_empty()
        && !TYPE_WORDS.contains(&last)
        && tail
            .trim_end()
            .chars()
            .next_back()
            .is_some_and(|c| c == '&' || c == '>' || is_ident(c))
    {
        declared = tail.trim_end().to_string();
    }
    let ty = declared.replace('&', " ");
    let ty = ty
        .split_whitespace()
        .filter(|w| *w != "const")
        .collect::<Vec<_>>()
        .join(" ")
        .replace(" <", "<")
        .replace("< ", "<")
        .replace(" >", ">");
    if !crosses(&ty) {
        return Err(format!(
            "{function}'s parameter type `{ty}` cannot cross between the grader's sandbox and the \
             submission's (integers, bool, char, floating point, std::string, and std::vector or \
             std::pair of these can)"
        ));
    }
    Ok(Param {
        declared,
        ty,
        by_reference: by_reference && !constant,
    })
}

/// The functions `header` declares, or why its declarations cannot be served across sandboxes.
pub fn declared_functions(header: &str) -> Result<Vec<Function>, String> {
    let code: String = code_only(header)
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n");
    // `extern "C++" {` and the like: their braces are not a scope of their own here.
    let code = code
        .replace("extern \"C\"", " ")
        .replace("extern \"C++\"", " ");
    let mut functions = Vec::new();
    let mut statement = String::new();
    let mut depth = 0i32;
    let mut skipping_body = false;
    for c in code.chars() {
        match c {
            '{' => {
                depth += 1;
                // A brace after a declaration's head opens a body (a struct's, an inline
                // function's): what it declares is skipped.
                if !statement.trim().is_empty() || depth > 1 {
                    skipping_body = true;
                }
                continue;
            }
            '}' => {
                depth -= 1;
                if depth <= 0 {
                    depth = 0;
                    if skipping_body {
                        skipping_body = false;
                        statement.clear();
                    }
                }
                continue;
            }
            ';' if !skipping_body => {
                if let Some(function) = declaration(&statement)? {
                    functions.push(function);
                }
                statement.clear();
                continue;
            }
            _ => {}
        }
        if !skipping_body {
            statement.push(c);
        }
    }
    Ok(functions)
}

/// One declaration (no `;`): a function's, a variable's (refused), or another (skipped).
fn declaration(statement: &str) -> Result<Option<Function>, String> {
    let text = statement.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.is_empty() {
        return Ok(None);
    }
    let first = text
        .split(|c: char| !is_ident(c))
        .next()
        .unwrap_or_default();
    if [
        "typedef",
        "using",
        "struct",
        "class",
        "enum",
        "union",
        "template",
        "namespace",
        "static_assert",
        "static",
        "inline",
    ]
    .contains(&first)
    {
        return Ok(None);
    }
    let Some(open) = text.find('(') else {
        return Err(format!(
            "the header declares `{text}`, a variable the grader and the submission would share, \
             which cannot cross between their sandboxes"
        ));
    };
    let head = text[..open].trim_end();
    let name_start = head.rfind(|c: char| !is_ident(c)).map_or(0, |i| i + 1);
    let name = &head[name_start..];
    let returns = head[..name_start].trim();
    if name.is_empty() || returns.is_empty() {
        return Ok(None);
    }
    let close = text.rfind(')').unwrap_or(text.len());
    let inside = text.get(open + 1..close).unwrap_or_default().trim();
    let params = if inside.is_empty() || inside == "void" {
        Vec::new()
    } else {
        split_top(inside, ',')
            .iter()
            .map(|p| param(p, name))
            .collect::<Result<_, _>>()?
    };
    let returns = returns
        .split_whitespace()
        .filter(|w| *w != "extern")
        .collect::<Vec<_>>()
        .join(" ");
    if returns != "void"
        && (returns.contains('&')
            || returns.contains('*')
            || !crosses(&returns.replace("const ", "")))
    {
        return Err(format!(
            "{name} returns `{returns}`, which cannot cross between the grader's sandbox and the \
             submission's"
        ));
    }
    Ok(Some(Function {
        name: name.to_string(),
        returns,
        params,
    }))
}

/// Where `name` is used as a function in `code` (comments and literals blanked): whether it is
/// defined (`name(...) {`) and whether it is called.
fn uses(code: &str, name: &str) -> (bool, bool) {
    let (mut defined, mut called) = (false, false);
    let bytes = code.as_bytes();
    let mut from = 0;
    while let Some(at) = code[from..].find(name).map(|i| i + from) {
        from = at + name.len();
        let before = code[..at].chars().next_back();
        let after = code[from..].chars().next();
        if before.is_some_and(is_ident) || after.is_some_and(is_ident) {
            continue;
        }
        let preceded = code[..at].trim_end();
        if preceded.ends_with('.') || preceded.ends_with("->") {
            continue;
        }
        let rest = code[from..].trim_start();
        if !rest.starts_with('(') {
            continue;
        }
        // The matching parenthesis, then what follows it.
        let start = code.len() - rest.len();
        let mut depth = 0;
        let mut end = None;
        for (i, &b) in bytes.iter().enumerate().skip(start) {
            match b {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(i + 1);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else { break };
        let mut after = code[end..].trim_start();
        for word in ["const", "noexcept"] {
            after = after.strip_prefix(word).unwrap_or(after).trim_start();
        }
        if after.starts_with('{') {
            defined = true;
        } else {
            called = true;
        }
    }
    (defined, called)
}

impl Plan {
    /// Reads the header's functions and which side implements each, from the grader's source.
    pub fn new(header: &Header, grader: &str) -> Result<Plan, String> {
        let functions = declared_functions(&header.source)?;
        let code = code_only(grader);
        let mut grader_defines = Vec::new();
        let mut submission_implements = Vec::new();
        for function in &functions {
            let (defined, called) = uses(&code, &function.name);
            grader_defines.push(defined);
            submission_implements.push(!defined && called);
        }
        if !submission_implements.iter().any(|&s| s) {
            return Err(format!(
                "the grader calls none of the functions {} declares without defining it: there \
                 is nothing for the submission to implement",
                header.name
            ));
        }
        Ok(Plan {
            functions,
            grader_defines,
            submission_implements,
        })
    }

    /// The grader's program: the header, the wire, a proxy for each of the submission's
    /// functions and a server of its own, then the grader.
    pub fn grader_program(&self, header: &Header, grader: &str) -> String {
        let mut out = prelude(header);
        out.push_str(&format!(
            "namespace rewardbox_functions {{\n\
             void connect() {{\n\
             \x20   if (wire_out) return;\n\
             \x20   wire_in = std::fopen(\"{GRADER_READS}\", \"r\");\n\
             \x20   wire_out = std::fopen(\"{GRADER_WRITES}\", \"w\");\n\
             \x20   if (!wire_in || !wire_out) {{\n\
             \x20       std::fputs(\"rewardbox: the grader cannot open its pipe to the submission\\n\", stderr);\n\
             \x20       std::abort();\n\
             \x20   }}\n\
             }}\n\
             // The submission ended during a call: as when its process ends natively, the\n\
             // grader's output so far is the output.\n\
             [[noreturn]] void peer_ended() {{ std::exit(0); }}\n"
        ));
        out.push_str(&self.server(|i| self.grader_defines[i]));
        out.push_str("}  // namespace rewardbox_functions\n");
        for (i, function) in self.functions.iter().enumerate() {
            if self.submission_implements[i] {
                out.push_str(&proxy(i, function));
            }
        }
        out.push_str("#line 1 \"grader\"\n");
        out.push_str(&without_include(grader, &header.name));
        out
    }

    /// The submission's program: the header, the wire, a server of its functions as `main` and a
    /// proxy for each of the grader's, then the submission.
    pub fn submission_program(&self, header: &Header, submission: &str) -> String {
        let mut out = prelude(header);
        out.push_str(
            "namespace rewardbox_functions {\n\
             void connect() {\n\
             \x20   if (wire_out) return;\n\
             \x20   wire_in = stdin;\n\
             \x20   wire_out = stdout;\n\
             }\n\
             // The grader ended: the submission's process ends with it.\n\
             [[noreturn]] void peer_ended() { std::exit(0); }\n",
        );
        out.push_str(&self.server(|i| self.submission_implements[i]));
        out.push_str("}  // namespace rewardbox_functions\n");
        for (i, function) in self.functions.iter().enumerate() {
            if self.grader_defines[i] {
                out.push_str(&proxy(i, function));
            }
        }
        out.push_str(
            "int main() {\n\
             \x20   rewardbox_functions::connect();\n\
             \x20   for (;;) {\n\
             \x20       if (rewardbox_functions::next_message() != 'C') return 0;\n\
             \x20       int function;\n\
             \x20       rewardbox_functions::get(function);\n\
             \x20       rewardbox_functions::serve(function);\n\
             \x20   }\n\
             }\n",
        );
        out.push_str("#line 1 \"solution\"\n");
        out.push_str(&without_include(submission, &header.name));
        out
    }

    /// `serve`: reads the arguments of a call of one of the functions `serves`, calls it, and
    /// writes its return.
    fn server(&self, serves: impl Fn(usize) -> bool) -> String {
        let mut out = String::from("void serve(int function) {\n    switch (function) {\n");
        for (i, function) in self.functions.iter().enumerate() {
            if !serves(i) {
                continue;
            }
            out.push_str(&format!("    case {i}: {{\n"));
            let mut args = Vec::new();
            for (j, p) in function.params.iter().enumerate() {
                out.push_str(&format!("        {} a{j}{{}};\n        get(a{j});\n", p.ty));
                args.push(format!("a{j}"));
            }
            let call = format!("::{}({})", function.name, args.join(", "));
            if function.returns == "void" {
                out.push_str(&format!("        {call};\n        reply();\n"));
            } else {
                out.push_str(&format!(
                    "        auto result = {call};\n        reply();\n        put(result);\n"
                ));
            }
            for (j, p) in function.params.iter().enumerate() {
                if p.by_reference {
                    out.push_str(&format!("        put(a{j});\n"));
                }
            }
            out.push_str("        send();\n        return;\n    }\n");
        }
        out.push_str(
            "    default:\n\
             \x20       std::fputs(\"rewardbox: a call of a function this side does not implement\\n\", stderr);\n\
             \x20       std::abort();\n\
             \x20   }\n\
             }\n",
        );
        out
    }
}

/// The header (once, whoever includes it again) and the wire.
fn prelude(header: &Header) -> String {
    format!(
        "#line 1 \"{name}\"\n{source}\n#line 1 \"rewardbox_functions.hpp\"\n{WIRE}\n",
        name = header.name,
        source = header.source,
    )
}

/// A proxy of function `index`: the call written to the wire, the return read from it.
fn proxy(index: usize, function: &Function) -> String {
    let params: Vec<String> = function
        .params
        .iter()
        .enumerate()
        .map(|(j, p)| format!("{} a{j}", p.declared))
        .collect();
    let mut out = format!(
        "{} {}({}) {{\n    using namespace rewardbox_functions;\n    call({index});\n",
        function.returns,
        function.name,
        params.join(", ")
    );
    for j in 0..function.params.len() {
        out.push_str(&format!("    put(a{j});\n"));
    }
    out.push_str("    send();\n    await_return();\n");
    let returns = function.returns != "void";
    if returns {
        let ty = function.returns.replace("const ", "");
        out.push_str(&format!("    {ty} result{{}};\n    get(result);\n"));
    }
    for (j, p) in function.params.iter().enumerate() {
        if p.by_reference {
            out.push_str(&format!("    get(a{j});\n"));
        }
    }
    if returns {
        out.push_str("    return result;\n");
    }
    out.push_str("}\n");
    out
}

/// `source` with its `#include` of the header (`"name"` or `<name>`, any directory) made an
/// empty line.
pub fn without_include(source: &str, name: &str) -> String {
    source
        .split_inclusive('\n')
        .map(|line| {
            let trimmed = line.trim_start();
            let included = trimmed
                .strip_prefix('#')
                .map(str::trim_start)
                .and_then(|l| l.strip_prefix("include"))
                .map(|l| l.trim().trim_matches(|c| c == '"' || c == '<' || c == '>'))
                .is_some_and(|path| path.rsplit('/').next() == Some(name));
            if included {
                if line.ends_with('\n') { "\n" } else { "" }
            } else {
                line
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(source: &str) -> Header {
        Header {
            name: "task.h".into(),
            source: source.into(),
        }
    }

    #[test]
    fn declarations_are_read_with_their_types() {
        let functions = declared_functions(
            "#ifndef T\n#define T\n#include <vector>\n// int not_this(int);\n\
             std::vector<int> find_subset(int l, int u, std::vector<int> w);\n\
             int use_machine(const std::vector<int> &x);\n\
             void answer(std::vector<std::pair<int, long long>>& out, bool done);\n\
             long long count(void);\n\
             struct P { int x; int f(int); };\n\
             static inline int helper(int a) { return a; }\n#endif\n",
        )
        .unwrap();
        let names: Vec<&str> = functions.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["find_subset", "use_machine", "answer", "count"]);
        assert_eq!(functions[0].returns, "std::vector<int>");
        assert_eq!(
            functions[0].params,
            [
                Param {
                    declared: "int".into(),
                    ty: "int".into(),
                    by_reference: false
                },
                Param {
                    declared: "int".into(),
                    ty: "int".into(),
                    by_reference: false
                },
                Param {
                    declared: "std::vector<int>".into(),
                    ty: "std::vector<int>".into(),
                    by_reference: false
                },
            ]
        );
        assert_eq!(functions[1].params[0].ty, "std::vector<int>");
        assert_eq!(functions[1].params[0].declared, "const std::vector<int> &");
        assert!(!functions[1].params[0].by_reference);
        assert_eq!(
            functions[2].params[0].ty,
            "std::vector<std::pair<int, long long>>"
        );
        assert!(functions[2].params[0].by_reference);
        assert!(functions[3].params.is_empty());
    }

    #[test]
    fn what_cannot_cross_is_refused_by_name() {
        for (source, named) in [
            ("int f(int* a);", "f's parameter `int* a`"),
            ("int g(int a[]);", "g's parameter `int a[]`"),
            (
                "struct S { int x; };\nint h(S s);",
                "h's parameter type `S`",
            ),
            ("extern int N;", "`extern int N`"),
            ("std::map<int, int> m(int a);", "m returns"),
        ] {
            let error = declared_functions(source).unwrap_err();
            assert!(error.contains(named), "{source}: {error}");
        }
    }

    #[test]
    fn the_sides_follow_the_grader_and_the_include_goes() {
        let h = header("int guess(int n);\nint ask(int x);\nvoid unused(int);\n");
        let grader = "#include \"task.h\"\nint secret;\nint ask(int x) { return x < secret; }\n\
                      int main() { printf(\"%d\\n\", guess(10)); /* guess(1) */ }\n";
        let plan = Plan::new(&h, grader).unwrap();
        assert_eq!(plan.grader_defines, [false, true, false]);
        assert_eq!(plan.submission_implements, [true, false, false]);
        let program = plan.grader_program(&h, grader);
        assert!(program.contains("int guess(int a0)"), "{program}");
        assert!(!program.contains("#include \"task.h\""));
        let submission = plan.submission_program(
            &h,
            "#include \"task.h\"\nint guess(int n) { return ask(n); }\n",
        );
        assert!(submission.contains("int ask(int a0)"));
        assert!(submission.contains("case 0:"));
        assert!(!submission.contains("case 1:"));
        assert_eq!(
            without_include("#include <x/task.h>\n#include \"other.h\"\n", "task.h"),
            "\n#include \"other.h\"\n"
        );
        let none = Plan::new(&h, "int ask(int x) { return 1; }\n").unwrap_err();
        assert!(
            none.contains("nothing for the submission to implement"),
            "{none}"
        );
    }
}
