//! Pictures of a run with plotters: per-PE Gantt charts (working, splitting, sending, idle;
//! real runs: requesting and terminating too) above the utilization curve when a timeline
//! was kept (P ≤ 512), the utilization curve alone otherwise. Both come from the library's
//! activity log (`treesplit::timeline`): the simulator's report carries the one it recorded in
//! virtual time ([`draw`]), a real run's is made from its recorded trace and drawn in
//! milliseconds ([`draw_trace`]), by the same code. PE axes are labelled with whole PE numbers
//! (every 2nd, 5th, 10th, … when there are many rows; `rows`); the legend has a strip of its own right
//! of the chart, so it hides no row. Rows and curve are cut to the picture's resolution first
//! (`coarse`), so a picture's size does not grow with the run's events. SVG or PNG by the file's extension. The font is
//! embedded (DejaVu Sans, see assets/DejaVuSans-LICENSE.txt), so no system library is needed.
//! Part of the output layer; imports none of our modules.

use super::coarse::{self, Bar};
use super::rows::RowAxis;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;
use std::sync::Once;
use treesplit::timeline::{Activity, Segment, Trace};
use treesplit::{Report, SimReport};

/// Real runs draw per-PE rows up to this P (as the simulator keeps its timeline).
const GANTT_MAX_PES: usize = 512;

/// The width of the legend's strip right of a Gantt chart, in pixels.
const LEGEND_WIDTH: u32 = 150;

/// Every activity a Gantt row shows, in the order the chart draws and its legend lists them.
const ACTIVITIES: [Activity; 7] = [
    Activity::Idle,
    Activity::Working,
    Activity::Splitting,
    Activity::Sending,
    Activity::Receiving,
    Activity::Requesting,
    Activity::Terminating,
];

static FONT: Once = Once::new();

pub(crate) fn register_font() {
    FONT.call_once(|| {
        let bytes: &'static [u8] = include_bytes!("../../../../assets/DejaVuSans.ttf");
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, bytes);
    });
}

/// Check that `path` names a file type we can draw.
pub fn check_path(path: &Path, flag: &str) -> Result<(), String> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("svg" | "png") => Ok(()),
        _ => Err(format!(
            "{flag} {}: the file name must end in .svg or .png",
            path.display()
        )),
    }
}

/// A chart of one run: Gantt rows (if kept) above the utilization curve, times in ticks.
struct Chart<'a> {
    title: String,
    segments: Option<&'a [Segment]>,
    pes: usize,
    /// The end of the run in ticks.
    t_end: f64,
    /// (tick, fraction of PEs busy).
    utilization: Vec<(f64, f64)>,
    /// Ticks to the unit of the time axis, and its name.
    scale: f64,
    x_desc: &'static str,
}

/// Draw a simulation's `report` to `path` (.svg or .png).
pub fn draw<O>(path: &Path, report: &SimReport<O>) -> Result<(), String> {
    let r = &report.report;
    let chart = Chart {
        title: format!(
            "{} on P = {} ({}, T_rout {}), T_par = {}, efficiency {:.3}",
            r.config.balancer,
            r.pes(),
            report.sim.topology,
            report.sim.t_rout,
            r.t_par,
            r.efficiency().unwrap_or(0.0)
        ),
        segments: report.timeline.as_deref(),
        pes: r.pes(),
        t_end: r.t_par.max(1.0),
        utilization: report
            .utilization
            .iter()
            .map(|&(t, f)| (t as f64, f))
            .collect(),
        scale: 1.0,
        x_desc: "virtual time",
    };
    draw_chart(path, &chart)
}

/// Draw a real run's recorded `trace` (threads, MPI) to `path` (.svg or .png), in
/// milliseconds since the start.
pub fn draw_trace<O>(path: &Path, report: &Report<O>, trace: &Trace) -> Result<(), String> {
    let p = report.pes();
    let end = trace.end().max(1);
    let activities = trace.activities(p <= GANTT_MAX_PES);
    let utilization = activities
        .curve(p, end)
        .into_iter()
        .map(|(t, f)| (t as f64, f))
        .collect();
    let segments = activities.into_segments();
    let chart = Chart {
        title: format!(
            "{} on P = {} ({}), T_par = {:.4} s, utilization {:.3}",
            report.config.balancer,
            p,
            report.machine,
            report.t_par,
            report.utilization()
        ),
        segments: segments.as_deref(),
        pes: p,
        t_end: end as f64,
        utilization,
        scale: trace.tick_seconds * 1e3,
        x_desc: "time (ms)",
    };
    draw_chart(path, &chart)
}

fn draw_chart(path: &Path, chart: &Chart<'_>) -> Result<(), String> {
    register_font();
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let size = match chart.segments {
        Some(_) => (1200 + LEGEND_WIDTH, 800),
        None => (1200, 400),
    };
    match ext.as_deref() {
        Some("svg") => draw_on(SVGBackend::new(path, size).into_drawing_area(), chart),
        Some("png") => draw_on(BitMapBackend::new(path, size).into_drawing_area(), chart),
        _ => Err("the file name must end in .svg or .png".into()),
    }
}

