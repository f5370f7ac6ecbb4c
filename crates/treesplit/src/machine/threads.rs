//! The thread machine (the default): one OS thread per PE in one process.
//!
//! Every PE owns an inbox, an unbounded crossbeam channel that all PEs may send to; there is
//! no global lock on the hot path. A busy PE runs a work slice of Δt units, then drains its
//! inbox without blocking (the poll of paper 000 Fig. 1); an idle PE blocks on its inbox.
//! A panic in user code is caught on its PE, which records it and sends `Abort` to every
//! inbox, so all PEs stop and the run returns [`RunError::PePanicked`] instead of hanging.
//! Any P ≥ 1 works, including more PEs than cores.

use crate::config::Config;
use crate::error::{panic_message, RunError};
use crate::protocol::{self, Message, PeId, Step};
use crate::stats::{PeStats, Report};
use crate::task::{SharedIncumbent, Task};
use crossbeam_channel::{unbounded, Receiver, RecvTimeoutError, Sender};
use crossbeam_utils::CachePadded;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What travels through a PE's inbox.
enum Envelope<T: Task> {
    Msg(PeId, Message<T>),
    /// Another PE failed: stop now.
    Abort,
}

/// A delayed message on its way through the courier: (deliver at, to, envelope).
type Delayed<T> = (Instant, PeId, Envelope<T>);

/// A progress callback: called about ten times a second with the work units done so far.
pub type ProgressFn<'a> = &'a (dyn Fn(u64, Duration) + Sync);

/// The thread machine and its options.
#[derive(Default)]
pub struct Threads<'a> {
    progress: Option<ProgressFn<'a>>,
    slow_sender: Option<(PeId, Duration)>,
}

struct Shared<'s, T: Task> {
    inboxes: &'s [Sender<Envelope<T>>],
    abort: AtomicBool,
    failure: Mutex<Option<RunError>>,
    incumbent: SharedIncumbent,
    units: Vec<CachePadded<AtomicU64>>,
    /// Messages of the slow PE go through the courier: (deliver at, to, envelope).
    courier: Option<(PeId, Duration, Sender<Delayed<T>>)>,
    /// The common origin of round numbers (synchronous balancers).
    start: Instant,
}

impl<T: Task> Shared<'_, T> {
    fn fail(&self, error: RunError) {
        let mut slot = self.failure.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(error);
        }
        drop(slot);
        self.abort.store(true, Ordering::SeqCst);
        for inbox in self.inboxes {
            let _ = inbox.send(Envelope::Abort);
        }
    }

    fn deliver(&self, from: PeId, to: PeId, message: Message<T>) {
        if let Some((slow, delay, courier)) = &self.courier {
            if *slow == from {
                let _ = courier.send((Instant::now() + *delay, to, Envelope::Msg(from, message)));
                return;
            }
        }
        // Inboxes live until every PE has stopped, so a send cannot fail.
        let _ = self.inboxes[to].send(Envelope::Msg(from, message));
    }
}

impl<'a> Threads<'a> {
    /// The thread machine with no options.
    pub fn new() -> Self {
        Threads::default()
    }

    /// Report progress (units done, elapsed) about ten times a second while the run lasts.
    pub fn on_progress(mut self, f: ProgressFn<'a>) -> Self {
        self.progress = Some(f);
        self
    }

    /// Testing aid: deliver every message sent by PE `pe` only after `delay`, so that work
    /// is in transit for a long time (per-pair FIFO order is kept).
    pub fn delay_messages_from(mut self, pe: PeId, delay: Duration) -> Self {
        self.slow_sender = Some((pe, delay));
        self
    }

