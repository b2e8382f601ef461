//! The beta-distribution functions the Jeffreys interval needs: log-gamma, the regularised
//! incomplete beta function and its inverse.
//!
//! Written here rather than pulled from a statistics crate because three functions are all the
//! crate needs; the tests pin them against values computed to 40 digits with mpmath.

/// Lanczos coefficients for g = 7, n = 9 (accurate to about 1e-15 for positive arguments).
const LANCZOS_G: f64 = 7.0;
const LANCZOS: [f64; 9] = [
    0.999_999_999_999_809_9,
    676.520_368_121_885_1,
    -1_259.139_216_722_402_8,
    771.323_428_777_653_1,
    -176.615_029_162_140_6,
    12.507_343_278_686_905,
    -0.138_571_095_265_720_12,
    9.984_369_578_019_572e-6,
    1.505_632_735_149_311_6e-7,
];

/// ln Γ(x) for x > 0.
pub(crate) fn ln_gamma(x: f64) -> f64 {
    if x < 0.5 {
        // Reflection keeps the Lanczos series in the range where it is accurate.
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut sum = LANCZOS[0];
    for (i, c) in LANCZOS.iter().enumerate().skip(1) {
        sum += c / (x + i as f64);
    }
    let t = x + LANCZOS_G + 0.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

/// The continued fraction for I_x(a, b), evaluated by the modified Lentz method.
fn incomplete_beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    const EPS: f64 = 1e-16;
    // Convergence takes O(sqrt(max(a, b))) terms; audit counts stay far below this bound.
    const MAX_TERMS: u32 = 100_000;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..=MAX_TERMS {
        let m = f64::from(m);
        let m2 = 2.0 * m;
        let even = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + even * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + even / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        h *= d * c;
        let odd = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + odd * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + odd / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let step = d * c;
        h *= step;
        if (step - 1.0).abs() < EPS {
            break;
        }
    }
    h
}

/// The regularised incomplete beta function I_x(a, b), the CDF of Beta(a, b) at x.
pub(crate) fn regularized_incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    let front = ln_front.exp();
    // The fraction converges fast only on this side of the mean; use the symmetry otherwise.
    if x < (a + 1.0) / (a + b + 2.0) {
        front * incomplete_beta_fraction(a, b, x) / a
    } else {
        1.0 - front * incomplete_beta_fraction(b, a, 1.0 - x) / b
    }
}

/// The p-quantile of Beta(a, b), for a, b > 0 and p in [0, 1].
///
/// Bisection rather than Newton: the CDF is monotone, so 200 halvings always converge (to the
/// last representable bit near 0, where Jeffreys lower bounds of rare events live), and the cost
/// is irrelevant next to a database round trip.
pub(crate) fn beta_quantile(p: f64, a: f64, b: f64) -> f64 {
    if p <= 0.0 {
        return 0.0;
    }
    if p >= 1.0 {
        return 1.0;
    }
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if regularized_incomplete_beta(a, b, mid) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64, rel: f64) {
        let scale = expected.abs().max(1e-300);
        assert!(((actual - expected) / scale).abs() < rel, "got {actual}, expected {expected}");
    }

    #[test]
    fn ln_gamma_matches_reference_values() {
        close(ln_gamma(0.5), 0.572_364_942_924_700_1, 1e-13);
        close(ln_gamma(100.3), 360.514_705_729_058_1, 1e-13);
        close(ln_gamma(1e-3), 6.907_178_885_383_853, 1e-12);
        close(ln_gamma(1.0).exp(), 1.0, 1e-13);
        close(ln_gamma(6.0).exp(), 120.0, 1e-12);
    }

    #[test]
    fn incomplete_beta_matches_reference_values() {
        close(regularized_incomplete_beta(2.5, 3.5, 0.3), 0.296_752_989_295_666_4, 1e-12);
        close(regularized_incomplete_beta(0.5, 0.5, 0.1), 0.204_832_764_699_133_46, 1e-12);
        close(regularized_incomplete_beta(100.0, 200.0, 0.35), 0.732_571_464_957_544_1, 1e-10);
        assert_eq!(regularized_incomplete_beta(2.0, 3.0, 0.0), 0.0);
        assert_eq!(regularized_incomplete_beta(2.0, 3.0, 1.0), 1.0);
    }

    #[test]
    fn incomplete_beta_is_symmetric() {
        for &(a, b, x) in &[(0.5, 7.5, 0.2), (3.0, 2.0, 0.9), (40.5, 1.5, 0.97)] {
            let lhs = regularized_incomplete_beta(a, b, x);
            let rhs = 1.0 - regularized_incomplete_beta(b, a, 1.0 - x);
            close(lhs, rhs, 1e-11);
        }
    }

    #[test]
    fn beta_quantiles_match_reference_values() {
        // (a, b, 2.5% quantile, 97.5% quantile), the Jeffreys posteriors of k of n.
        let cases = [
            (0.5, 10.5, 4.789_043_315_758_189_5e-5, 0.217_196_267_509_210_52),
            (3.5, 7.5, 0.092_694_593_938_153_16, 0.605_818_318_148_671_3),
            (1.5, 999.5, 1.079_188_046_809_797_9e-4, 4.664_458_808_791_372e-3),
            (50.5, 50.5, 0.403_173_950_896_418, 0.596_826_049_103_582),
            (400.5, 1600.5, 0.182_910_725_561_071_96, 0.217_956_819_028_632_2),
        ];
        for (a, b, lo, hi) in cases {
            close(beta_quantile(0.025, a, b), lo, 1e-9);
            close(beta_quantile(0.975, a, b), hi, 1e-9);
        }
    }

    #[test]
    fn beta_quantile_inverts_the_cdf() {
        for &p in &[1e-6, 0.01, 0.3, 0.5, 0.9, 0.999] {
            let x = beta_quantile(p, 2.5, 0.75);
            close(regularized_incomplete_beta(2.5, 0.75, x), p, 1e-9);
        }
        assert_eq!(beta_quantile(0.0, 2.0, 2.0), 0.0);
        assert_eq!(beta_quantile(1.0, 2.0, 2.0), 1.0);
    }
}