/// Draw a DAG schedule (paper 001 Fig. 14.7): one line per PE, a box per task labelled with
/// its id (when there is room), times in ticks × `tick_seconds` (the simulator: virtual time;
/// real machines: shown in ms).
pub fn draw_dag(
    path: &Path,
    title: &str,
    pes: usize,
    schedule: &[treesplit::dag::Placement],
    tick_seconds: f64,
    virtual_time: bool,
) -> Result<(), String> {
    register_font();
    let rows = (pes as u32).clamp(1, 64);
    let size = (1200, (120 + 40 * rows).min(900));
    let (scale, x_desc) = if virtual_time {
        (1.0, "virtual time")
    } else {
        (tick_seconds * 1e3, "time (ms)")
    };
    let d = DagChart {
        title,
        pes,
        schedule,
        scale,
        x_desc,
    };
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("svg") => dag_on(SVGBackend::new(path, size).into_drawing_area(), &d),
        Some("png") => dag_on(BitMapBackend::new(path, size).into_drawing_area(), &d),
        _ => Err("the file name must end in .svg or .png".into()),
    }
}

struct DagChart<'a> {
    title: &'a str,
    pes: usize,
    schedule: &'a [treesplit::dag::Placement],
    scale: f64,
    x_desc: &'static str,
}

fn dag_on<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    d: &DagChart<'_>,
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let end = d
        .schedule
        .iter()
        .map(|r| r.finish)
        .max()
        .unwrap_or(1)
        .max(1) as f64
        * d.scale;
    let pe_axis = RowAxis::pes(d.pes, root.dim_in_pixel().1);
    let mut chart = ChartBuilder::on(&root)
        .caption(d.title, ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(50)
        .build_cartesian_2d(0f64..end, pe_axis)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_desc(d.x_desc)
        .y_desc("PE")
        .draw()
        .map_err(err)?;
    let fill = color(Activity::Working);
    chart
        .draw_series(d.schedule.iter().map(|r| {
            let y = f64::from(r.pe);
            Rectangle::new(
                [
                    (r.start as f64 * d.scale, y + 0.1),
                    (r.finish as f64 * d.scale, y + 0.9),
                ],
                fill.filled(),
            )
        }))
        .map_err(err)?;
    chart
        .draw_series(d.schedule.iter().map(|r| {
            let y = f64::from(r.pe);
            Rectangle::new(
                [
                    (r.start as f64 * d.scale, y + 0.1),
                    (r.finish as f64 * d.scale, y + 0.9),
                ],
                WHITE.stroke_width(1),
            )
        }))
        .map_err(err)?;
    // Task ids, where a box is wide and tall enough to hold one.
    if d.pes <= 64 {
        let px_per_tick = 1100.0 / end;
        chart
            .draw_series(
                d.schedule
                    .iter()
                    .filter(|r| (r.finish - r.start) as f64 * d.scale * px_per_tick >= 24.0)
                    .map(|r| {
                        let x = (r.start as f64 + 0.15 * (r.finish - r.start) as f64) * d.scale;
                        Text::new(
                            r.task.to_string(),
                            (x, f64::from(r.pe) + 0.65),
                            ("sans-serif", 13).into_font().color(&WHITE),
                        )
                    }),
            )
            .map_err(err)?;
    }
    root.present().map_err(err)?;
    Ok(())
}

/// Draw a balancer comparison: efficiency per balancer (name, efficiency) as horizontal bars,
/// one row per balancer from the top in the given order, each named on the left and its value
/// at its end. The canvas grows with the number of balancers and the name column with the
/// longest name, so no two names overlap.
pub fn draw_comparison(path: &Path, title: &str, rows: &[(String, f64)]) -> Result<(), String> {
    register_font();
    let size = (1000, (140 + 34 * rows.len() as u32).max(300));
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("svg") => comparison_on(SVGBackend::new(path, size).into_drawing_area(), title, rows),
        Some("png") => comparison_on(
            BitMapBackend::new(path, size).into_drawing_area(),
            title,
            rows,
        ),
        _ => Err("the file name must end in .svg or .png".into()),
    }
}

