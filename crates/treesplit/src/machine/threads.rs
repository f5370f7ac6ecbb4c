//! The thread machine (the default): one OS thread per PE in one process.
//!
//! Every PE owns an inbox, an unbounded crossbeam channel that all PEs may send to; there is
//! no global lock on the hot path. A busy PE runs a work slice of Δt units, then drains its
//! inbox without blocking (the poll of paper 000 Fig. 1); an idle PE blocks on its inbox.
//! A panic in user code is caught on its PE, which records it and sends `Abort` to every
//! inbox, so all PEs stop and the run returns [`RunError::PePanicked`] instead of hanging
//! (a contract violation [`RunError::ContractViolated`], a panic of the library's own code
//! [`RunError::Internal`]). A run limit stops the run through the driver; the run then
//! ends [`Stopped`](crate::Ended::Stopped) with the partial report. `max_units` counts the units
//! of all PEs in one shared atomic counter (updated once per slice, only when a limit is set).
//! Any P ≥ 1 works, including more PEs than cores.

use super::run::{self, Backend, Gather, Ran, Start};
use crate::config::DagConfig;
use crate::config::{Config, ConfigError};
use crate::dag::DagTask;
use crate::driver::{
    self, BoundExchange, Envelope, Flow, Handled, Incoming, MachineTime, PeDriver, PeEnd, Slice,
    Transport,
};
use crate::ended::Ended;
use crate::error::{catch_quietly, panic_error, RunError};
use crate::piece::{Fresh, Piece};
use crate::protocol::{Env, PeId, Step};
use crate::task::{SharedIncumbent, Task};
use crossbeam_channel::{unbounded, Receiver, RecvTimeoutError, Sender, TryRecvError};
use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What travels through a PE's inbox: the sender and its envelope.
type Inbound = (PeId, Envelope);

/// A delayed message on its way through the courier: (deliver at, to, what).
type Delayed = (Instant, PeId, Inbound);

/// The most PEs the thread machine runs, one OS thread each: beyond a few thousand threads
/// the OS runs out of stack mappings (std aborts the process), and a 2-core machine spends
/// its time switching. The simulator is the machine for more PEs.
pub const MAX_THREADS: usize = 4096;

/// A progress callback ([`Threads::on_progress`]): called with the work units all PEs have
/// done so far and the time since the run started.
pub type ProgressFn<'a> = &'a (dyn Fn(u64, Duration) + Sync);

/// The thread machine and its options.
#[derive(Default)]
pub struct Threads<'a> {
    progress: Option<ProgressFn<'a>>,
    slow_sender: Option<(PeId, Duration)>,
}

struct Shared<'s> {
    inboxes: &'s [Sender<Inbound>],
    abort: AtomicBool,
    failure: Mutex<Option<RunError>>,
    incumbent: Arc<SharedIncumbent>,
    units: Vec<CachePadded<AtomicU64>>,
    /// Work units of all PEs (kept only under `Config::max_units`).
    total: CachePadded<AtomicU64>,
    /// Messages of the slow PE go through the courier: (deliver at, to, envelope).
    courier: Option<(PeId, Duration, Sender<Delayed>)>,
    /// The common origin of every PE's clock (rounds, timing) and of T_par.
    start: Instant,
}

impl Shared<'_> {
    fn fail(&self, error: RunError) {
        let mut slot = self.failure.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(error);
        }
        drop(slot);
        self.abort.store(true, Ordering::SeqCst);
        for inbox in self.inboxes {
            let _ = inbox.send((usize::MAX, Envelope::Abort));
        }
    }

    fn deliver(&self, from: PeId, to: PeId, envelope: Envelope) {
        if let Some((slow, delay, courier)) = &self.courier {
            if *slow == from {
                let _ = courier.send((Instant::now() + *delay, to, (from, envelope)));
                return;
            }
        }
        // Inboxes live until every PE has stopped, so a send cannot fail.
        let _ = self.inboxes[to].send((from, envelope));
    }
}

impl<'a> Threads<'a> {
    /// The thread machine with no options.
    pub fn new() -> Self {
        Threads::default()
    }

