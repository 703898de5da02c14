//! Every byte a program writes within its output limit arrives, in every runner, whatever the
//! size of one write: from 1 byte to the limit, in one write and in many, across the 64 KiB a
//! host stream takes at once; one byte past the limit is the program's `output-exceeded`.

use crate::common;

use rewardbox::Limits;
use rewardbox::candidates::CANDIDATE_DEFAULT;
use rewardbox::candidates::RunStatus;

/// The output limit of every run here.
const LIMIT: u64 = 300_000;

/// (language, program): each reads `n k` and writes `n` bytes of `x` in writes of `k` bytes.
const WRITERS: &[(&str, &str)] = &[
    (
        "python@cpython",
        "import sys\nn, k = map(int, input().split())\nwhile n > 0:\n    m = min(n, k)\n    sys.stdout.write('x' * m)\n    n -= m\n",
    ),
    (
        "python@cpython",
        "n, k = map(int, input().split())\nwhile n > 0:\n    m = min(n, k)\n    print('x' * (m - 1), end='x' if m > 0 else '')\n    n -= m\n",
    ),
    (
        "python@cpython",
        "import sys\nn, k = map(int, input().split())\nwhile n > 0:\n    m = min(n, k)\n    sys.stdout.buffer.write(b'x' * m)\n    n -= m\n",
    ),
    (
        "javascript",
        "const [n0, k] = require('fs').readFileSync(0, 'utf8').trim().split(' ').map(Number);\nlet n = n0;\nwhile (n > 0) { const m = Math.min(n, k); process.stdout.write('x'.repeat(m)); n -= m; }\n",
    ),
    (
        "c",
        "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\nint main(void) { long n, k; scanf(\"%ld %ld\", &n, &k); char* b = malloc(k); memset(b, 'x', k);\n  while (n > 0) { long m = n < k ? n : k; fwrite(b, 1, m, stdout); n -= m; } return 0; }\n",
    ),
    (
        "cpp",
        "#include <bits/stdc++.h>\nint main() { long n, k; std::cin >> n >> k; std::string b(k, 'x');\n  while (n > 0) { long m = std::min(n, k); std::cout.write(b.data(), m); n -= m; } }\n",
    ),
    (
        "rust",
        "use std::io::{Read, Write};\nfn main() { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap();\n  let v: Vec<usize> = s.split_whitespace().map(|t| t.parse().unwrap()).collect(); let (mut n, k) = (v[0], v[1]);\n  let b = vec![b'x'; k]; let mut out = std::io::stdout();\n  while n > 0 { let m = n.min(k); out.write_all(&b[..m]).unwrap(); n -= m; } out.flush().unwrap(); }\n",
    ),
    (
        "go",
        "package main\nimport (\"bytes\"; \"fmt\"; \"os\")\nfunc main() { var n, k int; fmt.Scan(&n, &k); b := bytes.Repeat([]byte(\"x\"), k)\n  for n > 0 { m := n; if k < m { m = k }; os.Stdout.Write(b[:m]); n -= m } }\n",
    ),
];

