//! The task and its outcome with their types erased: what the protocols, the driver and the
//! machines run.
//!
//! Only the machines' entry points (`run`, `simulate`, the MPI machine's `run`) know the task
//! type `T`. They turn the root into a [`Piece`], a boxed task behind a small table of virtual
//! functions (work, split, …), and the PEs' results into [`Yield`]s, boxed outcomes that
//! merge; everything below the entry points is written, and compiled, once for all task types.
//! The hot loop stays inside `Task::work`: a work slice is one virtual call.
//!
//! Pieces and yields serialize to exactly the bytes of the typed values (through
//! `erased-serde`): the simulator charges message sizes and the MPI machine sends them.
//! Decoding needs the type back: the entry point installs the decoders of its `T` on its
//! thread for the duration of the run ([`Decoding`]); only the MPI machine decodes.

use crate::task::{Context, Incumbent, Outcome, Task};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::any::{Any, TypeId};
use std::cell::Cell;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

/// A piece of work of the run's task type, its type erased.
pub(crate) struct Piece(Box<dyn Erased>);

/// What a work slice works with: the PE's result accumulator (of the run's outcome type), the
/// incumbent it sees and its number.
pub(crate) struct Bench<'a> {
    /// The PE's result accumulator.
    pub output: &'a mut Yield,
    /// The incumbent the PE sees.
    pub incumbent: &'a dyn Incumbent,
    /// The PE.
    pub pe: usize,
}

/// What one work slice on a piece did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Worked {
    /// Work units done.
    pub units: u64,
    /// The task asked for an early stop (`Context::stop`).
    pub stop: bool,
    /// The task is empty after the slice.
    pub empty: bool,
}

impl Worked {
    /// Why a call of `asked` units that did this, `improved` the incumbent or not, is not
    /// *plain* (it did all the units asked, left work, asked for no stop and improved
    /// nothing); None where it is. The words finish "work(n) …" in a broken promise of plain
    /// units.
    pub(crate) fn why_not_plain(&self, asked: u64, improved: bool) -> Option<String> {
        if self.units != asked {
            Some(format!("did {}", self.units))
        } else if self.empty {
            Some("emptied the task".into())
        } else if self.stop {
            Some("asked to stop".into())
        } else if improved {
            Some("improved the incumbent".into())
        } else {
            None
        }
    }
}

/// What every erased value (a task, a wrapper of pieces, an outcome) gives the same way: the
/// value itself, to look at its type or to serialize its own bytes.
pub(crate) trait Exact {
    /// This very value, whatever it wraps, to look at its type.
    fn as_exact_mut(&mut self) -> &mut dyn Any;
    /// The value to serialize (the typed value's own bytes).
    fn as_serialize(&self) -> &dyn erased_serde::Serialize;
}

impl<V: Any + Serialize> Exact for V {
    fn as_exact_mut(&mut self) -> &mut dyn Any {
        self
    }
    fn as_serialize(&self) -> &dyn erased_serde::Serialize {
        self
    }
}

/// The simulator's run-ahead of a piece: up to `max` slices of `budget` units, while no
/// incumbent improvement is flagged in `improved`.
pub(crate) struct PlainRun<'a> {
    /// Units per slice (Δt).
    pub budget: u64,
    /// The most slices.
    pub max: u32,
    /// Set when a slice improved the incumbent (that slice is not plain).
    pub improved: &'a AtomicBool,
}

