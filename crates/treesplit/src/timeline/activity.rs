//! What a run's PEs spent their time on, as pictures need it ([`ActivityLog`]): per-PE
//! [`Segment`]s for Gantt charts, merged when contiguous and alike (kept only for small P),
//! and the utilization curve at any P, in a fixed number of bins whose width doubles as the
//! run grows, so that its memory stays constant even for a million PEs.
//!
//! One log serves every machine: the simulator records into it as it charges each PE's
//! virtual time (live, so the curve covers the whole run whatever the trace rings kept), and a
//! real run's is made from its recorded trace ([`super::Trace::activities`]).

use super::{Activity, Segment};

/// Per-PE segments, merged when contiguous and alike.
#[derive(Debug)]
struct Segments {
    segments: Vec<Segment>,
    last: Vec<Option<usize>>,
}

impl Segments {
    fn record(&mut self, pe: usize, start: u64, end: u64, activity: Activity) {
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
}

const BINS: usize = 256;

/// Busy PE-time per time bin (work and splitting count as busy).
#[derive(Debug, Clone)]
struct Utilization {
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
    fn add(&mut self, start: u64, end: u64) {
        if end <= start {
            return;
        }
        // (In u128: times go up to 2^64 − 1, where the simulator stops a run.)
        while u128::from(end) > u128::from(self.width) * BINS as u128 {
            // Double the bin width: merge neighbouring bins.
            self.widen(self.width * 2);
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

    /// Double the bin width until it is at least `width`.
    fn widen(&mut self, width: u64) {
        while self.width < width {
            for i in 0..BINS / 2 {
                self.bins[i] = self.bins[2 * i] + self.bins[2 * i + 1];
            }
            for b in &mut self.bins[BINS / 2..] {
                *b = 0.0;
            }
            self.width *= 2;
        }
    }

    /// Add the busy time recorded by `other`. The bins are sums of whole numbers below
    /// 2^53, so the result is the same, bit for bit, as one log of both.
    fn merge(&mut self, mut other: Utilization) {
        self.widen(other.width);
        other.widen(self.width);
        for (a, b) in self.bins.iter_mut().zip(other.bins) {
            *a += b;
        }
    }

    /// The curve (bin start time, fraction of the `p` PEs busy) up to `t_end`.
    fn curve(&self, p: usize, t_end: u64) -> Vec<(u64, f64)> {
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

/// What every PE did when: Gantt segments (when kept) and the utilization curve, from the
/// same intervals.
#[derive(Debug)]
pub struct ActivityLog {
    segments: Option<Segments>,
    utilization: Utilization,
}

impl ActivityLog {
    /// A log of the utilization curve, and of the Gantt segments of `pes` PEs when
    /// `segments` is true.
    pub fn new(pes: usize, segments: bool) -> Self {
        ActivityLog {
            segments: segments.then(|| Segments {
                segments: Vec::new(),
                last: vec![None; pes],
            }),
            utilization: Utilization::default(),
        }
    }

    /// Add what `other`, a log of other PEs of the same run, recorded (the utilization
    /// curve; the simulator keeps Gantt segments only when one engine runs all PEs).
    pub fn merge(&mut self, other: ActivityLog) {
        debug_assert!(other.segments.is_none(), "segments are not merged");
        self.utilization.merge(other.utilization);
    }

    /// Record that PE `pe` did `activity` during `[start, end)` (nothing when it is empty).
    #[inline]
    pub fn record(&mut self, pe: usize, start: u64, end: u64, activity: Activity) {
        if matches!(activity, Activity::Working | Activity::Splitting) {
            self.utilization.add(start, end);
        }
        if let Some(s) = &mut self.segments {
            if end > start {
                s.record(pe, start, end, activity);
            }
        }
    }

    /// The utilization curve of `p` PEs up to `t_end`: (bin start time, fraction of the PEs
    /// busy in the bin), bins of a power-of-two width, at most 256 of them.
    pub fn curve(&self, p: usize, t_end: u64) -> Vec<(u64, f64)> {
        self.utilization.curve(p, t_end)
    }

    /// Whether the Gantt segments are kept.
    pub fn keeps_segments(&self) -> bool {
        self.segments.is_some()
    }

    /// The Gantt segments, in the order they were begun, if kept.
    pub fn into_segments(self) -> Option<Vec<Segment>> {
        self.segments.map(|s| s.segments)
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
    fn segments_merge_when_contiguous_and_alike_and_only_busy_time_counts() {
        let mut log = ActivityLog::new(2, true);
        log.record(0, 0, 5, Activity::Working);
        log.record(0, 5, 9, Activity::Working);
        log.record(0, 9, 10, Activity::Splitting);
        log.record(1, 0, 10, Activity::Idle);
        log.record(1, 10, 10, Activity::Working);
        let curve = log.curve(2, 10);
        let busy: f64 = curve.iter().map(|&(_, f)| f).sum();
        assert_eq!(busy * 2.0, 10.0, "{curve:?}");
        let s = log.into_segments().unwrap();
        assert_eq!(s.len(), 3);
        assert_eq!((s[0].start, s[0].end), (0, 9));
        assert!(ActivityLog::new(2, false).into_segments().is_none());
    }
}
