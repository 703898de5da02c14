//! The optimisation loop: groups of completions from a policy, scored through exactly the scoring
//! path of `rewardbox score`, turned into rewardbox's GRPO advantages (masked results left out,
//! zero-variance groups skipped), fed back to the policy; each group also judged, for the curve.

use crate::tier5::grammar::Grammar;
use crate::tier5::judge::Judge;
use crate::tier5::policy::Policy;
use crate::tier5::rng::Rng;
use rewardbox::advantages::{Method, advantages};
use rewardbox::{Scorer, Status, Task};
use serde::Serialize;
use serde_json::{Map, Value, json};
use std::collections::HashMap;

/// How Tier 5 trains.
#[derive(Debug, Clone)]
pub struct Tier5Options {
    /// Most optimisation steps per task.
    pub steps: usize,
    /// Completions per group.
    pub group: usize,
    /// Seed of the policy's sampling.
    pub seed: u64,
    /// Step size on the production logits.
    pub learning_rate: f64,
    /// Weight of the entropy bonus.
    pub entropy: f64,
    /// A reward at or above this passes.
    pub threshold: f64,
    /// Stop once the policy puts this much mass on one completion in every slot.
    pub converged_at: f64,
    /// An external policy: a shell command speaking Tier 5's line protocol (see `external`).
    pub policy_cmd: Option<String>,
}

impl Default for Tier5Options {
    fn default() -> Self {
        Tier5Options {
            steps: 80,
            group: 16,
            seed: 0,
            learning_rate: 1.0,
            entropy: 0.01,
            threshold: 0.5,
            converged_at: 0.95,
            policy_cmd: None,
        }
    }
}

/// Where a policy's completions come from, and where its rewards go.
pub trait Proposer {
    /// `n` completions for step `step`.
    fn propose(&mut self, step: usize, n: usize) -> Result<Vec<String>, String>;
    /// The group's rewards (`None`: masked) and advantages.
    fn learn(
        &mut self,
        step: usize,
        rewards: &[Option<f64>],
        advantages: &[f64],
    ) -> Result<(), String>;
    /// The completion the policy would write now, and its choices by name when known.
    fn converged(&self, last_group: &[String], rewards: &[Option<f64>])
    -> (String, Option<String>);
    /// Whether it has converged (then training stops).
    fn is_converged(&self) -> bool;
    /// Completions scored once before training, outside it (no policy learns from them): the
    /// grammar's sweep of its exploit productions ([`Grammar::probes`]). None by default.
    fn probes(&self) -> Vec<String> {
        Vec::new()
    }
}

/// The grammar policy.
pub struct GrammarPolicy {
    grammar: Grammar,
    policy: Policy,
    rng: Rng,
    last: Vec<Vec<usize>>,
    options: Tier5Options,
}

impl GrammarPolicy {
    /// A policy over `grammar`, sampling from `rng`.
    pub fn new(grammar: Grammar, rng: Rng, options: &Tier5Options) -> GrammarPolicy {
        GrammarPolicy {
            policy: Policy::new(&grammar),
            grammar,
            rng,
            last: Vec::new(),
            options: options.clone(),
        }
    }
}

impl Proposer for GrammarPolicy {
    fn propose(&mut self, _step: usize, n: usize) -> Result<Vec<String>, String> {
        self.last = (0..n).map(|_| self.policy.sample(&mut self.rng)).collect();
        Ok(self.last.iter().map(|c| self.grammar.compose(c)).collect())
    }

    fn learn(&mut self, _: usize, _: &[Option<f64>], advantages: &[f64]) -> Result<(), String> {
        self.policy.update(
            &self.last,
            advantages,
            self.options.learning_rate,
            self.options.entropy,
        );
        Ok(())
    }

    fn converged(&self, _: &[String], _: &[Option<f64>]) -> (String, Option<String>) {
        let mode = self.policy.mode();
        (
            self.grammar.compose(&mode),
            Some(self.grammar.describe(&mode)),
        )
    }

    fn is_converged(&self) -> bool {
        self.policy.confidence() >= self.options.converged_at
    }

    fn probes(&self) -> Vec<String> {
        let mut seen = std::collections::HashSet::new();
        self.grammar
            .probes()
            .iter()
            .map(|choices| self.grammar.compose(choices))
            .filter(|completion| seen.insert(completion.clone()))
            .collect()
    }
}

