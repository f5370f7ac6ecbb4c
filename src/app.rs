//! From command-line arguments to an application instance, and its published answer.

use crate::args::{AppArgs, SplitRuleArg};
use treesplit_apps::synthetic::{SplitRule, SyntheticParams};
use treesplit_apps::uts::UtsParams;
pub use treesplit_apps::AppSpec as App;

/// Solutions of N-Queens for n = 1..=20 (OEIS A000170).
pub const NQUEENS_SOLUTIONS: [u64; 20] = [
    1,
    0,
    0,
    2,
    10,
    4,
    40,
    92,
    352,
    724,
    2_680,
    14_200,
    73_712,
    365_596,
    2_279_184,
    14_772_512,
    95_815_104,
    666_090_624,
    4_968_057_848,
    39_029_188_884,
];

/// A published answer and whether the run reproduced it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Published {
    pub source: String,
    pub value: String,
    pub matches: bool,
}

/// The application instance the arguments name (checked).
pub fn from_args(args: &AppArgs) -> Result<App, String> {
    match args {
        AppArgs::Nqueens { n } => {
            treesplit_apps::NQueens::new(*n)?;
            Ok(App::NQueens(*n))
        }
        AppArgs::Uts {
            tree,
            t,
            a,
            d,
            b,
            q,
            m,
            r,
            f,
        } => {
            let mut flags: Vec<String> = tree.iter().cloned().collect();
            for (flag, value) in [
                ("-t", t),
                ("-a", a),
                ("-d", d),
                ("-b", b),
                ("-q", q),
                ("-m", m),
                ("-r", r),
                ("-f", f),
            ] {
                if let Some(v) = value {
                    flags.push(flag.to_string());
                    flags.push(v.clone());
                }
            }
            Ok(App::Uts(UtsParams::parse(&flags)?))
        }
        AppArgs::Synthetic {
            work,
            alpha,
            atomic,
            split,
            spin,
            tree_seed,
        } => {
            let params = SyntheticParams {
                work: *work,
                alpha: *alpha,
                atomic: *atomic,
                rule: match split {
                    SplitRuleArg::Random => SplitRule::Random,
                    SplitRuleArg::Adversarial => SplitRule::Adversarial,
                },
                spin: *spin,
                seed: *tree_seed,
            };
            params.validate()?;
            Ok(App::Synthetic(params))
        }
    }
}

pub fn published_nqueens(n: u32, solutions: u64) -> Option<Published> {
    let expected = *NQUEENS_SOLUTIONS.get(n.checked_sub(1)? as usize)?;
    Some(Published {
        source: "OEIS A000170".into(),
        value: expected.to_string(),
        matches: expected == solutions,
    })
}

pub fn published_uts(p: &UtsParams, nodes: u64) -> Option<Published> {
    let (name, expected) = p.published_nodes()?;
    Some(Published {
        source: format!("UTS published node count of {name}"),
        value: format!("{expected} nodes"),
        matches: expected == nodes,
    })
}

pub fn published_synthetic(p: &SyntheticParams, units: u64) -> Option<Published> {
    Some(Published {
        source: "known total work".into(),
        value: format!("{} units", p.work),
        matches: units == p.work,
    })
}