    /// Report progress while a run ([`Threads::run`], [`Threads::run_dag`]) lasts: `f(units,
    /// elapsed)`, where `units` is the sum over the PEs of the work units of the slices each
    /// has finished (a PE's count grows at the end of each slice, so it never falls) and
    /// `elapsed` the time since the run started (the origin of T_par). It is called on the thread that called `run`,
    /// which only waits for the PEs meanwhile: every 100 ms in which no PE ended, and once
    /// more each time a PE's thread ends. A slow `f` delays no PE, only its own next call.
    /// Setting the run's interrupt flag ([`Config::interrupt`], [`DagConfig::interrupt`]) from
    /// `f` stops the run (`Ended::Stopped`).
    /// Only the thread machine reports progress; [`crate::run`] uses none.
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

    /// Run `root` on `config.pes` threads with the configured balancer (under contract
    /// checks when `config.check`).
    pub fn run<T: Task>(&self, root: T, config: &Config) -> Result<Ended<T>, RunError> {
        match run::run(self, || root, config, Env::default())? {
            run::Typed::Here(ended, ()) => Ok(*ended),
            run::Typed::Elsewhere(_) => unreachable!("the thread machine holds the root"),
        }
    }

    /// Schedule the task DAG `root` on `config.pes` threads (see [`DagConfig`]): the run
    /// finished, or a limit or the interrupt flag stopped it (its report then holds the
    /// tasks finished until the stop).
    pub fn run_dag(&self, root: DagTask, config: &DagConfig) -> Result<Ended<DagTask>, RunError> {
        let (config, env) = run::dag_setup(config, &root);
        match run::run(self, || root, &config, env)? {
            run::Typed::Here(ended, ()) => Ok(*ended),
            run::Typed::Elsewhere(_) => unreachable!("the thread machine holds the root"),
        }
    }
}

