//! A timeline cut down to the picture's resolution before it is drawn. A run on hundreds of
//! PEs records millions of state changes; drawn one rectangle each, a Gantt chart of 512 PEs
//! becomes an SVG of hundreds of megabytes that renderers refuse, though the picture is only
//! about a thousand pixels wide. Here each PE's row is cut into one span per pixel column,
//! each span takes the activity that covers most of it, and equal neighbours are joined; the
//! utilization curve keeps, per column, its first, lowest, highest and last points, so its
//! envelope is drawn exactly. A chart is then bounded by PEs × columns rectangles whatever
//! the run. Part of the output layer; imports none of our modules.

use treesplit::timeline::{Activity, Segment};

/// One drawn bar of a Gantt row: PE `pe` did `activity` over `[start, end)` (in ticks).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bar {
    pub pe: u32,
    pub start: f64,
    pub end: f64,
    pub activity: Activity,
}

/// `segments` over `[0, t_end)` (ticks) as at most `columns` bars per PE, in the order of
/// `kinds` for ties (an activity not in `kinds` is not drawn).
pub fn bars(segments: &[Segment], t_end: f64, columns: usize, kinds: &[Activity]) -> Vec<Bar> {
    let columns = columns.max(1);
    let width = t_end.max(1.0) / columns as f64;
    let mut order: Vec<&Segment> = segments.iter().filter(|s| s.end > s.start).collect();
    order.sort_by_key(|s| (s.pe, s.start));
    let mut bars = Vec::new();
    // The time each activity covers in each column of the current PE's row.
    let mut cover = vec![vec![0f64; kinds.len()]; columns];
    let mut at = 0;
    while at < order.len() {
        let pe = order[at].pe;
        let row_end = order[at..].partition_point(|s| s.pe == pe) + at;
        cover.iter_mut().for_each(|c| c.fill(0.0));
        for s in &order[at..row_end] {
            let Some(k) = kinds.iter().position(|&a| a == s.activity) else {
                continue;
            };
            let (a, b) = (s.start as f64, (s.end as f64).min(t_end));
            let mut col = ((a / width) as usize).min(columns - 1);
            while col < columns {
                let (lo, hi) = (col as f64 * width, (col + 1) as f64 * width);
                let overlap = b.min(hi) - a.max(lo);
                if overlap > 0.0 {
                    cover[col][k] += overlap;
                }
                if b <= hi {
                    break;
                }
                col += 1;
            }
        }
        let mut open: Option<Bar> = None;
        for (col, c) in cover.iter().enumerate() {
            // The activity covering most of the column; ties go to the earlier kind.
            let top = c.iter().enumerate().filter(|&(_, &t)| t > 0.0).fold(
                None,
                |best: Option<(usize, f64)>, (k, &t)| match best {
                    Some((_, b)) if b >= t => best,
                    _ => Some((k, t)),
                },
            );
            let (lo, hi) = (col as f64 * width, (col + 1) as f64 * width);
            match (top, open.as_mut()) {
                (Some((k, _)), Some(bar)) if bar.activity == kinds[k] && bar.end == lo => {
                    bar.end = hi;
                }
                (top, _) => {
                    bars.extend(open.take());
                    open = top.map(|(k, _)| Bar {
                        pe,
                        start: lo,
                        end: hi,
                        activity: kinds[k],
                    });
                }
            }
        }
        bars.extend(open);
        at = row_end;
    }
    bars
}

/// `points` (time-ordered `(tick, value)`) over `[0, t_end)` with at most four per column:
/// each column's first, lowest, highest and last point, in time order.
pub fn curve(points: &[(f64, f64)], t_end: f64, columns: usize) -> Vec<(f64, f64)> {
    let columns = columns.max(1);
    if points.len() <= 4 * columns {
        return points.to_vec();
    }
    let width = t_end.max(1.0) / columns as f64;
    let column = |t: f64| ((t / width).max(0.0) as usize).min(columns - 1);
    let mut kept = Vec::with_capacity(4 * columns);
    let mut at = 0;
    while at < points.len() {
        let col = column(points[at].0);
        let end = points[at..].partition_point(|p| column(p.0) == col) + at;
        let run = &points[at..end];
        let low = (0..run.len()).min_by(|&i, &j| run[i].1.total_cmp(&run[j].1));
        let high = (0..run.len()).max_by(|&i, &j| run[i].1.total_cmp(&run[j].1));
        let mut picks: Vec<usize> = [Some(0), low, high, Some(run.len() - 1)]
            .into_iter()
            .flatten()
            .collect();
        picks.sort_unstable();
        picks.dedup();
        kept.extend(picks.into_iter().map(|i| run[i]));
        at = end;
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    const KINDS: [Activity; 2] = [Activity::Idle, Activity::Working];

    fn seg(pe: u32, start: u64, end: u64, activity: Activity) -> Segment {
        Segment {
            pe,
            start,
            end,
            activity,
        }
    }

    #[test]
    fn a_row_of_many_changes_becomes_one_bar_per_run_of_columns() {
        // PE 0 alternates working 9 ticks and idle 1 tick for 1,000 ticks; PE 1 idles 500
        // ticks, then works. Ten columns of 100 ticks each.
        let mut segments: Vec<Segment> = (0..100)
            .flat_map(|i| {
                [
                    seg(0, 10 * i, 10 * i + 9, Activity::Working),
                    seg(0, 10 * i + 9, 10 * i + 10, Activity::Idle),
                ]
            })
            .collect();
        segments.push(seg(1, 0, 500, Activity::Idle));
        segments.push(seg(1, 500, 1000, Activity::Working));
        let bars = bars(&segments, 1000.0, 10, &KINDS);
        assert_eq!(
            bars,
            vec![
                Bar {
                    pe: 0,
                    start: 0.0,
                    end: 1000.0,
                    activity: Activity::Working
                },
                Bar {
                    pe: 1,
                    start: 0.0,
                    end: 500.0,
                    activity: Activity::Idle
                },
                Bar {
                    pe: 1,
                    start: 500.0,
                    end: 1000.0,
                    activity: Activity::Working
                },
            ]
        );
    }

    #[test]
    fn columns_no_segment_covers_stay_empty() {
        let bars = bars(&[seg(3, 250, 260, Activity::Working)], 1000.0, 10, &KINDS);
        assert_eq!(
            bars,
            vec![Bar {
                pe: 3,
                start: 200.0,
                end: 300.0,
                activity: Activity::Working
            }]
        );
    }

    #[test]
    fn a_long_curve_keeps_each_columns_extremes() {
        let points: Vec<(f64, f64)> = (0..10_000)
            .map(|i| (i as f64, if i == 4_321 { 1.0 } else { 0.5 }))
            .collect();
        let kept = curve(&points, 10_000.0, 100);
        assert!(kept.len() <= 400, "{}", kept.len());
        assert!(kept.contains(&(4_321.0, 1.0)), "the peak is kept");
        assert!(kept.windows(2).all(|w| w[0].0 < w[1].0), "time-ordered");
        let short = &points[..50];
        assert_eq!(curve(short, 50.0, 100), short.to_vec());
    }
}