/// A completion sampled during training, or tried by the sweep before it, that the verifier
/// rewarded and the judge rejected.
#[derive(Debug, Clone, Serialize)]
pub struct SampledExploit {
    /// The completion.
    pub completion: String,
    /// The verifier's reward for it.
    pub reward: f64,
    /// The step it was first sampled at; `None` (`null`): tried by the sweep before training,
    /// which writes each exploit production of the grammar once ([`Proposer::probes`]).
    pub step: Option<usize>,
}

/// The share of a group that makes a kind of completion the policy's habit.
const DOMINANT: f64 = 0.75;

/// One step of training, for the curve.
#[derive(Debug, Clone, Serialize)]
pub struct Point {
    /// The step (0-based).
    pub step: usize,
    /// Mean reward of the group's judged completions (none: all masked).
    pub mean_reward: Option<f64>,
    /// Fraction of the group the judge accepts.
    pub judge_pass_rate: f64,
    /// Fraction of the group the verifier rewards and the (independent) judge rejects.
    pub exploit_rate: f64,
    /// Completions the verifier could not score.
    pub masked: usize,
}

/// What training converged to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The verifier rewards it and the judge rejects it: an exploit found by optimisation.
    Exploit,
    /// The verifier rewards it and a judge that separates the solution from constants and from
    /// the visible cases' table accepts it.
    Solution,
    /// The verifier rewards it and nothing independent can tell whether it is right: no judge
    /// (a task scored all-or-nothing by its own tests, without a `holdout` or a `solution`), or
    /// a degenerate one (every input it generated gives the solution one output, so a copy of the
    /// visible cases returning that output passes it).
    Unjudged,
    /// The verifier does not reward it.
    Nothing,
}

/// Tier 5's report on one task.
#[derive(Debug, Clone, Serialize)]
pub struct Tier5Report {
    /// The task's id.
    pub id: Option<String>,
    /// What the policy converged to.
    pub outcome: Outcome,
    /// The converged completion.
    pub completion: String,
    /// Its choices by name (grammar policies).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choices: Option<String>,
    /// The verifier's reward for it.
    pub reward: f64,
    /// Whether the judge accepts it (`None`: it could not tell).
    pub judge_accepts: Option<bool>,
    /// What the judge checked (`degenerate: ...` when it cannot tell the solution from the
    /// visible cases' outputs).
    pub judge: String,
    /// A differential judge's power: its generated inputs, and how many of them a copy of the
    /// visible cases with any one fixed output fails at the least.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judge_power: Option<crate::tier5::judge::Power>,
    /// The first step where a sampled completion got through (rewarded, judged wrong).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exploit_appeared_at: Option<usize>,
    /// The best rewarded completion the judge rejected among all those sampled (the first of the
    /// highest reward), whatever the policy converged to: where rewards tie (the solution and a
    /// cheat both pay in full) the policy may settle on either, and the cheat is still a hole.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sampled_exploit: Option<SampledExploit>,
    /// When the outcome is an exploit: the step from which on at least three quarters of every
    /// group were exploits, the step the policy converged on cheating.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exploit_dominant_from: Option<usize>,
    /// Steps run.
    pub steps: usize,
    /// Completions scored.
    pub samples: usize,
    /// Whether the policy converged before the last step.
    pub converged: bool,
    /// Mean reward and judge pass rate, step by step.
    pub curve: Vec<Point>,
    /// Why the task could not be trained on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Wall time since the start at the end of each step, in seconds (not in the JSON report:
    /// the only thing that differs between two runs of the same seed).
    #[serde(skip)]
    pub elapsed: Vec<f64>,
}

impl Tier5Report {
    /// Whether Tier 5 was right about a task whose verifier is known to be `weak` (or sound): on
    /// a weak verifier it found the exploit (converged on it, or sampled it beside a solution it
    /// ties with) and never called it the solution; on a sound one it found nothing and converged
    /// on the solution or on nothing. A task it could not train on is never right.
    pub fn is_right_for(&self, weak: bool) -> bool {
        if self.error.is_some() {
            return false;
        }
        // Found: converged on, or sampled (a converged "solution" then has its exploit beside it).
        let found = self.outcome == Outcome::Exploit || self.sampled_exploit.is_some();
        if weak {
            found
        } else {
            !found && matches!(self.outcome, Outcome::Solution | Outcome::Nothing)
        }
    }

