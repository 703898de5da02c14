//! The README and the book (`docs/`) say what runs: every relative link resolves (its file, and
//! the heading its anchor names); every `json` block parses, and the tasks among them are scored
//! with verdicts (no `invalid_task`, no `verifier_error`); every `sh` block runs with the built
//! `rewardbox` first on the `PATH`, from a scratch directory that holds the repository's
//! `examples/` and `tests/`, and exits 0; a block that talks to `localhost:8080` gets a
//! `rewardbox serve` of its own (on a free port, with the CodeGym environments of `tests/data`).
//! A block whose info string says `ignore` (setup, a server that runs until stopped) is not run.
//! The `python` blocks are run by pytest (`python/tests/test_docs.py`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The README and every Markdown file of `docs/`.
fn documents() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("docs/") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut found = vec![crate::common::repo_root().join("README.md")];
    walk(&crate::common::repo_root().join("docs"), &mut found);
    found.sort();
    found
}

/// A fenced block: its info string's first word, whether it says `ignore`, its text, and where
/// it starts.
struct Block {
    language: String,
    ignore: bool,
    text: String,
    line: usize,
}

/// The fenced blocks of `markdown`, and its text outside them. A block opens with three or more
/// backticks and an info string without backticks (else the line is inline code), and closes
/// with a line of at least as many backticks alone.
fn blocks(markdown: &str) -> (Vec<Block>, String) {
    let mut found = Vec::new();
    let mut prose = String::new();
    let mut open: Option<(usize, Block)> = None;
    for (number, line) in markdown.lines().enumerate() {
        let indent = line.len() - line.trim_start().len();
        let ticks = line.trim_start().chars().take_while(|c| *c == '`').count();
        let fence = indent < 4 && ticks >= 3;
        match &mut open {
            None if fence && !line.trim_start()[ticks..].contains('`') => {
                let info = line.trim_start()[ticks..].trim();
                open = Some((
                    ticks,
                    Block {
                        language: info.split_whitespace().next().unwrap_or("").to_string(),
                        ignore: info.split_whitespace().any(|w| w == "ignore"),
                        text: String::new(),
                        line: number + 1,
                    },
                ));
            }
            Some((opened, _)) if fence && ticks >= *opened && line.trim().len() == ticks => {
                found.push(open.take().expect("open").1);
            }
            Some((_, block)) => {
                block.text.push_str(line);
                block.text.push('\n');
            }
            None => {
                prose.push_str(line);
                prose.push('\n');
            }
        }
    }
    if let Some((_, block)) = open {
        panic!("the fenced block of line {} is never closed", block.line);
    }
    (found, prose)
}

/// GitHub's anchor of a heading: lower case, punctuation other than `-` and `_` dropped, spaces
/// as `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_' || *c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(markdown: &str) -> BTreeSet<String> {
    let (_, prose) = blocks(markdown);
    prose
        .lines()
        .filter_map(|l| {
            let hashes = l.chars().take_while(|c| *c == '#').count();
            (hashes > 0 && l[hashes..].starts_with(' ')).then(|| anchor(&l[hashes..]))
        })
        .collect()
}

/// The targets of `[text](target)` links in `prose`, inline code left out.
fn links(prose: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in prose.lines() {
        // Inline code spans hold examples, not links.
        let text: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, part)| part)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = text.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            found.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    found
}

