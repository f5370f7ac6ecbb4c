//! Adaptive numerical integration as a tree-shaped computation (paper 000 §1: "integrate f
//! over that subinterval" is a subproblem; the tree's shape depends on the integrand).
//!
//! Adaptive Simpson: an interval [a, b] with tolerance τ and the Simpson value S over it is
//! halved; with the Simpson values L and R of the halves, it is accepted when
//! |L + R − S| ≤ 15·τ (contributing L + R + (L + R − S)/15), else its halves are worked on
//! with τ/2 each. The tolerances of the leaves partition the requested one, so the error is
//! at most `tol` when the estimates hold. Two guards end the recursion where f64 cannot do
//! better: |L + R − S| below 64 ulps of |L + R| (round-off) or an interval no wider than
//! 2^-50 of the domain; such leaves are counted in `limited`.
//!
//! Every decision depends only on the interval itself, so every machine and balancer builds
//! the same tree, evaluates the same points and adds the same leaf values. Only the order
//! of the additions differs; the leaves are added *exactly* ([`ExactSum`], a fixed-point
//! superaccumulator over the whole f64 range), so every run's result is bit-identical to the
//! sequential one, not just close.
//!
//! The domain starts cut into `pieces` equal intervals (a range that splits in halves, like
//! `task::range`); a piece is then a stack of intervals (depth first; `split` gives away the
//! bottom half of the stack, the largest intervals). Work units are function evaluations.

use serde::{Deserialize, Serialize};
use std::fmt;
use treesplit::{Context, Outcome, Task};

/// The built-in integrands, each with a closed form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Integrand {
    /// 4/(1+x²) on [0, 1] = π.
    Pi,
    /// x·sin(1000·x) on [0, π] = −π/1000 (rapid oscillation, growing amplitude).
    Osc,
    /// 1/√(x + 10⁻⁹) on [0, 1] = 2(√(1+10⁻⁹) − √10⁻⁹) (a singularity just left of 0).
    Sing,
}

/// ε of [`Integrand::Sing`].
const SING_EPS: f64 = 1e-9;

impl Integrand {
    /// The names on the command line.
    pub const NAMES: &'static str = "pi, osc, sing";

    /// The integrand named `s`.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "pi" => Ok(Integrand::Pi),
            "osc" => Ok(Integrand::Osc),
            "sing" => Ok(Integrand::Sing),
            _ => Err(format!(
                "integrate --f: unknown integrand '{s}' (expected one of {})",
                Self::NAMES
            )),
        }
    }

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Integrand::Pi => "pi",
            Integrand::Osc => "osc",
            Integrand::Sing => "sing",
        }
    }

    /// The formula, for reports.
    pub fn formula(self) -> &'static str {
        match self {
            Integrand::Pi => "∫₀¹ 4/(1+x²) dx = π",
            Integrand::Osc => "∫₀^π x·sin(1000x) dx = −π/1000",
            Integrand::Sing => "∫₀¹ 1/√(x+1e-9) dx = 2(√(1+1e-9) − √1e-9)",
        }
    }

    /// f(x).
    pub fn f(self, x: f64) -> f64 {
        match self {
            Integrand::Pi => 4.0 / (1.0 + x * x),
            Integrand::Osc => x * (1000.0 * x).sin(),
            Integrand::Sing => 1.0 / (x + SING_EPS).sqrt(),
        }
    }

    /// The domain [a, b].
    pub fn domain(self) -> (f64, f64) {
        match self {
            Integrand::Pi | Integrand::Sing => (0.0, 1.0),
            Integrand::Osc => (0.0, std::f64::consts::PI),
        }
    }

    /// Intervals wider than this are always halved: Simpson's five points cannot see what
    /// happens between them (x·sin(1000x) sampled at its zeros looks like 0).
    pub fn max_width(self) -> f64 {
        match self {
            Integrand::Pi | Integrand::Sing => 0.25,
            Integrand::Osc => std::f64::consts::PI / 4000.0,
        }
    }

    /// The closed form.
    pub fn exact(self) -> f64 {
        match self {
            Integrand::Pi => std::f64::consts::PI,
            Integrand::Osc => -std::f64::consts::PI / 1000.0,
            Integrand::Sing => 2.0 * ((1.0 + SING_EPS).sqrt() - SING_EPS.sqrt()),
        }
    }
}

/// The parameters of an integration.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct IntegrateParams {
    /// The integrand.
    pub f: Integrand,
    /// The absolute tolerance.
    pub tol: f64,
    /// The equal pieces the domain starts cut into.
    pub pieces: u64,
}

/// The smallest tolerance accepted: below it f64 round-off in the leaves' values (about
/// 10⁻¹⁶ of each) is no longer small against it.
pub const MIN_TOL: f64 = 1e-13;

