//! Paper 003's predictions against values computed independently (by hand in the comments, or
//! by brute-force enumeration here), the exact finite-P η against Monte Carlo within its
//! confidence interval, Theorem 5.1's convex-order bound numerically, and the adversary
//! model's generators and bounds (paper 004 §2).

use treesplit_lab::scatter::adversary::{self, Instance, Placement};
use treesplit_lab::scatter::model::{
    self, b_alpha_p, exact_eta, gamma, poisson_pmf, Assignment, Cost, Dist, Point, Regime,
};
use treesplit_lab::scatter::montecarlo;

fn pt(alpha: f64, q: u64, pes: u64, cost: Cost) -> Point {
    Point {
        alpha,
        q,
        pes,
        cost,
        assignment: Assignment::Multiple,
    }
}

#[test]
fn gamma_solves_3_3() {
    // x = 1: γ + ln γ − γ + 1 = 0 ⇔ ln γ = −1 ⇔ γ = 1/e.
    assert!((gamma(1.0) - (-1f64).exp()).abs() < 1e-12);
    for x in [0.1, 0.5, 2.0, 10.0, 100.0] {
        let g = gamma(x);
        assert!(g > 0.0 && g < 1.0);
        assert!((g + x * (g.ln() - g + 1.0)).abs() < 1e-9, "x = {x}");
    }
    // γ(x) → 1 as x → ∞ (1 − γ ≈ √(2/x): ln γ − γ + 1 ≈ −(1−γ)²/2) and → 0 as x → 0
    // (γ ≈ x·ln(1/γ): about 0.035 at x = 0.01), increasing.
    assert!((1.0 - gamma(1e4) - (2e-4f64).sqrt()).abs() < 2e-3);
    assert!(gamma(0.01) < 0.05 && gamma(2.0) > gamma(1.0));
}

#[test]
fn b_solves_3_2() {
    // Poisson(1): pmf(4) = e⁻¹/24 = 0.01533, pmf(5) = 0.003066, pmf(6) = 0.000511.
    // P = 1000: pmf(6) ≤ 0.001 < pmf(5) → b = 5; P = 100: pmf(5) ≤ 0.01 < pmf(4) → b = 4.
    assert_eq!(b_alpha_p(1.0, 1000), Some(5));
    assert_eq!(b_alpha_p(1.0, 100), Some(4));
    // P = 2: pmf(2) = 0.18 ≤ 1/2 already: (3.2) has no solution b > α.
    assert_eq!(b_alpha_p(1.0, 2), None);
    assert!((poisson_pmf(1.0, 4) - (-1f64).exp() / 24.0).abs() < 1e-15);
}

#[test]
fn c_star_is_the_mean_cost() {
    // α = 3: E[X²] = α + α² = 12, E[X³] = α³ + 3α² + α = 57, E[X(X−1)] = α² = 9,
    // E[X(X+1)/2] = (α² + 2α)/2 = 7.5.
    for (cost, want) in [
        (Cost::Power(2), 12.0),
        (Cost::Power(3), 57.0),
        (Cost::Falling(2), 9.0),
        (Cost::Hashtable, 7.5),
    ] {
        assert!((cost.mean(3.0) - want).abs() < 1e-9, "{cost}");
        assert!(
            (Dist::cost_of_poisson(3.0, cost).mean() - want).abs() < 1e-9,
            "{cost}"
        );
    }
}

/// E[max of P copies] by brute force over a finite law (P = 2 or 3).
fn brute_max(values: &[(f64, f64)], p: u32) -> f64 {
    match p {
        2 => values
            .iter()
            .flat_map(|a| values.iter().map(move |b| a.1 * b.1 * a.0.max(b.0)))
            .sum(),
        3 => values
            .iter()
            .flat_map(|a| {
                values.iter().flat_map(move |b| {
                    values
                        .iter()
                        .map(move |c| a.1 * b.1 * c.1 * a.0.max(b.0).max(c.0))
                })
            })
            .sum(),
        _ => unreachable!(),
    }
}

#[test]
fn exact_single_assignment_matches_enumeration() {
    for (alpha, cost) in [
        (1.0, Cost::Power(1)),
        (2.5, Cost::Power(2)),
        (0.7, Cost::Hashtable),
    ] {
        let law: Vec<(f64, f64)> = (0..40)
            .map(|n| (cost.eval(n) as f64, poisson_pmf(alpha, n)))
            .collect();
        for p in [2u32, 3] {
            let want = cost.mean(alpha) / brute_max(&law, p);
            let got = exact_eta(&pt(alpha, 1, u64::from(p), cost)).unwrap();
            assert!(
                (got - want).abs() < 1e-10,
                "{cost} α={alpha} P={p}: {got} vs {want}"
            );
        }
    }
}