#[test]
fn every_relative_link_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for document in documents() {
        let markdown = std::fs::read_to_string(&document).expect("a document");
        let (_, prose) = blocks(&markdown);
        for target in links(&prose) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, fragment) = match target.split_once('#') {
                Some((path, fragment)) => (path, Some(fragment)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() {
                document.clone()
            } else {
                document.parent().expect("a directory").join(path)
            };
            if !file.exists() {
                broken.push(format!("{}: {target}: no such file", document.display()));
                continue;
            }
            if let Some(fragment) = fragment
                && file.extension().is_some_and(|e| e == "md")
            {
                let text = std::fs::read_to_string(&file).expect("a linked document");
                if !anchors(&text).contains(fragment) {
                    broken.push(format!(
                        "{}: {target}: {} has no heading #{fragment}",
                        document.display(),
                        file.display()
                    ));
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} relative links found");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_checker_reads_anchors_links_and_blocks_as_github_does() {
    assert_eq!(
        anchor(" Tier 5: GRPO against the verifier"),
        "tier-5-grpo-against-the-verifier"
    );
    assert_eq!(anchor(" `code`"), "code");
    assert_eq!(links("see [a](b.md#c) and `[x](y)`"), ["b.md#c"]);
    let (found, prose) = blocks("x\n```sh ignore\nls\n```\n```json\n{}\n```\ny\n");
    assert_eq!(found.len(), 2);
    assert!(found[0].ignore && !found[1].ignore);
    assert_eq!(
        (found[1].language.as_str(), found[1].text.as_str()),
        ("json", "{}\n")
    );
    assert_eq!(prose, "x\ny\n");
}

/// Every `json` and `sh` block that is not marked `ignore`, with where it is.
fn runnable(language: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for document in documents() {
        let markdown = std::fs::read_to_string(&document).expect("a document");
        let name = document
            .strip_prefix(crate::common::repo_root())
            .unwrap_or(&document)
            .display()
            .to_string();
        for block in blocks(&markdown).0 {
            if block.language == language && !block.ignore {
                found.push((format!("{name}:{}", block.line), block.text));
            }
        }
    }
    found
}

/// A scratch directory holding links to the repository's `examples/` and `tests/`.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a scratch directory");
    for name in ["examples", "tests"] {
        std::os::unix::fs::symlink(
            crate::common::repo_root()
                .join(name)
                .canonicalize()
                .expect(name),
            dir.path().join(name),
        )
        .expect("a link");
    }
    dir
}

/// A command with the built `rewardbox` first on the `PATH` and the tests' component cache.
fn shell(script: &str, dir: &Path) -> std::process::Command {
    let bin = Path::new(env!("CARGO_BIN_EXE_rewardbox"))
        .parent()
        .expect("the binary's directory");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![bin.to_path_buf()];
    paths.extend(std::env::split_paths(&path));
    let mut command = std::process::Command::new("bash");
    command
        .args(["-euo", "pipefail", "-c", script])
        .current_dir(dir)
        .env("PATH", std::env::join_paths(paths).expect("a PATH"))
        .env("REWARDBOX_CACHE_DIR", crate::common::test_cache_dir());
    command
}

#[test]
fn every_json_example_parses_and_its_tasks_get_verdicts() {
    let blocks = runnable("json");
    assert!(blocks.len() >= 8, "only {} json blocks", blocks.len());
    let mut tasks = Vec::new();
    for (place, text) in &blocks {
        let values: Vec<serde_json::Value> = match serde_json::from_str(text) {
            Ok(value) => vec![value],
            Err(_) => text
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| {
                    serde_json::from_str(l)
                        .unwrap_or_else(|e| panic!("{place}: not JSON or JSON lines: {e}\n{l}"))
                })
                .collect(),
        };
        for value in values {
            if value.get("verifier").is_some() && value.get("completions").is_some() {
                tasks.push((place.clone(), value));
            }
        }
    }
    assert!(tasks.len() >= 6, "only {} example tasks", tasks.len());
    let dir = scratch();
    let lines: Vec<String> = tasks.iter().map(|(_, task)| task.to_string()).collect();
    std::fs::write(dir.path().join("tasks.jsonl"), lines.join("\n") + "\n").expect("tasks");
    let output = shell("rewardbox score tasks.jsonl --quiet", dir.path())
        .output()
        .expect("rewardbox runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let results: Vec<serde_json::Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a result line"))
        .collect();
    assert_eq!(results.len(), tasks.len());
    for ((place, _), result) in tasks.iter().zip(&results) {
        assert!(result.get("status").is_none(), "{place}: {result}");
        for completion in result["results"].as_array().expect("results") {
            assert_eq!(completion["status"], "ok", "{place}: {completion}");
        }
    }
}

/// `rewardbox serve` on a free loopback port in `dir`, stopped (SIGTERM) when dropped.
struct Serving {
    child: std::process::Child,
    port: u16,
}

impl Serving {
    fn start(dir: &Path) -> Serving {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = shell(
            &format!(
                "exec rewardbox serve --port {port} --allow-no-token --env-dir tests/data/codegym"
            ),
            dir,
        )
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("rewardbox serve starts");
        let ready = (0..3000).any(|_| {
            let answered = std::net::TcpStream::connect(("127.0.0.1", port)).is_ok();
            if !answered {
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            answered
        });
        assert!(ready, "rewardbox serve never listened on port {port}");
        Serving { child, port }
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        // SAFETY: a signal to the server this test started, which has not been waited for.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let _ = self.child.wait();
    }
}

#[test]
fn every_shell_example_runs() {
    let blocks = runnable("sh");
    assert!(blocks.len() >= 8, "only {} sh blocks", blocks.len());
    let mut failed = Vec::new();
    for (place, script) in &blocks {
        let dir = scratch();
        let serving = script
            .contains("localhost:8080")
            .then(|| Serving::start(dir.path()));
        let script = match &serving {
            Some(server) => script.replace("localhost:8080", &format!("localhost:{}", server.port)),
            None => script.clone(),
        };
        let output = shell(&script, dir.path()).output().expect("bash runs");
        drop(serving);
        if !output.status.success() {
            failed.push(format!(
                "{place} ({}):\n{script}{}",
                output.status,
                String::from_utf8_lossy(&output.stderr)
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}
