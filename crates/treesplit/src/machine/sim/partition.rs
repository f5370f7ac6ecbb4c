//! The engine on several threads: the PEs cut into contiguous partitions, one engine and one
//! event queue per partition, each on a thread of its own, all advancing together through
//! *windows* of virtual time.
//!
//! A window begins at the earliest event anywhere and lasts T_send plus the network's
//! smallest latency (the lookahead of conservative parallel discrete-event simulation): a
//! message leaves its sender T_send after the event that sent it at the earliest and takes a
//! hop at least, so a message sent in a window arrives after it, and what a partition does
//! in a window depends only on what happened before it. At the end of each window the
//! partitions meet once: they post the messages sent between them and agree on where the
//! next window begins (the earliest next event of any partition, or message posted).
//!
//! The events of each PE are the same, in the same order, as on one engine: they are ordered
//! by (time, PE, kind, sender), and only messages from one PE to another ever tie on all
//! four; those travel in their order through one partition's outbox. A run's report is
//! therefore the same bit for bit whatever the number of threads
//! (`crates/testkit/tests/sim_partitions.rs` checks it), with three differences, all in how
//! a *broken* run is reported: termination declared too early is checked at the end of its
//! window rather than at the moment it is declared, the event limit is checked against the
//! other partitions' events up to the last window's end, and when two partitions fail in one
//! window, the first partition's error is reported.
//!
//! Run limits that count every PE's units in event order (`Config::max_units`), a random
//! delay drawn from one generator in event order, the proof probe and Gantt segments need one
//! engine (`SimConfig::engine_threads`).

use super::engine::{check_end, declared_too_early, Engine};
use super::events::Event;
use super::world::{Slot, Span, World};
use crate::error::RunError;
use crate::protocol::PeId;
use crossbeam_utils::Backoff;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

/// The partitions' meeting point at the end of a window. Windows are short (milliseconds),
/// so a thread that arrives first spins, then yields, rather than sleeping: being woken
/// would cost more than the wait.
///
/// A partition that can never arrive (its thread could not be started, or it panicked
/// outside the guarded user code) *abandons* the barrier, and every wait then returns
/// `Abandoned` instead of spinning forever.
struct Barrier {
    parts: usize,
    arrived: AtomicUsize,
    /// Meetings completed so far.
    generation: AtomicUsize,
    abandoned: AtomicBool,
}

/// The meeting will never be complete: a partition is gone.
struct Abandoned;

impl From<Abandoned> for RunError {
    fn from(_: Abandoned) -> Self {
        RunError::Internal("an engine thread stopped without reaching the end of its window".into())
    }
}

impl Barrier {
    fn new(parts: usize) -> Self {
        Barrier {
            parts,
            arrived: AtomicUsize::new(0),
            generation: AtomicUsize::new(0),
            abandoned: AtomicBool::new(false),
        }
    }

    fn abandon(&self) {
        self.abandoned.store(true, Ordering::Release);
    }

    fn wait(&self) -> Result<(), Abandoned> {
        let generation = self.generation.load(Ordering::Acquire);
        if self.arrived.fetch_add(1, Ordering::AcqRel) + 1 == self.parts {
            self.arrived.store(0, Ordering::Relaxed);
            self.generation.fetch_add(1, Ordering::Release);
            return Ok(());
        }
        let backoff = Backoff::new();
        while self.generation.load(Ordering::Acquire) == generation {
            if self.abandoned.load(Ordering::Acquire) {
                return Err(Abandoned);
            }
            if backoff.is_completed() {
                // More threads than cores, or a long window elsewhere: let others run.
                std::thread::yield_now();
            } else {
                backoff.snooze();
            }
        }
        Ok(())
    }
}

/// Abandons the barrier if its partition's thread unwinds, so that the others stop waiting
/// for it.
struct AbandonOnUnwind<'a>(&'a Barrier);

