//! The housekeeping every balancer's PE shares, written once: [`PeCore`].
//!
//! Polling ([`super::polling::Polling`]) and the static balancers
//! ([`super::assignment::Core`]) differ in where work comes from and where it goes; they do
//! not differ in how a message is queued and counted, how the root is broadcast down the
//! binary tree of PEs, how a piece is reported to termination detection, how termination
//! signals become messages, how an early stop floods the tree, how splits are charged, or
//! what happens when a task makes no progress. That is this module.
//!
//! **Pieces and records.** A *piece* is a subproblem in transit or held (a split-off part,
//! the root copy, a bundle, a scattered subproblem). Termination detection keeps each piece a
//! PE holds under a *record* (`u64`); a piece travels with its sender's record, named
//! `token` in the messages, and the receiver opens a record of its own for it
//! ([`PeCore::receive_piece`]). A record is finished once its piece is worked to the end or
//! given away ([`PeCore::finish_piece`]).
//!
//! **The progress rule.** `Task::work` on a non-empty task with a positive budget should do
//! at least one unit. A slice that does none is a *stall*; a PE tolerates
//! [`STALL_LIMIT`] − 1 consecutive stalls (the task may be waiting for something, e.g. a
//! better incumbent) and raises a contract violation at the `STALL_LIMIT`-th, so that a
//! broken task is an error naming the PE instead of a hang. Any slice that does work, or empties its task, resets
//! the count. Every balancer works through [`PeCore::work_on`], so the rule is the same
//! everywhere.

use super::termination::{Local, Signal, Termination};
use super::{tree, Costs, Env, Message, PeCounters, PeId, Step};
use crate::config::Config;
use crate::piece::{Bench, Fresh, Piece, PlainRun, Yield};
use crate::small_queue::SmallQueue;
use crate::task::Incumbent;

/// Consecutive work slices without progress on a non-empty task after which a PE panics.
pub(crate) const STALL_LIMIT: u32 = 1000;

/// How a work slice ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SliceEnd {
    /// The task asked for an early stop (`Context::stop`): the caller must call
    /// [`PeCore::begin_stop`] and drop its work.
    Stop,
    /// The task is empty: the caller removes it and finishes its piece.
    Emptied,
    /// The task has work left.
    More,
}

/// What one work slice did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Slice {
    /// Work units done.
    pub units: u64,
    /// How it ended.
    pub end: SliceEnd,
}

/// The state every PE has, whatever its balancer: its place among the PEs, the outgoing
/// queue, counters and costs, the result accumulator, termination detection and the
/// early-stop flag. (`repr(C)`: the fields a work slice touches come first.)
#[repr(C)]
pub(crate) struct PeCore {
    delta_t: u64,
    costs: Costs,
    stalled_slices: u32,
    stopped: bool,
    /// `Config::keep_remaining`: a stop keeps the work it would drop, in `kept`.
    keep_remaining: bool,
    output: Yield,
    counters: PeCounters,
    /// Messages to send, until the driver's next flush (mostly one, held inline).
    out: SmallQueue<(PeId, Message), 1>,
    termination: Termination,
    me: PeId,
    p: usize,
    /// The work a stop left unfinished on this PE (only under `keep_remaining`).
    kept: Vec<Piece>,
    /// The simulator's run-ahead in progress, if any ([`PeCore::run_ahead`]).
    ahead: Option<Ahead>,
    /// The state a run-ahead returns to (its task and accumulator), kept between run-aheads
    /// so that taking one copies into memory it already has.
    snapshot: Option<(Piece, Yield)>,
}

/// Slices run ahead of their time: done already (the state to return to should a message
/// come first is `PeCore::snapshot`), or, `lazy`, only counted within the task's promise of
/// plain units and done when the run-ahead ends.
struct Ahead {
    slices: u32,
    budget: u64,
    lazy: bool,
}

/// How far a run-ahead may go ([`PeCore::run_ahead`]): the most slices done ahead of their
/// time (with a copy to return to), and the most only counted within a task's promise of
/// plain units (a lazy run-ahead, which costs nothing when a message cuts it short).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reach {
    pub(crate) done: u32,
    pub(crate) counted: u32,
}

/// How a run-ahead ran, as its end tells the engine ([`PeCore::settle_ahead`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RunAhead {
    /// Its slices were only counted (lazy): those not kept were never done, and undoing
    /// them cost nothing.
    Counted,
    /// Its slices were done ahead: those not kept were undone by returning to a copy and
    /// doing the kept ones again.
    Done,
}

