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
