//! A seeded random source (PCG-XSH-RR 64/32): the same seed, the same training run, on any machine.

/// PCG32.
#[derive(Debug, Clone)]
pub struct Rng {
    state: u64,
    increment: u64,
}

impl Rng {
    /// A source seeded with `seed` (and `stream`, to give tasks independent sequences).
    pub fn new(seed: u64, stream: u64) -> Rng {
        let mut rng = Rng {
            state: 0,
            increment: (stream << 1) | 1,
        };
        rng.next_u32();
        rng.state = rng.state.wrapping_add(seed);
        rng.next_u32();
        rng
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.state = old
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(self.increment);
        let shifted = (((old >> 18) ^ old) >> 27) as u32;
        let rotation = (old >> 59) as u32;
        shifted.rotate_right(rotation)
    }

    /// A uniform float in [0, 1).
    pub fn unit(&mut self) -> f64 {
        f64::from(self.next_u32()) / 4_294_967_296.0
    }

    /// An index drawn from `weights` (non-negative, not all zero), in proportion.
    pub fn pick(&mut self, weights: &[f64]) -> usize {
        let total: f64 = weights.iter().sum();
        let mut target = self.unit() * total;
        for (i, w) in weights.iter().enumerate() {
            if target < *w {
                return i;
            }
            target -= w;
        }
        weights.len() - 1
    }
}

/// A stable 64-bit hash of `text` (FNV-1a): a task's stream, from its id.
pub fn stream_of(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_sequences_repeat_and_picks_follow_their_weights() {
        let (mut a, mut b) = (Rng::new(7, 1), Rng::new(7, 1));
        let xs: Vec<u32> = (0..5).map(|_| a.next_u32()).collect();
        assert_eq!(xs, (0..5).map(|_| b.next_u32()).collect::<Vec<_>>());
        assert_ne!(xs[0], Rng::new(8, 1).next_u32());
        let mut rng = Rng::new(1, 2);
        let mut counts = [0usize; 3];
        for _ in 0..30_000 {
            counts[rng.pick(&[1.0, 2.0, 0.0])] += 1;
        }
        assert_eq!(counts[2], 0);
        let ratio = counts[1] as f64 / counts[0] as f64;
        assert!((1.8..2.2).contains(&ratio), "{counts:?}");
    }
}
