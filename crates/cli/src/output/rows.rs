//! The row axis of the charts ([`RowAxis`]): one row per PE of a Gantt chart or DAG schedule,
//! one per balancer of a comparison. Row `i` spans `[i, i + 1)` of a linear axis; the ticks sit
//! at the rows' centres and are labelled with whole row names (a PE's number, a balancer's
//! name), never with the fractions plotters' own `f64` axis would print, and only as many as
//! fit ([`pe_ticks`] picks every 1st, 2nd, 5th, 10th, … PE). Part of the output layer, for
//! `plot`.

use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;

/// Pixels a row label needs from the next one.
const LABEL_PITCH: u32 = 18;

/// How many row labels fit on an axis of a chart `height` pixels tall (captions, margins and
/// the time axis take about 110 of them).
pub fn labels_fitting(height: u32) -> usize {
    (height.saturating_sub(110) / LABEL_PITCH).max(2) as usize
}

/// The rows of a PE axis to label: every `step`-th PE from 0, where `step` is the smallest of
/// 1, 2, 5, 10, 20, 50, … that leaves at most `max_labels` of them.
pub fn pe_ticks(pes: usize, max_labels: usize) -> Vec<usize> {
    let max = max_labels.max(1);
    let step = (0u32..)
        .flat_map(|e| [1, 2, 5].map(|m| m * 10usize.saturating_pow(e)))
        .find(|&s| pes.div_ceil(s) <= max)
        .unwrap_or(pes.max(1));
    (0..pes).step_by(step).collect()
}

/// An axis of `rows` rows, labelled at the centres of `ticks` by `label(row)`.
pub struct RowAxis<'a> {
    linear: RangedCoordf64,
    ticks: Vec<usize>,
    label: Box<dyn Fn(usize) -> String + 'a>,
}

impl<'a> RowAxis<'a> {
    /// Rows labelled at `ticks` by `label`.
    pub fn new(rows: usize, ticks: Vec<usize>, label: impl Fn(usize) -> String + 'a) -> Self {
        RowAxis {
            linear: (0f64..rows.max(1) as f64).into(),
            ticks,
            label: Box::new(label),
        }
    }

    /// One row per PE, numbered, as many labelled as fit in a chart `height` pixels tall.
    pub fn pes(pes: usize, height: u32) -> Self {
        Self::new(pes, pe_ticks(pes, labels_fitting(height)), |pe| {
            pe.to_string()
        })
    }
}

impl Ranged for RowAxis<'_> {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.linear.map(value, limit)
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            return Vec::new();
        }
        self.ticks.iter().map(|&row| row as f64 + 0.5).collect()
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.linear.range()
    }
}

impl ValueFormatter<f64> for RowAxis<'_> {
    fn format(value: &f64) -> String {
        format!("{}", value.floor() as u64)
    }

    fn format_ext(&self, value: &f64) -> String {
        (self.label)(value.floor() as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::coord::ranged1d::BoldPoints;

    #[test]
    fn pe_ticks_are_as_many_as_fit_evenly_spaced_from_0() {
        assert_eq!(pe_ticks(4, 25), [0, 1, 2, 3]);
        assert_eq!(pe_ticks(64, 25), (0..64).step_by(5).collect::<Vec<_>>());
        assert_eq!(pe_ticks(512, 25).len(), 11); // every 50th
        assert_eq!(pe_ticks(65_536, 25).len(), 14); // every 5,000th
        for (p, max) in [(1, 1), (7, 3), (30, 30), (31, 30), (1000, 2), (100_000, 25)] {
            let ticks = pe_ticks(p, max);
            assert!(
                !ticks.is_empty() && ticks.len() <= max,
                "P = {p}, max {max}: {ticks:?}"
            );
            assert!(ticks.iter().all(|&t| t < p), "{ticks:?}");
        }
    }

    #[test]
    fn row_labels_are_whole_names_at_row_centres() {
        let axis = RowAxis::pes(4, 560);
        let ticks = axis.key_points(BoldPoints(100));
        assert_eq!(ticks, [0.5, 1.5, 2.5, 3.5]);
        let labels: Vec<String> = ticks.iter().map(|t| axis.format_ext(t)).collect();
        assert_eq!(labels, ["0", "1", "2", "3"]);
        let names = ["top", "bottom"];
        let axis = RowAxis::new(2, vec![0, 1], |i| names[1 - i].to_string());
        assert_eq!(axis.format_ext(&0.5), "bottom");
        assert_eq!(axis.format_ext(&1.5), "top");
    }
}