/// The incumbent as a slice run ahead sees it: the PE's value, never changed; an offer that
/// would improve it is only noted (that slice is undone and runs again in its time).
struct Tentative<'a> {
    inner: &'a dyn Incumbent,
    improved: std::sync::atomic::AtomicBool,
}

impl Incumbent for Tentative<'_> {
    fn best(&self) -> i64 {
        self.inner.best()
    }
    fn offer(&self, value: i64) -> bool {
        let better = value > self.inner.best();
        if better {
            self.improved
                .store(true, std::sync::atomic::Ordering::Relaxed);
        }
        better
    }
}

impl PeCore {
    /// The record of the root piece on the PE that starts with it.
    pub(crate) const ROOT_RECORD: u64 = Termination::ROOT_RECORD;

    /// PE `me` of the configured run on `env`'s network; `holds_root` on the PE that starts
    /// with work; `fresh` makes the run's result accumulators.
    pub(crate) fn new(
        me: PeId,
        config: &Config,
        env: &Env,
        fresh: Fresh,
        holds_root: bool,
    ) -> Self {
        PeCore {
            me,
            p: config.pes,
            // A slice never does more than a `max_units` limit allows, so that a huge Δt
            // cannot carry a run far past its limit before the driver checks it.
            delta_t: config
                .delta_t
                .min(config.max_units.unwrap_or(u64::MAX))
                .max(1),
            out: SmallQueue::new(),
            counters: PeCounters::default(),
            costs: Costs::default(),
            output: fresh.make(),
            termination: Termination::new(
                config.termination,
                me,
                config.pes,
                env.network,
                env.adversary.chain_reduction,
                holds_root,
                fresh,
            ),
            stopped: false,
            keep_remaining: config.keep_remaining,
            kept: Vec::new(),
            stalled_slices: 0,
            ahead: None,
            snapshot: None,
        }
    }

    /// This PE.
    pub(crate) fn me(&self) -> PeId {
        self.me
    }

    /// The number of PEs.
    pub(crate) fn p(&self) -> usize {
        self.p
    }

    // --- messages and counters -------------------------------------------------------------

    /// Queue a message (and count it).
    pub(crate) fn send(&mut self, to: PeId, message: Message) {
        self.counters.messages_sent += 1;
        self.out.push_back((to, message));
    }

    /// Queue `message()` for each child in the binary tree of PEs.
    pub(crate) fn send_to_children(&mut self, message: impl Fn() -> Message) {
        for child in tree::children(self.me, self.p) {
            self.send(child, message());
        }
    }

    /// The next message to send.
    pub(crate) fn poll_transmit(&mut self) -> Option<(PeId, Message)> {
        self.out.pop_front()
    }

    /// This PE's counters.
    pub(crate) fn counters(&self) -> &PeCounters {
        &self.counters
    }

    /// This PE's result accumulator (the DAG schedulers record their tasks in it).
    pub(crate) fn output_mut(&mut self) -> &mut Yield {
        &mut self.output
    }

    /// This PE's counters, for the balancer's own counts (requests, rejections).
    pub(crate) fn counters_mut(&mut self) -> &mut PeCounters {
        &mut self.counters
    }

    /// A piece of generation `generation` is held here (the splitting depth seen).
    pub(crate) fn note_generation(&mut self, generation: u32) {
        self.counters.max_generation = self.counters.max_generation.max(generation);
    }

    /// A subproblem of generation `generation` ceased to exist here: it was split (its parts
    /// are of the next generation) or worked to its end.
    pub(crate) fn generation_ended(&mut self, generation: u32) {
        self.costs.ended = Some(self.costs.ended.map_or(generation, |g| g.min(generation)));
    }

    /// Count `n` splits of this PE's tasks and charge them as costs.
    pub(crate) fn count_splits(&mut self, n: u64) {
        self.counters.splits += n;
        self.costs.splits += n;
    }

    /// Work done while cutting a bag that this PE is credited with: `units` work units of
    /// the run and their `output` (merged into this PE's accumulator).
    pub(crate) fn credit_work(&mut self, units: u64, output: Option<Yield>) {
        self.counters.work_units += units;
        if let Some(output) = output {
            self.output.merge(output);
        }
    }

    /// Count one increment of a global counter this PE holds, as a cost ([`Costs::counts`]).
    pub(crate) fn count_increment(&mut self) {
        self.costs.counts += 1;
    }

    /// Charge `units` of work no slice reports as costs (see [`Costs::cut_work`]).
    pub(crate) fn charge_work(&mut self, units: u64) {
        self.costs.cut_work += units;
    }

