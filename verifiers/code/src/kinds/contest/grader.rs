//! From test case results to a verdict, as problemtools judges a test data tree: groups nest by
//! path, their items (cases and subgroups) judged in order of their names, a group stopping at
//! its first rejected item when `on_reject` is `break`, and each group's result made by the
//! default grader from its items' results.
//!
//! The default grader (the Kattis format's): the verdict is the worst error of the items
//! (`worst_error`: JE, RTE, MLE, TLE, OLE, PE, WA, in that order; PE only from a testlib checker), the first one (`first_error`) or
//! always accepted (`always_accept`), accepted anyway when one item is with
//! `accept_if_any_accepted`; the score is the `sum` (default), `avg`, `min` or `max` of the
//! items'; `ignore_sample` (at the root) keeps only the last item, `secret`.

use crate::kinds::contest::spec::{GroupSettings, JudgeCase, JudgeSpec};
use std::collections::BTreeMap;

/// A judge's verdict on a case or a group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Accepted.
    Accepted,
    /// Wrong answer.
    WrongAnswer,
    /// Presentation error: the output's format is wrong (a testlib checker's `_pe`; the Kattis
    /// format has none).
    PresentationError,
    /// Time limit exceeded.
    TimeLimit,
    /// Run-time error.
    RunTimeError,
    /// Memory limit exceeded.
    MemoryLimit,
    /// Output limit exceeded.
    OutputLimit,
    /// Partially correct: a CMS checker or manager scored the case above 0 and below 1.
    PartiallyCorrect,
}

impl Verdict {
    /// The verdict's code, as judges print it.
    pub fn code(self) -> &'static str {
        match self {
            Verdict::Accepted => "AC",
            Verdict::WrongAnswer => "WA",
            Verdict::PresentationError => "PE",
            Verdict::TimeLimit => "TLE",
            Verdict::RunTimeError => "RTE",
            Verdict::MemoryLimit => "MLE",
            Verdict::OutputLimit => "OLE",
            Verdict::PartiallyCorrect => "PC",
        }
    }

    /// Rank in `worst_error`'s order: the lowest is the worst.
    fn severity(self) -> usize {
        match self {
            Verdict::RunTimeError => 0,
            Verdict::MemoryLimit => 1,
            Verdict::TimeLimit => 2,
            Verdict::OutputLimit => 3,
            Verdict::PresentationError => 4,
            Verdict::WrongAnswer => 5,
            Verdict::PartiallyCorrect => 6,
            Verdict::Accepted => 7,
        }
    }
}

/// The result of one judged item: its verdict and score (`None`: none given).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Graded {
    /// The verdict.
    pub verdict: Verdict,
    /// The score (for a case: the validator's, or the group's accept or reject score).
    pub score: Option<f64>,
}

/// The verdict of the whole tree, or why there is none.
#[derive(Debug, Clone, PartialEq)]
pub struct TreeResult {
    /// The root's result.
    pub root: Graded,
    /// The cases judged, in order (a group that stopped early leaves the rest out).
    pub judged: usize,
}

/// A judge error: the problem's own programs or settings failed (never the submission's fault).
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeError(pub String);

/// One node of the tree: a case (by index into the spec's cases) or a group.
enum Item {
    Case(usize),
    Group(String),
}

/// The test data tree: each group's items, sorted as the format orders them.
struct Tree<'a> {
    spec: &'a JudgeSpec,
    children: BTreeMap<String, Vec<(String, Item)>>,
    settings: BTreeMap<String, GroupSettings>,
}

fn parent(group: &str) -> Option<&str> {
    if group.is_empty() {
        None
    } else {
        Some(group.rsplit_once('/').map_or("", |(p, _)| p))
    }
}