fn comparison_on<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    title: &str,
    rows: &[(String, f64)],
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let n = rows.len();
    let font = ("sans-serif", 15).into_font();
    let label_style = TextStyle::from(font.clone());
    let mut name_width = 0;
    for (name, _) in rows {
        name_width = name_width.max(root.estimate_text_size(name, &label_style).map_err(err)?.0);
    }
    let top = rows.iter().map(|r| r.1).fold(1.0, f64::max) * 1.12;
    // Row i from the bottom is balancer n - 1 - i, so the first balancer is on top.
    let y = |k: usize| (n - 1 - k) as f64;
    let names = RowAxis::new(n, (0..n).collect(), |i| {
        n.checked_sub(i + 1)
            .and_then(|k| rows.get(k))
            .map(|r| r.0.clone())
            .unwrap_or_default()
    });
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(name_width + 20)
        .build_cartesian_2d(0f64..top, names)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_desc("efficiency T_seq/(P·T_par)")
        .y_label_style(font.clone())
        .draw()
        .map_err(err)?;
    let bar_color = color(Activity::Working);
    chart
        .draw_series(rows.iter().enumerate().map(|(k, r)| {
            Rectangle::new([(0.0, y(k) + 0.15), (r.1, y(k) + 0.85)], bar_color.filled())
        }))
        .map_err(err)?;
    let value_style = font.color(&BLACK).pos(Pos::new(HPos::Left, VPos::Center));
    chart
        .draw_series(rows.iter().enumerate().map(|(k, r)| {
            Text::new(
                format!("{:.3}", r.1),
                (r.1 + top * 0.01, y(k) + 0.5),
                value_style.clone(),
            )
        }))
        .map_err(err)?;
    root.present().map_err(err)?;
    Ok(())
}

fn color(a: Activity) -> RGBColor {
    match a {
        Activity::Working => RGBColor(46, 139, 87),
        Activity::Splitting => RGBColor(230, 140, 20),
        Activity::Sending => RGBColor(65, 105, 225),
        Activity::Receiving => RGBColor(148, 103, 189),
        Activity::Idle => RGBColor(225, 225, 225),
        Activity::Requesting => RGBColor(250, 210, 120),
        Activity::Terminating => RGBColor(130, 130, 130),
    }
}

fn draw_on<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, c: &Chart<'_>) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let t_end = c.t_end * c.scale;
    let util_area = match c.segments {
        Some(segments) => {
            let width = root.dim_in_pixel().0;
            let (charts, legend_area) = root.split_horizontally(width - LEGEND_WIDTH);
            let (upper, lower) = charts.split_vertically(560);
            // One bar per pixel column at most (`coarse`): the picture shows no more.
            let columns = upper.dim_in_pixel().0 as usize;
            let bars = coarse::bars(segments, c.t_end, columns, &ACTIVITIES);
            gantt(&upper, &bars, c, &c.title).map_err(err)?;
            let shown: Vec<Activity> = ACTIVITIES
                .into_iter()
                .filter(|&a| bars.iter().any(|b| b.activity == a))
                .collect();
            legend(&legend_area, &shown).map_err(err)?;
            lower
        }
        None => root.clone(),
    };
    let caption = if c.segments.is_some() {
        "fraction of PEs busy".to_string()
    } else {
        c.title.clone()
    };
    let mut chart = ChartBuilder::on(&util_area)
        .caption(caption, ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(50)
        .build_cartesian_2d(0f64..t_end, 0f64..1.05)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(c.x_desc)
        .y_desc("busy")
        .draw()
        .map_err(err)?;
    let columns = util_area.dim_in_pixel().0 as usize;
    let points: Vec<(f64, f64)> = coarse::curve(&c.utilization, c.t_end, columns)
        .into_iter()
        .map(|(t, f)| (t * c.scale, f))
        .collect();
    chart
        .draw_series(LineSeries::new(
            points,
            color(Activity::Working).stroke_width(2),
        ))
        .map_err(err)?;
    root.present().map_err(err)?;
    Ok(())
}

fn gantt<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    bars: &[Bar],
    c: &Chart<'_>,
    title: &str,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let (t_end, k) = (c.t_end * c.scale, c.scale);
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(50)
        .build_cartesian_2d(0f64..t_end, RowAxis::pes(c.pes, area.dim_in_pixel().1))?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_desc(c.x_desc)
        .y_desc("PE")
        .draw()?;
    for activity in ACTIVITIES {
        let c = color(activity);
        chart.draw_series(bars.iter().filter(|b| b.activity == activity).map(|b| {
            let y = f64::from(b.pe);
            Rectangle::new([(b.start * k, y + 0.05), (b.end * k, y + 0.95)], c.filled())
        }))?;
    }
    Ok(())
}

/// The legend of a Gantt chart in its own strip: a swatch and the name of each activity shown.
fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    shown: &[Activity],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let style = ("sans-serif", 15)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (i, &activity) in shown.iter().enumerate() {
        let y = 60 + 24 * i as i32;
        area.draw(&Rectangle::new(
            [(6, y - 7), (20, y + 7)],
            color(activity).filled(),
        ))?;
        area.draw(&Rectangle::new(
            [(6, y - 7), (20, y + 7)],
            RGBColor(120, 120, 120).stroke_width(1),
        ))?;
        area.draw(&Text::new(
            format!("{activity:?}").to_lowercase(),
            (28, y),
            style.clone(),
        ))?;
    }
    Ok(())
}
