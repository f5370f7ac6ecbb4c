//! Load-balancing protocols as per-PE state machines that do no I/O.
//!
//! Each balancer is written once, here, as a state machine in the style of `quinn-proto`:
//! the driver (`crate::driver`, on every machine: threads, the simulator, MPI) feeds it
//! events — a message arrived ([`Protocol::handle`]), a work slice is due
//! ([`Protocol::work`]), its timer's deadline has come ([`Protocol::handle_timeout`]) — and
//! drains the actions it decides on: messages to send ([`Protocol::poll_transmit`]), when it
//! next wants the clock ([`Protocol::poll_timeout`]) and what to do next ([`Protocol::step`]:
//! work for Δt units, wait for a message, or stop). No threads, channels or clocks live in
//! this module, so the same code runs on every machine. The trait serves every balancer
//! alike: the core's messages (early stop, termination) are handled once, in
//! [`Protocol::handle`]; time is one timer; statistics are one [`ProtocolStats`]; the
//! simulator's run-ahead works on whatever task a protocol names ([`Protocol::plain_task`]).
//!
//! The protocols are described in prose in `README.md` beside this file. Layout:
//!
//! - [`polling`]: the dynamic balancers (random, neighbour and global-round-robin polling,
//!   random shift, poll-and-shuffle), one state machine with victim rules;
//! - [`assignment`]: the static and semi-static balancers over a bag of jobs (block,
//!   round-robin, random placement, random-static, master–worker, prefix sum);
//! - [`termination`]: termination detection and result reduction (four-counter waves or the
//!   response tree), a component every balancer feeds;
//! - [`pe`]: [`pe::PeCore`], the housekeeping every balancer's PE shares;
//! - [`tree`]: the binary (and binomial) tree of PEs; [`hash`]: splitmix64 and the shared
//!   pseudorandom values derived from the run's seed.

pub(crate) mod adversary;
pub(crate) mod any;
pub(crate) mod assignment;
pub(crate) mod dag;
pub(crate) mod hash;
pub(crate) mod pe;
pub(crate) mod polling;
pub(crate) mod termination;
pub(crate) mod tree;

pub(crate) use tree::neighbours as tree_neighbours;

use crate::config::Config;
use crate::piece::{Fresh, Piece, Yield};
pub(crate) use crate::stats::PeCounters;
use crate::task::Incumbent;
use any::AnyProtocol;
use pe::PeCore;
use serde::{Deserialize, Serialize};

/// Index of a processing element, `0..P`.
pub(crate) type PeId = usize;

