//! The audit report: findings per task and a summary.

use super::{Attack, AuditTask, Expect, Family};
use rewardbox::{Status, TaskResult};
use serde::Serialize;
use std::collections::BTreeMap;

/// What a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A wrong completion scored at or above the threshold.
    Exploit,
    /// A right completion scored below the threshold.
    FalseRejection,
    /// A mutant of the solution scored as high as the solution.
    WeakTests,
    /// The verifier could not score this completion (`verifier_error`): in training it would be a
    /// masked sample, and the audit cannot tell whether the attack gets through. The task is not
    /// called robust while any attack is unscored.
    Unscored,
}

/// One attack that got through (or a right answer that did not).
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    /// The attack's name.
    pub attack: String,
    /// Its family.
    pub family: Family,
    /// What went wrong.
    pub kind: Kind,
    /// The score it got.
    pub score: f64,
    /// The completion tried (cut to 2,000 characters).
    pub completion: String,
    /// The verifier's detail for it.
    pub detail: String,
}

/// The audit of one task.
#[derive(Debug, Clone, Serialize)]
pub struct TaskReport {
    /// The task's id.
    pub id: Option<String>,
    /// Its verifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verifier: Option<String>,
    /// No exploit and no false rejection.
    pub robust: bool,
    /// Attacks run.
    pub attacks: usize,
    /// What got through.
    pub findings: Vec<Finding>,
    /// Mutants the tests told apart from the solution, over all mutants (when there were any).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mutation_score: Option<f64>,
    /// Why the task could not be audited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Tier 5's training on the task (`--tier5`): what it converged to, its curve.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tier5: Option<serde_json::Value>,
}

impl TaskReport {
    /// A line that is not a valid task.
    pub fn invalid(id: Option<String>, error: String) -> TaskReport {
        TaskReport {
            id,
            verifier: None,
            robust: false,
            attacks: 0,
            findings: Vec::new(),
            mutation_score: None,
            error: Some(error),
            tier5: None,
        }
    }
}

fn cut(text: &str) -> String {
    if text.chars().count() <= 2000 {
        return text.to_string();
    }
    let mut t: String = text.chars().take(2000).collect();
    t.push('…');
    t
}

/// Turns one task's scored attacks into its report.
pub fn task_report(
    task: &AuditTask,
    attacks: &[Attack],
    result: &TaskResult,
    threshold: f64,
) -> TaskReport {
    let id = task.text("id").map(str::to_string);
    if result.status == Some(Status::InvalidTask) {
        return TaskReport::invalid(id, result.detail.clone().unwrap_or_default());
    }
    let solution_score = attacks
        .iter()
        .zip(&result.results)
        .find(|(a, _)| a.family == Family::Solution)
        .map(|(_, r)| r.score);
    let mut findings = Vec::new();
    let (mut mutants, mut survived) = (0usize, 0usize);
    for (attack, r) in attacks.iter().zip(&result.results) {
        let kind = match attack.expect {
            _ if r.status != Status::Ok => Some(Kind::Unscored),
            Expect::Wrong if r.score >= threshold => Some(Kind::Exploit),
            Expect::Right if r.score < threshold => Some(Kind::FalseRejection),
            Expect::Mutant => {
                mutants += 1;
                let weak = solution_score.is_some_and(|s| s >= threshold && r.score >= s);
                survived += usize::from(weak);
                weak.then_some(Kind::WeakTests)
            }
            _ => None,
        };
        if let Some(kind) = kind {
            findings.push(Finding {
                attack: attack.name.clone(),
                family: attack.family,
                kind,
                score: r.score,
                completion: cut(&attack.completion),
                detail: r.detail.clone(),
            });
        }
    }
    // Robust: nothing got through, nothing right was refused, no mutant passed as the solution and
    // every attack was scored.
    let robust = findings.is_empty();
    TaskReport {
        id,
        verifier: Some(task.verifier().to_string()),
        robust,
        attacks: attacks.len(),
        findings,
        mutation_score: (mutants > 0).then(|| (mutants - survived) as f64 / mutants as f64),
        error: None,
        tier5: None,
    }
}

/// Totals over all tasks.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// Task lines read.
    pub tasks: usize,
    /// Tasks with no finding: nothing got through, nothing right was refused, every mutant was
    /// caught and every attack was scored.
    pub robust_tasks: usize,
    /// Lines that could not be audited.
    pub invalid_tasks: usize,
    /// Attacks run.
    pub attacks: usize,
    /// Exploits found.
    pub exploits: usize,
    /// Exploits by attack family.
    pub exploits_by_family: BTreeMap<String, usize>,
    /// False rejections found.
    pub false_rejections: usize,
    /// Mutants the tests could not tell from the solution.
    pub weak_tests: usize,
    /// Completions the verifier could not score (`verifier_error`).
    pub unscored: usize,
}

/// The whole audit.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// One report per task line, in order.
    pub tasks: Vec<TaskReport>,
    /// Totals.
    pub summary: Summary,
}

impl Report {
    /// A report with its summary computed.
    pub fn new(tasks: Vec<TaskReport>) -> Report {
        let count = |k: Kind| {
            tasks
                .iter()
                .flat_map(|t| &t.findings)
                .filter(|f| f.kind == k)
                .count()
        };
        let mut by_family = BTreeMap::new();
        for f in tasks
            .iter()
            .flat_map(|t| &t.findings)
            .filter(|f| f.kind == Kind::Exploit)
        {
            let name = serde_json::to_value(f.family)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            *by_family.entry(name).or_insert(0) += 1;
        }
        let summary = Summary {
            tasks: tasks.len(),
            robust_tasks: tasks.iter().filter(|t| t.robust).count(),
            invalid_tasks: tasks.iter().filter(|t| t.error.is_some()).count(),
            attacks: tasks.iter().map(|t| t.attacks).sum(),
            exploits: count(Kind::Exploit),
            exploits_by_family: by_family,
            false_rejections: count(Kind::FalseRejection),
            weak_tests: count(Kind::WeakTests),
            unscored: count(Kind::Unscored),
        };
        Report { tasks, summary }
    }

    /// The summary as a small table, for stderr.
    pub fn table(&self) -> String {
        let s = &self.summary;
        let mut out = String::new();
        out.push_str(&format!(
            "tasks             {:>6}  ({} robust, {} invalid)\n",
            s.tasks, s.robust_tasks, s.invalid_tasks
        ));
        out.push_str(&format!("attacks           {:>6}\n", s.attacks));
        out.push_str(&format!("exploits          {:>6}\n", s.exploits));
        for (family, n) in &s.exploits_by_family {
            out.push_str(&format!("  {family:<15} {n:>6}\n"));
        }
        out.push_str(&format!("false rejections  {:>6}\n", s.false_rejections));
        out.push_str(&format!("weak tests        {:>6}\n", s.weak_tests));
        out.push_str(&format!("unscored          {:>6}\n", s.unscored));
        for t in self
            .tasks
            .iter()
            .filter(|t| !t.robust || !t.findings.is_empty())
        {
            let id = t.id.as_deref().unwrap_or("?");
            if let Some(e) = &t.error {
                out.push_str(&format!("  {id}: {e}\n"));
            }
            for f in &t.findings {
                out.push_str(&format!(
                    "  {id}: {:?} by {} ({:?}), score {}\n",
                    f.kind, f.attack, f.family, f.score
                ));
            }
        }
        out
    }
}