impl PlainRun<'_> {
    /// Do `slice` while it is plain and fewer than `max` were, counting the plain ones in
    /// `plain` (the first slice that is not plain is done too, and ends the loop).
    #[inline(always)]
    fn slices(&self, plain: &mut u32, mut slice: impl FnMut() -> Worked) {
        while *plain < self.max {
            let w = slice();
            if w.units != self.budget || w.stop || w.empty || self.improved.load(Ordering::Relaxed)
            {
                return;
            }
            *plain += 1;
        }
    }

    /// The plain slices among `max` slices done in one call of their whole budget, `total`
    /// (a task whose slices compose, `Task::WORK_COMPOSES`), that did `units` and left the task
    /// `empty`. Slice j did the j-th `budget` units; a slice before the last one that did any
    /// units did its whole budget and left work behind, so the plain slices are those before
    /// the slice in which the task ran out. Where the call asked to stop or improved the
    /// incumbent (`irregular`), the slice that did it is unknown: none is counted plain, which
    /// is always safe, since run-ahead only leaves out slice ends that would change nothing;
    /// the caller undoes the call, and the PE works its next slice as usual.
    fn plain_in_one(&self, total: u64, units: u64, empty: bool, irregular: bool) -> u32 {
        if irregular || self.budget == 0 || units > total {
            0
        } else if units == total && !empty {
            self.max
        } else if empty {
            // The slice that ended the task is not plain: the one holding the last unit.
            (units.saturating_sub(1) / self.budget) as u32
        } else {
            // Fewer units on a task that is not empty (a slice that ended early, which
            // `Task::work` may do) or more than the budget (above): where the short slice was
            // is unknown, so none counts.
            0
        }
    }
}