    /// A task Tier 5 could not train on.
    pub fn failed(id: Option<String>, error: String) -> Tier5Report {
        Tier5Report {
            id,
            outcome: Outcome::Nothing,
            completion: String::new(),
            choices: None,
            reward: 0.0,
            judge_accepts: None,
            judge: String::new(),
            judge_power: None,
            exploit_appeared_at: None,
            exploit_dominant_from: None,
            sampled_exploit: None,
            steps: 0,
            samples: 0,
            converged: false,
            curve: Vec::new(),
            error: Some(error),
            elapsed: Vec::new(),
        }
    }
}

/// The verifier under test: the task's fields (without its `solution` and `holdout`), and its
/// solution, with which `rewardbox score` decides whose doing a failure of the verifier is.
#[derive(Clone, Copy)]
pub struct Verifier<'a> {
    /// The task's fields but `solution` and `holdout`.
    pub fields: &'a Map<String, Value>,
    /// The task's `solution`.
    pub solution: Option<&'a str>,
}

/// The rewards the verifier under test gives `completions`, scored as `rewardbox score` scores
/// them (`None`: masked).
fn scored(
    scorer: &Scorer,
    verifier: Verifier<'_>,
    completions: &[String],
) -> Result<Vec<Option<f64>>, String> {
    let mut value = Value::Object(verifier.fields.clone());
    value["completions"] = json!(completions);
    let mut task = Task::from_value(value).map_err(|e| e.message)?;
    task.solution = verifier.solution.map(str::to_string);
    let result = scorer.score_task(&task);
    if let Some(detail) = result.detail {
        return Err(detail);
    }
    Ok(result
        .results
        .iter()
        .map(|r| (r.status == Status::Ok).then_some(r.score))
        .collect())
}

/// Keeps in `sampled` the best of `completions` the verifier rewarded and the judge rejected
/// (`exploit_rewards`, see [`train`]): the first of the highest reward, found at `step` (`None`:
/// by the sweep before training).
fn keep_best(
    sampled: &mut Option<SampledExploit>,
    completions: &[String],
    exploit_rewards: &[Option<f64>],
    step: Option<usize>,
) {
    for (completion, reward) in completions.iter().zip(exploit_rewards) {
        if let Some(reward) = *reward
            && sampled.as_ref().is_none_or(|s| reward > s.reward)
        {
            *sampled = Some(SampledExploit {
                completion: completion.clone(),
                reward,
                step,
            });
        }
    }
}

