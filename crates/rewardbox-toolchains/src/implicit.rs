//! C's implicit function declarations: a call of a function the program never declared
//! (`malloc` without `<stdlib.h>`, a function defined below its caller). gcc before 14 — judges'
//! gcc, Debian 12's — compiles it with a warning; clang refuses it in C99 and later.
//!
//! Declaring it as C89 did (`int f()`) is not enough in WebAssembly, where a call must match the
//! callee's type exactly: `qsort` called through `int qsort()` traps. So a program clang refuses
//! for such calls is compiled again with the standard headers that declare the library functions
//! it calls (as gcc knows them, builtins or not), and the remaining undeclared calls (its own
//! functions, defined further down) as warnings, as gcc has them. Lines keep their numbers.

/// What clang's message says of an undeclared call.
pub const UNDECLARED: &str = "call to undeclared ";

/// The C standard library functions a program calls without their header, by header.
const HEADERS: &[(&str, &[&str])] = &[
    (
        "stdio.h",
        &[
            "printf",
            "scanf",
            "puts",
            "putchar",
            "getchar",
            "gets",
            "fgets",
            "fputs",
            "fputc",
            "fgetc",
            "getc",
            "putc",
            "sprintf",
            "snprintf",
            "sscanf",
            "fprintf",
            "fscanf",
            "vprintf",
            "vsprintf",
            "vsnprintf",
            "fopen",
            "fclose",
            "fflush",
            "fread",
            "fwrite",
            "perror",
            "ungetc",
            "setvbuf",
            "getline",
        ],
    ),
    (
        "stdlib.h",
        &[
            "malloc", "calloc", "realloc", "free", "qsort", "bsearch", "atoi", "atol", "atoll",
            "atof", "strtol", "strtoll", "strtoul", "strtoull", "strtod", "strtof", "abs", "labs",
            "llabs", "div", "ldiv", "lldiv", "exit", "_Exit", "abort", "atexit", "rand", "srand",
            "getenv", "system",
        ],
    ),
    (
        "string.h",
        &[
            "strlen", "strcpy", "strncpy", "strcat", "strncat", "strcmp", "strncmp", "strchr",
            "strrchr", "strstr", "strtok", "strspn", "strcspn", "strpbrk", "strdup", "strndup",
            "memcpy", "memmove", "memset", "memcmp", "memchr", "strerror",
        ],
    ),
    (
        "math.h",
        &[
            "sqrt", "cbrt", "pow", "fabs", "floor", "ceil", "round", "trunc", "lround", "llround",
            "log", "log2", "log10", "log1p", "exp", "exp2", "sin", "cos", "tan", "asin", "acos",
            "atan", "atan2", "sinh", "cosh", "tanh", "hypot", "fmod", "fmax", "fmin", "sqrtf",
            "powf", "fabsf", "floorf", "ceilf", "roundf", "sqrtl", "powl", "fabsl",
        ],
    ),
    (
        "ctype.h",
        &[
            "isalpha", "isdigit", "isalnum", "isspace", "isupper", "islower", "ispunct", "isprint",
            "isxdigit", "iscntrl", "isgraph", "toupper", "tolower",
        ],
    ),
    (
        "time.h",
        &[
            "time",
            "clock",
            "difftime",
            "mktime",
            "localtime",
            "gmtime",
            "strftime",
        ],
    ),
];

/// The functions `message` (clang's) says the program calls undeclared, in order, once each.
pub fn undeclared(message: &str) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for line in message.lines() {
        let Some(at) = line.find(UNDECLARED) else {
            continue;
        };
        let rest = &line[at + UNDECLARED.len()..];
        let Some(open) = rest.find('\'') else {
            continue;
        };
        let name = rest[open + 1..].split('\'').next().unwrap_or("");
        if !name.is_empty() && !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// The header declaring the library function `name`.
pub fn header_of(name: &str) -> Option<&'static str> {
    HEADERS
        .iter()
        .find(|(_, names)| names.contains(&name))
        .map(|(header, _)| *header)
}

/// `source` as gcc reads a program calling undeclared functions, when clang's `message` reports
/// such calls: the headers of the library functions among them included first, the other calls
/// warned of only; lines numbered as written. `None` when the message reports none.
pub fn with_declarations(source: &str, message: &str) -> Option<String> {
    let names = undeclared(message);
    if names.is_empty() {
        return None;
    }
    let mut headers: Vec<&str> = names.iter().filter_map(|n| header_of(n)).collect();
    headers.sort_unstable();
    headers.dedup();
    let includes: String = headers
        .iter()
        .map(|h| format!("#include <{h}>\n"))
        .collect();
    Some(format!(
        "#pragma clang diagnostic warning \"-Wimplicit-function-declaration\"\n{includes}#line 1\n{source}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MESSAGE: &str = "main.c:2:15: error: call to undeclared library function 'malloc' with type 'void *(unsigned long)'; ISO C99 and later do not support implicit function declarations [-Wimplicit-function-declaration]\nmain.c:5:5: error: call to undeclared function 'qsort'; ISO C99 and later do not support implicit function declarations [-Wimplicit-function-declaration]\nmain.c:6:5: error: call to undeclared function 'helper'; ISO C99 and later do not support implicit function declarations [-Wimplicit-function-declaration]\nmain.c:7:5: error: call to undeclared library function 'malloc' with type 'void *(unsigned long)'\n";

    #[test]
    fn the_undeclared_calls_are_read_from_clangs_message() {
        assert_eq!(undeclared(MESSAGE), ["malloc", "qsort", "helper"]);
        assert!(undeclared("main.c:1:1: error: expected ';'").is_empty());
    }

    #[test]
    fn library_functions_get_their_header_and_the_program_keeps_its_lines() {
        let source = "int main() { return helper(); }\n";
        let rewritten = with_declarations(source, MESSAGE).unwrap();
        assert_eq!(
            rewritten,
            "#pragma clang diagnostic warning \"-Wimplicit-function-declaration\"\n#include <stdlib.h>\n#line 1\nint main() { return helper(); }\n"
        );
        assert_eq!(
            with_declarations(source, "main.c:1:1: error: expected ';'"),
            None
        );
        assert_eq!(header_of("strlen"), Some("string.h"));
        assert_eq!(header_of("helper"), None);
    }

    #[test]
    fn no_function_is_listed_under_two_headers() {
        let mut seen = std::collections::HashSet::new();
        for (_, names) in HEADERS {
            for name in *names {
                assert!(seen.insert(name), "{name}");
            }
        }
    }
}
