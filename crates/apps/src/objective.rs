//! How two results of an application are compared: a search's result by its objective value
//! (another optimal solution is as good, and search overhead changes the work done), any
//! other result by equality. Each application implements [`Objective`] for its output in its
//! own module.

/// A search's result as its objective value (branch-and-bound: knapsack's profit, a Golomb
/// ruler's length). Two runs of a search agree when their values do and both solutions are
/// valid: search overhead changes the work done, and another optimal solution is as good.
/// `None` for applications that are not searches (their results must be equal).
pub trait Objective {
    /// The objective value, for a valid solution of a search.
    fn objective(&self) -> Option<u64>;

    /// This is a valid solution as good as `other` (the sequential run's, say).
    fn matches_objective(&self, other: &Self) -> bool {
        self.objective().is_some() && self.objective() == other.objective()
    }
}

/// A count: not a search.
impl Objective for u64 {
    fn objective(&self) -> Option<u64> {
        None
    }
}
