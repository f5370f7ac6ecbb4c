//! `treesplit reproduce`: the papers' measurable claims, each measured and judged.
//!
//! The catalogue ([`catalogue`]) holds one [`Experiment`] per claim: its prose in a markdown
//! file beside the code (`PAPER/claims/ID.md`: the claim as the paper states it with its
//! source, the paper's premises, the model it is judged under and whether the experiment lies
//! inside the premises, the criterion fixed before the run), and a plain function over the
//! library (the simulator, the scatter model, the DAG schedulers) that computes the
//! prediction, measures, and judges. A finding carries the premises as the run measured them
//! and a negative control (the same criterion on a system that violates the claim); [`judge`]
//! makes a verdict INCONCLUSIVE where a premise did not hold or the control did not FAIL.
//! `report.rs` writes the sections as markdown, JSON and SVG plots. One module per paper
//! (`p000` … `p004`). Everything is seeded: the simulator's numbers are the same bit for bit
//! on every rerun.

/// An experiment whose prose (claim, premises, model, setting, criterion, what a failure
/// means) is the markdown file `src/reproduce/PAPER/claims/ID.md`, read at compile time.
macro_rules! claim {
    ($paper:literal, $id:literal, $run:expr) => {
        $crate::reproduce::Experiment::from_markdown(
            $id,
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/src/reproduce/",
                $paper,
                "/claims/",
                $id,
                ".md"
            )),
            $run,
        )
    };
}

mod estimate;
mod p000;
mod p001;
mod p002;
mod p003;
mod p004;
pub mod report;

pub use estimate::{binomial_upper, bootstrap_ci, loglog_slope, mean_ci, quantile};

use serde::{Deserialize, Serialize};

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
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
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
    #[default]
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

/// A table cell: a number or a text. In JSON a number that is not finite is written as its
/// text (`inf`, `NaN`), as the report's tables show it, so that results.json reads back (a
/// null, as earlier reports wrote such a number, reads back as NaN).
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// A number.
    Num(f64),
    /// A text.
    Text(String),
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Cell, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Num(f64),
            Text(String),
            Null(Option<f64>),
        }
        Ok(match Raw::deserialize(d)? {
            Raw::Num(x) => Cell::Num(x),
            Raw::Text(t) => Cell::Text(t),
            Raw::Null(x) => Cell::Num(x.unwrap_or(f64::NAN)),
        })
    }
}

impl Serialize for Cell {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Cell::Num(x) if x.is_finite() => s.serialize_f64(*x),
            Cell::Num(x) => s.serialize_str(&x.to_string()),
            Cell::Text(t) => s.serialize_str(t),
        }
    }
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
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
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

/// Reading plot values back from results.json, where JSON has written the values that are
/// not finite as null.
mod null_as_nan {
    use serde::{Deserialize, Deserializer};

    fn nan(x: Option<f64>) -> f64 {
        x.unwrap_or(f64::NAN)
    }

    pub fn pairs<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(f64, f64)>, D::Error> {
        let v: Vec<(Option<f64>, Option<f64>)> = Vec::deserialize(d)?;
        Ok(v.into_iter().map(|(x, y)| (nan(x), nan(y))).collect())
    }

    pub fn values<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
        let v: Vec<Option<f64>> = Vec::deserialize(d)?;
        Ok(v.into_iter().map(nan).collect())
    }
}

/// One curve of a plot: points and, where measured over seeds, 95 % half-widths.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Series {
    /// The legend.
    pub label: String,
    /// (x, y); JSON writes a value that is not finite as null, which reads back as NaN
    /// (the plot skips such points either way).
    #[serde(deserialize_with = "null_as_nan::pairs")]
    pub points: Vec<(f64, f64)>,
    /// Half-widths of the 95 % confidence intervals (empty: none).
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "null_as_nan::values"
    )]
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
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
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

/// A premise of a claim, as the run measured it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Premise {
    /// The premise, in words ("every PE holds a piece of generation ≥ h").
    pub premise: String,
    /// What the run measured, in words with the number.
    pub measured: String,
    /// Whether it held.
    pub held: bool,
}

impl Premise {
    /// A premise with what the run measured and whether it held.
    pub fn new(premise: impl Into<String>, measured: impl Into<String>, held: bool) -> Premise {
        Premise {
            premise: premise.into(),
            measured: measured.into(),
            held,
        }
    }
}

/// The negative control of a verdict: the same criterion, through the same code, applied to
/// a system that violates the claim (a balancer with the weaker bound the paper improves
/// on, a fixed or neighbour-only victim, a deterministic mapping in place of a random one, a
/// tree family outside the premises). A criterion that can discriminate gives it FAIL.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Control {
    /// The system that violates the claim.
    pub system: String,
    /// What the criterion read from it, in words with the number.
    pub measured: String,
    /// The criterion's verdict on it.
    pub verdict: Verdict,
}