impl<'a> Tree<'a> {
    fn new(spec: &'a JudgeSpec) -> Tree<'a> {
        let mut children: BTreeMap<String, Vec<(String, Item)>> = BTreeMap::new();
        children.insert(String::new(), Vec::new());
        // Registers `group` and its ancestors, each as an item of its parent, once.
        let add_group = |children: &mut BTreeMap<String, Vec<(String, Item)>>, group: &str| {
            let mut chain = Vec::new();
            let mut at = group.to_string();
            while !children.contains_key(&at) {
                let up = parent(&at).unwrap_or("").to_string();
                chain.push(at);
                at = up;
            }
            // From the top down, so that each parent exists before its child is added to it.
            for group in chain.into_iter().rev() {
                let up = parent(&group).unwrap_or("").to_string();
                let base = group.rsplit('/').next().unwrap_or("").to_string();
                children
                    .get_mut(&up)
                    .expect("registered before its children")
                    .push((base, Item::Group(group.clone())));
                children.insert(group, Vec::new());
            }
        };
        for (index, case) in spec.cases.iter().enumerate() {
            add_group(&mut children, case.group());
            let base = case.name.rsplit('/').next().unwrap_or("");
            // A case sorts by its answer file's name, as problemtools lists a directory.
            children
                .get_mut(case.group())
                .expect("added above")
                .push((format!("{base}.ans"), Item::Case(index)));
        }
        for items in children.values_mut() {
            items.sort_by(|a, b| a.0.cmp(&b.0));
        }
        let settings = children
            .keys()
            .map(|group| (group.clone(), settings(spec, group)))
            .collect();
        Tree {
            spec,
            children,
            settings,
        }
    }
}

/// The settings of `group`: what its own `testdata.yaml` says, what it leaves out taken from its
/// parent's, and so on up to the root.
pub fn settings(spec: &JudgeSpec, group: &str) -> GroupSettings {
    let mut chain = vec![group];
    while let Some(up) = parent(chain[chain.len() - 1]) {
        chain.push(up);
    }
    chain
        .iter()
        .rev()
        .fold(GroupSettings::default(), |inherited, g| {
            match spec.groups.get(*g) {
                Some(own) => own.inherit(&inherited),
                None => inherited,
            }
        })
}

/// What a case scored: the validator's score when it gave one, else the group's accept or
/// reject score (both only in a scoring problem).
fn case_score(verdict: Verdict, own: Option<f64>, settings: &GroupSettings) -> f64 {
    own.unwrap_or(if verdict == Verdict::Accepted {
        settings.accept_score.unwrap_or(1.0)
    } else {
        settings.reject_score.unwrap_or(0.0)
    })
}

/// The default grader over `results` with `flags`.
pub fn default_grader(results: &[Graded], flags: &[String]) -> Result<Graded, JudgeError> {
    if results.is_empty() {
        return Ok(Graded {
            verdict: Verdict::Accepted,
            score: Some(0.0),
        });
    }
    #[derive(Clone, Copy)]
    enum Mode {
        Worst,
        First,
        Always,
    }
    #[derive(Clone, Copy)]
    enum Aggregate {
        Sum,
        Avg,
        Min,
        Max,
    }
    let (mut mode, mut aggregate) = (Mode::Worst, Aggregate::Sum);
    let (mut ignore_sample, mut any_accepted) = (false, false);
    for flag in flags {
        match flag.as_str() {
            "worst_error" | "no_errors" => mode = Mode::Worst,
            "first_error" => mode = Mode::First,
            "always_accept" => mode = Mode::Always,
            "sum" => aggregate = Aggregate::Sum,
            "avg" => aggregate = Aggregate::Avg,
            "min" => aggregate = Aggregate::Min,
            "max" => aggregate = Aggregate::Max,
            "ignore_sample" => ignore_sample = true,
            "accept_if_any_accepted" => any_accepted = true,
            // The default grader ignores what it does not know.
            _ => {}
        }
    }
    let results = if ignore_sample {
        if results.len() > 2 {
            return Err(JudgeError(format!(
                "the grader's ignore_sample needs at most two items (sample, secret), got {}",
                results.len()
            )));
        }
        &results[results.len() - 1..]
    } else {
        results
    };
    let verdicts = results.iter().map(|r| r.verdict);
    let verdict = if any_accepted && results.iter().any(|r| r.verdict == Verdict::Accepted) {
        Verdict::Accepted
    } else {
        match mode {
            Mode::Worst => verdicts
                .min_by_key(|v| v.severity())
                .unwrap_or(Verdict::Accepted),
            Mode::First => verdicts
                .into_iter()
                .find(|v| *v != Verdict::Accepted)
                .unwrap_or(Verdict::Accepted),
            Mode::Always => Verdict::Accepted,
        }
    };
    let scores: Vec<f64> = results.iter().map(|r| r.score.unwrap_or(0.0)).collect();
    let score = match aggregate {
        Aggregate::Sum => scores.iter().sum(),
        Aggregate::Avg => scores.iter().sum::<f64>() / scores.len() as f64,
        Aggregate::Min => scores.iter().copied().fold(f64::INFINITY, f64::min),
        Aggregate::Max => scores.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    };
    Ok(Graded {
        verdict,
        score: Some(score),
    })
}

/// Judges the tree of `spec`'s cases, asking `judge_case` for each case's result in the
/// format's order (and not for cases after a group's first rejection when it breaks, unless
/// `judge_all`).
pub fn judge_tree(
    spec: &JudgeSpec,
    judge_all: bool,
    judge_case: &mut dyn FnMut(usize, &JudgeCase) -> Result<Graded, JudgeError>,
) -> Result<TreeResult, JudgeError> {
    let tree = Tree::new(spec);
    let mut judged = 0;
    let root = judge_group(&tree, "", judge_all, judge_case, &mut judged)?.unwrap_or(Graded {
        verdict: Verdict::Accepted,
        score: Some(0.0),
    });
    Ok(TreeResult { root, judged })
}

fn judge_group(
    tree: &Tree<'_>,
    group: &str,
    judge_all: bool,
    judge_case: &mut dyn FnMut(usize, &JudgeCase) -> Result<Graded, JudgeError>,
    judged: &mut usize,
) -> Result<Option<Graded>, JudgeError> {
    let settings = &tree.settings[group];
    let breaks = settings.on_reject_break.unwrap_or(true) && !judge_all;
    let mut results = Vec::new();
    for (_, item) in &tree.children[group] {
        let result = match item {
            Item::Group(sub) => match judge_group(tree, sub, judge_all, judge_case, judged)? {
                Some(result) => result,
                None => continue, // an empty group is left out
            },
            Item::Case(index) => {
                let case = &tree.spec.cases[*index];
                let graded = judge_case(*index, case)?;
                *judged += 1;
                Graded {
                    verdict: graded.verdict,
                    score: Some(case_score(graded.verdict, graded.score, settings)),
                }
            }
        };
        results.push(result);
        if result.verdict != Verdict::Accepted && breaks {
            break;
        }
    }
    if results.is_empty() {
        return Ok(None);
    }
    let flags = settings.grader_flags.clone().unwrap_or_default();
    default_grader(&results, &flags).map(Some)
}

/// The best score the tree can give: its root's `range` when finite, else what accepting every
/// case (at its group's accept score) scores.
pub fn best_score(spec: &JudgeSpec) -> Result<f64, JudgeError> {
    if let Some(max) = spec.max_score {
        return Ok(max);
    }
    if let Some((_, high)) = spec.groups.get("").and_then(|g| g.range)
        && high.is_finite()
    {
        return Ok(high);
    }
    if spec.custom_score {
        return Err(JudgeError(
            "a custom-score problem needs \"tests.judge.max_score\" (or a finite range at the \
             root) to give a score in [0, 1]"
                .into(),
        ));
    }
    let all_accepted = judge_tree(spec, true, &mut |_, _| {
        Ok(Graded {
            verdict: Verdict::Accepted,
            score: None,
        })
    })?;
    Ok(all_accepted.root.score.unwrap_or(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn spec(value: serde_json::Value) -> JudgeSpec {
        JudgeSpec::parse(&value).unwrap()
    }

    fn graded(verdict: Verdict, score: f64) -> Graded {
        Graded {
            verdict,
            score: Some(score),
        }
    }

    #[test]
    fn the_default_grader_as_problemtools_ships_it() {
        use Verdict::*;
        let results = [
            graded(Accepted, 10.0),
            graded(WrongAnswer, 0.0),
            graded(TimeLimit, 5.0),
        ];
        let run = |flags: &[&str]| {
            let flags: Vec<String> = flags.iter().map(|f| f.to_string()).collect();
            default_grader(&results, &flags).unwrap()
        };
        assert_eq!(run(&[]), graded(TimeLimit, 15.0), "worst error, sum");
        assert_eq!(run(&["first_error", "avg"]), graded(WrongAnswer, 5.0));
        assert_eq!(run(&["always_accept", "max"]), graded(Accepted, 10.0));
        assert_eq!(
            run(&["accept_if_any_accepted", "min"]),
            graded(Accepted, 0.0)
        );
        assert_eq!(
            run(&["min", "max"]),
            graded(TimeLimit, 10.0),
            "the last mode wins"
        );
        assert!(default_grader(&results, &["ignore_sample".into()]).is_err());
        let two = [graded(WrongAnswer, 1.0), graded(Accepted, 7.0)];
        assert_eq!(
            default_grader(&two, &["ignore_sample".into()]).unwrap(),
            graded(Accepted, 7.0)
        );
        assert_eq!(default_grader(&[], &[]).unwrap(), graded(Accepted, 0.0));
    }

    #[test]
    fn groups_judge_in_name_order_and_break_at_the_first_rejection() {
        let spec = spec(json!({
            "type": "scoring",
            "cases": [
                {"name": "secret/g2/1", "input": "c"},
                {"name": "secret/g1/2", "input": "b"},
                {"name": "secret/g1/1", "input": "a"},
                {"name": "sample/1", "input": "s"}
            ],
            "groups": {
                "": {"accept_score": 0},
                "secret": {"on_reject": "continue", "grader_flags": "accept_if_any_accepted"},
                "secret/g1": {"accept_score": 30, "grader_flags": "min", "on_reject": "break"},
                "secret/g2": {"accept_score": 70, "grader_flags": "min", "on_reject": "break"},
                "sample": {"on_reject": "continue"}
            }
        }));
        let mut order = Vec::new();
        let result = judge_tree(&spec, false, &mut |_, case| {
            order.push(case.input.clone());
            Ok(Graded {
                verdict: if case.input == "a" {
                    Verdict::WrongAnswer
                } else {
                    Verdict::Accepted
                },
                score: None,
            })
        })
        .unwrap();
        // g1 breaks at its first case ("a", rejected), so "b" is never run.
        assert_eq!(order, ["s", "a", "c"]);
        assert_eq!(result.judged, 3);
        // secret: g1 WA (min 0), g2 AC (70): accepted anyway, 70; the sample scores 0.
        assert_eq!(result.root, graded(Verdict::Accepted, 70.0));
        assert_eq!(best_score(&spec).unwrap(), 100.0);
    }

    #[test]
    fn a_group_takes_what_its_own_settings_leave_out_from_its_ancestors() {
        let spec = spec(json!({
            "cases": [{"name": "secret/g1/deep/1", "input": ""}],
            "groups": {
                "": {"accept_score": 2, "output_validator_flags": "case_sensitive"},
                "secret": {"output_validator_flags": "float_tolerance 1e-6"},
                "secret/g1": {"accept_score": 5}
            }
        }));
        let deep = settings(&spec, "secret/g1/deep");
        assert_eq!(deep.accept_score, Some(5.0));
        assert_eq!(
            deep.output_validator_flags.unwrap(),
            ["float_tolerance", "1e-6"]
        );
        assert_eq!(settings(&spec, "sample").accept_score, Some(2.0));
        assert_eq!(
            settings(&spec, "").on_reject_break,
            None,
            "the format's default applies"
        );
    }

    #[test]
    fn a_pass_fail_problem_stops_at_its_first_failure() {
        let spec = spec(json!({
            "cases": [{"name": "secret/1", "input": "1"}, {"name": "secret/2", "input": "2"}, {"name": "sample/1", "input": "0"}]
        }));
        let mut ran = 0;
        let result = judge_tree(&spec, false, &mut |_, case| {
            ran += 1;
            Ok(Graded {
                verdict: if case.input == "1" {
                    Verdict::TimeLimit
                } else {
                    Verdict::Accepted
                },
                score: None,
            })
        })
        .unwrap();
        assert_eq!(ran, 2, "sample/1 then secret/1, which breaks");
        assert_eq!(result.root.verdict, Verdict::TimeLimit);
        let all = judge_tree(&spec, true, &mut |_, _| {
            Ok(Graded {
                verdict: Verdict::Accepted,
                score: None,
            })
        })
        .unwrap();
        assert_eq!(all.judged, 3);
    }
}
