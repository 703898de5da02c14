//! Python REPL sessions (`rewardbox_envs::Repl`, the OpenEnv coding environment's Python): each
//! cell ends as `python3 cell.py` ends natively (its output, its exit status, the last line of its
//! traceback), cells share one namespace, and a cell that ends the interpreter (`os._exit`, a
//! limit) leaves the next cell a fresh one. The session cap counts REPLs.

use crate::common;

use rewardbox::candidates::RunStatus;
use rewardbox::{ComponentCache, Limits};
use rewardbox_envs::{EnvError, EnvOptions, Environments};

fn environments(max_sessions: usize) -> Environments {
    let mut options = EnvOptions::without_files();
    options.cache = ComponentCache::in_dir(common::test_cache_dir());
    options.limits.memory_bytes = 64 << 20;
    options.max_sessions = max_sessions;
    Environments::new(options).expect("environments")
}

fn cell_limits() -> Limits {
    Limits {
        fuel: 2_000_000_000,
        wall_ms: 20_000,
        memory_bytes: 64 << 20,
        output_bytes: 1 << 20,
    }
}

/// What native python3 does with `code` as a script fed `stdin`: stdout, the last line of
/// stderr, the exit status.
fn native(code: &str, stdin: &str) -> (String, String, i32) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cell.py");
    std::fs::write(&path, code).unwrap();
    let python = std::env::var("REWARDBOX_NATIVE_PYTHON").unwrap_or_else(|_| "python3".into());
    let mut command = std::process::Command::new(&python);
    command.arg(&path);
    let out = common::output_with_stdin(command, stdin);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        last_line(&String::from_utf8_lossy(&out.stderr)),
        out.status.code().unwrap_or(-1),
    )
}

fn last_line(text: &str) -> String {
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
        .to_string()
}

#[test]
fn each_cell_ends_as_python3_ends_the_same_script() {
    let envs = environments(8);
    let cases: &[(&str, &str)] = &[
        ("print('hello')\nprint(6 * 7)", ""),
        ("print(sum(map(int, input().split())))", "3 4 5\n"),
        ("import sys\nprint('partial')\nsys.exit(3)", ""),
        ("import sys\nsys.exit(300)", ""),
        ("import sys\nsys.exit(-1)", ""),
        ("import sys\nsys.exit('bye: a message')", ""),
        ("raise SystemExit(None)", ""),
        ("raise SystemExit(True)", ""),
        ("print('before')\n1 / 0", ""),
        ("def f(n):\n    return f(n + 1)\nf(0)", ""),
        ("x = [1, 2\nprint(x)", ""),
        (
            "import sys\nsys.stderr.write('to stderr\\n')\nprint('out')",
            "",
        ),
        ("import os\nprint('flushed', flush=True)\nos._exit(0)", ""),
        ("class E(Exception):\n    pass\nraise E('mine')", ""),
        (
            "import json, math\nprint(json.dumps({'pi': round(math.pi, 3)}))",
            "",
        ),
        ("for i in range(3):\n    print(i, end=' ')", ""),
        ("import sys\nprint(sys.stdin.read().upper())", "abc\ndef\n"),
    ];
    for (code, stdin) in cases {
        let mut repl = envs.start_repl().unwrap();
        let cell = repl.run(code, stdin, &cell_limits()).unwrap();
        let (stdout, stderr, status) = native(code, stdin);
        assert_eq!(cell.stdout, stdout, "stdout of {code:?}");
        assert_eq!(cell.exit_code, Some(status), "status of {code:?}: {cell:?}");
        assert_eq!(
            last_line(&cell.stderr),
            stderr,
            "last stderr line of {code:?}"
        );
        let expected = if status == 0 {
            RunStatus::Ok
        } else {
            RunStatus::ExitedNonzero
        };
        assert_eq!(cell.status, expected, "{code:?}");
    }
}

