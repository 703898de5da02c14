//! The learnable distribution over completions: one categorical distribution (softmax of logits)
//! per slot of a [`Grammar`], trained by the policy gradient of GRPO with an entropy bonus.

use crate::tier5::grammar::Grammar;
use crate::tier5::rng::Rng;

/// Production logits, slot by slot.
#[derive(Debug, Clone, PartialEq)]
pub struct Policy {
    logits: Vec<Vec<f64>>,
}

fn softmax(logits: &[f64]) -> Vec<f64> {
    let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exps: Vec<f64> = logits.iter().map(|l| (l - top).exp()).collect();
    let total: f64 = exps.iter().sum();
    exps.into_iter().map(|e| e / total).collect()
}

impl Policy {
    /// The grammar's priors.
    pub fn new(grammar: &Grammar) -> Policy {
        Policy {
            logits: grammar.slots.iter().map(|s| s.prior()).collect(),
        }
    }

    /// Each slot's probabilities.
    pub fn probabilities(&self) -> Vec<Vec<f64>> {
        self.logits.iter().map(|l| softmax(l)).collect()
    }

    /// One choice per slot, drawn.
    pub fn sample(&self, rng: &mut Rng) -> Vec<usize> {
        self.probabilities().iter().map(|p| rng.pick(p)).collect()
    }

    /// The most probable choice of each slot (the first of equals).
    pub fn mode(&self) -> Vec<usize> {
        self.logits
            .iter()
            .map(|l| {
                l.iter()
                    .enumerate()
                    .fold((0, f64::NEG_INFINITY), |best, (i, &v)| {
                        if v > best.1 { (i, v) } else { best }
                    })
                    .0
            })
            .collect()
    }

    /// The least of the slots' largest probabilities: 1 when the policy writes one completion.
    pub fn confidence(&self) -> f64 {
        self.probabilities()
            .iter()
            .map(|p| p.iter().copied().fold(0.0, f64::max))
            .fold(1.0, f64::min)
    }

    /// One GRPO step: `samples` (choices) weighted by their `advantages`, averaged over the group,
    /// plus `entropy` times the gradient of each slot's entropy; a step of `learning_rate` up it.
    pub fn update(
        &mut self,
        samples: &[Vec<usize>],
        advantages: &[f64],
        learning_rate: f64,
        entropy: f64,
    ) {
        let n = samples.len().max(1) as f64;
        for (slot, logits) in self.logits.iter_mut().enumerate() {
            let p = softmax(logits);
            let mut gradient = vec![0.0; p.len()];
            for (choices, advantage) in samples.iter().zip(advantages) {
                for (k, g) in gradient.iter_mut().enumerate() {
                    let chosen = if choices[slot] == k { 1.0 } else { 0.0 };
                    *g += advantage * (chosen - p[k]) / n;
                }
            }
            // d/dθ_k of H = -Σ p log p is -p_k (log p_k + H).
            let h: f64 = -p
                .iter()
                .filter(|&&q| q > 0.0)
                .map(|q| q * q.ln())
                .sum::<f64>();
            for (k, g) in gradient.iter_mut().enumerate() {
                if p[k] > 0.0 {
                    *g -= entropy * p[k] * (p[k].ln() + h);
                }
            }
            for (l, g) in logits.iter_mut().zip(gradient) {
                *l += learning_rate * g;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(logits: Vec<Vec<f64>>) -> Policy {
        Policy { logits }
    }

    #[test]
    fn a_rewarded_choice_gains_mass_and_the_mode_follows() {
        let mut p = policy(vec![vec![0.0, 0.0, 0.0]]);
        for _ in 0..50 {
            p.update(&[vec![2], vec![0], vec![1]], &[1.0, -0.5, -0.5], 1.0, 0.0);
        }
        assert_eq!(p.mode(), vec![2]);
        assert!(p.confidence() > 0.9, "{:?}", p.probabilities());
        // With no signal the entropy term spreads the mass again.
        let mut q = policy(vec![vec![3.0, 0.0]]);
        let before = q.confidence();
        q.update(&[vec![0]], &[0.0], 1.0, 0.5);
        assert!(q.confidence() < before);
    }

    #[test]
    fn sampling_is_seeded() {
        let p = policy(vec![vec![0.0, 1.0, 2.0], vec![0.5, 0.5]]);
        let draw = |seed| {
            let mut rng = Rng::new(seed, 0);
            (0..20).map(|_| p.sample(&mut rng)).collect::<Vec<_>>()
        };
        assert_eq!(draw(3), draw(3));
        assert_ne!(draw(3), draw(4));
    }
}
