//! A plan of asserts (see `guests/python/rb_plan.py`): the calls a HumanEval-style check or an
//! MBPP-style list makes of the entry point, on literals, and what each result must be. Read once
//! per task by a trusted CPython instance; run by the host itself ([`crate::host::planned_asserts`]).

use rewardbox_python_values::Value;
use serde::Deserialize;
use std::collections::HashMap;

/// How the checking sandbox shows an exception of a built-in type the candidate raised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Shown {
    /// `str()` is the message.
    Message,
    /// `str()` is the message's repr (`KeyError`).
    Repr,
    /// The type cannot be made from a message: `Type: message`.
    Named,
}

/// The arguments of one call of the entry point, as value JSON.
#[derive(Debug, Clone, Deserialize)]
pub struct CallArgs {
    /// A value JSON list.
    pub args: String,
    /// A value JSON dict.
    pub kwargs: String,
}

/// A comparison's operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum Op {
    /// `==`.
    #[serde(rename = "==")]
    Eq,
    /// `!=`.
    #[serde(rename = "!=")]
    NotEq,
    /// `is` (against `None`, `True` or `False`).
    #[serde(rename = "is")]
    Is,
    /// `is not`.
    #[serde(rename = "is not")]
    IsNot,
}

/// What one planned assert asks of the call's result.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Test {
    /// `call <op> literal` (or `literal <op> call`).
    Compare {
        /// The operator.
        op: Op,
        /// Whether the call is the left side.
        call_left: bool,
        /// The literal (value JSON in the plan).
        #[serde(deserialize_with = "value_json")]
        value: Value,
        /// Its repr, as the checking sandbox shows it.
        repr: String,
        /// A call a failing assert makes again for its message.
        again: Option<CallArgs>,
    },
    /// `assert call` (or `assert not call`).
    Truth {
        /// Whether it is `assert not`.
        negate: bool,
        /// `str()` of the assert's message, when it has one.
        message: Option<String>,
    },
}

/// One call and its assert, in the order the check makes them.
#[derive(Debug, Clone, Deserialize)]
pub struct Step {
    /// The case (the assert) it belongs to.
    pub case: usize,
    /// The call (`args` and `kwargs` beside `case` in the plan).
    #[serde(flatten)]
    pub call: CallArgs,
    /// What its result must be.
    pub test: Test,
}

/// A task's asserts, planned.
#[derive(Debug, Clone, Deserialize)]
pub struct AssertsPlan {
    /// Each case's line (0 in a list) and source text, in order.
    pub cases: Vec<(u32, String)>,
    /// The calls, in order.
    pub steps: Vec<Step>,
    /// Why every call fails when the program lacks the entry point.
    pub missing: String,
    /// How each built-in exception type shows its message.
    pub raised: HashMap<String, Shown>,
}

/// A literal of the plan, read from its value JSON.
fn value_json<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
    let text = String::deserialize(deserializer)?;
    rewardbox_python_values::parse(&text)
        .map_err(|e| serde::de::Error::custom(format!("a literal the host cannot read: {}", e.0)))
}

impl AssertsPlan {
    /// The plan `json` holds, or why it cannot be used (the asserts then run live).
    pub fn from_json(json: &str) -> Result<AssertsPlan, String> {
        let plan: AssertsPlan =
            serde_json::from_str(json).map_err(|e| format!("a malformed plan: {e}"))?;
        let mut covered = vec![false; plan.cases.len()];
        for step in &plan.steps {
            *covered
                .get_mut(step.case)
                .ok_or_else(|| format!("a step of case {} beyond the cases", step.case))? = true;
        }
        if covered.contains(&false) {
            return Err("a case no step tests".into());
        }
        Ok(plan)
    }

    /// About how many bytes it holds.
    pub fn bytes(&self) -> usize {
        let cases: usize = self.cases.iter().map(|(_, t)| t.len() + 16).sum();
        let steps: usize = self
            .steps
            .iter()
            .map(|s| s.call.args.len() + s.call.kwargs.len() + 128)
            .sum();
        cases + steps + self.raised.len() * 32 + 64
    }
}
