//! The independent jobs of paper 001's experiments: [`JobList`], a task of m jobs with known
//! sizes whose pieces are ranges of unit positions (no table travels with them), and
//! [`uniform_sizes`], the sizes it draws.

use crate::scatter::montecarlo::mix;
use serde::{Deserialize, Serialize};
use treesplit::{simulate, Config, Context, Outcome, SimConfig, SimReport, Task};

/// What a [`JobList`] run produces: units done and, when counted, the pieces of each job.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(super) struct JobOut {
    /// Work units done.
    pub units: u64,
    /// Pieces each job was worked in (empty unless counted).
    pub pieces: Vec<u32>,
}

impl Outcome for JobOut {
    fn merge(&mut self, other: Self) {
        self.units += other.units;
        if self.pieces.len() < other.pieces.len() {
            self.pieces.resize(other.pieces.len(), 0);
        }
        for (a, b) in self.pieces.iter_mut().zip(other.pieces) {
            *a += b;
        }
    }
}

/// m independent jobs with sizes 1 + hash(j, seed) mod t̂ (the same as [`uniform_sizes`]).
/// Job j occupies the unit positions j·t̂ .. j·t̂ + t_j (positions between jobs are gaps), so a
/// piece is a range lo..hi of positions and carries no table (messages stay small). `split`
/// cuts at the job boundary in the middle by job count (a single job does not split: a job is
/// atomic for every balancer but splittable prefix-sum assignment, which cuts anywhere with
/// `split_at`). `left` caches the units left.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct JobList {
    seed: u64,
    t_max: u64,
    jobs: u64,
    lo: u64,
    hi: u64,
    pub(super) left: u64,
    /// Count the pieces of each job (Exercise 14.2).
    count: bool,
    counted: bool,
}

impl JobList {
    /// m jobs with sizes uniform in 1..=t_max from `seed`.
    pub fn new(m: u64, t_max: u64, seed: u64, count: bool) -> JobList {
        let mut j = JobList {
            seed,
            t_max,
            jobs: m,
            lo: 0,
            hi: m * t_max,
            left: 0,
            count,
            counted: false,
        };
        j.left = j.units_in(0, j.hi);
        j
    }

    fn size(&self, j: u64) -> u64 {
        1 + mix(j ^ mix(self.seed)) % self.t_max
    }

    /// Units of the jobs within positions a..b.
    fn units_in(&self, a: u64, b: u64) -> u64 {
        if a >= b {
            return 0;
        }
        let t = self.t_max;
        (a / t..=(b - 1) / t)
            .map(|j| (b.min(j * t + self.size(j))).saturating_sub(a.max(j * t)))
            .sum()
    }
}

/// m job sizes uniform in 1..=t_max (a hash of the index and the seed).
pub(super) fn uniform_sizes(m: u64, t_max: u64, seed: u64) -> Vec<u64> {
    (0..m).map(|j| 1 + mix(j ^ mix(seed)) % t_max).collect()
}

impl Task for JobList {
    type Output = JobOut;

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, JobOut>) -> u64 {
        let t = self.t_max;
        if self.count && !self.counted && self.left > 0 {
            self.counted = true;
            let out = ctx.output();
            if (out.pieces.len() as u64) < self.jobs {
                out.pieces.resize(self.jobs as usize, 0);
            }
            for j in self.lo / t..=(self.hi - 1) / t {
                if self.hi.min(j * t + self.size(j)) > self.lo.max(j * t) {
                    out.pieces[j as usize] += 1;
                }
            }
        }
        let mut done = 0;
        while done < budget && self.lo < self.hi {
            let j = self.lo / t;
            let job_end = (j * t + self.size(j)).min(self.hi);
            if self.lo >= job_end {
                self.lo = ((j + 1) * t).min(self.hi);
                continue;
            }
            let take = (budget - done).min(job_end - self.lo);
            self.lo += take;
            done += take;
        }
        self.left -= done;
        ctx.output().units += done;
        done
    }

    fn split(&mut self) -> Option<Self> {
        if self.left == 0 {
            return None;
        }
        let t = self.t_max;
        let (a, b) = (self.lo / t, (self.hi - 1) / t);
        if a == b {
            return None;
        }
        let cut = (a + b).div_ceil(2) * t;
        let rest_left = self.units_in(cut, self.hi);
        let rest = JobList {
            lo: cut,
            left: rest_left,
            counted: false,
            ..self.clone()
        };
        self.hi = cut;
        self.left -= rest_left;
        Some(rest)
    }

    fn is_empty(&self) -> bool {
        self.left == 0
    }

    fn estimate(&self) -> Option<u64> {
        Some(self.left)
    }

    fn split_at(&mut self, units: u64) -> Option<Self> {
        if units == 0 || units >= self.left {
            return None;
        }
        let t = self.t_max;
        let mut acc = 0;
        let mut j = self.lo / t;
        let cut = loop {
            let start = self.lo.max(j * t);
            let avail = (j * t + self.size(j)).min(self.hi).saturating_sub(start);
            if acc + avail >= units {
                break start + (units - acc);
            }
            acc += avail;
            j += 1;
        };
        let rest = JobList {
            lo: cut,
            left: self.left - units,
            counted: false,
            ..self.clone()
        };
        self.hi = cut;
        self.left = units;
        Some(rest)
    }
}

