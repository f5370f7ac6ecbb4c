//! The report of `treesplit reproduce`: DIR/index.md (one section per claim: the claim and
//! its source, the prediction, the table, the plot, the verdict with its criterion, the
//! command), DIR/results.json (every number) and one SVG per plot (plotters; the font is
//! embedded, so nothing is needed from the system).

use super::{Cell, Plot, Section, Verdict};
use plotters::prelude::*;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::Path;
use std::sync::Once;

static FONT: Once = Once::new();

fn register_font() {
    FONT.call_once(|| {
        let bytes: &'static [u8] = include_bytes!("../../../../assets/DejaVuSans.ttf");
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, bytes);
    });
}

/// results.json.
#[derive(Serialize)]
struct Results<'a> {
    quick: bool,
    counts: Counts,
    sections: &'a [Section],
}

/// results.json as read back ([`read`]).
#[derive(Deserialize)]
struct Earlier {
    quick: bool,
    sections: Vec<Section>,
}

/// An earlier report in `dir`: whether it was `--quick`, and its sections; `None` where
/// `dir` holds no results.json. A results.json that does not read as a report is an error
/// naming the file.
pub fn read(dir: &Path) -> Result<Option<(bool, Vec<Section>)>, String> {
    let path = dir.join("results.json");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let r: Earlier = serde_json::from_str(&text)
        .map_err(|e| format!("{} is not a report of this program: {e}", path.display()))?;
    Ok(Some((r.quick, r.sections)))
}

/// How many claims got each verdict.
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq)]
pub struct Counts {
    /// PASS.
    pub pass: usize,
    /// FAIL.
    pub fail: usize,
    /// INCONCLUSIVE.
    pub inconclusive: usize,
    /// ANSWER (an exercise's question answered with measurements).
    pub answer: usize,
    /// NOT YET MEASURED.
    pub not_yet_measured: usize,
    /// PASS and FAIL verdicts whose criterion FAILed its negative control.
    pub controlled: usize,
    /// Sections that show their premises as measured in the run.
    pub premises_shown: usize,
}

/// Count the verdicts.
pub fn counts(sections: &[Section]) -> Counts {
    let mut c = Counts::default();
    for s in sections {
        match s.finding.verdict {
            Verdict::Pass => c.pass += 1,
            Verdict::Fail => c.fail += 1,
            Verdict::Inconclusive => c.inconclusive += 1,
            Verdict::Answer => c.answer += 1,
            Verdict::NotYetMeasured => c.not_yet_measured += 1,
        }
        if matches!(s.finding.verdict, Verdict::Pass | Verdict::Fail)
            && s.finding
                .control
                .as_ref()
                .is_some_and(|k| k.verdict == Verdict::Fail)
        {
            c.controlled += 1;
        }
        if !s.finding.premises_measured.is_empty() {
            c.premises_shown += 1;
        }
    }
    c
}

impl Counts {
    /// Claims with a verdict (PASS, FAIL, INCONCLUSIVE or ANSWER).
    pub fn judged(&self) -> usize {
        self.pass + self.fail + self.inconclusive + self.answer
    }
}

/// The text, or a dash where a section leaves it empty.
fn or_dash(s: &str) -> &str {
    if s.is_empty() {
        "—"
    } else {
        s
    }
}

/// A number for a table: integers as such, others with 4 significant digits.
fn num(x: f64) -> String {
    if !x.is_finite() {
        return format!("{x}");
    }
    if x == x.round() && x.abs() < 1e15 {
        return format!("{}", x as i64);
    }
    let a = x.abs();
    if !(1e-3..1e6).contains(&a) {
        format!("{x:.3e}")
    } else {
        let digits = (3 - a.log10().floor() as i32).clamp(0, 6) as usize;
        format!("{x:.digits$}")
    }
}