#[test]
fn exact_multiple_assignment_matches_enumeration() {
    // q = 3 subproblems, c = X²: the law of X₁²+X₂²+X₃² by triple enumeration.
    let alpha = 0.8;
    let mut law = std::collections::BTreeMap::<u64, f64>::new();
    for a in 0..20u64 {
        for b in 0..20u64 {
            for c in 0..20u64 {
                *law.entry(a * a + b * b + c * c).or_default() +=
                    poisson_pmf(alpha, a) * poisson_pmf(alpha, b) * poisson_pmf(alpha, c);
            }
        }
    }
    let law: Vec<(f64, f64)> = law.into_iter().map(|(v, p)| (v as f64, p)).collect();
    let want = 3.0 * Cost::Power(2).mean(alpha) / brute_max(&law, 2);
    let got = exact_eta(&pt(alpha, 3, 2, Cost::Power(2))).unwrap();
    assert!((got - want).abs() < 1e-9, "{got} vs {want}");
    // d = 1: the q-fold convolution equals the Poisson(qα) law the exact η uses.
    let f = Dist::cost_of_poisson(1.3, Cost::Power(1));
    let conv = model::sum_of_copies(&f, 7).unwrap().expected_max(50);
    let direct = Dist::cost_of_poisson(7.0 * 1.3, Cost::Power(1)).expected_max(50);
    assert!((conv - direct).abs() < 1e-8 * direct, "{conv} vs {direct}");
}

#[test]
fn compound_poisson_has_the_right_moments() {
    // Σ_{j<N} c(Xⱼ), N ~ Poisson(λ): mean λ·E[c(X)]; P = 1: E[max] is the mean.
    let f = Dist::cost_of_poisson(1.5, Cost::Power(2));
    let g = model::compound_poisson(&f, 40.0).unwrap();
    let want = 40.0 * Cost::Power(2).mean(1.5);
    assert!((g.mean() - want).abs() < 1e-8 * want);
    assert!((g.expected_max(1) - want).abs() < 1e-8 * want);
}

#[test]
fn theorem_5_1_convex_order_bounds_the_maximum() {
    // q = r^d = 4 subproblems of X^(2) are dominated by one Poisson(rα) subproblem's X̃^(2):
    // E[max Σ] ≤ E[max X̃^(2)], for any P.
    for p in [2u64, 64, 4096] {
        let sum = model::sum_of_copies(&Dist::cost_of_poisson(1.0, Cost::Falling(2)), 4).unwrap();
        let single = Dist::cost_of_poisson(2.0, Cost::Falling(2));
        assert!(
            sum.expected_max(p) <= single.expected_max(p) + 1e-9,
            "P = {p}"
        );
    }
}

#[test]
fn limits_of_corollaries_3_1_and_5_2() {
    // η → 1 for q = ω(log^d P) (here q = 4096 ≫ ln²64), small for q = 1.
    assert!(exact_eta(&pt(1.0, 4096, 64, Cost::Power(1))).unwrap() > 0.9);
    assert!(exact_eta(&pt(1.0, 1, 16384, Cost::Power(2))).unwrap() < 0.05);
    // Single assignment with α = x·ln P: η approaches γ(x)^d (from above here) as P grows.
    let x = 1.0;
    let at = |p: u64| exact_eta(&pt(x * (p as f64).ln(), 1, p, Cost::Power(1))).unwrap();
    let (small, large) = (at(1 << 6), at(1 << 40));
    assert!(
        large < small && (large - gamma(x)).abs() < 0.02,
        "{small} {large} {}",
        gamma(x)
    );
    // Regimes by x = α q^{1/d} / ln P.
    assert_eq!(
        Regime::of(&pt(1.0, 1, 1024, Cost::Power(1))),
        Regime::ThetaOne
    );
    assert_eq!(
        Regime::of(&pt(1.0, 2, 1024, Cost::Power(2))),
        Regime::SmallQ
    );
    assert_eq!(Regime::of(&pt(7.0, 1, 1024, Cost::Power(1))), Regime::XLog);
    assert_eq!(
        Regime::of(&pt(1.0, 100_000, 64, Cost::Power(1))),
        Regime::OmegaLog
    );
}

