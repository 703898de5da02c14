//! Polygon's groups (`tests.judge.subtasks`): a submission's points are the sum of its subtasks',
//! each judged in the order listed, as Codeforces' Polygon scores a problem with points.
//!
//! - `complete-group`: the subtask's points when every case of it is accepted, else none; its
//!   judging stops at the first case not accepted (nothing after it can change its points).
//! - `each-test`: every case judged, each accepted case worth its `points` (a testlib checker's
//!   `quitp` points instead, when it gives them).
//! - A subtask whose `dependencies` were not all passed whole (every case accepted) is not
//!   judged and scores nothing.
//!
//! - CMS's score types, whose cases score in [0, 1] (a CMS checker's or manager's score, else 1
//!   accepted and 0 not): `group-min` (the subtask's points times its least case score),
//!   `group-mul` (times their product; both stop at a case that scores 0, after which nothing
//!   changes the subtask's points) and `sum` (each case's points times its score).
//!
//! The verdict is the first case not accepted (`WA on tests/07: ...`), else `AC`; the detail ends
//! with the points (`; score 40 of 100`) and names the subtasks left unjudged.

use crate::kinds::contest::case::{CaseRun, judge_case};
use crate::kinds::contest::grader::Verdict;
use crate::kinds::contest::spec::{JudgeSpec, PointsPolicy, Subtask};
use crate::sandbox::{CaseResult, GradeError, Outcome, Sandbox};

/// The points a submission earned, what they are out of, and what decided them.
#[derive(Debug, Clone, PartialEq)]
pub struct Points {
    /// Earned.
    pub earned: f64,
    /// The best a submission can earn.
    pub best: f64,
    /// The first case not accepted: its verdict, name and detail.
    pub first_failure: Option<(Verdict, String, String)>,
    /// The cases judged, in order.
    pub cases: Vec<CaseResult>,
    /// Subtasks not judged, each with the dependency it failed.
    pub unjudged: Vec<(String, String)>,
}

/// How judging ended: points, or a compile error that stopped it.
pub enum Judged {
    /// The subtasks' points.
    Points(Points),
    /// The submission does not compile.
    CompileError(Outcome),
}

/// The best points of `subtask`: its own under `complete-group`, its cases' under `each-test`.
fn best_of(spec: &JudgeSpec, subtask: &Subtask) -> f64 {
    match subtask.policy {
        PointsPolicy::CompleteGroup | PointsPolicy::GroupMin | PointsPolicy::GroupMul => {
            subtask.points
        }
        PointsPolicy::EachTest | PointsPolicy::Sum => spec
            .cases
            .iter()
            .filter(|c| c.subtask.as_deref().unwrap_or_default() == subtask.name)
            .map(|c| c.points)
            .sum(),
    }
}

/// Judges `program` (in `language`) subtask by subtask; with `stop_at_first_failure` (a
/// pass-fail problem, whose verdict is its first failure) nothing is judged after it.
pub fn judge_subtasks(
    spec: &JudgeSpec,
    language: &str,
    program: &str,
    sandbox: &dyn Sandbox,
    stop_at_first_failure: bool,
) -> Result<Judged, GradeError> {
    let mut points = Points {
        earned: 0.0,
        best: spec.subtasks.iter().map(|s| best_of(spec, s)).sum(),
        first_failure: None,
        cases: Vec::new(),
        unjudged: Vec::new(),
    };
    let mut passed_whole: Vec<&str> = Vec::new();
    for subtask in &spec.subtasks {
        if stop_at_first_failure && points.first_failure.is_some() && !spec.record {
            break;
        }
        if let Some(failed) = subtask
            .dependencies
            .iter()
            .find(|d| !passed_whole.contains(&d.as_str()))
        {
            points.unjudged.push((subtask.name.clone(), failed.clone()));
            continue;
        }
        let mut all_accepted = true;
        let mut earned = 0.0;
        // The least and the product of the case scores (CMS's group-min and group-mul).
        let (mut least, mut product) = (1.0f64, 1.0f64);
        let members = spec
            .cases
            .iter()
            .filter(|c| c.subtask.as_deref().unwrap_or_default() == subtask.name);
        for case in members {
            let run = judge_case(
                spec,
                language,
                program,
                case,
                &spec.validator_flags,
                sandbox,
            )?;
            let (graded, status, detail) = match run {
                CaseRun::CompileError(outcome) => return Ok(Judged::CompileError(outcome)),
                CaseRun::Judged {
                    graded,
                    status,
                    detail,
                } => (graded, status, detail),
            };
            points.cases.push(CaseResult {
                id: case.name.clone(),
                status,
                detail: detail.clone(),
            });
            if subtask.policy.scores_fractions() {
                let fraction = case_fraction(&graded);
                least = least.min(fraction);
                product *= fraction;
                earned += fraction * case.points;
            } else if graded.verdict == Verdict::Accepted {
                earned += graded.score.unwrap_or(case.points);
            }
            if graded.verdict == Verdict::Accepted {
                continue;
            }
            all_accepted = false;
            if points.first_failure.is_none() {
                points.first_failure = Some((graded.verdict, case.name.clone(), detail));
            }
            let settled = match subtask.policy {
                PointsPolicy::CompleteGroup => true,
                PointsPolicy::GroupMin | PointsPolicy::GroupMul => product <= 0.0,
                PointsPolicy::EachTest | PointsPolicy::Sum => false,
            };
            // A record judges every case (the points stay what they were settled at).
            if (settled || stop_at_first_failure) && !spec.record {
                break;
            }
        }
        points.earned += match subtask.policy {
            PointsPolicy::CompleteGroup if all_accepted => subtask.points,
            PointsPolicy::CompleteGroup => 0.0,
            PointsPolicy::EachTest | PointsPolicy::Sum => earned,
            PointsPolicy::GroupMin => subtask.points * least,
            PointsPolicy::GroupMul => subtask.points * product,
        };
        if all_accepted {
            passed_whole.push(&subtask.name);
        }
    }
    Ok(Judged::Points(points))
}

