//! `treesplit reproduce`: the papers' measurable claims, each measured and judged.
//!
//! The catalogue ([`catalogue`]) holds one [`Experiment`] per claim: the claim as the paper
//! states it with its source, the paper's premises, the model it is judged under and whether
//! the experiment lies inside the premises, the criterion fixed in code before the run, and a
//! plain function over the library (the simulator, the scatter model, the DAG schedulers) that
//! computes the prediction, measures, and judges. `report.rs` writes the sections as markdown,
//! JSON and SVG plots. One module per paper (`p000` … `p004`). Everything is seeded: the
//! simulator's numbers are the same bit for bit on every rerun.

mod p000;
mod p001;
mod p002;
mod p003;
mod p004;
pub mod report;

use serde::Serialize;

/// How much to measure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ctx {
    /// The quick catalogue (small sizes, few seeds: about a minute on 2 cores).
    pub quick: bool,
}

impl Ctx {
    /// `quick` if quick, else `full`.
    pub fn pick<T>(&self, quick: T, full: T) -> T {
        if self.quick {
            quick
        } else {
            full
        }
    }
}

/// The judgement of a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The criterion held.
    Pass,
    /// The criterion failed (the section says why).
    Fail,
    /// The measurement cannot decide (the section says why).
    Inconclusive,
    /// The claim is a question (an exercise): the section answers it with measurements
    /// instead of a pass or a fail.
    Answer,
    /// The experiment is not written yet (a hook, not silently left out).
    NotYetMeasured,
}

impl Verdict {
    /// PASS, FAIL, INCONCLUSIVE, ANSWER or NOT YET MEASURED.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Pass => "PASS",
            Verdict::Fail => "FAIL",
            Verdict::Inconclusive => "INCONCLUSIVE",
            Verdict::Answer => "ANSWER",
            Verdict::NotYetMeasured => "NOT YET MEASURED",
        }
    }

    /// PASS when `ok`, else FAIL.
    pub fn of(ok: bool) -> Verdict {
        if ok {
            Verdict::Pass
        } else {
            Verdict::Fail
        }
    }
}

/// A table cell: a number or a text.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Cell {
    /// A number.
    Num(f64),
    /// A text.
    Text(String),
}

impl From<f64> for Cell {
    fn from(x: f64) -> Cell {
        Cell::Num(x)
    }
}
impl From<u64> for Cell {
    fn from(x: u64) -> Cell {
        Cell::Num(x as f64)
    }
}
impl From<usize> for Cell {
    fn from(x: usize) -> Cell {
        Cell::Num(x as f64)
    }
}
impl From<u32> for Cell {
    fn from(x: u32) -> Cell {
        Cell::Num(f64::from(x))
    }
}
impl From<&str> for Cell {
    fn from(x: &str) -> Cell {
        Cell::Text(x.to_string())
    }
}
impl From<String> for Cell {
    fn from(x: String) -> Cell {
        Cell::Text(x)
    }
}
impl From<bool> for Cell {
    fn from(x: bool) -> Cell {
        Cell::Text(if x { "yes" } else { "no" }.into())
    }
}

/// A table of a section.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Table {
    /// Column names.
    pub columns: Vec<String>,
    /// Rows of cells.
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    /// An empty table with these columns.
    pub fn new(columns: &[&str]) -> Table {
        Table {
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// Add a row.
    pub fn row(&mut self, cells: Vec<Cell>) {
        self.rows.push(cells);
    }
}

/// One curve of a plot: points and, where measured over seeds, 95 % half-widths.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Series {
    /// The legend.
    pub label: String,
    /// (x, y).
    pub points: Vec<(f64, f64)>,
    /// Half-widths of the 95 % confidence intervals (empty: none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ci: Vec<f64>,
    /// Draw as a line (a prediction) rather than points.
    pub line: bool,
}

impl Series {
    /// Measured points.
    pub fn points(label: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series {
            label: label.into(),
            points,
            ci: Vec::new(),
            line: false,
        }
    }
    /// A predicted curve.
    pub fn line(label: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series {
            line: true,
            ..Series::points(label, points)
        }
    }
    /// With confidence half-widths.
    pub fn with_ci(mut self, ci: Vec<f64>) -> Series {
        self.ci = ci;
        self
    }
}

/// A plot of a section (drawn to SVG by `report`).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Plot {
    /// The x axis.
    pub x: String,
    /// The y axis.
    pub y: String,
    /// Logarithmic axes.
    pub log_x: bool,
    /// Logarithmic axes.
    pub log_y: bool,
    /// The curves.
    pub series: Vec<Series>,
}

/// What an experiment found.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    /// The prediction as the code computes it.
    pub prediction: String,
    /// The measured statistic the criterion reads, in words with its value.
    pub measured: String,
    /// The table of all measurements.
    pub table: Table,
    /// The plot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plot: Option<Plot>,
    /// The judgement.
    pub verdict: Verdict,
    /// Why a claim failed or could not be decided, or a remark on what was measured.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub remark: String,
}

impl Finding {
    /// A finding for an experiment not written yet: `hook` names the function to
    /// fill in.
    pub fn not_yet(hook: &str) -> Finding {
        Finding {
            prediction: "—".into(),
            measured: "not yet measured".into(),
            table: Table::default(),
            plot: None,
            verdict: Verdict::NotYetMeasured,
            remark: format!(
                "Not measured yet; wire the measurement into `{hook}` (crates/lab/src/reproduce)."
            ),
        }
    }
}

