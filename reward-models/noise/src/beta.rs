//! The beta-distribution functions the Jeffreys and Clopper-Pearson intervals need, from
//! `statrs`; the tests pin them against values computed to 40 digits with mpmath.

use statrs::distribution::{Beta, ContinuousCDF as _};

/// The regularised incomplete beta function I_x(a, b), for a, b > 0.
#[cfg(test)]
pub(crate) fn regularized_incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    statrs::function::beta::beta_reg(a, b, x.clamp(0.0, 1.0))
}

/// The p-quantile of Beta(a, b), for a, b > 0 and p in [0, 1]; NaN for other parameters.
pub(crate) fn beta_quantile(p: f64, a: f64, b: f64) -> f64 {
    match Beta::new(a, b) {
        Ok(beta) => beta.inverse_cdf(p.clamp(0.0, 1.0)),
        Err(_) => f64::NAN,
    }
}

#[cfg(test)]
mod tests {
    use statrs::function::gamma::ln_gamma;

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
