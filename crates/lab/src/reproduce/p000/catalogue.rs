//! Paper 000's experiments: each claim quoted as the paper states it, its premises, the
//! model it is judged under, whether the experiment lies inside the premises, and the
//! criterion fixed before the run.

use super::super::Experiment;
use super::{contrast, lemmas, lower, polling, termination, theorems};

/// Paper 000's experiments.
pub(in crate::reproduce) fn experiments() -> Vec<Experiment> {
    vec![
        claim!("p000", "000-thm1", theorems::thm1),
        claim!("p000", "000-lemma1-interval", lemmas::lemma1_interval),
        claim!("p000", "000-lemma1-response", lemmas::lemma1_response),
        claim!("p000", "000-lemma1-queue", lemmas::lemma1_queue),
        claim!("p000", "000-lemma2-dead", lemmas::lemma2),
        claim!("p000", "000-lemma3-red", lemmas::lemma3),
        claim!("p000", "000-lemma4-colouring", lemmas::lemma4),
        claim!("p000", "000-lemma5", lemmas::lemma5),
        claim!("p000", "000-lemma6-finish", lemmas::lemma6),
        claim!("p000", "000-termination-delay", termination::delay_claim),
        claim!("p000", "000-thm2-tail", theorems::thm2_tail),
        claim!("p000", "000-thm2-trim", theorems::thm2_trim),
        claim!("p000", "000-poll-cost", polling::poll_cost),
        claim!("p000", "000-grr-count", contrast::grr_count),
        claim!("p000", "000-lb-split-time", lower::split_time),
        claim!("p000", "000-lb-critical-path", lower::critical_path),
        claim!("p000", "000-lb-messages", lower::messages),
    ]
}
