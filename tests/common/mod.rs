//! Helpers shared by the integration tests.
#![allow(dead_code)]

use rewardbox::{ComponentCache, InputLine, Limits, Scorer, ScorerOptions, TaskResult};
use std::path::PathBuf;

/// A compiled-component cache shared by the test binaries, inside cargo's target directory.
pub fn test_cache_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("component-cache")
}

/// A scorer with the default limits, two threads and the test cache.
pub fn scorer() -> Scorer {
    Scorer::new(ScorerOptions {
        threads: Some(2),
        cache: ComponentCache::in_dir(test_cache_dir()),
        limits: Limits::default(),
        seed: 0,
        ..rewardbox::ScorerOptions::default()
    })
    .expect("the scorer builds")
}

/// Scores JSONL `lines` (numbered from 1).
pub fn score_lines(scorer: &Scorer, lines: &[String]) -> Vec<TaskResult> {
    let input: Vec<InputLine> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| InputLine {
            number: i + 1,
            text: Ok(l.clone()),
        })
        .collect();
    scorer.score_lines(&input)
}

/// The path of the hostile verifier component, as a task's `"verifier"` names it.
pub fn hostile() -> &'static str {
    test_guests::HOSTILE_VERIFIER
}

/// A task line for the hostile verifier with `attack` and `limits`.
pub fn hostile_line(id: &str, attack: &str, limits: serde_json::Value) -> String {
    serde_json::json!({
        "id": id, "verifier": hostile(), "attack": attack, "limits": limits, "completions": ["good"],
    })
    .to_string()
}