/// The virtual functions of a piece: every [`Task`] has them, and so do wrappers that work
/// on pieces (the contract checks).
pub(crate) trait Erased: Send + Exact {
    /// Work for at most `budget` units at `bench`.
    fn work(&mut self, budget: u64, bench: &mut Bench<'_>) -> Worked;
    /// The simulator's run-ahead: the slices of `run` while each is *plain* (it does its whole
    /// budget, leaves the task non-empty, asks for no stop, and leaves `improved` unset),
    /// counting them in `plain`; the first slice that is not plain is done too, and ends the
    /// loop. One call for all the slices: a task's own loop overrides this.
    fn run_plain(&mut self, run: &PlainRun<'_>, bench: &mut Bench<'_>, plain: &mut u32) {
        run.slices(plain, || self.work(run.budget, bench));
    }
    /// `Task::plain_units` of a task whose slices compose (`Task::WORK_COMPOSES`), else 0.
    /// A wrapper promises nothing (its slices run one by one, each checked).
    fn plain_units(&self) -> u64 {
        0
    }
    /// `Task::split`.
    fn split(&mut self) -> Option<Piece>;
    /// `Task::split_at`.
    fn split_at(&mut self, units: u64) -> Option<Piece>;
    /// `Task::is_empty`.
    fn is_empty(&self) -> bool;
    /// `Task::estimate`.
    fn estimate(&self) -> Option<u64>;
    /// A copy.
    fn clone_piece(&self) -> Piece;
    /// Copy this piece onto `target`, in its memory where it is of this very type.
    fn clone_onto(&self, target: &mut Piece) {
        *target = self.clone_piece();
    }
    /// The user's task (beneath any wrapper), to look at (unit tests).
    #[cfg(test)]
    fn as_any(&self) -> &dyn Any;
    /// The user's task (beneath any wrapper), to take back.
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

impl<T: Task> Erased for T {
    #[inline]
    fn work(&mut self, budget: u64, bench: &mut Bench<'_>) -> Worked {
        let output = bench.output.downcast_mut::<T::Output>();
        let mut ctx = Context::new(output, bench.incumbent, bench.pe).with_goal(T::GOAL);
        let units = Task::work(self, budget, &mut ctx);
        Worked {
            units,
            stop: ctx.stop_requested(),
            empty: Task::is_empty(self),
        }
    }
    fn run_plain(&mut self, run: &PlainRun<'_>, bench: &mut Bench<'_>, plain: &mut u32) {
        let output = bench.output.downcast_mut::<T::Output>();
        let mut ctx = Context::new(output, bench.incumbent, bench.pe).with_goal(T::GOAL);
        if T::WORK_COMPOSES {
            if let Some(total) = run.budget.checked_mul(u64::from(run.max)) {
                let units = Task::work(self, total, &mut ctx);
                let (stop, improved) = (ctx.stop_requested(), run.improved.load(Ordering::Relaxed));
                *plain = run.plain_in_one(total, units, Task::is_empty(self), stop || improved);
                return;
            }
        }
        run.slices(plain, || {
            let units = Task::work(self, run.budget, &mut ctx);
            Worked {
                units,
                stop: ctx.stop_requested(),
                empty: Task::is_empty(self),
            }
        });
    }
    fn plain_units(&self) -> u64 {
        if T::WORK_COMPOSES {
            Task::plain_units(self)
        } else {
            0
        }
    }
    fn split(&mut self) -> Option<Piece> {
        Task::split(self).map(Piece::new)
    }
    fn split_at(&mut self, units: u64) -> Option<Piece> {
        Task::split_at(self, units).map(Piece::new)
    }
    fn is_empty(&self) -> bool {
        Task::is_empty(self)
    }
    fn estimate(&self) -> Option<u64> {
        Task::estimate(self)
    }
    fn clone_piece(&self) -> Piece {
        Piece::new(self.clone())
    }
    fn clone_onto(&self, target: &mut Piece) {
        match target.0.as_exact_mut().downcast_mut::<T>() {
            Some(task) => task.clone_from(self),
            None => *target = self.clone_piece(),
        }
    }
    #[cfg(test)]
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

impl Piece {
    /// `task` as a piece.
    pub(crate) fn new<T: Task>(task: T) -> Piece {
        Piece(Box::new(task))
    }

    /// A piece of a wrapper that works on pieces.
    pub(crate) fn wrap(erased: Box<dyn Erased>) -> Piece {
        Piece(erased)
    }

    /// Work for at most `budget` units at `bench`.
    #[inline]
    pub(crate) fn work(&mut self, budget: u64, bench: &mut Bench<'_>) -> Worked {
        self.0.work(budget, bench)
    }

    /// The simulator's run-ahead: the slices of `run` at `bench` while each is plain
    /// ([`Erased::run_plain`]), counted in `plain`, in one call.
    #[inline]
    pub(crate) fn run_plain(&mut self, run: &PlainRun<'_>, bench: &mut Bench<'_>, plain: &mut u32) {
        self.0.run_plain(run, bench, plain)
    }

    /// The units the piece will surely do plainly, where its slices compose
    /// ([`Erased::plain_units`]).
    #[inline]
    pub(crate) fn plain_units(&self) -> u64 {
        self.0.plain_units()
    }

    /// Hand part of what is left to a new piece (`Task::split`).
    pub(crate) fn split(&mut self) -> Option<Piece> {
        self.0.split()
    }

    /// Cut after about `units` estimated units (`Task::split_at`).
    pub(crate) fn split_at(&mut self, units: u64) -> Option<Piece> {
        self.0.split_at(units)
    }

    /// True when no work is left.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The estimated work units left, where the task gives them.
    pub(crate) fn estimate(&self) -> Option<u64> {
        self.0.estimate()
    }

    /// Where the piece lies in memory (to prefetch it).
    #[inline]
    pub(crate) fn address(&self) -> *const u8 {
        &*self.0 as *const dyn Erased as *const u8
    }

    /// The user's task beneath any wrapper, taken.
    pub(crate) fn into_any(self) -> Box<dyn Any> {
        self.0.into_any()
    }

    /// The user's task beneath any wrapper (unit tests).
    #[cfg(test)]
    pub(crate) fn as_any(&self) -> &dyn Any {
        self.0.as_any()
    }

    /// The user's task, when it is a `T` (unit tests look at pieces).
    #[cfg(test)]
    pub(crate) fn downcast_ref<T: 'static>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref()
    }

    /// The user's task back, without any wrapper (a piece of a run of `T` is a `T`).
    pub(crate) fn into_typed<T: 'static>(self) -> T {
        typed(self.0.into_any())
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Piece")
    }
}

/// A value of the run's types, erased: the run's types are the only ones there are.
fn typed<X: 'static>(erased: Box<dyn Any>) -> X {
    *erased
        .downcast()
        .unwrap_or_else(|_| panic!("a value of the run's types"))
}