/// A message between PEs. One wire format for all balancers, so every machine carries
/// every balancer. Two of them are the core's, which every balancer shares and
/// [`Protocol::handle`] handles alike: `Stop` (early stop) and `Termination` (termination
/// detection and the result reduction); the rest are the balancers' own, and each balancer's
/// [`Protocol::receive`] sees only those. The machine's own messages (incumbents, abort,
/// statistics) are not here: they travel beside these in the driver's envelope
/// (`crate::driver::Envelope`).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum Message {
    /// An idle PE asks for work.
    Request,
    /// The answer to a request when the PE has nothing to give (an empty task, paper 000 §2).
    Reject,
    /// The answer to a request: a piece of work and its generation (splitting depth).
    Work {
        /// The piece.
        task: Piece,
        /// Generation of the piece: the number of splits between it and the root.
        generation: u32,
        /// The termination protocol's return address for this piece (response tree).
        token: u64,
    },
    /// Fast initialization: a copy of the root, broadcast down the binary tree of PEs.
    Root {
        /// The root task.
        task: Piece,
        /// The termination protocol's return address (response tree).
        token: u64,
    },
    /// Poll-and-shuffle, adaptive: this PE became idle in, or entered idle, phase `phase`
    /// (sent to PE 0 with probability c/P; paper 002 §5).
    IdleNote {
        /// The phase the note counts for (PE 0 uses only notes of phases old enough).
        phase: u64,
    },
    /// Poll-and-shuffle, adaptive: PE 0 triggered permutation number `n`; passed down the tree.
    Shuffle {
        /// The permutation's number.
        n: u64,
    },
    /// Poll-and-shuffle, permutation by messages: a scattered subproblem of permutation `n`
    /// (None: the empty subproblem of an idle PE).
    Scatter {
        /// Permutation number.
        n: u64,
        /// The piece, its generation and its termination token.
        piece: Option<(Piece, u32, u64)>,
    },
    /// Poll-and-shuffle, permutation by messages: counting and prefix sums.
    Shuffling(polling::shuffle::ShuffleSignal),
    /// Poll-and-shuffle on a shuffle-exchange or de Bruijn network (Theorem 2's emulation):
    /// a piece passed on to the next phase's host (None: this PE's step is complete).
    Rotate {
        /// The piece, its generation and its termination token.
        piece: Option<(Piece, u32, u64)>,
    },
    /// Poll-and-shuffle: a piece placed by permutation `n` (the pseudorandom permutation's
    /// move, or the permutation by messages' placement). Apart from `Work` so that it is never
    /// taken for the answer to a request, and so that the receiver can tell a permutation
    /// that has not completed before the next cycle.
    Permuted {
        /// Permutation number.
        n: u64,
        /// The piece.
        task: Piece,
        /// Its generation.
        generation: u32,
        /// The termination protocol's return address for this piece (response tree).
        token: u64,
    },
    /// Global round robin, and shared-memory master–worker on a machine without shared
    /// memory: ask PE 0 for the next value of the global counter.
    Counter,
    /// Global round robin: PE 0's answer, the PE to ask for work.
    Victim(PeId),
    /// Master–worker and prefix sum: a bundle of jobs (each with its generation) for the
    /// receiver, one piece for termination detection.
    Bundle {
        /// The jobs.
        tasks: Vec<(Piece, u32)>,
        /// The termination protocol's return address for the bundle.
        token: u64,
    },
    /// Prefix-sum: the parallel prefix sum over the PEs' estimated loads.
    Scan(assignment::prefix_sum::ScanSignal),
    /// DAG schedulers: ready tasks handed to this PE (a master's assignment, a steal's answer).
    DagTasks {
        /// The tasks.
        tasks: Vec<crate::dag::TaskId>,
        /// The termination protocol's return address (unused: four-counter).
        token: u64,
    },
    /// DAG schedulers: these tasks have finished (to the master, or to the owners of their
    /// successors).
    DagDone {
        /// The finished tasks.
        tasks: Vec<crate::dag::TaskId>,
        /// The termination protocol's return address (unused: four-counter).
        token: u64,
    },
    /// Early stop: a decision search found what it looked for; flooded over the binary tree of
    /// PEs. Every PE drops its work, answers requests with rejections and discards work that
    /// still arrives; termination detection then ends the run as usual.
    Stop,
    /// Termination detection and the final result reduction.
    Termination(termination::Signal),
    /// Poll-and-shuffle under local synchronization (paper 002 §6.3, Fig. 4): this PE has
    /// finished phase `phase` (to its partner along the phase's dimension); `idle`: it holds
    /// no work and asks the partner for some.
    Phase {
        /// The phase number (counted from the start of the run).
        phase: u64,
        /// The sender is idle: a request for work.
        idle: bool,
    },
    /// Shared-memory master–worker: PE 0's answer to `Counter`, the counter's value, the
    /// number of the job the asker takes (m or more: all jobs are taken).
    NextJob(u64),
}

impl Message {
    /// True for messages that carry work (the only ones termination detection counts).
    pub(crate) fn carries_work(&self) -> bool {
        matches!(
            self,
            Message::Work { .. }
                | Message::Root { .. }
                | Message::Bundle { .. }
                | Message::DagTasks { .. }
                | Message::DagDone { .. }
                | Message::Scatter { piece: Some(_), .. }
                | Message::Permuted { .. }
                | Message::Rotate { piece: Some(_) }
        )
    }
}

/// What the machine should do next with a PE.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Call [`Protocol::work`] with this budget, then deliver the messages that arrived.
    Work {
        /// Work units to do before polling the inbox again (Δt).
        budget: u64,
    },
    /// The PE is idle: block until a message arrives and deliver it.
    Wait,
    /// The run is over for this PE.
    Finished,
}

/// Costs a PE incurred since the machine last asked ([`Protocol::take_costs`]): events a
/// machine may charge time for (the simulator charges T_split per split and T_count per
/// increment of a global counter).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Costs {
    /// Splits done: on request, and when cutting jobs from a root copy.
    pub splits: u64,
    /// Work units done that no work slice reports: pieces worked to make them split while
    /// cutting a bag (`assignment::cutter`), on copies whose work another PE is credited with,
    /// or outside a slice (a master cutting the jobs it hands out).
    pub cut_work: u64,
    /// The smallest generation of a subproblem that ceased to exist: split into two of the
    /// next generation, or worked to its end (the simulator's proof probe times paper 000's
    /// generation levels by it; at most one split or end per message or slice, so the
    /// smallest loses nothing the levels need).
    pub ended: Option<u32>,
    /// Increments of a global counter this PE holds (global round robin's at PE 0; the
    /// simulator charges T_count each).
    pub counts: u64,
}