/// A case's score in [0, 1] under CMS's score types: the checker's or manager's score when it
/// gave one, else 1 for accepted and 0 for anything else.
fn case_fraction(graded: &crate::kinds::contest::grader::Graded) -> f64 {
    match (graded.verdict, graded.score) {
        (Verdict::Accepted | Verdict::PartiallyCorrect, Some(score)) => score.clamp(0.0, 1.0),
        (Verdict::Accepted, None) => 1.0,
        _ => 0.0,
    }
}

impl Points {
    /// The verdict's summary: the first failure (else `AC` and the number of cases), the points,
    /// and the subtasks not judged.
    pub fn detail(&self, best: f64) -> String {
        let mut detail = self.verdict();
        detail.push_str(&format!(
            "; score {} of {}",
            super::shown(self.earned),
            super::shown(best)
        ));
        for (subtask, dependency) in &self.unjudged {
            detail.push_str(&format!(
                "; group {subtask} not judged: group {dependency} was not passed"
            ));
        }
        detail
    }

    /// The verdict alone: the first failure (`WA on tests/03: ...`), else `AC (8 cases)`.
    pub fn verdict(&self) -> String {
        match &self.first_failure {
            Some((verdict, case, why)) => format!("{} on {case}: {why}", verdict.code()),
            None => format!("AC ({} cases)", self.cases.len()),
        }
    }