/// Clone and serde for an erased value (`$erased`, with its value in `.0`, cloned by its
/// `$clone`): the typed value's own bytes, decoded by the run's decoder `$decode` (a field
/// of [`Decoders`]).
macro_rules! typed_value {
    ($erased:ty, $clone:ident, $decode:ident) => {
        impl Clone for $erased {
            fn clone(&self) -> Self {
                self.0.$clone()
            }

            fn clone_from(&mut self, source: &Self) {
                source.0.clone_onto(self);
            }
        }

        impl Serialize for $erased {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                erased_serde::serialize(self.0.as_serialize(), serializer)
            }
        }

        impl<'de> Deserialize<'de> for $erased {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let decoders = Decoders::current::<D::Error>()?;
                let mut erased = <dyn erased_serde::Deserializer>::erase(deserializer);
                (decoders.$decode)(&mut erased).map_err(D::Error::custom)
            }
        }
    };
}

typed_value!(Piece, clone_piece, piece);
typed_value!(Yield, clone_yield, output);

/// A PE's result accumulator of the run's outcome type, its type erased.
pub(crate) struct Yield(Box<dyn ErasedOutcome>, TypeId);

/// The virtual functions of an outcome.
trait ErasedOutcome: Send + fmt::Debug + Exact {
    fn merge(&mut self, other: Yield);
    fn clone_yield(&self) -> Yield;
    fn clone_onto(&self, target: &mut Yield);
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

impl<O: Outcome> ErasedOutcome for O {
    fn merge(&mut self, other: Yield) {
        Outcome::merge(self, other.into_typed());
    }
    fn clone_yield(&self) -> Yield {
        Yield::new(self.clone())
    }
    fn clone_onto(&self, target: &mut Yield) {
        if target.1 == TypeId::of::<O>() {
            target.downcast_mut::<O>().clone_from(self);
        } else {
            *target = self.clone_yield();
        }
    }
    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

impl Yield {
    /// Where the outcome lies in memory (to prefetch it).
    #[inline]
    pub(crate) fn address(&self) -> *const u8 {
        &*self.0 as *const dyn ErasedOutcome as *const u8
    }

    /// `output` as a yield.
    pub(crate) fn new<O: Outcome>(output: O) -> Yield {
        Yield(Box::new(output), TypeId::of::<O>())
    }

    /// Fold `other` (of the same type) into this one (`Outcome::merge`).
    pub(crate) fn merge(&mut self, other: Yield) {
        self.0.merge(other);
    }

    /// The typed accumulator (a yield of a run of `O` is an `O`).
    #[inline]
    pub(crate) fn downcast_mut<O: 'static>(&mut self) -> &mut O {
        assert!(
            self.1 == TypeId::of::<O>(),
            "a yield of the run's outcome type"
        );
        // SAFETY: the box holds an `O` (its type id says so, checked above); the data pointer
        // of the trait object is a pointer to it.
        unsafe { &mut *(&mut *self.0 as *mut dyn ErasedOutcome as *mut O) }
    }

    /// The typed outcome back.
    pub(crate) fn into_typed<O: 'static>(self) -> O {
        typed(self.0.into_any())
    }
}

impl fmt::Debug for Yield {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// How a run makes a fresh accumulator of its outcome type (`Outcome`'s default).
#[derive(Clone, Copy)]
pub(crate) struct Fresh(fn() -> Yield);

impl Fresh {
    /// Fresh accumulators of `O`.
    pub(crate) fn of<O: Outcome>() -> Fresh {
        Fresh(|| Yield::new(O::default()))
    }

