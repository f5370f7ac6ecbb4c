//! The command line's face of synthetic α-splitting trees: its subcommand's arguments, how
//! they become an instance, and what the instance tells the commands (its task, its known total
//! work, its peers, its spin in the simulator).

use super::{sum_of_units, SplitRule, Synthetic, SyntheticParams, SyntheticSum};
use crate::app::{AppError, RunOption};
use crate::instance::{Instance, PeerVisitor};
use crate::params::{Param, Type, Values};
use crate::peers::{chili, Peers, EVERY_NODE};
use crate::spec::{AppVisitor, Published};
use rayon::prelude::*;

/// `treesplit run synthetic [--work W] [--alpha A] …`.
pub struct App;

/// The tree's size, splitting quality, split rule, unit cost and seed.
const PARAMS: &[Param] = &[
    Param::long("work", Type::U64, "Total work units").default("10000000"),
    Param::long("alpha", Type::F64, "Splitting quality α ∈ (0, 0.5]").default("0.3"),
    Param::long("atomic", Type::U64, "Pieces of at most this many units are atomic").default("1"),
    Param::long("split", Type::Choice(SplitRule::CHOICES), "How split fractions are chosen").default("random"),
    Param::long("spin", Type::U32, "Mixer rounds per unit (CPU cost of a unit). Default 16; 1 in the simulator (`treesplit sim`), where time is virtual and spinning only costs real time").default("16"),
    Param::long("tree-seed", Type::U64, "Seed of the tree (split fractions, unit values); independent of --seed").default("0"),
];

impl crate::app::App for App {
    fn name(&self) -> &'static str {
        "synthetic"
    }

    fn about(&self) -> &'static str {
        "A synthetic α-splitting tree with known total work (paper 004 §3)"
    }

    fn params(&self) -> &'static [Param] {
        PARAMS
    }

    fn example(&self) -> &'static [&'static str] {
        &["--work", "100000", "--alpha", "0.25", "--tree-seed", "3"]
    }
}

impl crate::app::Parse for App {
    type Instance = SyntheticParams;

    fn parse(
        &self,
        values: &Values,
        _given: &dyn Fn(RunOption) -> bool,
    ) -> Result<Self::Instance, AppError> {
        let params = SyntheticParams {
            work: values.value("work")?,
            alpha: values.value("alpha")?,
            atomic: values.value("atomic")?,
            rule: values.value("split")?,
            spin: values.value("spin")?,
            seed: values.value("tree-seed")?,
        };
        params.validate().map_err(AppError::BadInput)?;
        Ok(params)
    }
}

/// The known total work of a synthetic tree, against the units done.
pub fn published_synthetic(p: &SyntheticParams, units: u64) -> Option<Published> {
    Some(Published {
        source: "known total work".into(),
        value: format!("{} units", p.work),
        matches: units == p.work,
    })
}

impl Instance for SyntheticParams {
    fn visit<V: AppVisitor>(&self, visitor: V) -> V::Out {
        let p = *self;
        visitor.visit(
            move || Synthetic::new(p).expect("validated synthetic parameters"),
            move |s| published_synthetic(&p, s.units),
        )
    }

    fn cli_args(&self) -> String {
        format!(
            "synthetic --work {} --alpha {} --atomic {} --split {} --spin {} --tree-seed {}",
            self.work,
            self.alpha,
            self.atomic,
            self.rule.name(),
            self.spin,
            self.seed
        )
    }

    /// ~1.5 ns per mixer round.
    fn default_delta_t(&self) -> u64 {
        (8192 / u64::from(self.spin.max(1))).max(16)
    }

    /// Time is virtual: the tree spins once per unit unless the user set `--spin`.
    fn for_simulator(&mut self, spin_given: bool) {
        if !spin_given {
            self.spin = 1;
        }
    }

    fn visit_peer<V: PeerVisitor>(&self, visitor: V) -> Option<V::Out> {
        let p = *self;
        Some(visitor.visit(
            move || Synthetic::new(p).expect("validated synthetic parameters"),
            SyntheticPeers(p),
        ))
    }
}

/// The synthetic computation's peers: a loop over the unit indices, and rayon's parallel
/// iterator over them (which splits adaptively: it has no cut-off); no chili peer.
struct SyntheticPeers(SyntheticParams);

impl Peers for SyntheticPeers {
    type Output = SyntheticSum;

    fn sequential(&self) -> SyntheticSum {
        let p = &self.0;
        SyntheticSum {
            units: p.work,
            checksum: sum_of_units(0, p.work, p.seed, p.spin),
        }
    }

    fn rayon(&self, _cut: u32) -> SyntheticSum {
        rayon_peer(&self.0)
    }

    fn chili(&self, _scope: &mut chili::Scope<'_>, _cut: u32) -> Option<SyntheticSum> {
        None
    }

    fn cuts(&self) -> Vec<u32> {
        vec![EVERY_NODE]
    }
}

/// Units per item of rayon's parallel sum: each item runs the slice loop of the task
/// (`sum_of_units`, vectorized), and rayon splits the items adaptively.
const RAYON_UNITS: u64 = 1024;

/// The synthetic computation with rayon: a parallel sum over runs of unit indices.
pub fn rayon_peer(p: &SyntheticParams) -> SyntheticSum {
    let checksum = (0..p.work.div_ceil(RAYON_UNITS))
        .into_par_iter()
        .map(|k| {
            let lo = k * RAYON_UNITS;
            sum_of_units(
                lo,
                lo.saturating_add(RAYON_UNITS).min(p.work),
                p.seed,
                p.spin,
            )
        })
        .reduce(|| 0, u64::wrapping_add);
    SyntheticSum {
        units: p.work,
        checksum,
    }
}
