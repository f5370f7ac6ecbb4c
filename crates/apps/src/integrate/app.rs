//! The command line's face of adaptive integration: its subcommand's arguments, how they
//! become an instance, and what the instance tells the commands (its task, checked against the
//! integral's closed form).

use super::{Integrand, Integrate, IntegrateParams};
use crate::app::{AppError, RunOption};
use crate::instance::Instance;
use crate::params::{Param, Type, Values};
use crate::spec::{AppVisitor, Published};

/// `treesplit run integrate [--f F] [--tol T] [--pieces N]`.
pub struct App;

/// The integrand, the tolerance and the first cut.
const PARAMS: &[Param] = &[
    Param::long("f", Type::Text, "The integrand: pi, osc or sing").default("pi"),
    Param::long("tol", Type::F64, "The absolute tolerance (≥ 1e-13)")
        .default("0.0000000001")
        .negative(),
    Param::long(
        "pieces",
        Type::U64,
        "The equal pieces the domain starts cut into",
    )
    .default("64"),
];

impl crate::app::App for App {
    fn name(&self) -> &'static str {
        "integrate"
    }

    fn about(&self) -> &'static str {
        "Adaptive Simpson integration of a built-in integrand with a closed form: pi (4/(1+x²) on [0,1]), osc (x·sin(1000x) on [0,π]), sing (1/√(x+1e-9) on [0,1])"
    }

    fn params(&self) -> &'static [Param] {
        PARAMS
    }

    fn example(&self) -> &'static [&'static str] {
        &["--f", "osc", "--tol", "1e-8"]
    }
}

impl crate::app::Parse for App {
    type Instance = IntegrateParams;

    fn parse(
        &self,
        values: &Values,
        _given: &dyn Fn(RunOption) -> bool,
    ) -> Result<Self::Instance, AppError> {
        let f: String = values.value("f")?;
        let params = IntegrateParams {
            f: Integrand::parse(&f).map_err(AppError::BadInput)?,
            tol: values.value("tol")?,
            pieces: values.value("pieces")?,
        };
        params.validate().map_err(AppError::BadInput)?;
        Ok(params)
    }
}

/// The closed form of an integral, against the value computed: within the tolerance.
pub fn published_integral(p: &IntegrateParams, value: f64) -> Option<Published> {
    let exact = p.f.exact();
    Some(Published {
        source: format!("closed form {}, within --tol {:e}", p.f.formula(), p.tol),
        value: format!("{exact:.17e}"),
        matches: (value - exact).abs() <= p.tol,
    })
}

impl Instance for IntegrateParams {
    fn visit<V: AppVisitor>(&self, visitor: V) -> V::Out {
        let p = *self;
        visitor.visit(
            move || Integrate::new(p).expect("validated integration parameters"),
            move |r| published_integral(&p, r.value()),
        )
    }

    fn cli_args(&self) -> String {
        format!(
            "integrate --f {} --tol {:e} --pieces {}",
            self.f.name(),
            self.tol,
            self.pieces
        )
    }

    /// ~10-20 ns per evaluation.
    fn default_delta_t(&self) -> u64 {
        1024
    }
}