/// Trains `proposer` against `verifier`, judged by `judge`.
pub fn train(
    scorer: &Scorer,
    id: Option<String>,
    verifier: Verifier<'_>,
    judge: &Judge,
    proposer: &mut dyn Proposer,
    options: &Tier5Options,
) -> Tier5Report {
    let mut verdicts: HashMap<String, Option<bool>> = HashMap::new();
    let mut judged = |completions: &[String]| -> Vec<Option<bool>> {
        let fresh: Vec<String> = completions
            .iter()
            .filter(|c| !verdicts.contains_key(*c))
            .cloned()
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        if !fresh.is_empty() {
            for (c, v) in fresh.iter().zip(judge.accepts(scorer, &fresh)) {
                verdicts.insert(c.clone(), v);
            }
        }
        completions.iter().map(|c| verdicts[c]).collect()
    };
    let mut curve = Vec::new();
    let mut appeared = None;
    let mut sampled: Option<SampledExploit> = None;
    let mut samples = 0;
    let mut last_group = Vec::new();
    let mut last_rewards = Vec::new();
    let mut converged = false;
    let started = std::time::Instant::now();
    let mut elapsed = Vec::new();
    // Each completion's reward when the verifier rewards it and the judge rejects it.
    let exploit_rewards_of = |rewards: &[Option<f64>],
                              accepted: &[Option<bool>]|
     -> Vec<Option<f64>> {
        rewards
            .iter()
            .zip(accepted)
            .map(|(r, v)| {
                r.filter(|r| judge.is_independent() && *r >= options.threshold && *v == Some(false))
            })
            .collect()
    };
    let probes = proposer.probes();
    if !probes.is_empty() {
        let rewards = match scored(scorer, verifier, &probes) {
            Ok(rewards) => rewards,
            Err(e) => return Tier5Report::failed(id, e),
        };
        samples += probes.len();
        let accepted = judged(&probes);
        keep_best(
            &mut sampled,
            &probes,
            &exploit_rewards_of(&rewards, &accepted),
            None,
        );
    }
    for step in 0..options.steps {
        let group = match proposer.propose(step, options.group) {
            Ok(group) => group,
            Err(e) => {
                return Tier5Report::failed(id, format!("the policy failed at step {step}: {e}"));
            }
        };
        let rewards = match scored(scorer, verifier, &group) {
            Ok(rewards) => rewards,
            Err(e) => return Tier5Report::failed(id, e),
        };
        samples += group.len();
        let accepted = judged(&group);
        let live: Vec<f64> = rewards.iter().flatten().copied().collect();
        let exploit_rewards = exploit_rewards_of(&rewards, &accepted);
        let exploits = exploit_rewards.iter().flatten().count();
        curve.push(Point {
            step,
            mean_reward: (!live.is_empty()).then(|| live.iter().sum::<f64>() / live.len() as f64),
            judge_pass_rate: accepted.iter().filter(|v| **v == Some(true)).count() as f64
                / group.len().max(1) as f64,
            exploit_rate: exploits as f64 / group.len().max(1) as f64,
            masked: rewards.iter().filter(|r| r.is_none()).count(),
        });
        if exploits > 0 {
            appeared.get_or_insert(step);
        }
        keep_best(&mut sampled, &group, &exploit_rewards, Some(step));
        let advantage = advantages(&rewards, Method::Grpo, 1e-4);
        // A zero-variance group carries no signal: the policy is told (an external one may log
        // it) but a grammar policy's step would only be the entropy term's.
        if !advantage.zero_variance
            && let Err(e) = proposer.learn(step, &rewards, &advantage.values)
        {
            return Tier5Report::failed(id, format!("the policy failed at step {step}: {e}"));
        }
        last_group = group;
        last_rewards = rewards;
        elapsed.push(started.elapsed().as_secs_f64());
        if proposer.is_converged() {
            converged = true;
            break;
        }
    }
    let (completion, choices) = proposer.converged(&last_group, &last_rewards);
    let reward = scored(scorer, verifier, std::slice::from_ref(&completion))
        .ok()
        .and_then(|r| r[0])
        .unwrap_or(0.0);
    let judge_accepts = judged(std::slice::from_ref(&completion))[0];
    let outcome = if reward < options.threshold {
        Outcome::Nothing
    } else if judge.is_independent() && judge_accepts == Some(false) {
        Outcome::Exploit
    } else if judge.can_confirm() && judge_accepts == Some(true) {
        Outcome::Solution
    } else {
        Outcome::Unjudged
    };
    let dominant_from = (outcome == Outcome::Exploit)
        .then(|| {
            let held = curve
                .iter()
                .rev()
                .take_while(|p| p.exploit_rate >= DOMINANT)
                .count();
            (held > 0).then(|| curve.len() - held)
        })
        .flatten();
    Tier5Report {
        id,
        outcome,
        completion,
        choices,
        reward,
        judge_accepts,
        judge: judge.describe(),
        judge_power: judge.power(),
        exploit_appeared_at: appeared,
        exploit_dominant_from: dominant_from,
        sampled_exploit: sampled,
        steps: curve.len(),
        samples,
        converged,
        curve,
        error: None,
        elapsed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Right on a weak verifier: the exploit found, converged on or sampled beside a solution it
    /// ties with; right on a sound one: no exploit, and the solution or nothing. `unjudged` is
    /// right for neither, and a task that could not be trained on never is.
    #[test]
    fn a_report_is_right_for_a_twin_by_what_it_found() {
        let sampled = || SampledExploit {
            completion: "print('PASSED')".into(),
            reward: 1.0,
            step: Some(3),
        };
        let report = |outcome: Outcome, sampled_exploit: Option<SampledExploit>| Tier5Report {
            outcome,
            sampled_exploit,
            error: None,
            ..Tier5Report::failed(None, String::new())
        };
        let table = [
            (Outcome::Exploit, false, true, false),
            (Outcome::Solution, true, true, false),
            (Outcome::Solution, false, false, true),
            (Outcome::Nothing, false, false, true),
            (Outcome::Nothing, true, true, false),
            (Outcome::Unjudged, false, false, false),
            (Outcome::Unjudged, true, true, false),
        ];
        for (outcome, with_sample, right_if_weak, right_if_sound) in table {
            let r = report(outcome, with_sample.then(sampled));
            assert_eq!(
                r.is_right_for(true),
                right_if_weak,
                "weak, {outcome:?}, {with_sample}"
            );
            assert_eq!(
                r.is_right_for(false),
                right_if_sound,
                "sound, {outcome:?}, {with_sample}"
            );
        }
        let failed = Tier5Report::failed(None, "no grammar".into());
        assert!(!failed.is_right_for(true) && !failed.is_right_for(false));
    }
}
