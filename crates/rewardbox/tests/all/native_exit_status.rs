//! How compiled programs end, against the native toolchain on the same programs: the exit code
//! a program passes to `exit` or returns from `main` (0-255, as the shell reports it), and the
//! status of a crash (`abort()` and a failed `assert` 134, a bad memory access 139, a load or
//! store through a null pointer 139, a division by zero 136, a Rust panic 101, an arithmetic
//! overflow 101 under `rust`'s `cargo test` semantics and wrapping under `rust-release`), with
//! the same stdout.
//!
//! C++ exceptions (an uncaught one aborts: 134) are checked in `crates/rewardbox/tests/all/gnu_compat.rs`.
//!
//! Native programs are built with the system's `cc` / `c++` (`REWARDBOX_NATIVE_CC` /
//! `REWARDBOX_NATIVE_CXX` name others) and `rustc`, optimised as the sandbox compiles them
//! (`rust` with `-Coverflow-checks=on -Cdebug-assertions=on`, `rust-release` without).

use crate::common;

use rewardbox::candidates::CANDIDATE_DEFAULT;
use std::process::Command;

/// (language, name, program): each ends in its own way.
const PROGRAMS: &[(&str, &str, &str)] = &[
    (
        "c",
        "exit(3)",
        "#include <stdio.h>\n#include <stdlib.h>\nint main(void) { puts(\"before\"); exit(3); }",
    ),
    (
        "c",
        "return 42",
        "#include <stdio.h>\nint main(void) { puts(\"x\"); return 42; }",
    ),
    (
        "c",
        "exit(255)",
        "#include <stdlib.h>\nint main(void) { exit(255); }",
    ),
    (
        "c",
        "return 0",
        "#include <stdio.h>\nint main(void) { puts(\"ok\"); return 0; }",
    ),
    (
        "c",
        "abort",
        "#include <stdio.h>\n#include <stdlib.h>\nint main(void) { puts(\"a\"); fflush(stdout); abort(); }",
    ),
    (
        "c",
        "failed assert",
        "#include <assert.h>\n#include <stdio.h>\nint main(void) { volatile int x = 1; puts(\"b\"); fflush(stdout); assert(x == 2); return 0; }",
    ),
    (
        "c",
        "division by zero",
        "#include <stdio.h>\nint main(void) { volatile int z = 0; printf(\"%d\\n\", 5 / z); return 0; }",
    ),
    (
        "c",
        "wild pointer",
        "#include <stdio.h>\nint main(void) { volatile int *p = (int *)0x7ffffff0; printf(\"%d\\n\", *p); return 0; }",
    ),
    (
        "c",
        "read through a null pointer",
        "#include <stdio.h>\n#include <stdlib.h>\nstruct node { int value; struct node *next; };\n__attribute__((noinline)) struct node *find(int n) { return n > 5 ? malloc(sizeof(struct node)) : NULL; }\nint main(void) { int n = 0; if (scanf(\"%d\", &n) != 1) n = 0; puts(\"looking\"); fflush(stdout); printf(\"%d\\n\", find(n)->value); return 0; }",
    ),
    (
        "c",
        "write through a null pointer",
        "#include <stdio.h>\n__attribute__((noinline)) int *slot(int n) { static int cell; return n ? &cell : 0; }\nint main(void) { int n = 0; if (scanf(\"%d\", &n) != 1) n = 0; *slot(n) = 7; puts(\"stored\"); return 0; }",
    ),
    (
        "cpp",
        "member of a null pointer",
        "#include <iostream>\nstruct Node { int val; Node *left; };\n__attribute__((noinline)) Node *child(Node *n) { return n->left; }\nint main() { Node leaf{1, nullptr}; std::cout << child(&leaf) << std::endl; std::cout << child(child(&leaf))->val << std::endl; }",
    ),
    (
        "cpp",
        "std::exit(300)",
        "#include <cstdlib>\n#include <iostream>\nint main() { std::cout << \"c\" << std::endl; std::exit(300); }",
    ),
    (
        "cpp",
        "return 7",
        "#include <iostream>\nint main() { std::cout << 7 << '\\n'; return 7; }",
    ),
    (
        "rust",
        "panic",
        "fn main() { println!(\"d\"); let v: Vec<u32> = Vec::new(); let i = std::hint::black_box(3); println!(\"{}\", v[i]); }",
    ),
    ("rust", "explicit panic", "fn main() { panic!(\"no\"); }"),
    (
        "rust",
        "process::exit(3)",
        "fn main() { println!(\"f\"); std::process::exit(3); }",
    ),
    (
        "rust",
        "process::exit(300)",
        "use std::io::Write;\nfn main() { print!(\"g\"); std::io::stdout().flush().unwrap(); std::process::exit(300); }",
    ),
    (
        "rust",
        "main returns Err",
        "fn main() -> Result<(), String> { println!(\"h\"); Err(\"bad\".into()) }",
    ),
    (
        "rust",
        "ExitCode::from(42)",
        "fn main() -> std::process::ExitCode { println!(\"i\"); std::process::ExitCode::from(42) }",
    ),
    (
        "rust",
        "usize underflow panics as in cargo test",
        "fn main() { let v: Vec<u8> = std::hint::black_box(Vec::new()); println!(\"a\"); let last = v.len() - 1; println!(\"{last}\"); }",
    ),
    (
        "rust",
        "i32 multiplication overflow panics",
        "fn main() { let x: i32 = std::hint::black_box(100_000); println!(\"{}\", x * x); }",
    ),
    (
        "rust",
        "debug_assert fails",
        "fn main() { let x = std::hint::black_box(1); debug_assert!(x == 2, \"x is {x}\"); println!(\"ok\"); }",
    ),
    (
        "rust-release",
        "usize underflow wraps in a release build",
        "fn main() { let v: Vec<u8> = std::hint::black_box(Vec::new()); let last = v.len() - 1; println!(\"{}\", last == usize::MAX); }",
    ),
    (
        "rust-release",
        "i32 multiplication wraps and debug_assert is off",
        "fn main() { let x: i32 = std::hint::black_box(100_000); debug_assert!(x == 2); println!(\"{}\", x * x); }",
    ),
    (
        "rust",
        "abort",
        "fn main() { println!(\"e\"); std::process::abort(); }",
    ),
];

#[test]
fn compiled_programs_end_with_the_native_status() {
    let scorer = common::scorer();
    let runners = scorer.runners();
    let mut failures = Vec::new();
    for (language, name, source) in PROGRAMS {
        let dir = tempfile::tempdir().unwrap();
        let binary = common::compile_natively(language, source, dir.path());
        let native = Command::new(&binary).output().unwrap();
        let ours = runners.run(language, source, "", &CANDIDATE_DEFAULT, 0);
        let native_stdout = String::from_utf8_lossy(&native.stdout);
        let native_status = common::shell_status(native.status);
        if ours.exit_code != Some(native_status) || ours.stdout != native_stdout {
            failures.push(format!(
                "{language} {name}: native {native_status} {native_stdout:?}; ours {:?} {:?} ({:?}: {})",
                ours.exit_code, ours.stdout, ours.status, ours.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