impl Backend for Threads<'_> {
    type Extra = ();

    fn run(&self, start: Start<'_>) -> Ran<()> {
        let (root, config, fresh) = (start.root, start.config, start.fresh);
        // The PEs' shared memory: the counter of shared-memory master–worker.
        let env = &Env {
            counter: Some(Arc::new(AtomicU64::new(0))),
            ..start.env.clone()
        };
        let p = config.pes;
        if p > MAX_THREADS {
            return Err(RunError::InvalidConfig(ConfigError::TooManyThreads {
                pes: p,
                max: MAX_THREADS,
            }));
        }
        let (senders, receivers): (Vec<_>, Vec<_>) = (0..p).map(|_| unbounded::<Inbound>()).unzip();
        let (courier_tx, courier_rx) = unbounded::<Delayed>();
        let shared = Shared {
            inboxes: &senders,
            abort: AtomicBool::new(false),
            failure: Mutex::new(None),
            incumbent: Arc::new(SharedIncumbent::new()),
            units: (0..p)
                .map(|_| CachePadded::new(AtomicU64::new(0)))
                .collect(),
            total: CachePadded::new(AtomicU64::new(0)),
            courier: self.slow_sender.map(|(pe, d)| (pe, d, courier_tx.clone())),
            start: Instant::now(),
        };
        drop(courier_tx);
        let (done_tx, done_rx) = unbounded::<()>();
        let mut root = root;

        let results: Vec<Option<PeEnd>> = std::thread::scope(|scope| {
            let mut handles = Vec::with_capacity(p);
            for (me, inbox) in receivers.iter().enumerate() {
                let shared = &shared;
                let done_tx = done_tx.clone();
                let root = if me == 0 { root.take() } else { None };
                let body = move || {
                    let outcome =
                        catch_quietly(|| pe_loop(me, config, env, fresh, root, inbox, shared));
                    let result = match outcome {
                        Ok(r) => r,
                        Err(payload) => {
                            shared.fail(panic_error(me, payload));
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
                        shared.start.elapsed(),
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
        let t_par = shared.start.elapsed().as_secs_f64();

        if let Some(error) = shared
            .failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        {
            return Err(error);
        }
        // Conservation check: no work may be left in any inbox, nor with the courier.
        for (pe, inbox) in receivers.iter().enumerate() {
            while let Ok((from, envelope)) = inbox.try_recv() {
                driver::check_leftover(from, pe, &envelope)?;
            }
        }
        while let Ok((_, to, (from, envelope))) = courier_rx.try_recv() {
            driver::check_leftover(from, to, &envelope)?;
        }
        let mut gather = Gather::new(p);
        for (pe, end) in results.into_iter().enumerate() {
            if let Some(end) = end {
                gather.add(pe, end);
            }
        }
        gather.finish("threads", config, t_par).map(Some)
    }
}

/// The life of one PE: drive its protocol until it finishes or the run is aborted.
fn pe_loop(
    me: PeId,
    config: &Config,
    env: &Env,
    fresh: Fresh,
    root: Option<Piece>,
    inbox: &Receiver<Inbound>,
    shared: &Shared<'_>,
) -> Option<PeEnd> {
    let mut link = Link {
        me,
        inbox,
        shared,
        pending: None,
        units: 0,
    };
    let clock = MachineTime {
        now: link.now(),
        ticks_per_round_unit: 1000,
        tick_seconds: 1e-9,
    };
    let mut pe = PeDriver::new(
        me,
        config,
        env,
        fresh,
        root,
        clock,
        BoundExchange::Shared,
        Some(shared.incumbent.clone()),
    );
    // An error here is an abort: the failure that caused it is recorded already.
    match driver::drive(&mut pe, &mut link) {
        Ok(Step::Finished) => {}
        Ok(_) | Err(_) => return None,
    }
    Some(pe.end(link.now()))
}

/// One PE's end of the thread machine: its inbox and every other PE's.
struct Link<'a, 's> {
    me: PeId,
    inbox: &'a Receiver<Inbound>,
    shared: &'a Shared<'s>,
    /// What a blocking wait received, for the next `try_recv`.
    pending: Option<Inbound>,
    /// Work units this PE has done (for the progress report).
    units: u64,
}

impl Link<'_, '_> {
    fn accept(&mut self, (from, envelope): Inbound) -> Result<Incoming, RunError> {
        match envelope {
            Envelope::Abort => Err(RunError::Machine("aborted".into())),
            envelope => Ok(Incoming {
                from,
                envelope,
                bound: None,
            }),
        }
    }
}

impl Transport for Link<'_, '_> {
    fn now(&mut self) -> u64 {
        self.shared.start.elapsed().as_nanos() as u64
    }

    fn send(&mut self, to: PeId, envelope: Envelope, _bound: i64) -> Result<u64, RunError> {
        self.shared.deliver(self.me, to, envelope);
        Ok(0)
    }

    fn try_recv(&mut self) -> Result<Option<Incoming>, RunError> {
        let next = match self.pending.take() {
            Some(inbound) => inbound,
            None => match self.inbox.try_recv() {
                Ok(inbound) => inbound,
                Err(TryRecvError::Empty) => return Ok(None),
                Err(TryRecvError::Disconnected) => {
                    return Err(RunError::Machine("inbox closed".into()))
                }
            },
        };
        self.accept(next).map(Some)
    }

    fn recv_until(&mut self, deadline: Option<u64>) -> Result<Flow, RunError> {
        let received = match deadline {
            Some(tick) => {
                let at = self.shared.start + Duration::from_nanos(tick);
                match self.inbox.recv_deadline(at) {
                    Ok(inbound) => Some(inbound),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => {
                        return Err(RunError::Machine("inbox closed".into()))
                    }
                }
            }
            None => Some(
                self.inbox
                    .recv()
                    .map_err(|_| RunError::Machine("inbox closed".into()))?,
            ),
        };
        self.pending = received;
        Ok(Flow::Continue)
    }

    fn handled(&mut self, _handled: &Handled) {}

    fn worked(&mut self, slice: &Slice) -> Result<Flow, RunError> {
        self.units += slice.units;
        // Only this PE writes its slot: a plain store, no read-modify-write.
        self.shared.units[self.me].store(self.units, Ordering::Relaxed);
        if self.shared.abort.load(Ordering::Relaxed) {
            return Err(RunError::Machine("aborted".into()));
        }
        Ok(Flow::Continue)
    }

    fn total_units(&mut self, units: u64) -> u64 {
        self.shared.total.fetch_add(units, Ordering::Relaxed) + units
    }

    fn wall_clock(&mut self) -> Duration {
        self.shared.start.elapsed()
    }
}

/// Deliver delayed messages when their time has come (FIFO: all have the same delay).
fn courier_loop(queue: &Receiver<Delayed>, inboxes: &[Sender<Inbound>], abort: &AtomicBool) {
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