#[test]
fn cells_share_a_namespace_until_the_interpreter_ends() {
    let envs = environments(8);
    let mut repl = envs.start_repl().unwrap();
    let limits = cell_limits();
    let first = repl
        .run("x = 41\ndef twice(n):\n    return 2 * n", "", &limits)
        .unwrap();
    assert_eq!((first.exit_code, first.stdout.as_str()), (Some(0), ""));
    let second = repl.run("print(x + 1, twice(x))", "", &limits).unwrap();
    assert_eq!(second.stdout, "42 82\n");
    // An exception or sys.exit ends the cell, not the session.
    assert_eq!(
        repl.run("y = 1\nraise ValueError('no')", "", &limits)
            .unwrap()
            .exit_code,
        Some(1)
    );
    assert_eq!(
        repl.run("import sys\nsys.exit(2)", "", &limits)
            .unwrap()
            .exit_code,
        Some(2)
    );
    assert_eq!(
        repl.run("print(x, y)", "", &limits).unwrap().stdout,
        "41 1\n"
    );
    // os._exit ends the interpreter, then the next cell has a fresh one. Its status is 1 where
    // python3 gives 7: CPython's WASI exit carries success or failure only (docs/reference/known-limitations.md).
    let exited = repl.run("import os\nos._exit(7)", "", &limits).unwrap();
    assert_eq!(exited.exit_code, Some(1), "{exited:?}");
    assert!(exited.ended_interpreter && !exited.restarted);
    let fresh = repl.run("print(x)", "", &limits).unwrap();
    assert!(fresh.restarted, "{fresh:?}");
    assert_eq!(fresh.exit_code, Some(1));
    assert_eq!(
        last_line(&fresh.stderr),
        "NameError: name 'x' is not defined"
    );
    // A reset forgets too, and is not a restart.
    repl.run("z = 1", "", &limits).unwrap();
    repl.reset();
    let after_reset = repl.run("print('z' in dir())", "", &limits).unwrap();
    assert_eq!(after_reset.stdout, "False\n");
    assert!(!after_reset.restarted);
}

#[test]
fn limits_end_the_cell_and_the_interpreter_and_memory_holds_across_cells() {
    let envs = environments(8);
    let mut repl = envs.start_repl().unwrap();
    let small = Limits {
        fuel: 50_000_000,
        ..cell_limits()
    };
    repl.run("kept = 5", "", &small).unwrap();
    let looped = repl.run("while True:\n    pass", "", &small).unwrap();
    assert_eq!(looped.status, RunStatus::FuelExhausted, "{looped:?}");
    assert!(looped.ended_interpreter);
    // Each cell has its own fuel: a fresh interpreter runs the next.
    let next = repl.run("print(sum(range(1000)))", "", &small).unwrap();
    assert_eq!((next.stdout.as_str(), next.restarted), ("499500\n", true));
    // Output over the cell's budget.
    let loud = repl
        .run(
            "print('x' * 100000)",
            "",
            &Limits {
                output_bytes: 1000,
                ..cell_limits()
            },
        )
        .unwrap();
    assert_eq!(loud.status, RunStatus::OutputExceeded, "{loud:?}");
    // The memory limit holds for the interpreter's life: 24 MB kept by one cell and 24 more by
    // the next are over 64 MiB, though each fits on its own.
    let limits = cell_limits();
    let held = repl.run("a = bytearray(24_000_000)", "", &limits).unwrap();
    assert_eq!(held.exit_code, Some(0), "{held:?}");
    let more = repl.run("b = bytearray(24_000_000)", "", &limits).unwrap();
    assert!(
        more.status == RunStatus::MemoryExceeded || more.stderr.contains("MemoryError"),
        "{more:?}"
    );
    if more.ended_interpreter {
        let alone = repl.run("b = bytearray(24_000_000)", "", &limits).unwrap();
        assert_eq!(alone.exit_code, Some(0), "{alone:?}");
    }
}

#[test]
fn repls_count_against_the_session_cap() {
    let envs = environments(2);
    let one = envs.start_repl().unwrap();
    let _two = envs.start_repl().unwrap();
    assert!(matches!(
        envs.start_repl(),
        Err(EnvError::TooManySessions { limit: 2 })
    ));
    drop(one);
    let mut three = envs.start_repl().unwrap();
    assert_eq!(
        three.run("print(1)", "", &cell_limits()).unwrap().stdout,
        "1\n"
    );
}
