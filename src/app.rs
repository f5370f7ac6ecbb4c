//! From command-line arguments to an application instance, and its published answer.

use crate::args::{AppArgs, SplitRuleArg};
pub use treesplit_apps::spec::{AppVisitor, Published};
use treesplit_apps::synthetic::{SplitRule, SyntheticParams};
use treesplit_apps::uts::UtsParams;
pub use treesplit_apps::AppSpec as App;

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