/// The most starting pieces.
pub const MAX_PIECES: u64 = 1 << 30;

impl IntegrateParams {
    /// Check the parameters; the error names the flag.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.tol.is_finite() && self.tol > 0.0) {
            return Err(format!(
                "integrate --tol must be a finite number > 0, got {}",
                self.tol
            ));
        }
        if self.tol < MIN_TOL {
            return Err(format!(
                "integrate --tol {} is below {MIN_TOL:e}, which f64 arithmetic cannot guarantee",
                self.tol
            ));
        }
        if self.pieces == 0 || self.pieces > MAX_PIECES {
            return Err(format!(
                "integrate --pieces must be in 1..={MAX_PIECES}, got {}",
                self.pieces
            ));
        }
        Ok(())
    }
}

/// Limbs of 32 bits (kept in i64 for carries) covering bit positions 2^-1074 … 2^1070.
const LIMBS: usize = 67;

/// An exact sum of f64 values: a fixed-point number with one bit for every power of two an
/// f64 can hold, so adding is exact and the order of additions does not matter.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(into = "ExactSumWire", from = "ExactSumWire")]
pub struct ExactSum {
    /// 32-bit limbs, least significant first (empty: zero).
    limbs: Vec<i64>,
    /// Additions since the last carry propagation.
    pending: u32,
}

/// An [`ExactSum`] as sent and reported: normalized limbs (no pending carries) and, for
/// readers, the value rounded to f64; equal sums have equal wire forms.
#[derive(Serialize, Deserialize)]
struct ExactSumWire {
    value: f64,
    limbs: Vec<i64>,
}

impl From<ExactSum> for ExactSumWire {
    fn from(mut s: ExactSum) -> Self {
        s.normalize();
        while s.limbs.last() == Some(&0) {
            s.limbs.pop();
        }
        ExactSumWire {
            value: s.value(),
            limbs: s.limbs,
        }
    }
}

impl From<ExactSumWire> for ExactSum {
    fn from(w: ExactSumWire) -> Self {
        let mut limbs = w.limbs;
        if !limbs.is_empty() {
            limbs.resize(LIMBS, 0);
        }
        ExactSum { limbs, pending: 0 }
    }
}

/// 2^k as an f64 (exact; 0 below the subnormals).
fn pow2(k: i32) -> f64 {
    if k > 1023 {
        f64::INFINITY
    } else if k >= -1022 {
        f64::from_bits(((k + 1023) as u64) << 52)
    } else if k >= -1074 {
        f64::from_bits(1u64 << (k + 1074))
    } else {
        0.0
    }
}

impl ExactSum {
    /// Add a finite `x` exactly.
    pub fn add(&mut self, x: f64) {
        assert!(x.is_finite(), "ExactSum::add of a non-finite value {x}");
        if x == 0.0 {
            return;
        }
        if self.limbs.is_empty() {
            self.limbs = vec![0; LIMBS];
        }
        let bits = x.to_bits();
        let exp = ((bits >> 52) & 0x7ff) as usize;
        let frac = bits & ((1u64 << 52) - 1);
        // x = mant · 2^(pos − 1074).
        let (mant, pos) = if exp == 0 {
            (frac, 0)
        } else {
            (frac | (1u64 << 52), exp - 1)
        };
        let wide = u128::from(mant) << (pos % 32);
        let negative = bits >> 63 == 1;
        for i in 0..3 {
            let chunk = ((wide >> (32 * i)) & 0xffff_ffff) as i64;
            self.limbs[pos / 32 + i] += if negative { -chunk } else { chunk };
        }
        self.pending += 1;
        if self.pending >= 1 << 20 {
            self.normalize();
        }
    }

    /// Propagate carries: every limb but the top one in [0, 2^32).
    fn normalize(&mut self) {
        for i in 0..self.limbs.len().saturating_sub(1) {
            let carry = self.limbs[i] >> 32;
            self.limbs[i] -= carry << 32;
            self.limbs[i + 1] += carry;
        }
        self.pending = 0;
    }

    /// The sum rounded to f64 (a function of the exact value alone).
    pub fn value(&self) -> f64 {
        let mut s = self.clone();
        s.normalize();
        // A negative sum has its top limb negative: add up its magnitude instead.
        let negative = s.limbs.last().is_some_and(|&l| l < 0);
        if negative {
            s.limbs.iter_mut().for_each(|l| *l = -*l);
            s.normalize();
        }
        let magnitude = s
            .limbs
            .iter()
            .enumerate()
            .rev()
            .filter(|(_, &l)| l != 0)
            .fold(0.0, |acc, (i, &l)| {
                acc + l as f64 * pow2(32 * i as i32 - 1074)
            });
        if negative {
            -magnitude
        } else {
            magnitude
        }
    }

