//! Paper 003's single assignment at any P, however large: E[max of P i.i.d. c(X)], X ~
//! Poisson(α), by the paper's (3.4), E max = c(n₀) + Σₙ (c(n+1) − c(n))·(1 − F(n)^P), with
//! P given by its logarithm and the Poisson tail S(n) = P[X > n] kept in log space down to
//! P·P[X = n] ≈ e^−40, so that the tail the maximum of P copies reaches is kept however large
//! P is (1 − F^P = −expm1(P·ln(1 − S)), with P·ln(1 − S) = −exp(ln P + ln S) when S is tiny).
//! `model::exact_eta` keeps the law only down to 1e−40 and takes P as an integer; this is for
//! the asymptotic regimes of Corollary 3.1, where P must grow far beyond any machine before
//! the limits show.

use super::model::{ln_factorial, Cost};

/// Largest ln P accepted (the sum then runs over about ln P / ln ln P sizes for α = Θ(1)).
pub const MAX_LN_P: f64 = 1e9;

/// ln P[X = n] for X ~ Poisson(α).
fn ln_pmf(alpha: f64, n: u64) -> f64 {
    -alpha + n as f64 * alpha.ln() - ln_factorial(n)
}

/// ln(e^a + e^b).
fn ln_add(a: f64, b: f64) -> f64 {
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    if lo == f64::NEG_INFINITY {
        return hi;
    }
    hi + (lo - hi).exp().ln_1p()
}

/// 1 − (1 − S)^P from ln S and ln P.
fn above(ln_s: f64, ln_p: f64) -> f64 {
    if ln_s == f64::NEG_INFINITY {
        return 0.0;
    }
    // −ln(1 − S) > 0, as its logarithm.
    let ln_neg_log = if ln_s < -30.0 {
        ln_s
    } else {
        let s = ln_s.exp();
        if s >= 1.0 {
            return 1.0;
        }
        (-(-s).ln_1p()).ln()
    };
    -(-(ln_p + ln_neg_log).exp()).exp_m1()
}

/// E[max of P i.i.d. c(X)], X ~ Poisson(α), P = e^`ln_p` (0 ≤ ln P ≤ [`MAX_LN_P`]).
pub fn expected_max(alpha: f64, ln_p: f64, cost: Cost) -> Result<f64, String> {
    if !(alpha > 0.0 && alpha.is_finite() && (0.0..=MAX_LN_P).contains(&ln_p)) {
        return Err(format!(
            "expected_max needs α > 0 and 0 ≤ ln P ≤ {MAX_LN_P:e}, got α = {alpha}, ln P = {ln_p}"
        ));
    }
    let mode = alpha.floor() as u64;
    // Above: until P·P[X = n] < e^−40 (past the mode). Below: until P[X = n] < e^−700 or
    // n = 0 (F(n)^P is then 0 to double precision).
    let mut hi = mode + 1;
    while ln_pmf(alpha, hi) > -ln_p - 40.0 {
        hi += 1;
    }
    let mut lo = mode;
    while lo > 0 && ln_pmf(alpha, lo) > -700.0 {
        lo -= 1;
    }
    // ln S(n), summed from the top.
    let len = (hi - lo + 1) as usize;
    let mut ln_survival = vec![f64::NEG_INFINITY; len];
    let mut acc = f64::NEG_INFINITY;
    for k in (0..len).rev() {
        ln_survival[k] = acc;
        acc = ln_add(acc, ln_pmf(alpha, lo + k as u64));
    }
    let mut e = cost.eval_f(lo as f64);
    for (k, &ls) in ln_survival.iter().enumerate().take(len - 1) {
        let n = (lo + k as u64) as f64;
        e += (cost.eval_f(n + 1.0) - cost.eval_f(n)) * above(ls, ln_p);
    }
    Ok(e)
}

/// P[max of P i.i.d. X ≤ n] = F(n)^P, X ~ Poisson(α), P = e^`ln_p`.
pub fn max_cdf(alpha: f64, ln_p: f64, n: u64) -> f64 {
    // ln S(n) = ln P[X > n], summed upwards until the terms are negligible.
    let mut ln_s = f64::NEG_INFINITY;
    let mut m = n + 1;
    loop {
        let t = ln_pmf(alpha, m);
        ln_s = ln_add(ln_s, t);
        if m as f64 > alpha && t < ln_s - 40.0 {
            break;
        }
        m += 1;
    }
    1.0 - above(ln_s, ln_p)
}

/// η = c*(α) / E[max of P i.i.d. c(X)] (single assignment, q = 1), P = e^`ln_p`.
pub fn eta(alpha: f64, ln_p: f64, cost: Cost) -> Result<f64, String> {
    Ok(cost.mean(alpha) / expected_max(alpha, ln_p, cost)?)
}

/// b(α, P) of (3.2) at P = e^`ln_p`: the integer b > α with e^−α α^(b+1)/(b+1)! ≤ 1/P <
/// e^−α α^b/b! (`None` when P is too small for (3.2) to have a solution).
pub fn b_alpha_p(alpha: f64, ln_p: f64) -> Option<u64> {
    let ln_inv = -ln_p;
    let mut b = alpha.floor() as u64 + 1;
    if ln_pmf(alpha, b) <= ln_inv {
        return None;
    }
    while ln_pmf(alpha, b + 1) > ln_inv {
        b += 1;
    }
    Some(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scatter::model::{exact_eta, Assignment, Point};

    /// At integer P the log-space sum agrees with the model's exact η.
    #[test]
    fn agrees_with_the_model_at_small_p() {
        for (alpha, d, p) in [(1.0, 2, 1024u64), (4.0, 1, 65536), (0.5, 3, 16)] {
            let pt = Point {
                alpha,
                q: 1,
                pes: p,
                cost: Cost::Falling(d),
                assignment: Assignment::Multiple,
            };
            let a = exact_eta(&pt).expect("computable");
            let b = eta(alpha, (p as f64).ln(), Cost::Falling(d)).expect("in range");
            assert!(
                (a - b).abs() < 1e-9 * a,
                "α {alpha} d {d} P {p}: {a} vs {b}"
            );
        }
    }

    /// The law of the maximum: P = 1 is the Poisson CDF itself; more copies push it up.
    #[test]
    fn the_maximum_s_law() {
        let cdf2: f64 = (0..=2).map(|k| (ln_pmf(2.0, k)).exp()).sum();
        assert!((max_cdf(2.0, 0.0, 2) - cdf2).abs() < 1e-12);
        let p16 = max_cdf(2.0, 16f64.ln(), 2);
        assert!(
            (p16 - cdf2.powi(16)).abs() < 1e-12,
            "{p16} vs {}",
            cdf2.powi(16)
        );
    }

    /// P = 1: the maximum of one copy is its mean.
    #[test]
    fn one_copy_is_the_mean() {
        let e = expected_max(3.0, 0.0, Cost::Power(2)).expect("in range");
        assert!((e - Cost::Power(2).mean(3.0)).abs() < 1e-9);
    }

    #[test]
    fn out_of_range_is_an_error() {
        assert!(expected_max(1.0, 2e9, Cost::Power(1)).is_err());
        assert!(expected_max(0.0, 10.0, Cost::Power(1)).is_err());
    }
}