    /// The costs since the last call.
    pub(crate) fn take_costs(&mut self) -> Costs {
        std::mem::take(&mut self.costs)
    }

    // --- pieces ----------------------------------------------------------------------------

    /// Send a piece split off (or taken whole from) the piece kept under `record` to PE `to`:
    /// `message(token)` builds the message from the token it travels with. Counted as a work
    /// message, so termination cannot be declared while it travels.
    pub(crate) fn send_piece(
        &mut self,
        to: PeId,
        record: u64,
        message: impl FnOnce(u64) -> Message,
    ) {
        self.counters.pieces_sent += 1;
        let token = self.termination.on_piece_sent(record);
        self.send(to, message(token));
    }

    /// A piece sent with `token` arrived from PE `from`: count it; returns its record here.
    pub(crate) fn receive_piece(&mut self, from: PeId, token: u64) -> u64 {
        self.counters.pieces_received += 1;
        self.termination.on_piece_received(from, token)
    }

    /// The piece kept under `record` is done: worked to the end, dropped by an early stop, or
    /// given away whole.
    pub(crate) fn finish_piece(&mut self, record: u64) {
        self.termination.on_piece_finished(record, &mut self.output);
    }

    /// Broadcast the root down the binary tree of PEs: a copy to each child as `Root`, sent
    /// from the piece kept under `record` (fast initialization; the static balancers' start).
    pub(crate) fn broadcast_root(&mut self, root: &Piece, record: u64) {
        for child in tree::children(self.me, self.p) {
            self.send_piece(child, record, |token| Message::Root {
                task: root.clone(),
                token,
            });
        }
    }

    // --- work ------------------------------------------------------------------------------

    /// Where a slice works: this PE's accumulator, with `incumbent`.
    fn bench<'a>(&'a mut self, incumbent: &'a dyn Incumbent) -> Bench<'a> {
        Bench {
            output: &mut self.output,
            incumbent,
            pe: self.me,
        }
    }

    /// Run `task` for at most `budget` units, count the slice and apply the progress rule
    /// (module comment).
    pub(crate) fn work_on(
        &mut self,
        task: &mut Piece,
        budget: u64,
        incumbent: &dyn Incumbent,
    ) -> Slice {
        let worked = task.work(budget, &mut self.bench(incumbent));
        let units = worked.units;
        let end = if worked.stop {
            SliceEnd::Stop
        } else if worked.empty {
            SliceEnd::Emptied
        } else {
            SliceEnd::More
        };
        if cfg!(debug_assertions) && units > budget {
            // The cheap part of the contract checks, always on in debug builds.
            crate::error::violation(format!(
                "Task::work returned {units} units for a budget of {budget} (it may do at most \
                 its budget)"
            ));
        }
        self.counters.work_units += units;
        self.counters.slices += 1;
        if units == 0 && budget > 0 && end == SliceEnd::More {
            self.stalled_slices += 1;
            if self.stalled_slices >= STALL_LIMIT {
                crate::error::violation(format!(
                    "a task made no progress in {STALL_LIMIT} work slices but is not empty \
                     (Task::work must return at least 1)"
                ));
            }
        } else {
            self.stalled_slices = 0;
        }
        Slice { units, end }
    }

