//! Criterion benches of one completion through a built-in verifier: a fresh Store, instantiation
//! from the pre-linked component, the `verify` call, and the Store dropped — the whole per-job cost.
//!
//! Run: `cargo bench --bench sandbox`

use criterion::{Criterion, criterion_group};
use rewardbox::{ComponentCache, Limits, Scorer, ScorerOptions, Task};
use serde_json::json;
use std::hint::black_box;

fn one_completion(c: &mut Criterion) {
    let scorer = Scorer::new(ScorerOptions {
        threads: Some(1),
        cache: ComponentCache::in_dir(std::env::temp_dir().join("rewardbox-bench-cache")),
        ..Default::default()
    })
    .expect("scorer");
    let limits = Limits::default();
    let engine = scorer.engine().clone();
    for (name, task) in [
        (
            "exact",
            json!({"id": "b", "verifier": "exact", "reference": "391"}),
        ),
        (
            "numeric",
            json!({"id": "b", "verifier": "numeric", "reference": "391", "tolerance": 1e-6}),
        ),
        (
            "choice",
            json!({"id": "b", "verifier": "choice", "reference": "B"}),
        ),
        (
            "math",
            json!({"id": "b", "verifier": "math", "reference": "\\frac{\\sqrt{3}}{3}"}),
        ),
    ] {
        let verifier = scorer.verifier(name).expect("built-in verifier");
        let mut with_completions = task.clone();
        with_completions["completions"] = json!([]);
        let task = Task::from_value(with_completions).expect("task");
        let completion = match name {
            "choice" => "The answer is (B).",
            "math" => "Rationalising, $\\frac{1}{\\sqrt{3}} = \\boxed{\\dfrac{\\sqrt3}{3}}$.",
            _ => "17 * 23 = 391",
        };
        c.bench_function(
            &format!("one completion through {name} (fresh store, instantiate, verify)"),
            |b| {
                b.iter(|| {
                    black_box(verifier.judge(
                        &engine,
                        &task.verifier_input,
                        black_box(completion),
                        &limits,
                        0,
                    ))
                })
            },
        );
    }
}

criterion_group!(benches, one_completion);
/// criterion's main, on a thread with room for a guest's stack (as the scorer's threads are), so
/// that what is measured is the sandbox, not a hand-off to such a thread.
fn main() {
    rewardbox::sandboxes::with_room(|| {
        benches();
        Criterion::default().configure_from_args().final_summary();
    });
}