/// Jobs with sizes given one by one (Fig. 14.3's nine jobs): the jobs `lo..hi` of `sizes`
/// and, within job `lo`, the units `done` already cut off the front. `split` halves the
/// jobs by count (a single job does not split), `split_at` cuts anywhere, `estimate` is
/// exact. The output counts units and, per job, the pieces it was worked in.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct SizedJobs {
    sizes: Vec<u64>,
    lo: usize,
    hi: usize,
    /// Units of job `lo` before this piece (cut off by `split_at`).
    skip: u64,
    /// Units of job `hi − 1` this piece holds when a cut ends inside it (0: the whole job).
    last: u64,
    counted: bool,
}

impl SizedJobs {
    /// All of `sizes`.
    pub fn new(sizes: Vec<u64>) -> SizedJobs {
        let hi = sizes.len();
        SizedJobs {
            sizes,
            lo: 0,
            hi,
            skip: 0,
            last: 0,
            counted: false,
        }
    }

    /// Units job j holds in this piece.
    fn held(&self, j: usize) -> u64 {
        let end = if j + 1 == self.hi && self.last > 0 {
            self.last
        } else {
            self.sizes[j]
        };
        end - if j == self.lo { self.skip } else { 0 }
    }

    fn left(&self) -> u64 {
        (self.lo..self.hi).map(|j| self.held(j)).sum()
    }
}

impl Task for SizedJobs {
    type Output = JobOut;

    fn work(&mut self, budget: u64, ctx: &mut Context<'_, JobOut>) -> u64 {
        if !self.counted && self.lo < self.hi {
            self.counted = true;
            let out = ctx.output();
            out.pieces.resize(out.pieces.len().max(self.sizes.len()), 0);
            for j in self.lo..self.hi {
                out.pieces[j] += 1;
            }
        }
        let mut done = 0;
        while done < budget && self.lo < self.hi {
            let take = (budget - done).min(self.held(self.lo));
            done += take;
            if take == self.held(self.lo) {
                if self.lo + 1 == self.hi {
                    self.last = 0;
                }
                self.lo += 1;
                self.skip = 0;
            } else {
                self.skip += take;
            }
        }
        ctx.output().units += done;
        done
    }

    fn split(&mut self) -> Option<Self> {
        if self.hi - self.lo < 2 {
            return None;
        }
        let mid = self.lo + (self.hi - self.lo).div_ceil(2);
        let rest = SizedJobs {
            lo: mid,
            skip: 0,
            counted: false,
            ..self.clone()
        };
        self.hi = mid;
        self.last = 0;
        Some(rest)
    }

    fn is_empty(&self) -> bool {
        self.lo >= self.hi
    }

    fn estimate(&self) -> Option<u64> {
        Some(self.left())
    }

    fn split_at(&mut self, units: u64) -> Option<Self> {
        if units == 0 || units >= self.left() {
            return None;
        }
        let (mut j, mut acc) = (self.lo, 0);
        while acc + self.held(j) < units {
            acc += self.held(j);
            j += 1;
        }
        // The cut lies inside job j (or at its end), `units − acc` units into what this
        // piece holds of it.
        let start = if j == self.lo { self.skip } else { 0 };
        let at = start + (units - acc);
        let whole = j + 1 == self.hi && self.last > 0;
        let end = if whole { self.last } else { self.sizes[j] };
        let mut rest = SizedJobs {
            counted: false,
            ..self.clone()
        };
        if at == end {
            rest.lo = j + 1;
            rest.skip = 0;
            self.hi = j + 1;
            self.last = if whole { end } else { 0 };
        } else {
            rest.lo = j;
            rest.skip = at;
            self.hi = j + 1;
            self.last = at;
        }
        Some(rest)
    }
}

/// Simulate a bag of jobs, `root`, with `config` on `machine`, and check that the run did
/// every one of its `total` units (the claims' measurements rest on it).
pub(super) fn simulate_jobs<T: Task<Output = JobOut>>(
    root: T,
    config: &Config,
    machine: &SimConfig,
    total: u64,
) -> Result<SimReport<JobOut>, String> {
    let r = simulate(root, config, machine)
        .map_err(|e| e.to_string())?
        .into_report();
    if r.report.output.units != total {
        return Err(format!("{} units, not {total}", r.report.output.units));
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cut `task` at every offset it holds and check both parts' estimates and their union.
    fn cuts_conserve(task: &SizedJobs) {
        let left = task.left();
        for units in 1..left {
            let mut a = task.clone();
            let b = a.split_at(units).expect("a cut inside the piece");
            assert_eq!(
                (a.left(), b.left()),
                (units, left - units),
                "{task:?} at {units}"
            );
            for part in [a, b] {
                if part.left() > 1 {
                    cuts_conserve(&part);
                }
            }
        }
    }

    #[test]
    fn sized_jobs_split_and_cut_conserve_the_units() {
        let jobs = SizedJobs::new(vec![2, 3, 1, 4]);
        assert_eq!(jobs.left(), 10);
        let mut a = jobs.clone();
        let b = a.split().unwrap();
        assert_eq!((a.left(), b.left()), (5, 5));
        cuts_conserve(&SizedJobs::new(vec![2, 3, 1]));
        let mut c = jobs.clone();
        assert!(c.split_at(0).is_none() && c.split_at(10).is_none());
    }
}