/// Write the report into `dir` (created if missing).
pub fn write(dir: &Path, sections: &[Section], quick: bool) -> Result<Counts, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let c = counts(sections);
    let mut md = String::new();
    let judged = c.judged();
    let _ = writeln!(
        md,
        "# treesplit reproduce{}: the papers' claims, measured\n\n\
         Written by `treesplit reproduce{}` (every number is also in `results.json`). \
         {judged} claims judged: **{} PASS, {} FAIL, {} INCONCLUSIVE, {} ANSWER**; {} not yet \
         measured. Each section quotes the claim, names the paper's premises and the model it \
         was judged under, and says whether the experiment lies inside those premises. \
         Each criterion is fixed in code (crates/lab/src/reproduce) before the run; simulator \
         numbers are the same bit for bit on every rerun of the command under a section. \
         Papers: 000 P. Sanders, *Asynchronous Random Polling Dynamic Load Balancing*; \
         001 Sanders, Mehlhorn, Dietzfelbinger, Dementiev, *Sequential and Parallel Algorithms \
         and Data Structures*, ch. 14 \"Load Balancing\"; 002 P. Sanders, *Better Algorithms \
         for Parallel Backtracking*; 003 K. Kimura, N. Ichiyoshi, *Iso-efficiency Analysis of \
         Load Balancing with Randomly Scattered Data*; 004 P. Sanders, *On the Competitive \
         Analysis of Randomized Static Load Balancing*.\n\n\
         **The rules every verdict obeys** (`judge` in crates/lab/src/reproduce/mod.rs): a \
         verdict whose premises did not all hold in the run is INCONCLUSIVE, and so is one \
         whose criterion does not FAIL its negative control — the same criterion, through the \
         same code, applied to a system that violates the claim. {} of the {} PASS and FAIL \
         verdicts carry a negative control that FAILs; {} of {} sections show their premises \
         as measured in the run. The table gives, per claim, the verdict, the control's \
         verdict (— where no control is run yet), the seeds behind each judged point, and how \
         many of the measured premises held.\n",
        if quick { " --quick" } else { "" },
        if quick { " --quick" } else { "" },
        c.pass,
        c.fail,
        c.inconclusive,
        c.answer,
        c.not_yet_measured,
        c.controlled,
        c.pass + c.fail,
        c.premises_shown,
        sections.len(),
    );
    let _ = writeln!(
        md,
        "| claim | source | verdict | control | seeds | premises held |\n|---|---|---|---|---|---|"
    );
    for s in sections {
        let f = &s.finding;
        let held = f.premises_measured.iter().filter(|p| p.held).count();
        let _ = writeln!(
            md,
            "| [{}](#{}) | {} | {} | {} | {} | {} |",
            s.id,
            s.id.replace('.', ""),
            s.source,
            f.verdict.label(),
            f.control.as_ref().map_or("—", |k| k.verdict.label()),
            f.seeds.map_or("—".to_string(), |n| n.to_string()),
            if f.premises_measured.is_empty() {
                "—".to_string()
            } else {
                format!("{held} of {}", f.premises_measured.len())
            }
        );
    }
    for s in sections {
        let f = &s.finding;
        let _ = writeln!(md, "\n## {}\n", s.id);
        let _ = writeln!(md, "**Claim** ({}): {}\n", s.source, s.claim);
        let _ = writeln!(md, "**Premises:** {}\n", or_dash(&s.premises));
        let _ = writeln!(md, "**Model:** {}\n", or_dash(&s.model));
        let _ = writeln!(md, "**Inside the premises?** {}\n", or_dash(&s.inside));
        let _ = writeln!(md, "**Prediction:** {}\n", f.prediction);
        let _ = writeln!(
            md,
            "**Criterion (fixed before the run):** {}\n",
            s.criterion
        );
        if !f.premises_measured.is_empty() {
            let _ = writeln!(md, "**Premises in the run:**\n");
            for p in &f.premises_measured {
                let _ = writeln!(
                    md,
                    "- {} {}: {}",
                    if p.held { "held" } else { "**did not hold**" },
                    p.premise,
                    p.measured
                );
            }
            md.push('\n');
        }
        let _ = writeln!(md, "**Measured:** {}\n", f.measured);
        if let Some(k) = &f.control {
            let _ = writeln!(
                md,
                "**Negative control:** {} — measured {}; the criterion gives it **{}**.\n",
                k.system,
                k.measured,
                k.verdict.label()
            );
        }
        if let Some(n) = f.seeds {
            let _ = writeln!(md, "**Seeds per judged point:** {n}\n");
        }
        let _ = writeln!(md, "**Verdict: {}**\n", f.verdict.label());
        if !f.remark.is_empty() {
            let _ = writeln!(md, "*Remark:* {}\n", f.remark);
        }
        if !f.table.columns.is_empty() {
            let _ = writeln!(md, "| {} |", f.table.columns.join(" | "));
            let _ = writeln!(md, "|{}", "---|".repeat(f.table.columns.len()));
            for row in &f.table.rows {
                let cells: Vec<String> = row
                    .iter()
                    .map(|c| match c {
                        Cell::Num(x) => num(*x),
                        Cell::Text(t) => t.clone(),
                    })
                    .collect();
                let _ = writeln!(md, "| {} |", cells.join(" | "));
            }
            md.push('\n');
        }
        if let Some(plot) = &f.plot {
            let file = format!("{}.svg", s.id);
            draw(&dir.join(&file), &s.id, plot)?;
            let _ = writeln!(md, "![{}]({file})\n", s.id);
        }
        let _ = writeln!(md, "Reproduce: `{}`", s.command);
    }
    let write = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text)
            .map_err(|e| format!("cannot write {}: {e}", dir.join(name).display()))
    };
    write("index.md", &md)?;
    let json = serde_json::to_string_pretty(&Results {
        quick,
        counts: c,
        sections,
    })
    .map_err(|e| e.to_string())?;
    write("results.json", &(json + "\n"))?;
    Ok(c)
}