#[test]
fn monte_carlo_matches_the_exact_finite_p_eta() {
    for (i, (alpha, q, p, cost, assignment)) in [
        (1.0, 1, 1024, Cost::Power(1), Assignment::Multiple),
        (1.0, 16, 256, Cost::Power(2), Assignment::Multiple),
        (20.0, 1, 1024, Cost::Power(2), Assignment::Multiple),
        (2.0, 8, 64, Cost::Hashtable, Assignment::Multiple),
        (1.0, 64, 128, Cost::Power(1), Assignment::Multiple),
    ]
    .into_iter()
    .enumerate()
    {
        let point = Point {
            alpha,
            q,
            pes: p,
            cost,
            assignment,
        };
        let est = montecarlo::estimate(p, &montecarlo::trials(&point, 2000, 11 + i as u64));
        let exact = exact_eta(&point).unwrap();
        // 1.6 × the 95 % half-width: about 3 standard errors.
        assert!(
            (est.eta - exact).abs() <= 1.6 * est.ci + 1e-3,
            "{point:?}: measured {} ± {}, exact {exact}",
            est.eta,
            est.ci
        );
        assert!(est.ci < 0.05 && est.ci > 0.0);
    }
}

#[test]
fn random_placement_is_worse_than_exactly_q() {
    let multiple = pt(1.0, 16, 256, Cost::Power(1));
    let random = Point {
        assignment: Assignment::RandomPlacement,
        ..multiple
    };
    let (m, r) = (exact_eta(&multiple).unwrap(), exact_eta(&random).unwrap());
    assert!(r < m, "{r} vs {m}");
    let est = montecarlo::estimate(256, &montecarlo::trials(&random, 2000, 3));
    // Poissonized (independent PEs) against the real multinomial: close, not equal.
    assert!((est.eta - r).abs() < 0.03, "{} vs {r}", est.eta);
}

#[test]
fn adversary_generators_and_bounds() {
    // Bin(2, ½) > 0 with probability ¾; Bin(4, ½) > 2: 5/16.
    assert!((adversary::binomial_tail(2, 0.5, 0.0) - 0.75).abs() < 1e-12);
    assert!((adversary::binomial_tail(4, 0.5, 2.0) - 5.0 / 16.0).abs() < 1e-12);
    // Lemma 1's adversary against round-robin: all 10 heavy jobs on PE 0 (10 slots there).
    let inst = Instance::adversarial(10, 40, 4);
    assert_eq!(inst.total, 10.0);
    assert_eq!(inst.max_load(4, Placement::RoundRobin, 0), 10.0);
    // A random permutation puts at most ⌈m/P⌉ jobs on a PE; heavy ones included.
    let many = Instance::adversarial(30, 40, 4);
    for s in 0..200 {
        assert!(many.max_load(4, Placement::Permutation, s) <= 10.0);
    }
    // Bounds: Theorem 2 as stated is below the Chernoff bound (it drops the ε³ term).
    // c = 8, ε = 1, P = 64: μ = 8·ln 64 = 33.3, Theorem 2: 64·e^{−μ/2} = 3.8e-6, Chernoff
    // 64·e^{−μ(2 ln 2 − 1)} = 1.7e-4.
    let b = adversary::bounds(8.0 * 64.0 * 64f64.ln(), 64, 1.0);
    assert!((b.theorem2 - 3.8e-6).abs() < 0.1e-6, "{b:?}");
    assert!((b.chernoff - 1.7e-4).abs() < 0.1e-4, "{b:?}");
    assert!(b.binomial_union <= b.chernoff);
    assert!((b.c - 8.0).abs() < 1e-12 && (b.c_14_1 - 8.0).abs() < 1e-12);
    let (lo, hi) = adversary::wilson(5, 100);
    assert!(lo < 0.05 && hi > 0.05 && lo > 0.01 && hi < 0.12);
}

#[test]
fn permutation_no_worse_than_random_mapping_and_round_robin_fails() {
    let (p, eps) = (64u64, 0.5);
    let k = (2.0 * p as f64 * (p as f64).ln()).ceil() as u64;
    let inst = Instance::adversarial(k, 4 * k.div_ceil(p) * p, p);
    let r = adversary::measure(&inst, p, eps, Placement::Random, 4000, 1);
    let pm = adversary::measure(&inst, p, eps, Placement::Permutation, 4000, 2);
    let rr = adversary::measure(&inst, p, eps, Placement::RoundRobin, 1, 3);
    assert!(pm.mean_max_over_avg <= r.mean_max_over_avg);
    assert!(pm.tail <= r.tail_ci.1);
    assert_eq!(rr.tail, 1.0);
    // Round-robin: PE 0 holds its m/P = 36 slots all heavy, against T/P = 533/64 = 8.3.
    assert!((rr.mean_max_over_avg - 36.0 / (533.0 / 64.0)).abs() < 1e-9);
}