    /// Whether every case was accepted: no first failure (a subtask is left unjudged only after
    /// a failure in one it depends on).
    pub fn all_accepted(&self) -> bool {
        self.first_failure.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::{CheckerFile, CheckerOutcome, InteractionOutcome, RunStatus};
    use serde_json::json;
    use std::cell::RefCell;

    /// A sandbox whose program prints its input's first token doubled unless the token is
    /// listed as one it gets wrong; it records the inputs it ran.
    struct Doubler {
        wrong_on: Vec<&'static str>,
        ran: RefCell<Vec<String>>,
    }

    impl Sandbox for Doubler {
        fn run(&self, _: &str, _: &str, stdin: &str) -> Outcome {
            self.ran.borrow_mut().push(stdin.trim().to_string());
            let n: i64 = stdin.trim().parse().unwrap_or(0);
            let out = if self.wrong_on.contains(&stdin.trim()) {
                n
            } else {
                2 * n
            };
            Outcome {
                status: RunStatus::Ok,
                exit_code: Some(0),
                stdout: format!("{out}\n"),
                stderr: String::new(),
            }
        }
        fn call(&self, _: &str, _: &str, _: &str, _: &[String]) -> Vec<Result<String, Outcome>> {
            unreachable!("no calls")
        }
        fn check(
            &self,
            _: &crate::fields::AssertSource,
            _: &str,
            _: &str,
        ) -> Result<Vec<CaseResult>, GradeError> {
            unreachable!("no asserts")
        }
        fn candidate_limits(&self) -> serde_json::Value {
            json!({})
        }
        fn run_checker(
            &self,
            _: &crate::kinds::contest::spec::ProblemProgram,
            _: &str,
            _: &[String],
            _: &[CheckerFile],
            _: &crate::kinds::contest::spec::ValidatorLimits,
        ) -> CheckerOutcome {
            unreachable!("the default validator judges these cases")
        }
        fn interact(
            &self,
            _: &str,
            _: &str,
            _: &crate::kinds::contest::spec::ProblemProgram,
            _: &[String],
            _: &[CheckerFile],
            _: &crate::kinds::contest::spec::ValidatorLimits,
        ) -> InteractionOutcome {
            unreachable!("no interactor")
        }
        fn communicate(
            &self,
            _: &str,
            _: &str,
            _: u32,
            _: &crate::kinds::contest::spec::ProblemProgram,
            _: &str,
            _: &[String],
            _: &[crate::sandbox::CheckerFile],
            _: &crate::kinds::contest::spec::ValidatorLimits,
        ) -> crate::sandbox::CommunicationOutcome {
            unreachable!("no manager")
        }
    }

    fn spec() -> JudgeSpec {
        let case = |name: &str, n: i64, group: &str, points: f64| {
            json!({"name": name, "input": format!("{n}\n"), "answer": format!("{}\n", 2 * n),
                   "group": group, "points": points})
        };
        JudgeSpec::parse(&json!({
            "type": "scoring",
            "cases": [case("tests/01", 1, "0", 0.0), case("tests/02", 2, "1", 0.0),
                      case("tests/03", 3, "1", 0.0), case("tests/04", 4, "2", 10.0),
                      case("tests/05", 5, "2", 15.0), case("tests/06", 6, "3", 0.0)],
            "subtasks": [
                {"name": "0", "points": 0},
                {"name": "1", "points": 30, "dependencies": ["0"]},
                {"name": "2", "policy": "each-test"},
                {"name": "3", "points": 45, "dependencies": ["1", "2"]}]
        }))
        .unwrap()
    }

    fn judged(wrong_on: &[&'static str]) -> (Points, Vec<String>) {
        let sandbox = Doubler {
            wrong_on: wrong_on.to_vec(),
            ran: RefCell::new(Vec::new()),
        };
        match judge_subtasks(&spec(), "python", "", &sandbox, false).unwrap() {
            Judged::Points(points) => (points, sandbox.ran.into_inner()),
            Judged::CompileError(_) => unreachable!(),
        }
    }

    /// A sandbox whose program echoes its input and whose CMS checker scores each input as
    /// the table says; it records the inputs the program ran on.
    struct Scored {
        scores: Vec<(&'static str, f64)>,
        ran: RefCell<Vec<String>>,
    }

    impl Sandbox for Scored {
        fn run(&self, _: &str, _: &str, stdin: &str) -> Outcome {
            self.ran.borrow_mut().push(stdin.trim().to_string());
            Outcome {
                status: RunStatus::Ok,
                exit_code: Some(0),
                stdout: stdin.to_string(),
                stderr: String::new(),
            }
        }
        fn call(&self, _: &str, _: &str, _: &str, _: &[String]) -> Vec<Result<String, Outcome>> {
            unreachable!("no calls")
        }
        fn check(
            &self,
            _: &crate::fields::AssertSource,
            _: &str,
            _: &str,
        ) -> Result<Vec<CaseResult>, GradeError> {
            unreachable!("no asserts")
        }
        fn candidate_limits(&self) -> serde_json::Value {
            json!({})
        }
        fn run_checker(
            &self,
            _: &crate::kinds::contest::spec::ProblemProgram,
            _: &str,
            _: &[String],
            files: &[CheckerFile],
            _: &crate::kinds::contest::spec::ValidatorLimits,
        ) -> CheckerOutcome {
            let input = files.iter().find(|f| f.path == "input.in").unwrap();
            let input = String::from_utf8_lossy(&input.contents).trim().to_string();
            let score = self
                .scores
                .iter()
                .find(|(i, _)| *i == input)
                .map_or(1.0, |s| s.1);
            CheckerOutcome {
                outcome: Outcome {
                    status: RunStatus::Ok,
                    exit_code: Some(0),
                    stdout: format!("{score}\n"),
                    stderr: "translate:partial\n".into(),
                },
                feedback: Vec::new(),
            }
        }
        fn interact(
            &self,
            _: &str,
            _: &str,
            _: &crate::kinds::contest::spec::ProblemProgram,
            _: &[String],
            _: &[CheckerFile],
            _: &crate::kinds::contest::spec::ValidatorLimits,
        ) -> InteractionOutcome {
            unreachable!("no interactor")
        }
        fn communicate(
            &self,
            _: &str,
            _: &str,
            _: u32,
            _: &crate::kinds::contest::spec::ProblemProgram,
            _: &str,
            _: &[String],
            _: &[crate::sandbox::CheckerFile],
            _: &crate::kinds::contest::spec::ValidatorLimits,
        ) -> crate::sandbox::CommunicationOutcome {
            unreachable!("no manager")
        }
    }

    #[test]
    fn cms_score_types_make_points_from_case_scores() {
        let case = |input: &str, group: &str, points: f64| json!({"name": input, "input": input, "answer": "", "group": group, "points": points});
        let spec = JudgeSpec::parse(&json!({
            "type": "scoring",
            "cases": [case("a1", "min", 0.0), case("a2", "min", 0.0), case("a3", "min", 0.0),
                      case("b1", "mul", 0.0), case("b2", "mul", 0.0),
                      case("c1", "sum", 10.0), case("c2", "sum", 30.0)],
            "output_validator": {"language": "cpp", "source": "", "convention": "cms"},
            "subtasks": [{"name": "min", "points": 40, "policy": "group-min"},
                         {"name": "mul", "points": 20, "policy": "group-mul"},
                         {"name": "sum", "policy": "sum"}]
        }))
        .unwrap();
        let judged = |scores: &[(&'static str, f64)]| {
            let sandbox = Scored {
                scores: scores.to_vec(),
                ran: RefCell::new(Vec::new()),
            };
            match judge_subtasks(&spec, "cpp", "", &sandbox, false).unwrap() {
                Judged::Points(points) => (points, sandbox.ran.into_inner()),
                Judged::CompileError(_) => unreachable!(),
            }
        };
        let (all, ran) = judged(&[]);
        assert_eq!((all.earned, all.best), (100.0, 100.0));
        assert_eq!(ran.len(), 7);
        // The least of a group-min subtask, the product of a group-mul one, each case's share
        // of a sum one; the first case not scoring 1 is the verdict.
        let (partial, _) = judged(&[
            ("a2", 0.5),
            ("a3", 0.25),
            ("b1", 0.5),
            ("b2", 0.5),
            ("c2", 0.5),
        ]);
        assert!((partial.earned - (40.0 * 0.25 + 20.0 * 0.25 + 10.0 + 15.0)).abs() < 1e-9);
        assert!(
            partial.verdict().starts_with("PC on a2: "),
            "{}",
            partial.verdict()
        );
        // A case that scores 0 settles a group-min or group-mul subtask: nothing after it runs.
        let (zero, ran) = judged(&[("a1", 0.0), ("b1", 0.0), ("c1", 0.0)]);
        assert_eq!(ran, ["a1", "b1", "c1", "c2"]);
        assert_eq!(zero.earned, 30.0);
        assert!(
            zero.verdict().starts_with("WA on a1: "),
            "{}",
            zero.verdict()
        );
    }

    #[test]
    fn points_follow_the_policies_and_dependencies() {
        let (all, ran) = judged(&[]);
        assert_eq!((all.earned, all.best), (100.0, 100.0));
        assert_eq!(ran, ["1", "2", "3", "4", "5", "6"]);
        assert!(all.all_accepted());
        assert_eq!(all.detail(all.best), "AC (6 cases); score 100 of 100");

        // complete-group stops at its first failure and scores nothing; the group depending on
        // it is not judged; each-test keeps what its other cases earn.
        let (some, ran) = judged(&["2", "5"]);
        assert_eq!(ran, ["1", "2", "4", "5"]);
        assert_eq!(some.earned, 10.0);
        let detail = some.detail(some.best);
        assert!(detail.starts_with("WA on tests/02: "), "{detail}");
        assert!(
            detail.ends_with("; score 10 of 100; group 3 not judged: group 1 was not passed"),
            "{detail}"
        );
        assert!(!some.all_accepted());

        // A failure in an each-test group also blocks what depends on it.
        let (each, _) = judged(&["4"]);
        assert_eq!(each.earned, 30.0 + 15.0);
        assert_eq!(each.unjudged, [("3".to_string(), "2".to_string())]);
    }
}
