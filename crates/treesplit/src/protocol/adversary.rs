//! The protocol variants that break one assumption of paper 000's analysis each, for the
//! negative controls of `treesplit reproduce`: a criterion that cannot tell random polling
//! with a tree-based reduction from these cannot judge the claim. They are protocol
//! behaviour, so they live here; the simulator switches them on (`SimConfig::adversary`,
//! re-exported as `machine::sim::adversary::Adversary`), every other machine leaves them off.

use serde::{Deserialize, Serialize};

/// Protocol variants that violate an assumption of paper 000's analysis, each off by default
/// (`Adversary::default()` changes nothing). They exist to show that a criterion can fail: a
/// claim the paper proves for random polling with a tree-based reduction must not hold for
/// them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adversary {
    /// A fixed-victim poller: under random polling every idle PE other than this one sends its
    /// requests to this PE instead of a uniformly random one (paper 000 §3 Lemma 1 (3) needs
    /// the random victim: requests then meet an expected queue of at most one). That PE
    /// itself still asks a random PE. Other balancers ignore it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed_victim: Option<usize>,
    /// Four-counter termination detection sums its counts along a chain of PEs (PE i's
    /// parent is i − 1, the ring-based summing of the four-counter method [22] that paper 000
    /// §2 replaces by a tree): a wave takes Θ(P·T_rout) instead of O(T_rout·log P).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chain_reduction: bool,
}

impl Adversary {
    /// No adversarial variant switched on.
    pub fn is_off(&self) -> bool {
        *self == Adversary::default()
    }
}
