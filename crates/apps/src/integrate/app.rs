//! The command line's face of adaptive integration: its subcommand's arguments and how they
//! become an instance.

use super::{Integrand, IntegrateParams};

/// `treesplit run integrate [--f F] [--tol T] [--pieces N]`.
pub struct App;

/// Adaptive Simpson integration of a built-in integrand with a closed form: pi
/// (4/(1+x²) on [0,1]), osc (x·sin(1000x) on [0,π]), sing (1/√(x+1e-9) on [0,1]).
#[derive(Debug, clap::Args)]
struct Args {
    /// The integrand: pi, osc or sing.
    #[arg(long = "f", default_value = "pi")]
    f: String,
    /// The absolute tolerance (≥ 1e-13).
    #[arg(long, default_value_t = 1e-10, allow_hyphen_values = true)]
    tol: f64,
    /// The equal pieces the domain starts cut into.
    #[arg(long, default_value_t = 64)]
    pieces: u64,
}

impl crate::app::App for App {
    fn name(&self) -> &'static str {
        "integrate"
    }

    fn command(&self) -> clap::Command {
        crate::app::command::<Args>(self.name())
    }

    fn parse(
        &self,
        args: &clap::ArgMatches,
        _given: &dyn Fn(&str) -> bool,
    ) -> Result<crate::AppSpec, String> {
        let Args { f, tol, pieces } = crate::app::typed(args)?;
        let params = IntegrateParams {
            f: Integrand::parse(&f)?,
            tol,
            pieces,
        };
        params.validate()?;
        Ok(crate::AppSpec::Integrate(params))
    }
}