/// One claim of the catalogue.
pub struct Experiment {
    /// The id `--only` takes.
    pub id: &'static str,
    /// The paper (000 … 004) and where in it.
    pub source: &'static str,
    /// The claim as the paper states it (quoted, or as close as plain text allows).
    pub claim: &'static str,
    /// The premises the paper states for the claim (the model, the ranges of the parameters,
    /// the assumptions of the proof).
    pub premises: &'static str,
    /// The model the claim is judged under: which machine (the simulator and its cost
    /// model, the scatter model, a DAG schedule, the threads machine) with which settings.
    pub model: &'static str,
    /// Whether the experiment lies inside the premises, and where not, how and why.
    pub inside: &'static str,
    /// The PASS/FAIL criterion, fixed before the run.
    pub criterion: &'static str,
    /// What explains a failure if it happens (model assumptions, finite size).
    pub if_fail: &'static str,
    /// The measurement.
    pub run: fn(&Ctx) -> Result<Finding, String>,
}

/// A section of the report: the claim, its criterion and what was found.
#[derive(Debug, Clone, Serialize)]
pub struct Section {
    /// The experiment's id.
    pub id: String,
    /// The source in the papers.
    pub source: String,
    /// The claim.
    pub claim: String,
    /// The paper's premises for the claim.
    pub premises: String,
    /// The model the claim was judged under.
    pub model: String,
    /// Whether the experiment lies inside the premises.
    pub inside: String,
    /// The criterion.
    pub criterion: String,
    /// The command that reproduces this section.
    pub command: String,
    /// What was found.
    #[serde(flatten)]
    pub finding: Finding,
}

/// Every experiment, in report order.
pub fn catalogue() -> Vec<Experiment> {
    let mut all = Vec::new();
    all.extend(p000::experiments());
    all.extend(p001::experiments());
    all.extend(p002::experiments());
    all.extend(p003::experiments());
    all.extend(p004::experiments());
    all
}

/// The ids of the catalogue.
pub fn ids() -> Vec<&'static str> {
    catalogue().iter().map(|e| e.id).collect()
}

/// Run the experiments named in `only` (all when empty; unknown ids are an error naming the
/// known ones), calling `progress(done, total, id)` before each and once at the end.
pub fn run(
    ctx: &Ctx,
    only: &[String],
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<Vec<Section>, String> {
    let all = catalogue();
    if let Some(bad) = only
        .iter()
        .find(|id| !all.iter().any(|e| e.id == id.as_str()))
    {
        return Err(format!(
            "unknown experiment id '{bad}'; the ids are: {}",
            ids().join(", ")
        ));
    }
    let chosen: Vec<&Experiment> = all
        .iter()
        .filter(|e| only.is_empty() || only.iter().any(|id| id == e.id))
        .collect();
    let mut sections = Vec::new();
    for (i, e) in chosen.iter().enumerate() {
        progress(i, chosen.len(), e.id);
        let mut finding = (e.run)(ctx).unwrap_or_else(|err| Finding {
            prediction: "—".into(),
            measured: format!("the run failed: {err}"),
            table: Table::default(),
            plot: None,
            verdict: Verdict::Fail,
            remark: String::new(),
        });
        if finding.verdict == Verdict::Fail {
            finding.remark = if finding.remark.is_empty() {
                format!("Why it fails: {}", e.if_fail)
            } else {
                format!("{} Why it fails: {}", finding.remark, e.if_fail)
            };
        }
        sections.push(Section {
            id: e.id.into(),
            source: e.source.into(),
            claim: e.claim.into(),
            premises: e.premises.into(),
            model: e.model.into(),
            inside: e.inside.into(),
            criterion: e.criterion.into(),
            command: format!(
                "treesplit reproduce{} --only {}",
                if ctx.quick { " --quick" } else { "" },
                e.id
            ),
            finding,
        });
    }
    progress(chosen.len(), chosen.len(), "");
    Ok(sections)
}

/// Mean and 95 % half-width (normal approximation, t ≈ 2 for few samples) of `xs`.
pub fn mean_ci(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let m = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (m, f64::INFINITY);
    }
    let var = xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0);
    // Student's t at 97.5 % for small samples, 1.96 beyond 30.
    let t = match xs.len() {
        2 => 12.71,
        3 => 4.30,
        4 => 3.18,
        5 => 2.78,
        6..=10 => 2.45,
        11..=30 => 2.1,
        _ => 1.96,
    };
    (m, t * (var / n).sqrt())
}

/// The least-squares slope of log y against log x (the sweeps' exponent fit).
pub use crate::experiments::networks::fit_exponent as loglog_slope;

/// The q-quantile (0 ≤ q ≤ 1) of `xs` (nearest rank).
pub fn quantile(xs: &[f64], q: f64) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let i = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1;
    v[i]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every section quotes its claim, names the paper's premises, the model it is judged
    /// under and whether the experiment lies inside the premises; ids are unique.
    #[test]
    fn every_experiment_names_its_claim_premises_model_and_setting() {
        let all = catalogue();
        let mut missing = Vec::new();
        for e in &all {
            for (field, text) in [
                ("claim", e.claim),
                ("premises", e.premises),
                ("model", e.model),
                ("inside", e.inside),
                ("criterion", e.criterion),
            ] {
                if text.trim().is_empty() {
                    missing.push(format!("{}.{field}", e.id));
                }
            }
        }
        assert!(missing.is_empty(), "empty fields: {missing:?}");
        let mut ids = ids();
        ids.sort_unstable();
        let n = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), n, "duplicate experiment ids");
    }

    /// The report judges at least fifty of the papers' claims.
    #[test]
    fn the_catalogue_judges_at_least_fifty_claims() {
        let n = catalogue().len();
        assert!(n >= 50, "only {n} claims in the catalogue");
    }
}
