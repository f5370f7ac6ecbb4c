//! What the simulator records over virtual time: per-PE segments for Gantt charts (small P)
//! and the utilization curve (any P), kept in a fixed number of bins whose width doubles
//! as the run grows, so memory stays constant even for 65,536 PEs.

pub use crate::trace::{Activity, Segment};

/// Per-PE segments, merged when contiguous and alike.
#[derive(Debug, Default)]
pub struct Timeline {
    segments: Vec<Segment>,
    last: Vec<Option<usize>>,
}

impl Timeline {
    /// A timeline for `p` PEs.
    pub fn new(p: usize) -> Self {
        Timeline {
            segments: Vec::new(),
            last: vec![None; p],
        }
    }

    /// Record that `pe` did `activity` during `[start, end)`.
    pub fn record(&mut self, pe: usize, start: u64, end: u64, activity: Activity) {
        if end <= start {
            return;
        }
        if let Some(i) = self.last[pe] {
            let s = &mut self.segments[i];
            if s.activity == activity && s.end == start {
                s.end = end;
                return;
            }
        }
        self.last[pe] = Some(self.segments.len());
        self.segments.push(Segment {
            pe: pe as u32,
            start,
            end,
            activity,
        });
    }

    /// All segments.
    pub fn into_segments(self) -> Vec<Segment> {
        self.segments
    }
}

const BINS: usize = 256;

/// Busy PE-time per time bin (work and splitting count as busy).
#[derive(Debug)]
pub struct Utilization {
    width: u64,
    bins: Vec<f64>,
}

impl Default for Utilization {
    fn default() -> Self {
        Utilization {
            width: 1,
            bins: vec![0.0; BINS],
        }
    }
}

impl Utilization {
    /// Add one PE busy during `[start, end)`.
    pub fn add(&mut self, start: u64, end: u64) {
        if end <= start {
            return;
        }
        // (In u128: times go up to 2^64 − 1, where the simulator stops a run.)
        while u128::from(end) > u128::from(self.width) * BINS as u128 {
            // Double the bin width: merge neighbouring bins.
            for i in 0..BINS / 2 {
                self.bins[i] = self.bins[2 * i] + self.bins[2 * i + 1];
            }
            for b in &mut self.bins[BINS / 2..] {
                *b = 0.0;
            }
            self.width *= 2;
        }
        // The width is a power of two: a shift, not a division, per slice.
        let shift = self.width.trailing_zeros();
        let mut t = start;
        while t < end {
            let bin = (t >> shift) as usize;
            let bin_end = (bin as u64 + 1).saturating_mul(self.width);
            let stop = end.min(bin_end);
            self.bins[bin] += (stop - t) as f64;
            t = stop;
        }
    }

    /// The curve (bin start time, fraction of the `p` PEs busy) up to `t_end`.
    pub fn curve(&self, p: usize, t_end: u64) -> Vec<(u64, f64)> {
        let n = (t_end.div_ceil(self.width) as usize).clamp(1, BINS);
        (0..n)
            .map(|i| {
                (
                    i as u64 * self.width,
                    self.bins[i] / (p as f64 * self.width as f64),
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utilization_keeps_totals_when_rebinning() {
        let mut u = Utilization::default();
        u.add(0, 10);
        u.add(5, 1000);
        u.add(900, 5000);
        let total: f64 = u.bins.iter().sum();
        assert_eq!(total, (10 + 995 + 4100) as f64);
        let curve = u.curve(2, 5000);
        assert!(curve.iter().all(|&(_, f)| (0.0..=1.0).contains(&f)));
    }

    #[test]
    fn timeline_merges_contiguous_segments() {
        let mut t = Timeline::new(2);
        t.record(0, 0, 5, Activity::Working);
        t.record(0, 5, 9, Activity::Working);
        t.record(0, 9, 10, Activity::Splitting);
        t.record(1, 0, 10, Activity::Idle);
        let s = t.into_segments();
        assert_eq!(s.len(), 3);
        assert_eq!((s[0].start, s[0].end), (0, 9));
    }
}