/// What an experiment found.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
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
    /// The claim's premises as the run measured them (empty: not shown yet). A premise that
    /// did not hold makes a PASS or FAIL INCONCLUSIVE ([`judge`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub premises_measured: Vec<Premise>,
    /// The negative control (none: not run yet). A control the criterion does not FAIL
    /// makes a PASS or FAIL INCONCLUSIVE ([`judge`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub control: Option<Control>,
    /// The number of seeds behind each judged point (none: deterministic, or not stated).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seeds: Option<usize>,
}

impl Finding {
    /// A finding for an experiment not written yet: `hook` names the function to
    /// fill in.
    pub fn not_yet(hook: &str) -> Finding {
        Finding {
            prediction: "—".into(),
            measured: "not yet measured".into(),
            verdict: Verdict::NotYetMeasured,
            remark: format!(
                "Not measured yet; wire the measurement into `{hook}` (crates/lab/src/reproduce)."
            ),
            ..Finding::default()
        }
    }
}

/// One claim of the catalogue. Its prose lives in a markdown file beside the code that
/// measures it (`claim!`), in the sections `## Claim`, `## Premises`, `## Model`,
/// `## Inside the premises`, `## Criterion` and `## If it fails`, after a `# ID` title and a
/// `source:` line.
pub struct Experiment {
    /// The id `--only` takes.
    pub id: &'static str,
    /// The paper (000 … 004) and where in it.
    pub source: String,
    /// The claim as the paper states it (quoted, or as close as plain text allows).
    pub claim: String,
    /// The premises the paper states for the claim (the model, the ranges of the parameters,
    /// the assumptions of the proof).
    pub premises: String,
    /// The model the claim is judged under: which machine (the simulator and its cost
    /// model, the scatter model, a DAG schedule, the threads machine) with which settings.
    pub model: String,
    /// Whether the experiment lies inside the premises, and where not, how and why.
    pub inside: String,
    /// The PASS/FAIL criterion, fixed before the run.
    pub criterion: String,
    /// What explains a failure if it happens (model assumptions, finite size).
    pub if_fail: String,
    /// The measurement.
    pub run: fn(&Ctx) -> Result<Finding, String>,
}

impl Experiment {
    /// The experiment `id` with the prose of its markdown file `text` (see [`Experiment`]).
    /// A file without its title, source or one of the sections is a defect of the
    /// catalogue, caught by its tests: it panics, naming the file and what is missing.
    pub fn from_markdown(
        id: &'static str,
        text: &str,
        run: fn(&Ctx) -> Result<Finding, String>,
    ) -> Experiment {
        let mut lines = text.lines();
        let title = lines.next().unwrap_or("");
        assert_eq!(
            title,
            format!("# {id}"),
            "{id}.md: the title must be '# {id}'"
        );
        let mut source = None;
        let mut sections: Vec<(&str, Vec<&str>)> = Vec::new();
        for line in lines {
            if let Some(h) = line.strip_prefix("## ") {
                sections.push((h.trim(), Vec::new()));
            } else if let Some((_, body)) = sections.last_mut() {
                body.push(line);
            } else if let Some(s) = line.strip_prefix("source:") {
                source = Some(s.trim().to_string());
            }
        }
        let take = |heading: &str| -> String {
            let (_, body) = sections
                .iter()
                .find(|(h, _)| *h == heading)
                .unwrap_or_else(|| panic!("{id}.md: no '## {heading}' section"));
            unwrap_paragraphs(body)
        };
        Experiment {
            id,
            source: source.unwrap_or_else(|| panic!("{id}.md: no 'source:' line")),
            claim: take("Claim"),
            premises: take("Premises"),
            model: take("Model"),
            inside: take("Inside the premises"),
            criterion: take("Criterion"),
            if_fail: take("If it fails"),
            run,
        }
    }
}

/// Markdown lines to text: the lines of a paragraph joined by spaces, paragraphs by a blank
/// line, leading and trailing blank lines dropped.
fn unwrap_paragraphs(lines: &[&str]) -> String {
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for line in lines.iter().map(|l| l.trim()) {
        if line.is_empty() {
            if !current.is_empty() {
                paragraphs.push(current.join(" "));
                current.clear();
            }
        } else {
            current.push(line);
        }
    }
    if !current.is_empty() {
        paragraphs.push(current.join(" "));
    }
    paragraphs.join("\n\n")
}

/// A section of the report: the claim, its criterion and what was found.
#[derive(Debug, Clone, Serialize, Deserialize)]
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