    /// The simulator's run-ahead: do up to `reach.done` more slices of `budget` units on
    /// `task` now, ahead of their virtual time, while each one is *plain* — it does its whole
    /// budget, leaves the task non-empty, asks for no stop, improves no incumbent and does not
    /// panic — so that the PE would do exactly the same, slice for slice, if no message
    /// reached it meanwhile. The first slice that is not plain is undone (it runs again in
    /// its time, through [`PeCore::work_on`]). Returns the slices done; the state before them
    /// is kept until [`PeCore::settle_ahead`]. Only call it right after a plain slice (the
    /// progress rule's count is then 0 and stays so).
    ///
    /// Where the task promises that many units plain (`Task::plain_units`), the run-ahead is
    /// *lazy*: up to `reach.counted` slices within the promise are only counted, and
    /// `settle_ahead` does the ones kept, in one call. Nothing is copied, and no unit is done
    /// twice. Otherwise up to `reach.done` slices are done now.
    pub(crate) fn run_ahead(
        &mut self,
        task: &mut Piece,
        budget: u64,
        reach: Reach,
        incumbent: &dyn Incumbent,
    ) -> u32 {
        debug_assert!(self.ahead.is_none(), "a run-ahead is in progress");
        if budget == 0 {
            return 0;
        }
        let promised = task.plain_units() / budget;
        if promised > 0 && reach.counted > 0 {
            let slices = promised.min(u64::from(reach.counted)) as u32;
            self.ahead = Some(Ahead {
                slices,
                budget,
                lazy: true,
            });
            return slices;
        }
        let max = reach.done;
        if max == 0 {
            return 0;
        }
        let (mut before, mut before_output) = match self.snapshot.take() {
            Some((mut before, mut before_output)) => {
                before.clone_from(task);
                before_output.clone_from(&self.output);
                (before, before_output)
            }
            None => (task.clone(), self.output.clone()),
        };
        let tentative = Tentative {
            inner: incumbent,
            improved: false.into(),
        };
        // One call for all the slices (the loop runs in the task's own code); a panic ends
        // them like a slice that is not plain.
        let mut slices = 0;
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let bench = &mut self.bench(&tentative);
            let run = PlainRun {
                budget,
                max,
                improved: &tentative.improved,
            };
            task.run_plain(&run, bench, &mut slices)
        }));
        if slices < max {
            // Undo the slice that was not plain: back to the start and the plain slices again
            // (no copy of the task per slice: that cost more than the slices for large tasks).
            if slices == 0 {
                std::mem::swap(task, &mut before);
                std::mem::swap(&mut self.output, &mut before_output);
                self.snapshot = Some((before, before_output));
                return 0;
            }
            task.clone_from(&before);
            self.output.clone_from(&before_output);
            tentative
                .improved
                .store(false, std::sync::atomic::Ordering::Relaxed);
            self.redo(task, budget, slices, &tentative);
        }
        self.snapshot = Some((before, before_output));
        self.ahead = Some(Ahead {
            slices,
            budget,
            lazy: false,
        });
        slices
    }

    /// Where the heap blocks of a slice on `task` lie: the piece, the output, and the copies
    /// of both kept for run-ahead (null where there is none).
    pub(crate) fn work_blocks(&self, task: &Piece) -> [*const u8; 4] {
        let (before, before_output) = match &self.snapshot {
            Some((piece, output)) => (piece.address(), output.address()),
            None => (std::ptr::null(), std::ptr::null()),
        };
        [task.address(), self.output.address(), before, before_output]
    }

    /// End the run-ahead on `task` (if one is in progress): keep its first `keep` slices —
    /// count them as slices of this PE — and undo the others (return to the state before the
    /// run-ahead and do the `keep` slices again; a lazy run-ahead does the `keep` slices now,
    /// in one call). Returns how the run-ahead ran (none in progress: [`RunAhead::Counted`],
    /// nothing to undo).
    pub(crate) fn settle_ahead(
        &mut self,
        task: &mut Piece,
        keep: u32,
        incumbent: &dyn Incumbent,
    ) -> RunAhead {
        let Some(ahead) = self.ahead.take() else {
            return RunAhead::Counted;
        };
        debug_assert!(keep <= ahead.slices);
        if ahead.lazy {
            self.work_promised(task, u64::from(keep) * ahead.budget, incumbent);
        } else if keep < ahead.slices {
            let (before, before_output) = self
                .snapshot
                .as_mut()
                .expect("the state before a run-ahead");
            std::mem::swap(task, before);
            std::mem::swap(&mut self.output, before_output);
            let tentative = Tentative {
                inner: incumbent,
                improved: false.into(),
            };
            self.redo(task, ahead.budget, keep, &tentative);
        }
        self.counters.work_units += u64::from(keep) * ahead.budget;
        self.counters.slices += u64::from(keep);
        if ahead.lazy {
            RunAhead::Counted
        } else {
            RunAhead::Done
        }
    }

    /// Do the `units` of a lazy run-ahead's slices kept, in one call (the task's slices
    /// compose), and hold the task to its promise of plain units: the call does them all,
    /// leaves work, improves nothing and asks for no stop.
    fn work_promised(&mut self, task: &mut Piece, units: u64, incumbent: &dyn Incumbent) {
        if units == 0 {
            return; // not even a call of no units: a task's `work(0)` need not be a no-op
        }
        let tentative = Tentative {
            inner: incumbent,
            improved: false.into(),
        };
        let worked = task.work(units, &mut self.bench(&tentative));
        let improved = tentative
            .improved
            .load(std::sync::atomic::Ordering::Relaxed);
        if let Some(what) = worked.why_not_plain(units, improved) {
            crate::error::violation(format!(
                "Task::plain_units promised {units} units plain, but work({units}) {what}"
            ));
        }
    }

    /// Do again `n` slices run ahead (plain, as they were the first time), uncounted.
    fn redo(&mut self, task: &mut Piece, budget: u64, n: u32, tentative: &Tentative<'_>) {
        if n == 0 {
            return; // not even a call of no units: a task's `work(0)` need not be a no-op
        }
        let mut done = 0;
        let bench = &mut self.bench(tentative);
        let run = PlainRun {
            budget,
            max: n,
            improved: &tentative.improved,
        };
        task.run_plain(&run, bench, &mut done);
        debug_assert_eq!(done, n, "the slices run ahead ran the same again");
    }

    /// The step of a PE that holds work: `Work` (or `Finished`, should termination be done).
    /// The hot path of every slice: it touches no more of the PE than that.
    pub(crate) fn step_busy(&self) -> Step {
        if self.termination.is_done() {
            Step::Finished
        } else {
            Step::Work {
                budget: self.delta_t,
            }
        }
    }

    /// What the machine should do next: `Finished` once termination is done, `Work` while
    /// `has_work`, else `Wait` (after letting termination detection progress with `idle`).
    pub(crate) fn step(&mut self, has_work: bool, idle: bool) -> Step {
        self.drain_termination();
        if self.termination.is_done() {
            return Step::Finished;
        }
        if has_work {
            return Step::Work {
                budget: self.delta_t,
            };
        }
        self.advance_termination(idle);
        if self.termination.is_done() {
            Step::Finished
        } else {
            Step::Wait
        }
    }

    // --- termination -----------------------------------------------------------------------

    fn local(&self, idle: bool) -> Local {
        Local {
            idle,
            sent: self.counters.pieces_sent,
            received: self.counters.pieces_received,
        }
    }

    /// Let termination detection progress (`idle`: this PE holds no work and will produce
    /// none by itself) and queue its signals.
    pub(crate) fn advance_termination(&mut self, idle: bool) {
        let local = self.local(idle);
        self.termination.advance(local, &mut self.output);
        self.drain_termination();
    }

    /// Handle a termination signal from PE `from`.
    pub(crate) fn receive_termination(&mut self, from: PeId, signal: Signal, idle: bool) {
        let local = self.local(idle);
        self.termination
            .receive(from, signal, local, &mut self.output);
        self.drain_termination();
    }

    /// Turn the signals termination detection has queued into messages.
    pub(crate) fn drain_termination(&mut self) {
        while let Some((to, signal)) = self.termination.poll_transmit() {
            self.counters.termination_messages += 1;
            self.send(to, Message::Termination(signal));
        }
    }

    /// True once the end is known: no more work requests should be made or answered.
    pub(crate) fn is_finishing(&self) -> bool {
        self.termination.is_finishing()
    }

    /// The merged result of the whole run: `Some` on PE 0 once it has finished.
    pub(crate) fn take_output(&mut self) -> Option<Yield> {
        self.termination.take_result()
    }

    // --- early stop ------------------------------------------------------------------------

    /// True after an early stop: work is dropped and no more is taken.
    pub(crate) fn is_stopped(&self) -> bool {
        self.stopped
    }

    /// True when a stop keeps the work it ends instead of dropping it
    /// (`Config::keep_remaining`: the run is being checkpointed).
    pub(crate) fn keeps_work(&self) -> bool {
        self.keep_remaining
    }

    /// A stop ends `task` unfinished: keep it for the checkpoint under `keep_remaining`
    /// (else, or when empty, it is dropped). The caller still finishes its piece.
    pub(crate) fn keep(&mut self, task: Piece) {
        if self.keep_remaining && !task.is_empty() {
            self.kept.push(task);
        }
    }

    /// The unfinished work kept on this PE (see [`PeCore::keep`]).
    pub(crate) fn take_kept(&mut self) -> Vec<Piece> {
        std::mem::take(&mut self.kept)
    }

    /// Early stop (from PE `from`, or found here): pass `Stop` on over the binary tree of PEs,
    /// never back to the sender. Returns true the first time only; the caller then drops its
    /// work (finishing each piece) and lets termination detection advance.
    pub(crate) fn begin_stop(&mut self, from: Option<PeId>) -> bool {
        if self.stopped {
            return false;
        }
        self.stopped = true;
        for to in tree::neighbours(self.me, self.p) {
            if Some(to) != from {
                self.send(to, Message::Stop);
            }
        }
        true
    }
}