#[test]
fn every_byte_within_the_limit_arrives_whatever_the_size_of_a_write() {
    let scorer = common::scorer();
    let runners = scorer.runners();
    let limits = Limits {
        output_bytes: LIMIT,
        ..CANDIDATE_DEFAULT
    };
    let sizes = [1, 4096, 65_535, 65_536, 65_537, 200_000, LIMIT];
    let mut wrong = Vec::new();
    for (language, program) in WRITERS {
        for n in sizes {
            for k in [n, 1000] {
                let outcome = runners.run(language, program, &format!("{n} {k}\n"), &limits, 0);
                let written = outcome.stdout.len() as u64;
                if outcome.status != RunStatus::Ok || written != n {
                    wrong.push(format!(
                        "{language} {n} bytes in writes of {k}: {:?}, {written} bytes arrived ({})\n{program}",
                        outcome.status,
                        outcome.stderr.chars().take(300).collect::<String>()
                    ));
                }
            }
        }
        let over = runners.run(
            language,
            program,
            &format!("{} 1000\n", LIMIT + 1),
            &limits,
            0,
        );
        if over.status != RunStatus::OutputExceeded {
            wrong.push(format!(
                "{language}: one byte past the limit is {:?}, not output-exceeded\n{program}",
                over.status
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

/// What a program prints is its own doing, and so is what reading it costs its verifier: a
/// program printing a megabyte of junk on each of 60 stdio cases, or on each of the 12 runs a
/// Python verifier makes and splits into words, scores 0, never a masked `verifier_error`. Before,
/// both ran their verifier out of its fuel (1e9): the code verifier read every output whole, and
/// the Python verifier's 12 splits cost about 1e9 each. A verifier is now given fuel for each
/// byte a candidate hands it, and the code verifier reads an output only to its first difference.
#[test]
fn what_a_program_prints_never_runs_its_verifier_out_of_fuel() {
    let right = "print(int(input()) * 2)\n";
    let junk = [
        "print('ab ' * 330000)\n",
        "x = input()\nprint(' '.join(['ab'] * 340000))\n",
        "print('\\n'.join(['7'] * 500000))\n",
    ];
    let mut completions = vec![right];
    completions.extend(junk);
    let cases: Vec<serde_json::Value> = (0..60)
        .map(|i| serde_json::json!({"stdin": format!("{i}\n"), "stdout": format!("{}\n", 2 * i)}))
        .collect();
    let verifier = "import rewardbox\n\n\
        def verify(task, completion):\n    \
            program = rewardbox.extract_code(completion)\n    \
            passed = 0\n    \
            for i in range(12):\n        \
                words = rewardbox.run_program(program, str(i)).stdout.split()\n        \
                passed += words == [str(i * 2)]\n    \
            return passed / 12\n";
    let tasks = [
        serde_json::json!({"id": "stdio", "verifier": "code", "language": "python",
            "extract": "whole", "scoring": "fraction", "tests": {"stdio": cases},
            "completions": completions}),
        serde_json::json!({"id": "python", "verifier": "python", "verifier_code": verifier,
            "extract": "whole", "completions": completions}),
    ];
    assert_right_scores_one_and_the_rest_zero(&tasks);
}

/// Scores `tasks` and asserts that each one's first completion scores 1 and every other 0, each
/// a verdict, none masked.
fn assert_right_scores_one_and_the_rest_zero(tasks: &[serde_json::Value]) {
    for result in common::score_tasks(tasks) {
        for (i, outcome) in result.results.iter().enumerate() {
            let what = format!("{:?} task, completion {i}", result.id);
            assert_eq!(outcome.status, rewardbox::Status::Ok, "{what}: {outcome:?}");
            assert!(!outcome.mask, "{what}");
            let score = if i == 0 { 1.0 } else { 0.0 };
            assert_eq!(outcome.score, score, "{what}: {outcome:?}");
        }
    }
}

/// A Python verifier keeping the words of the output of each of 32 runs holds about 12 bytes per
/// byte the program printed (a 64-bit CPython natively, 21): a program printing a megabyte of words
/// a run makes it need about 400 MB, past its 256 MiB. What it keeps of the candidate's data is the
/// candidate's doing: a wrong program scores 0, never a masked `verifier_error` it chose.
#[test]
fn what_a_verifier_keeps_of_a_program_s_output_never_exceeds_its_memory() {
    let right = "print(int(input()) * 2)\n";
    let junk = "x = input()\nprint('ab ' * 330000)\n";
    let verifier = "import rewardbox\n\n\
        def verify(task, completion):\n    \
            program = rewardbox.extract_code(completion)\n    \
            kept = [rewardbox.run_program(program, str(i)).stdout.split() for i in range(32)]\n    \
            return sum(words == [str(i * 2)] for i, words in enumerate(kept)) / 32\n";
    let task = serde_json::json!({"id": "keeps", "verifier": "python", "verifier_code": verifier,
        "extract": "whole", "completions": [right, junk]});
    assert_right_scores_one_and_the_rest_zero(&[task]);
}

/// A Python verifier that logs what each of its runs printed writes as much as the program did:
/// a program printing a megabyte a run takes it past its own output limit of 1 MiB. Writing out the
/// candidate's data is the candidate's doing: a wrong program scores 0, never a masked
/// `verifier_error` it chose.
#[test]
fn what_a_verifier_logs_of_a_program_s_output_never_exceeds_its_output_limit() {
    let right = "print(int(input()) * 2)\n";
    let junk = "x = input()\nprint('ab ' * 330000)\n";
    let verifier = "import rewardbox\n\n\
        def verify(task, completion):\n    \
            program = rewardbox.extract_code(completion)\n    \
            passed = 0\n    \
            for i in range(4):\n        \
                out = rewardbox.run_program(program, str(i)).stdout\n        \
                print(f'run {i} printed {out!r}')\n        \
                passed += out.split() == [str(i * 2)]\n    \
            return passed / 4\n";
    let task = serde_json::json!({"id": "logs", "verifier": "python", "verifier_code": verifier,
        "extract": "whole", "completions": [right, junk]});
    assert_right_scores_one_and_the_rest_zero(&[task]);
}
