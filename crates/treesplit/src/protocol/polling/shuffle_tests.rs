//! Poll-and-shuffle's schedule of phases and permutations, PE by PE: which partner an idle PE
//! asks in each round, when it permutes, and when the next cycle starts.

use super::testing::pe as new_pe;
use super::Polling;
use crate::config::{Balancer, Config, PermutationKind};
use crate::piece::{Fresh, Piece};
use crate::protocol::polling::shuffle::ShuffleSignal;
use crate::protocol::{Env, Message, PeId, Protocol};
use crate::topology::Topology;

/// The PEs PE `pe` asks at the start of each of `rounds` (answering every request with a
/// rejection), the other messages dropped.
fn asked(pe: &mut Polling, rounds: std::ops::Range<u64>) -> Vec<PeId> {
    let mut asked = Vec::new();
    for round in rounds {
        pe.start_round(round);
        while let Some((to, message)) = pe.poll_transmit() {
            if matches!(message, Message::Request) {
                asked.push(to);
                pe.receive(to, Message::Reject);
            }
        }
    }
    asked
}

fn pseudorandom(p: usize, round: u64) -> Config {
    Config::new(p).balancer(Balancer::PollAndShuffle {
        polling: Default::default(),
        round,
        permutation: PermutationKind::Pseudorandom,
        adaptive: None,
        sync: Default::default(),
        embedding: Default::default(),
    })
}

/// §3.1 with the permutation by messages: a cycle asks along dimensions 0, 1, …, d−1, then
/// every PE scatters and asks no one until its part is done; after it, the phases start over
/// at 0 from the round the root stamped.
#[test]
fn phases_restart_at_zero_after_a_permutation_by_messages() {
    let config = Config::new(8).balancer(Balancer::PollAndShuffle {
        polling: Default::default(),
        round: crate::config::DEFAULT_ROUND,
        permutation: PermutationKind::Messages,
        adaptive: None,
        sync: Default::default(),
        embedding: Default::default(),
    });
    let mut pe = new_pe(5, &config, None);
    // Round 3 ends the cycle of d = 3 phases: PE 5 scatters its placeholder.
    assert_eq!(asked(&mut pe, 0..4), [4, 7, 1]);
    assert_eq!(asked(&mut pe, 4..7), []);
    // Its parent in the label tree is label 5 with the lowest bit cleared: PE 4.
    pe.receive(4, Message::Shuffling(ShuffleSignal::Wave { n: 0, wave: 1 }));
    assert_eq!(asked(&mut pe, 7..8), []);
    // The root found the permutation complete: the numbering arrives stamped 10.
    pe.receive(
        4,
        Message::Shuffling(ShuffleSignal::Offset {
            n: 0,
            offset: 0,
            cycle_start: 10,
        }),
    );
    assert_eq!(asked(&mut pe, 8..10), [], "before the stamped round");
    assert_eq!(asked(&mut pe, 10..14), [4, 7, 1], "phase 0 at round 10");
}

/// Pseudorandom permutations sit at position d of the round grid: with an unknown latency
/// the slot is one round, phases 0..d−1 before it, phase 0 right after it.
#[test]
fn pseudorandom_cycles_follow_the_round_grid() {
    let mut pe = new_pe(5, &pseudorandom(8, crate::config::DEFAULT_ROUND), None);
    assert_eq!(asked(&mut pe, 0..9), [4, 7, 1, 4, 7, 1, 4]);
}

/// With the machine's latency known, the slot covers it and a slice: latency 250 and
/// Δt = 50 in rounds of 100 ticks take ⌈300/100⌉ = 3 rounds, so a cycle of d = 3 phases is
/// 6 rounds long.
#[test]
fn the_permutation_slot_covers_the_latency() {
    let mut config = pseudorandom(8, 100);
    config.delta_t = 50;
    let env = Env {
        network: Some(Topology::Hypercube),
        latency: Some(250),
        dag: None,
        counter: None,
    };
    let mut pe = Polling::new(5, &config, &env, 1, Fresh::of::<u64>(), None);
    assert_eq!(asked(&mut pe, 0..13), [4, 7, 1, 4, 7, 1, 4]);
}

/// A piece that permutation 0 places after the next cycle has begun marks it incomplete.
#[test]
fn late_permuted_pieces_mark_their_cycle_incomplete() {
    let mut pe = new_pe(5, &pseudorandom(8, crate::config::DEFAULT_ROUND), None);
    let _ = asked(&mut pe, 0..3);
    let piece = || Message::Permuted {
        n: 0,
        task: Piece::new(super::testing::Countdown(3)),
        generation: 1,
        token: 0,
    };
    pe.receive(2, piece());
    let on_time = pe
        .stats()
        .phases
        .expect("poll-and-shuffle reports its phases");
    assert!(on_time.incomplete.is_empty());
    let _ = asked(&mut pe, 3..5); // round 4: phase 0 of the next cycle
    pe.receive(2, piece());
    assert_eq!(pe.stats().phases.unwrap().incomplete, [0]);
}