impl Drop for AbandonOnUnwind<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.abandon();
        }
    }
}

/// What a partition tells the others at the end of a window.
#[derive(Debug, Default, Clone, Copy)]
struct Status {
    /// Its events so far.
    events: u64,
    /// Pieces of work it sent less those it received.
    in_flight: i64,
    /// PE 0 declared termination in the window.
    finish: bool,
    /// It failed in the window (its error is its own result).
    failed: bool,
    /// The time of its next event, or of the first message it posted, if earlier.
    next: Option<u64>,
    /// Its first PE holding work (asked when termination was declared).
    busy: Option<PeId>,
}

/// What the partitions' threads share.
struct Shared {
    parts: usize,
    barrier: Barrier,
    /// The messages between partitions: `mail[to * parts + from]`.
    mail: Vec<Mutex<Vec<(u64, Event)>>>,
    /// The partitions' statuses, by the parity of the window (a fast thread writes the next
    /// window's while a slow one still reads this one's).
    status: [Vec<Mutex<Status>>; 2],
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A thread that panicked holding it panicked outside user code: the data is whole.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Stack of each engine thread: user code runs on it, as on the caller's thread with one
/// engine.
const STACK: usize = super::ENGINE_STACK;

/// Run all PEs `pes` in `parts` partitions on as many threads, in windows of `lookahead`
/// time units (at most T_send plus the network's smallest latency, at least 1). `world` makes each
/// partition's world. Returns the partitions' worlds in the order of their PEs.
pub(super) fn run<'c>(
    pes: &mut [Slot],
    parts: usize,
    lookahead: u64,
    world: impl Fn(Span) -> World<'c> + Sync,
) -> Result<Vec<World<'c>>, RunError> {
    let p = pes.len();
    let chunk = p.div_ceil(parts.max(1));
    let parts = p.div_ceil(chunk);
    let shared = Shared {
        parts,
        barrier: Barrier::new(parts),
        mail: (0..parts * parts).map(|_| Mutex::default()).collect(),
        status: [0, 1].map(|_| (0..parts).map(|_| Mutex::default()).collect()),
    };
    let (shared, world) = (&shared, &world);
    let results: Vec<(Result<(), RunError>, World<'c>)> = std::thread::scope(|scope| {
        let threads: Vec<_> = pes
            .chunks_mut(chunk)
            .enumerate()
            .map(|(k, slots)| {
                let span = Span {
                    first: k * chunk,
                    end: k * chunk + slots.len(),
                    chunk,
                    horizon: lookahead,
                    outbox: (0..parts).map(|_| Vec::new()).collect(),
                };
                std::thread::Builder::new()
                    .name(format!("sim-{k}"))
                    .stack_size(STACK)
                    .spawn_scoped(scope, move || {
                        let _guard = AbandonOnUnwind(&shared.barrier);
                        let mut engine = Engine {
                            current: span.first,
                            pes: slots,
                            world: world(span),
                        };
                        let result = windows(&mut engine, k, shared, lookahead);
                        (result, engine.world)
                    })
            })
            .collect::<Result<_, _>>()
            .map_err(|e| {
                // The threads already started would wait for this one forever.
                shared.barrier.abandon();
                RunError::Internal(format!("could not start an engine thread: {e}"))
            })?;
        // Every thread joined here (a panic left for the scope to find would panic the
        // caller), then the first panic reported.
        let joined: Vec<_> = threads.into_iter().map(|t| t.join()).collect();
        joined
            .into_iter()
            .map(|j| {
                j.map_err(|payload| {
                    RunError::Internal(format!(
                        "an engine thread panicked: {}",
                        crate::error::panic_message(&*payload)
                    ))
                })
            })
            .collect::<Result<Vec<_>, RunError>>()
    })?;
    let mut worlds = Vec::with_capacity(parts);
    let mut first_error = None;
    for (result, world) in results {
        if let Err(e) = result {
            first_error.get_or_insert(e);
        }
        worlds.push(world);
    }
    if let Some(e) = first_error {
        return Err(e);
    }
    check_end(pes, worlds.iter().map(|w| w.work_in_flight).sum())?;
    Ok(worlds)
}