/// When the driver reads the machine's clock for a protocol ([`Protocol::clock`]). Time is
/// in *ticks*: virtual time units in the simulator, ns since the common start on real
/// machines. A machine tells a PE how many ticks make one unit of `Config::round`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Clock {
    /// Only at the protocol's deadlines ([`Protocol::poll_timeout`], checked after the
    /// messages of a turn are delivered); a protocol without deadlines is never told the
    /// time, and the driver reads no clock for it.
    Deadlines,
    /// Also at every turn of the driver, before it delivers messages, and right before every
    /// work slice ([`Protocol::handle_timeout`], the messages it queues sent at once): for a
    /// protocol that timestamps its work (the DAG schedulers record each task's start and
    /// finish).
    EveryTurn,
}

/// What a PE's protocol reports at the end of a run ([`Protocol::stats`]), as plain data: the
/// counters every balancer keeps, and a balancer's own section where it has one.
#[derive(Debug, Clone, Default)]
pub(crate) struct ProtocolStats {
    /// The counters every balancer keeps ([`pe::PeCore`]).
    pub counters: PeCounters,
    /// Poll-and-shuffle under adaptive triggering or local synchronization: its phases,
    /// notes and estimates (`crate::stats::PeStats::phases`).
    pub phases: Option<crate::stats::PhaseStats>,
}

/// A per-PE load-balancing state machine.
pub(crate) trait Protocol: Send {
    /// What the machine should do next.
    fn step(&mut self) -> Step;
    /// Run the local task for at most `budget` units; returns the units done.
    fn work(&mut self, budget: u64, incumbent: &dyn Incumbent) -> u64;
    /// A message from PE `from` has been taken from this PE's queue: the driver's one entry.
    /// The core's messages, which every balancer handles alike, are handled here — an early
    /// stop (`Stop`) stops the PE ([`Protocol::stop`], naming the sender, so that the flood
    /// does not go back), termination detection's signals go to the core with the balancer's
    /// idleness ([`Protocol::is_idle`]) — and the balancer's own go to
    /// [`Protocol::receive`]. Not overridden.
    #[inline]
    fn handle(&mut self, from: PeId, message: Message) {
        match message {
            Message::Stop => self.stop(Some(from)),
            Message::Termination(signal) => {
                let idle = self.is_idle();
                self.core_mut().receive_termination(from, signal, idle);
            }
            message => self.receive(from, message),
        }
    }
    /// A message of the balancer's own from PE `from` (never `Stop` or `Termination`: those
    /// are the core's, [`Protocol::handle`]).
    fn receive(&mut self, from: PeId, message: Message);
    /// Idle for termination detection: this PE holds no work and will produce none by itself.
    fn is_idle(&self) -> bool;
    /// The housekeeping of this PE that every balancer shares ([`pe::PeCore`]).
    fn core(&self) -> &PeCore;
    /// The same, to change.
    fn core_mut(&mut self) -> &mut PeCore;
    /// The next message to send, if any (call until `None`).
    fn poll_transmit(&mut self) -> Option<(PeId, Message)> {
        self.core_mut().poll_transmit()
    }
    /// The costs incurred since the last call (the call resets them).
    fn take_costs(&mut self) -> Costs {
        self.core_mut().take_costs()
    }
    /// The merged result of the whole run: `Some` on PE 0 once it has finished.
    fn take_output(&mut self) -> Option<Yield> {
        self.core_mut().take_output()
    }
    /// True while this PE holds a non-empty task.
    fn is_busy(&self) -> bool;
    /// Stop the whole run early: found here (`from` None: the driver at a run limit, as if
    /// the task had called `Context::stop`), or heard from PE `from` (the flooded `Stop`).
    /// The PE passes the stop on over the binary tree of PEs (never back to `from`) and drops,
    /// or keeps, its work. Idempotent.
    fn stop(&mut self, from: Option<PeId>);
    /// The work this PE's stop left unfinished, kept under `Config::keep_remaining` (a
    /// checkpoint): every piece the PE held, had queued, or received after the stop. The
    /// pieces of all PEs and the work done before together are the whole computation.
    fn take_remaining(&mut self) -> Vec<Piece> {
        self.core_mut().take_kept()
    }
    /// When the driver reads the machine's clock for this PE (asked once, when the driver
    /// builds it). The default: only at the deadlines of [`Protocol::poll_timeout`].
    fn clock(&self) -> Clock {
        Clock::Deadlines
    }
    /// The tick of this PE's next deadline (None: none). The driver asks when it builds the
    /// PE and after every [`Protocol::handle_timeout`] (a protocol moves its deadline only
    /// there), calls `handle_timeout` once the clock has reached it, and wakes an idle PE for
    /// it. Synchronous rounds are deadlines: the next round's start.
    fn poll_timeout(&self) -> Option<u64> {
        None
    }
    /// The machine's clock reads `now` ticks (virtual time in the simulator, ns since the
    /// common start on real machines): at a deadline that has come ([`Protocol::poll_timeout`];
    /// handle every one due by `now`, in order), and under [`Clock::EveryTurn`] at every turn
    /// and before every work slice.
    fn handle_timeout(&mut self, _now: u64) {}
    /// What this PE counted, for the report at the end of the run: the counters every
    /// balancer keeps, and the section of its own a balancer may add.
    fn stats(&self) -> ProtocolStats {
        ProtocolStats {
            counters: self.core().counters().clone(),
            phases: None,
        }
    }
    /// The task this PE's next work slices would work, with the PE's core, when those slices
    /// would do nothing but [`pe::PeCore::work_on`] on it as long as no message arrives: the
    /// driver may then run them ahead of their time (the simulator's run-ahead,
    /// `PeCore::run_ahead`). None (the default): its slices do more, and it never runs
    /// ahead. Between a run-ahead and its end (`PeCore::settle_ahead`) nothing reaches the
    /// protocol, so it names the same task again.
    fn plain_task(&mut self) -> Option<(&mut PeCore, &mut Piece)> {
        None
    }
}