    /// Run `root` on `config.pes` threads with the configured balancer.
    pub fn run<T: Task>(&self, root: T, config: &Config) -> Result<Report<T::Output>, RunError> {
        config.validate().map_err(RunError::InvalidConfig)?;
        let p = config.pes;
        let (senders, receivers): (Vec<_>, Vec<_>) =
            (0..p).map(|_| unbounded::<Envelope<T>>()).unzip();
        let (courier_tx, courier_rx) = unbounded::<Delayed<T>>();
        let shared = Shared {
            inboxes: &senders,
            abort: AtomicBool::new(false),
            failure: Mutex::new(None),
            incumbent: SharedIncumbent::new(),
            units: (0..p)
                .map(|_| CachePadded::new(AtomicU64::new(0)))
                .collect(),
            courier: self.slow_sender.map(|(pe, d)| (pe, d, courier_tx.clone())),
            start: Instant::now(),
        };
        drop(courier_tx);
        let (done_tx, done_rx) = unbounded::<()>();
        let start = Instant::now();
        let mut root = Some(root);

        let results: Vec<Option<(PeStats, Option<T::Output>)>> = std::thread::scope(|scope| {
            let mut handles = Vec::with_capacity(p);
            for (me, inbox) in receivers.iter().enumerate() {
                let shared = &shared;
                let done_tx = done_tx.clone();
                let root = if me == 0 { root.take() } else { None };
                let body = move || {
                    let outcome = catch_unwind(AssertUnwindSafe(|| {
                        pe_loop(me, config, root, inbox, shared)
                    }));
                    let result = match outcome {
                        Ok(r) => r,
                        Err(payload) => {
                            shared.fail(RunError::PePanicked {
                                pe: me,
                                message: panic_message(&*payload),
                            });
                            None
                        }
                    };
                    let _ = done_tx.send(());
                    result
                };
                match std::thread::Builder::new()
                    .name(format!("pe-{me}"))
                    .spawn_scoped(scope, body)
                {
                    Ok(h) => handles.push(h),
                    Err(e) => {
                        shared.fail(RunError::Machine(format!(
                            "cannot start the thread of PE {me}: {e}"
                        )));
                        break;
                    }
                }
            }
            drop(done_tx);
            if shared.courier.is_some() {
                scope.spawn(|| courier_loop(&courier_rx, &senders, &shared.abort));
            }
            // Wait for the PEs, reporting progress meanwhile.
            let mut finished = 0;
            while finished < handles.len() {
                match done_rx.recv_timeout(Duration::from_millis(100)) {
                    Ok(()) => finished += 1,
                    Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => break,
                }
                if let Some(f) = self.progress {
                    f(
                        shared.units.iter().map(|u| u.load(Ordering::Relaxed)).sum(),
                        start.elapsed(),
                    );
                }
            }
            // Stop the courier, if any.
            shared.abort.store(true, Ordering::SeqCst);
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or(None))
                .collect()
        });
        let t_par = start.elapsed().as_secs_f64();

        if let Some(error) = shared
            .failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        {
            return Err(error);
        }
        // Conservation check: no work may be left in any inbox.
        for (pe, inbox) in receivers.iter().enumerate() {
            while let Ok(env) = inbox.try_recv() {
                if let Envelope::Msg(from, m) = env {
                    if m.carries_work() {
                        return Err(RunError::Internal(format!(
                            "a piece of work from PE {from} to PE {pe} was never received"
                        )));
                    }
                }
            }
        }
        let mut per_pe = Vec::with_capacity(p);
        let mut output = None;
        for (pe, r) in results.into_iter().enumerate() {
            let (stats, out) = r.ok_or_else(|| {
                RunError::Internal(format!("PE {pe} ended without its statistics"))
            })?;
            if pe == 0 {
                output = out;
            }
            per_pe.push(stats);
        }
        let output =
            output.ok_or_else(|| RunError::Internal("PE 0 finished without the result".into()))?;
        Ok(Report::new(
            output,
            "threads",
            config.clone(),
            t_par,
            per_pe,
        ))
    }
}