/// Draw `plot` to an SVG file. Logarithmic axes plot log10 of the values.
fn draw(path: &Path, title: &str, plot: &Plot) -> Result<(), String> {
    register_font();
    let tx = |x: f64| if plot.log_x { x.log10() } else { x };
    let ty = |y: f64| if plot.log_y { y.log10() } else { y };
    let ok = |x: f64, y: f64| {
        x.is_finite() && y.is_finite() && (!plot.log_x || x > 0.0) && (!plot.log_y || y > 0.0)
    };
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    for s in &plot.series {
        for (i, &(x, y)) in s.points.iter().enumerate() {
            if ok(x, y) {
                xs.push(tx(x));
                let e =
                    s.ci.get(i)
                        .copied()
                        .filter(|e| e.is_finite())
                        .unwrap_or(0.0);
                ys.push(ty(y));
                if ok(x, y + e) {
                    ys.push(ty(y + e));
                }
                if ok(x, y - e) {
                    ys.push(ty(y - e));
                }
            }
        }
    }
    let range = |v: &[f64]| {
        let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if !lo.is_finite() {
            return (0.0, 1.0);
        }
        let pad = ((hi - lo) * 0.05).max(1e-9 + lo.abs() * 0.05);
        (lo - pad, hi + pad)
    };
    let (x0, x1) = range(&xs);
    let (y0, y1) = range(&ys);
    let e = |e: DrawingAreaErrorKind<std::io::Error>| format!("{}: {e}", path.display());
    let root = SVGBackend::new(path, (760, 440)).into_drawing_area();
    root.fill(&WHITE).map_err(e)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(e)?;
    let lx = if plot.log_x {
        format!("log10 {}", plot.x)
    } else {
        plot.x.clone()
    };
    let ly = if plot.log_y {
        format!("log10 {}", plot.y)
    } else {
        plot.y.clone()
    };
    chart
        .configure_mesh()
        .x_desc(lx)
        .y_desc(ly)
        .label_style(("sans-serif", 12))
        .draw()
        .map_err(e)?;
    for (k, s) in plot.series.iter().enumerate() {
        let color = Palette99::pick(k).to_rgba();
        let pts: Vec<(f64, f64)> = s
            .points
            .iter()
            .filter(|&&(x, y)| ok(x, y))
            .map(|&(x, y)| (tx(x), ty(y)))
            .collect();
        if s.line {
            chart
                .draw_series(LineSeries::new(pts, color.stroke_width(2)))
                .map_err(e)?
                .label(s.label.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color));
        } else {
            chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 4, color.filled())))
                .map_err(e)?
                .label(s.label.clone())
                .legend(move |(x, y)| Circle::new((x + 8, y), 4, color.filled()));
            let bars: Vec<_> = s
                .points
                .iter()
                .zip(&s.ci)
                .filter(|&(&(x, y), &c)| c.is_finite() && ok(x, y - c) && ok(x, y + c))
                .map(|(&(x, y), &c)| {
                    PathElement::new(vec![(tx(x), ty(y - c)), (tx(x), ty(y + c))], color)
                })
                .collect();
            chart.draw_series(bars).map_err(e)?;
        }
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .label_font(("sans-serif", 12))
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(e)?;
    root.present().map_err(e)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{ids, merge, Cell, Control, Finding, Plot, Premise, Series, Table};
    use super::*;

    fn section(id: &str, verdict: Verdict) -> Section {
        let mut table = Table::new(&["P", "ratio", "note"]);
        table.row(vec![Cell::from(16u64), Cell::Num(f64::NAN), "x".into()]);
        table.row(vec![
            Cell::from(0.25),
            Cell::Num(f64::INFINITY),
            "inf".into(),
        ]);
        Section {
            id: id.into(),
            source: "000 §2".into(),
            claim: "a claim".into(),
            premises: "premises".into(),
            model: "the simulator".into(),
            inside: "yes".into(),
            criterion: "ratio ≤ 2".into(),
            command: format!("treesplit reproduce --only {id}"),
            finding: Finding {
                prediction: "2".into(),
                measured: "1.5".into(),
                table,
                plot: Some(Plot {
                    x: "P".into(),
                    y: "ratio".into(),
                    log_x: true,
                    log_y: false,
                    series: vec![
                        Series::points("measured", vec![(16.0, 1.5), (32.0, f64::NAN)])
                            .with_ci(vec![0.1, f64::NAN]),
                        Series::line("bound", vec![(16.0, 2.0), (32.0, 2.0)]),
                    ],
                }),
                verdict,
                premises_measured: vec![Premise::new("h reached", "at t = 4", true)],
                control: Some(Control {
                    system: "a fixed victim".into(),
                    measured: "9".into(),
                    verdict: Verdict::Fail,
                }),
                seeds: Some(8),
                ..Finding::default()
            },
        }
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        let d =
            std::env::temp_dir().join(format!("treesplit-report-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    /// A report read back from results.json writes the same index.md and results.json again,
    /// numbers that are not finite included: what an in-place update keeps is what was there.
    #[test]
    fn a_report_reads_back_as_written() {
        let (a, b) = (scratch("a"), scratch("b"));
        let sections = vec![
            section("000-thm1", Verdict::Pass),
            section("001-ex14.2", Verdict::Fail),
        ];
        write(&a, &sections, false).unwrap();
        let (quick, back) = read(&a).unwrap().expect("a report");
        assert!(!quick);
        write(&b, &back, false).unwrap();
        for f in ["index.md", "results.json", "000-thm1.svg"] {
            assert_eq!(
                std::fs::read_to_string(a.join(f)).unwrap(),
                std::fs::read_to_string(b.join(f)).unwrap(),
                "{f} changed on the way through results.json"
            );
        }
        assert!(read(&scratch("none")).unwrap().is_none());
        // The report in the repository reads back, nulls of earlier versions included.
        let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/reproduction");
        let (_, committed) = read(&docs)
            .unwrap()
            .expect("docs/reproduction/results.json");
        assert!(committed.len() >= 50, "{} sections", committed.len());
        std::fs::write(b.join("results.json"), "{\"not\": 1}").unwrap();
        let e = read(&b).unwrap_err();
        assert!(
            e.contains("results.json") && e.contains("not a report"),
            "{e}"
        );
        let _ = (std::fs::remove_dir_all(&a), std::fs::remove_dir_all(&b));
    }

    /// An update replaces the sections run again, keeps the others, drops ids the catalogue
    /// no longer has, and follows the catalogue's order.
    #[test]
    fn an_update_replaces_keeps_and_orders_by_the_catalogue() {
        let all = ids();
        let (first, second) = (all[0], all[all.len() - 1]);
        let earlier = vec![
            section(second, Verdict::Pass),
            section("no-longer-in-the-catalogue", Verdict::Pass),
            section(first, Verdict::Pass),
        ];
        let merged = merge(earlier, vec![section(second, Verdict::Fail)]);
        let got: Vec<(&str, Verdict)> = merged
            .iter()
            .map(|s| (s.id.as_str(), s.finding.verdict))
            .collect();
        assert_eq!(got, vec![(first, Verdict::Pass), (second, Verdict::Fail)]);
    }
}