/// Partition `k`'s thread: its windows, until no partition has an event left or one fails.
fn windows(
    engine: &mut Engine<'_, '_>,
    k: usize,
    shared: &Shared,
    lookahead: u64,
) -> Result<(), RunError> {
    let parts = shared.parts;
    let mut round = 0;
    let mut result = engine.guarded(|e| {
        e.start()?;
        e.run_events()
    });
    loop {
        // The window is over: post the messages to the other partitions, and say how it went
        // and when the partition's next event is (its own, or one of the messages posted).
        let world = &mut engine.world;
        let mut next = world.queue.next_time();
        for (to, out) in world.span.outbox.iter_mut().enumerate() {
            if let Some(first) = out.iter().map(|&(at, _)| at).min() {
                next = Some(next.map_or(first, |n| n.min(first)));
                lock(&shared.mail[to * parts + k]).append(out);
            }
        }
        let status = &shared.status[round % 2];
        *lock(&status[k]) = Status {
            events: world.events,
            in_flight: world.work_in_flight,
            finish: std::mem::take(&mut world.finish_sent),
            failed: result.is_err(),
            next,
            busy: None,
        };
        shared.barrier.wait()?;
        let all: Vec<Status> = status.iter().map(|s| *lock(s)).collect();
        if all.iter().any(|s| s.failed) {
            return result;
        }
        // Take in the messages sent to this partition. (A partition already in the next
        // window may have posted more: they arrive after that window and wait here as well.)
        for from in 0..parts {
            let mail = std::mem::take(&mut *lock(&shared.mail[k * parts + from]));
            for (at, event) in mail {
                world.queue.push(at, event);
            }
        }
        let events: u64 = all.iter().map(|s| s.events).sum();
        engine.world.events_elsewhere = events - engine.world.events;
        if all.iter().any(|s| s.finish) {
            // Termination was declared in the window: nothing may hold or carry work now.
            lock(&status[k]).busy = engine.busy();
            shared.barrier.wait()?;
            let busy = status.iter().find_map(|s| lock(s).busy);
            let in_flight = all.iter().map(|s| s.in_flight).sum();
            if let Some(v) = declared_too_early(in_flight, busy) {
                return Err(RunError::Internal(v));
            }
        }
        engine.check_event_limit()?;
        let Some(next) = all.iter().filter_map(|s| s.next).min() else {
            // No events anywhere: the run is over.
            return Ok(());
        };
        engine.world.span.horizon = next.saturating_add(lookahead);
        round += 1;
        result = engine.guarded(|e| e.run_events());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_barrier_completes_when_every_partition_arrives() {
        let barrier = Barrier::new(3);
        std::thread::scope(|s| {
            let waits: Vec<_> = (0..3)
                .map(|_| s.spawn(|| (0..100).all(|_| barrier.wait().is_ok())))
                .collect();
            assert!(waits.into_iter().all(|t| t.join().unwrap()));
        });
        assert_eq!(barrier.generation.load(Ordering::Relaxed), 100);
    }

    #[test]
    fn an_abandoned_barrier_releases_the_partitions_waiting_at_it() {
        let barrier = Barrier::new(3);
        std::thread::scope(|s| {
            let waiting: Vec<_> = (0..2).map(|_| s.spawn(|| barrier.wait())).collect();
            // The third partition never arrives: its thread unwinds.
            s.spawn(|| {
                let _guard = AbandonOnUnwind(&barrier);
                panic!("a partition's thread panicked");
            })
            .join()
            .expect_err("the thread panicked");
            for t in waiting {
                assert!(t.join().unwrap().is_err());
            }
        });
    }
}
