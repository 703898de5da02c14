//! Group-relative advantages of one group of completions of the same prompt, computed from their
//! rewards: what GRPO-style training weights each completion's gradient by. The Python package's
//! `rewardbox.advantages` and `rewardbox audit --tier5` both use this one definition.
//!
//! A masked result (`None`: the verifier failed) is left out of the group's statistics and gets
//! advantage 0. A group whose rewards are all equal (or that has fewer than two) carries no
//! signal: every advantage is 0 and it is `zero_variance`, for a trainer to skip.

/// How the advantages are computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// `(r - mean) / (std + epsilon)`, with the sample standard deviation (n - 1), as TRL
    /// computes it.
    Grpo,
    /// `r - mean` (Dr. GRPO: no division by the standard deviation).
    DrGrpo,
    /// `r - mean of the others` (REINFORCE leave-one-out).
    Rloo,
}

impl Method {
    /// The names [`Method::parse`] reads.
    pub const NAMES: [&'static str; 3] = ["grpo", "dr_grpo", "rloo"];

    /// `grpo`, `dr_grpo` or `rloo`.
    pub fn parse(name: &str) -> Option<Method> {
        match name {
            "grpo" => Some(Method::Grpo),
            "dr_grpo" => Some(Method::DrGrpo),
            "rloo" => Some(Method::Rloo),
            _ => None,
        }
    }
}

/// A group's advantages, in the group's order.
#[derive(Debug, Clone, PartialEq)]
pub struct Advantages {
    /// One per reward; 0 for a masked one.
    pub values: Vec<f64>,
    /// The unmasked rewards are all equal, or fewer than two: no learning signal.
    pub zero_variance: bool,
    /// Which rewards were masked.
    pub masked: Vec<bool>,
}

/// The advantages of `rewards` (`None`: masked) by `method`; `epsilon` keeps GRPO's division
/// finite (TRL's default is 1e-4).
pub fn advantages(rewards: &[Option<f64>], method: Method, epsilon: f64) -> Advantages {
    let masked: Vec<bool> = rewards.iter().map(Option::is_none).collect();
    let live: Vec<f64> = rewards.iter().flatten().copied().collect();
    let n = live.len();
    let equal = live.iter().all(|&v| v == live[0]);
    if n < 2 || equal {
        return Advantages {
            values: vec![0.0; rewards.len()],
            zero_variance: true,
            masked,
        };
    }
    let total: f64 = live.iter().sum();
    let mean = total / n as f64;
    let of = |each: &dyn Fn(f64) -> f64| -> Vec<f64> {
        rewards.iter().map(|r| r.map_or(0.0, each)).collect()
    };
    let values = match method {
        Method::Grpo => {
            let var = live.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
            let std = var.sqrt();
            of(&|v| (v - mean) / (std + epsilon))
        }
        Method::DrGrpo => of(&|v| v - mean),
        Method::Rloo => of(&|v| v - (total - v) / (n - 1) as f64),
    };
    Advantages {
        values,
        zero_variance: false,
        masked,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
    }

    #[test]
    fn each_method_against_values_computed_by_hand() {
        let std = (1.0f64 / 3.0).sqrt();
        let grpo = advantages(
            &[Some(1.0), Some(0.0), Some(1.0), Some(0.0)],
            Method::Grpo,
            0.0,
        );
        assert!(close(
            &grpo.values,
            &[0.5 / std, -0.5 / std, 0.5 / std, -0.5 / std]
        ));
        assert!(!grpo.zero_variance);
        let dr = advantages(
            &[Some(1.0), Some(0.0), Some(0.0), Some(0.0)],
            Method::DrGrpo,
            0.0,
        );
        assert!(close(&dr.values, &[0.75, -0.25, -0.25, -0.25]));
        let rloo = advantages(&[Some(3.0), Some(1.0), Some(2.0)], Method::Rloo, 0.0);
        assert!(close(&rloo.values, &[1.5, -1.5, 0.0]));
    }

    #[test]
    fn masked_rewards_are_left_out_and_equal_groups_carry_nothing() {
        let a = advantages(&[Some(1.0), None, Some(0.0), None], Method::DrGrpo, 1e-4);
        assert!(close(&a.values, &[0.5, 0.0, -0.5, 0.0]));
        assert_eq!(a.masked, [false, true, false, true]);
        assert!(advantages(&[Some(1.0), None, Some(1.0)], Method::Grpo, 1e-4).zero_variance);
        assert!(advantages(&[Some(0.5)], Method::Rloo, 1e-4).zero_variance);
        assert!(advantages(&[None, None], Method::Grpo, 1e-4).zero_variance);
        assert_eq!(Method::parse("ppo"), None);
    }
}