/// The two rules every verdict obeys, fixed here before any run: a PASS or FAIL whose
/// premises did not all hold in the run, or whose criterion did not FAIL its negative
/// control, is INCONCLUSIVE, and the remark says which premise or which control.
pub fn judge(mut f: Finding) -> Finding {
    if !matches!(f.verdict, Verdict::Pass | Verdict::Fail) {
        return f;
    }
    let was = f.verdict.label();
    let failed: Vec<String> = f
        .premises_measured
        .iter()
        .filter(|p| !p.held)
        .map(|p| format!("{} (measured: {})", p.premise, p.measured))
        .collect();
    let mut why = Vec::new();
    if !failed.is_empty() {
        why.push(format!(
            "a premise did not hold in the run: {}",
            failed.join("; ")
        ));
    }
    if let Some(c) = &f.control {
        if c.verdict != Verdict::Fail {
            why.push(format!(
                "the criterion gave its negative control ({}) {}, so it cannot tell the claim from its violation",
                c.system,
                c.verdict.label()
            ));
        }
    }
    if !why.is_empty() {
        f.verdict = Verdict::Inconclusive;
        let note = format!(
            "INCONCLUSIVE, though the criterion read {was}: {}.",
            why.join("; and ")
        );
        f.remark = if f.remark.is_empty() {
            note
        } else {
            format!("{} {note}", f.remark)
        };
    }
    f
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
        let mut finding = judge((e.run)(ctx).unwrap_or_else(|err| Finding {
            prediction: "—".into(),
            measured: format!("the run failed: {err}"),
            verdict: Verdict::Fail,
            ..Finding::default()
        }));
        if finding.verdict == Verdict::Fail {
            finding.remark = if finding.remark.is_empty() {
                format!("Why it fails: {}", e.if_fail)
            } else {
                format!("{} Why it fails: {}", finding.remark, e.if_fail)
            };
        }
        sections.push(Section {
            id: e.id.into(),
            source: e.source.clone(),
            claim: e.claim.clone(),
            premises: e.premises.clone(),
            model: e.model.clone(),
            inside: e.inside.clone(),
            criterion: e.criterion.clone(),
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

/// A report updated in place: the `fresh` sections (from a run of some experiments) replace
/// those of the `earlier` report with the same id, the earlier report's other sections stay,
/// and the result follows the catalogue's order. An earlier section whose id the catalogue
/// no longer has is dropped: its claim is no longer measured by this program.
pub fn merge(earlier: Vec<Section>, fresh: Vec<Section>) -> Vec<Section> {
    let mut by_id: std::collections::HashMap<String, Section> =
        earlier.into_iter().map(|s| (s.id.clone(), s)).collect();
    for s in fresh {
        by_id.insert(s.id.clone(), s);
    }
    ids()
        .into_iter()
        .filter_map(|id| by_id.remove(id))
        .collect()
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
                ("claim", &e.claim),
                ("premises", &e.premises),
                ("model", &e.model),
                ("inside", &e.inside),
                ("criterion", &e.criterion),
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

    /// Every markdown file of a claim belongs to an experiment of the catalogue (a file
    /// no experiment names would be prose the report never shows).
    #[test]
    fn every_claim_file_is_in_the_catalogue() {
        let ids = ids();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/reproduce");
        let mut orphans = Vec::new();
        let mut files = 0;
        for paper in std::fs::read_dir(&root).unwrap() {
            let claims = paper.unwrap().path().join("claims");
            let Ok(dir) = std::fs::read_dir(&claims) else {
                continue;
            };
            for f in dir {
                let name = f.unwrap().file_name().to_string_lossy().into_owned();
                files += 1;
                match name.strip_suffix(".md") {
                    Some(id) if ids.contains(&id) => {}
                    _ => orphans.push(name),
                }
            }
        }
        assert!(
            orphans.is_empty(),
            "claim files no experiment names: {orphans:?}"
        );
        assert_eq!(files, ids.len(), "experiments without a claim file");
    }

    fn finding(verdict: Verdict) -> Finding {
        Finding {
            verdict,
            ..Finding::default()
        }
    }

    fn control(verdict: Verdict) -> Option<Control> {
        Some(Control {
            system: "a fixed-victim poller".into(),
            measured: "1.9".into(),
            verdict,
        })
    }

    /// A PASS stays a PASS only while its premises held and its control FAILs.
    #[test]
    fn a_verdict_needs_its_premises_and_a_failing_control() {
        let kept = judge(Finding {
            premises_measured: vec![Premise::new("gen ≥ h at every PE", "at t = 40", true)],
            control: control(Verdict::Fail),
            ..finding(Verdict::Pass)
        });
        assert_eq!(kept.verdict, Verdict::Pass);
        let premise = judge(Finding {
            premises_measured: vec![Premise::new("gen ≥ h at every PE", "never", false)],
            control: control(Verdict::Fail),
            ..finding(Verdict::Pass)
        });
        assert_eq!(premise.verdict, Verdict::Inconclusive);
        assert!(premise
            .remark
            .contains("gen ≥ h at every PE (measured: never)"));
        let blind = judge(Finding {
            control: control(Verdict::Pass),
            ..finding(Verdict::Fail)
        });
        assert_eq!(blind.verdict, Verdict::Inconclusive);
        assert!(blind
            .remark
            .contains("cannot tell the claim from its violation"));
        // An answer to an exercise is not a pass or a fail: the rules leave it alone.
        let answer = judge(Finding {
            control: control(Verdict::Pass),
            ..finding(Verdict::Answer)
        });
        assert_eq!(answer.verdict, Verdict::Answer);
    }

    /// The report judges at least fifty of the papers' claims.
    #[test]
    fn the_catalogue_judges_at_least_fifty_claims() {
        let n = catalogue().len();
        assert!(n >= 50, "only {n} claims in the catalogue");
    }
}