    /// A fresh accumulator.
    pub(crate) fn make(self) -> Yield {
        (self.0)()
    }
}

impl fmt::Debug for Fresh {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Fresh")
    }
}

/// Decodes a piece or a yield of the run's types.
pub(crate) type Decode<X> =
    for<'de> fn(&mut dyn erased_serde::Deserializer<'de>) -> erased_serde::Result<X>;

/// The decoders of one run's task and outcome types (only the MPI machine decodes).
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
#[derive(Clone, Copy)]
pub(crate) struct Decoders {
    /// Decodes a piece (as the run serialized it: a checked run's pieces carry their names).
    pub piece: Decode<Piece>,
    /// Decodes an outcome.
    pub output: Decode<Yield>,
}

thread_local! {
    /// The decoders of the run in progress on this thread.
    static DECODERS: Cell<Option<Decoders>> = const { Cell::new(None) };
}

#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
impl Decoders {
    /// The decoders of a run of `T`.
    pub(crate) fn of<T: Task>() -> Decoders {
        Decoders {
            piece: |d| erased_serde::deserialize::<T>(d).map(Piece::new),
            output: |d| erased_serde::deserialize::<T::Output>(d).map(Yield::new),
        }
    }

    fn current<E: serde::de::Error>() -> Result<Decoders, E> {
        DECODERS
            .with(Cell::get)
            .ok_or_else(|| E::custom("no run on this thread decodes pieces"))
    }
}

/// The decoders of a run installed on this thread until dropped.
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub(crate) struct Decoding {
    previous: Option<Decoders>,
}

#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
impl Decoding {
    /// Decode pieces and yields with `decoders` on this thread while the value lives.
    pub(crate) fn install(decoders: Decoders) -> Decoding {
        Decoding {
            previous: DECODERS.with(|d| d.replace(Some(decoders))),
        }
    }
}

impl Drop for Decoding {
    fn drop(&mut self) {
        DECODERS.with(|d| d.set(self.previous));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::range::IndexRange;
    use crate::task::testing::{sum, Sum};

    /// A piece and a yield are the typed values' bytes, and decode back with the run's
    /// decoders installed (and only then).
    #[test]
    fn pieces_keep_the_bytes_of_their_type() {
        let task = sum(3, 1000);
        let typed = postcard::to_allocvec(&task).unwrap();
        let piece = Piece::new(task);
        assert_eq!(postcard::to_allocvec(&piece).unwrap(), typed);
        assert_eq!(
            postcard::to_allocvec(&Yield::new(77u64)).unwrap(),
            postcard::to_allocvec(&77u64).unwrap()
        );
        assert!(postcard::from_bytes::<Piece>(&typed).is_err());
        let _decoding = Decoding::install(Decoders::of::<IndexRange<Sum>>());
        let back: IndexRange<Sum> = postcard::from_bytes::<Piece>(&typed).unwrap().into_typed();
        assert_eq!((back.lo, back.hi), (3, 1000));
    }

    fn bench<'a>(output: &'a mut Yield, incumbent: &'a dyn Incumbent) -> Bench<'a> {
        Bench {
            output,
            incumbent,
            pe: 0,
        }
    }

    /// Work, splits and merges go through to the typed task and outcome.
    #[test]
    fn pieces_work_split_and_merge_as_their_type() {
        let incumbent = crate::task::SharedIncumbent::new();
        let mut piece = Piece::new(sum(0, 10));
        let mut other = piece.split().unwrap();
        let (mut a, mut b) = (Yield::new(0u64), Fresh::of::<u64>().make());
        let worked = piece.work(100, &mut bench(&mut a, &incumbent));
        assert_eq!((worked.units, worked.stop, worked.empty), (5, false, true));
        other.work(100, &mut bench(&mut b, &incumbent));
        a.merge(b.clone());
        assert_eq!(a.into_typed::<u64>(), (0..10).sum::<u64>());
        assert_eq!(b.into_typed::<u64>(), (5..10).sum::<u64>());
    }
}