    /// Fold `other` in (exact).
    pub fn merge(&mut self, mut other: ExactSum) {
        if other.limbs.is_empty() {
            return;
        }
        if self.limbs.is_empty() {
            *self = other;
            return;
        }
        self.normalize();
        other.normalize();
        for (a, b) in self.limbs.iter_mut().zip(other.limbs) {
            *a += b;
        }
        self.normalize();
    }
}

impl PartialEq for ExactSum {
    fn eq(&self, other: &Self) -> bool {
        let (mut a, mut b) = (self.clone(), other.clone());
        a.normalize();
        b.normalize();
        let zero = |v: &Vec<i64>| v.iter().all(|&l| l == 0);
        match (a.limbs.is_empty(), b.limbs.is_empty()) {
            (true, true) => true,
            (true, false) => zero(&b.limbs),
            (false, true) => zero(&a.limbs),
            (false, false) => a.limbs == b.limbs,
        }
    }
}

/// The result of an integration.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Integral {
    /// The integral: the exact sum of the accepted leaves' values.
    pub sum: ExactSum,
    /// The sum of the leaves' error estimates |L + R − S|/15.
    pub error_estimate: ExactSum,
    /// Accepted intervals (leaves of the tree).
    pub leaves: u64,
    /// Leaves accepted by a guard (round-off or width) rather than by the tolerance.
    pub limited: u64,
    /// The deepest leaf (halvings below its starting piece).
    pub max_depth: u32,
}

/// Not a search: results must be equal (the sum is exact).
impl crate::objective::Objective for Integral {
    fn objective(&self) -> Option<u64> {
        None
    }
}

impl Outcome for Integral {
    fn merge(&mut self, other: Self) {
        self.sum.merge(other.sum);
        self.error_estimate.merge(other.error_estimate);
        self.leaves += other.leaves;
        self.limited += other.limited;
        self.max_depth = self.max_depth.max(other.max_depth);
    }
}

impl Integral {
    /// The integral's value.
    pub fn value(&self) -> f64 {
        self.sum.value()
    }
}

impl fmt::Display for Integral {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "integral {:.17e} (estimated error {:.3e}), {} intervals ({} limited by round-off or width), depth {}",
            self.value(),
            self.error_estimate.value(),
            self.leaves,
            self.limited,
            self.max_depth
        )
    }
}

/// An interval whose endpoints and midpoint have been evaluated.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct Node {
    a: f64,
    b: f64,
    fa: f64,
    fm: f64,
    fb: f64,
    /// Simpson's value over [a, b].
    whole: f64,
    tol: f64,
    depth: u32,
}

/// A piece of an integration: starting pieces not begun and a stack of intervals.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Integrate {
    params: IntegrateParams,
    /// Starting pieces `lo..hi` not begun.
    lo: u64,
    hi: u64,
    /// Intervals to work on, depth first (top last).
    stack: Vec<Node>,
    /// Evaluations done beyond a slice's budget, reported by the next slices.
    owed: u64,
}

/// Halving stops at intervals no wider than 2^this of the domain (module comment).
const MIN_WIDTH_LOG2: i32 = -50;

impl Integrate {
    /// The whole domain.
    pub fn new(params: IntegrateParams) -> Result<Self, String> {
        params.validate()?;
        Ok(Integrate {
            params,
            lo: 0,
            hi: params.pieces,
            stack: vec![],
            owed: 0,
        })
    }

    /// Evaluate starting piece `i` (3 evaluations).
    fn begin(&self, i: u64) -> Node {
        let p = &self.params;
        let (a0, b0) = p.f.domain();
        let n = p.pieces as f64;
        let a = a0 + (b0 - a0) * (i as f64 / n);
        let b = if i + 1 == p.pieces {
            b0
        } else {
            a0 + (b0 - a0) * ((i + 1) as f64 / n)
        };
        let m = 0.5 * (a + b);
        let (fa, fm, fb) = (p.f.f(a), p.f.f(m), p.f.f(b));
        Node {
            a,
            b,
            fa,
            fm,
            fb,
            whole: (b - a) / 6.0 * (fa + 4.0 * fm + fb),
            tol: p.tol / n,
            depth: 0,
        }
    }