/// The life of one PE: drive its protocol until it finishes or the run is aborted.
fn pe_loop<T: Task>(
    me: PeId,
    config: &Config,
    root: Option<T>,
    inbox: &Receiver<Envelope<T>>,
    shared: &Shared<'_, T>,
) -> Option<(PeStats, Option<T::Output>)> {
    let mut pe = protocol::new_pe(me, config, root);
    let incumbent = crate::task::CountingIncumbent::new(&shared.incumbent);
    // Only blocking is timed (one clock read per slice would cost ~3 % on N-Queens);
    // busy time is the rest of the PE's life: work, splits and message handling.
    let born = Instant::now();
    let mut idle = Duration::ZERO;
    let mut units_done = 0u64;
    // Synchronous balancers: rounds of Δ µs counted from the common start.
    let round_length = pe.round_length().map(Duration::from_micros);
    let mut round = None;
    loop {
        if let Some(length) = round_length {
            let now = (shared.start.elapsed().as_nanos() / length.as_nanos().max(1)) as u64;
            // Every round in order, even after a long slice: synchronous protocols (the
            // permutation rounds of poll-and-shuffle) must not miss one.
            while round.is_none_or(|r| r < now) {
                let next = round.map_or(0, |r| r + 1);
                round = Some(next);
                pe.on_round(next);
            }
        }
        // Decide first, then send what the decision produced, then act on it.
        let step = pe.step();
        while let Some((to, m)) = pe.poll_transmit() {
            shared.deliver(me, to, m);
        }
        match step {
            Step::Work { budget } => {
                units_done += pe.work(budget, &incumbent);
                // Only this PE writes its slot: a plain store, no read-modify-write.
                shared.units[me].store(units_done, Ordering::Relaxed);
                while let Ok(env) = inbox.try_recv() {
                    match env {
                        Envelope::Msg(from, m) => pe.receive(from, m),
                        Envelope::Abort => return None,
                    }
                }
                if shared.abort.load(Ordering::Relaxed) {
                    return None;
                }
            }
            Step::Wait => {
                let t0 = Instant::now();
                let env = match (round_length, round) {
                    // Wake up at the next round's start if nothing arrives before.
                    (Some(length), Some(r)) => {
                        let next = shared.start
                            + Duration::from_nanos(
                                (length.as_nanos() as u64).saturating_mul(r + 1),
                            );
                        match inbox.recv_deadline(next) {
                            Ok(env) => Ok(env),
                            Err(RecvTimeoutError::Timeout) => {
                                idle += t0.elapsed();
                                continue;
                            }
                            Err(RecvTimeoutError::Disconnected) => Err(()),
                        }
                    }
                    _ => inbox.recv().map_err(|_| ()),
                };
                idle += t0.elapsed();
                match env {
                    Ok(Envelope::Msg(from, m)) => pe.receive(from, m),
                    Ok(Envelope::Abort) | Err(()) => return None,
                }
            }
            Step::Finished => break,
        }
    }
    while let Some((to, m)) = pe.poll_transmit() {
        shared.deliver(me, to, m);
    }
    let busy = born.elapsed().saturating_sub(idle);
    let stats = PeStats {
        pe: me,
        counters: pe.counters().clone(),
        busy: busy.as_secs_f64(),
        idle: idle.as_secs_f64(),
        improvements: incumbent.improvements(),
        ..PeStats::default()
    };
    Some((stats, pe.take_output()))
}

/// Deliver delayed messages when their time has come (FIFO: all have the same delay).
fn courier_loop<T: Task>(
    queue: &Receiver<Delayed<T>>,
    inboxes: &[Sender<Envelope<T>>],
    abort: &AtomicBool,
) {
    while !abort.load(Ordering::SeqCst) {
        match queue.recv_timeout(Duration::from_millis(10)) {
            Ok((at, to, env)) => {
                let now = Instant::now();
                if at > now {
                    std::thread::sleep(at - now);
                }
                let _ = inboxes[to].send(env);
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return,
        }
    }
}