/// What the machine and the run's entry point tell every PE beside the user's configuration.
#[derive(Debug, Clone, Default)]
pub(crate) struct Env {
    /// The interconnect the PEs sit on, as the machine knows it: the simulator's topology,
    /// which poll-and-shuffle plans its phases for (`polling::embedding`). None (threads,
    /// MPI): a hypercube numbering.
    pub network: Option<crate::topology::Topology>,
    /// The machine's largest message latency between two PEs in ticks, overheads included,
    /// where the machine knows it ahead (the simulator's model; None on real machines).
    /// Poll-and-shuffle sizes the time its permutation takes by it.
    pub latency: Option<u64>,
    /// A DAG run (the machines' `run_dag`): its scheduler replaces the balancer.
    pub dag: Option<DagRun>,
    /// The simulator's adversarial protocol variants (negative controls; off elsewhere).
    pub adversary: adversary::Adversary,
    /// A counter in the memory the PEs share, fresh for the run, where the machine has
    /// shared memory (threads); shared-memory master–worker takes its jobs with it. None
    /// (the simulator, MPI): PE 0 keeps that counter.
    pub counter: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
}

/// A DAG run as its PEs see it: the scheduler and the DAG, which every PE holds from the
/// entry point (PE 0 still sends the root down the tree of PEs: that message starts them).
#[derive(Debug, Clone)]
pub(crate) struct DagRun {
    /// The scheduler.
    pub scheduler: crate::config::DagScheduler,
    /// The DAG.
    pub dag: std::sync::Arc<crate::dag::Dag>,
    /// Nanoseconds of busy work per unit of cost on real machines.
    pub unit_ns: u64,
}

/// What a PE's state machine is built from: the PE, the run's configuration (its balancer
/// and the balancer's options), what the machine tells every PE, the ticks per unit of
/// `Config::round`, the run's result accumulators, and the root task (PE 0's).
pub(crate) struct PeStart<'a> {
    /// The PE.
    pub me: PeId,
    /// The run's configuration.
    pub config: &'a Config,
    /// What the machine tells every PE.
    pub env: &'a Env,
    /// Ticks per unit of `Config::round` on this machine.
    pub round_ticks: u64,
    /// Makes the run's result accumulators.
    pub fresh: Fresh,
    /// The root task: PE 0's.
    pub root: Option<Piece>,
}

/// A state machine the balancer table names (`crate::balancers`, `runs:`): how a PE of it
/// is built for the balancer the configuration names. A balancer's state machine
/// implements this in its own file; boxed ones come with it.
pub(crate) trait NewPe {
    /// PE `start.me`'s state machine.
    fn new_pe(start: PeStart<'_>) -> Self;
}

impl<T: NewPe> NewPe for Box<T> {
    fn new_pe(start: PeStart<'_>) -> Self {
        Box::new(T::new_pe(start))
    }
}

/// Build the state machine of PE `me` for the configured balancer (the balancer table's
/// choice, [`AnyProtocol::new_balancer`]) or the DAG scheduler of `env`, on a machine with
/// `round_ticks` ticks per unit of `Config::round`. PE 0 gets the root task; `fresh` makes
/// the run's result accumulators.
pub(crate) fn new_pe(
    me: PeId,
    config: &Config,
    env: &Env,
    round_ticks: u64,
    fresh: Fresh,
    root: Option<Piece>,
) -> AnyProtocol {
    if let Some(run) = &env.dag {
        return AnyProtocol::Dag(Box::new(dag::DagPe::new(
            me,
            config,
            env,
            fresh,
            run.clone(),
            root,
        )));
    }
    AnyProtocol::new_balancer(PeStart {
        me,
        config,
        env,
        round_ticks,
        fresh,
        root,
    })
}