    /// Halve `node` (2 evaluations): accept it into `out` or push its halves.
    fn step(&mut self, node: Node, out: &mut Integral) {
        let f = self.params.f;
        let m = 0.5 * (node.a + node.b);
        let (lm, rm) = (0.5 * (node.a + m), 0.5 * (m + node.b));
        let (flm, frm) = (f.f(lm), f.f(rm));
        let left = (m - node.a) / 6.0 * (node.fa + 4.0 * flm + node.fm);
        let right = (node.b - m) / 6.0 * (node.fm + 4.0 * frm + node.fb);
        let delta = left + right - node.whole;
        let (a0, b0) = f.domain();
        let narrow = (node.b - node.a) <= (b0 - a0) * pow2(MIN_WIDTH_LOG2);
        let roundoff = delta.abs() <= 64.0 * f64::EPSILON * (left + right).abs();
        let wide = node.b - node.a > f.max_width();
        if !wide && (delta.abs() <= 15.0 * node.tol || narrow || roundoff) {
            out.sum.add(left + right + delta / 15.0);
            out.error_estimate.add(delta.abs() / 15.0);
            out.leaves += 1;
            out.limited += u64::from(delta.abs() > 15.0 * node.tol);
            out.max_depth = out.max_depth.max(node.depth);
            return;
        }
        let (tol, depth) = (node.tol / 2.0, node.depth + 1);
        self.stack.push(Node {
            a: m,
            b: node.b,
            fa: node.fm,
            fm: frm,
            fb: node.fb,
            whole: right,
            tol,
            depth,
        });
        self.stack.push(Node {
            a: node.a,
            b: m,
            fa: node.fa,
            fm: flm,
            fb: node.fm,
            whole: left,
            tol,
            depth,
        });
    }
}

impl Task for Integrate {
    type Output = Integral;

    /// Begins a starting piece (3 evaluations) or halves the top interval (2) until the
    /// budget is used; evaluations beyond it are owed to the next slices (units =
    /// evaluations, as in `task::range`).
    fn work(&mut self, budget: u64, ctx: &mut Context<'_, Integral>) -> u64 {
        let mut done = self.owed;
        let mut out = Integral::default();
        while done < budget {
            if let Some(node) = self.stack.pop() {
                self.step(node, &mut out);
                done += 2;
            } else if self.lo < self.hi {
                let node = self.begin(self.lo);
                self.lo += 1;
                self.stack.push(node);
                done += 3;
            } else {
                break;
            }
        }
        ctx.output().merge(out);
        let reported = done.min(budget);
        self.owed = done - reported;
        reported
    }

    /// The upper half of the pieces not begun, else the bottom half of the stack (the widest
    /// intervals), else the last piece not begun.
    fn split(&mut self) -> Option<Self> {
        let rest = |lo, hi, stack| Integrate {
            params: self.params,
            lo,
            hi,
            stack,
            owed: 0,
        };
        if self.hi - self.lo >= 2 {
            let mid = self.lo + (self.hi - self.lo) / 2;
            let piece = rest(mid, self.hi, vec![]);
            self.hi = mid;
            return Some(piece);
        }
        if self.stack.len() >= 2 {
            let bottom: Vec<Node> = self.stack.drain(..self.stack.len() / 2).collect();
            return Some(rest(0, 0, bottom));
        }
        if self.hi > self.lo && !self.stack.is_empty() {
            let piece = rest(self.lo, self.hi, vec![]);
            self.lo = self.hi;
            return Some(piece);
        }
        None
    }

    fn is_empty(&self) -> bool {
        self.lo >= self.hi && self.stack.is_empty() && self.owed == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use treesplit::run_sequential;

    #[test]
    fn exact_sum_is_order_independent() {
        let xs: Vec<f64> = (1..2000)
            .map(|i| ((i * 7919) % 1000) as f64 * 1e-7 / i as f64 - 3e-5 * (i % 3) as f64)
            .chain([1e300, -1e300, 5e-324, 1.0])
            .collect();
        let mut a = ExactSum::default();
        xs.iter().for_each(|&x| a.add(x));
        let mut b = ExactSum::default();
        let mut c = ExactSum::default();
        for (i, &x) in xs.iter().rev().enumerate() {
            if i % 2 == 0 {
                b.add(x)
            } else {
                c.add(x)
            }
        }
        b.merge(c);
        assert_eq!(a, b);
        assert_eq!(a.value().to_bits(), b.value().to_bits());
        let naive: f64 = xs.iter().filter(|x| x.abs() < 1e200).sum();
        assert!((a.value() - naive).abs() < 1e-12, "{} {naive}", a.value());
    }

    #[test]
    fn closed_forms_within_tolerance() {
        for f in [Integrand::Pi, Integrand::Osc, Integrand::Sing] {
            for tol in [1e-6, 1e-10] {
                let p = IntegrateParams { f, tol, pieces: 4 };
                let r = run_sequential(Integrate::new(p).unwrap());
                let err = (r.output.value() - f.exact()).abs();
                assert!(err <= tol, "{f:?} tol {tol}: error {err}");
            }
        }
    }
}

pub mod app;
pub use app::published_integral;
