//! Part of the plan layer: the balancer configuration of a run ([`Balance`]), from the
//! balancer flags with the machine's defaults (Δt, round, neighbourhood), for any P and any
//! balancer, and the simulated machine its options describe ([`sim_machine`]). The flags
//! become the library's `BalancerOptions`, which builds each balancer with the options it
//! takes; only the phase in the simulator of a balancer that lays a hypercube onto the
//! network, which its embedding derives from the network, is set here.

use super::pe_list::parse_pe_list;
use crate::flags::{BalancerName, BalancerOpts, LimitFlags, SimFlags};
use crate::output::{self, Failure};
use treesplit::config::{
    Adaptive, BalancerOption, BalancerOptions, Embedding, TerminationKind, MAX_H,
};
use treesplit::machine::sim::{embedding, Delay, MessageLength, Topology};
use treesplit::task::bag::theorem3_h;
use treesplit::{BalancerKind, Config, Jobs, PollingOptions, SimConfig};

/// The balancer configuration for any P and any balancer: the options the flags gave, with
/// the machine's defaults applied. Each balancer takes the options it has a place for (the
/// rules have rejected the ones given that none of the chosen balancers takes).
#[derive(Debug, Clone)]
pub struct Balance {
    kind: BalancerKind,
    /// The balancers' options: those the flags gave, the machine's round and neighbourhood
    /// where they gave none.
    options: BalancerOptions,
    /// `--h-from-alpha A`: the static balancers cut Theorem 3's number of jobs for α = A and
    /// the run's P.
    h_from_alpha: Option<f64>,
    /// The phase of a balancer that lays a hypercube onto the network where the flags give no
    /// round: in the simulator, the one its embedding asks of the network.
    network_phase: Option<u64>,
    delta_t: u64,
    seed: u64,
    termination: TerminationKind,
    limits: Option<LimitFlags>,
}

impl Balance {
    /// The run configuration of the chosen balancer for `pes` PEs (checked, but for a static
    /// balancer's number of jobs, which may still come from the root).
    pub fn config(&self, pes: usize) -> Result<Config, Failure> {
        self.config_for(self.kind, pes)
    }

    /// The run configuration of balancer `kind` for `pes` PEs.
    pub fn config_for(&self, kind: BalancerKind, pes: usize) -> Result<Config, Failure> {
        let mut options = self.options;
        if let Some(alpha) = self.h_from_alpha {
            let h = theorem3_h(alpha, pes);
            if h > MAX_H {
                return Err(Failure::input(format!(
                    "--h-from-alpha {alpha:e}: Theorem 3 of paper 004 asks for more than the 2^{MAX_H} jobs supported; give a larger α or --h"
                )));
            }
            options.jobs = Some(Jobs::Depth(h));
        }
        if let Some(phase) = self
            .network_phase
            .filter(|_| kind.takes(BalancerOption::Embedding))
        {
            // The round of a balancer that lays its phases onto the network.
            options.round = Some(phase);
        }
        let mut config = Config::new(pes)
            .balancer(options.balancer(kind))
            .delta_t(self.delta_t)
            .seed(self.seed)
            .termination(self.termination);
        if let Some(l) = self.limits {
            config.max_units = l.max_units;
            config.time_limit = l.time_limit;
            config.check = l.check;
        }
        config
            .validate_options()
            .map_err(|e| Failure::input(output::config_error(&e)))?;
        Ok(config)
    }

    /// The balancer.
    pub fn balancer(&self) -> BalancerKind {
        self.kind
    }

    /// Whether the run checks the task's contract and its answer (`--check`).
    pub fn checks(&self) -> bool {
        self.limits.is_some_and(|l| l.check)
    }

    /// Runs get the limits and contract checks of `limits` (`--max-units`, `--time-limit`,
    /// `--check`), checked.
    pub(super) fn with_limits(mut self, limits: LimitFlags) -> Result<Self, Failure> {
        self.limits = Some(limits);
        self.config(1)?;
        Ok(self)
    }
}

/// The balancer options with the machine's defaults (Δt, round, neighbourhood).
pub(super) fn balance(
    o: &BalancerOpts,
    balancer: BalancerName,
    seed: Option<u64>,
    default_delta_t: u64,
    default_round: u64,
    default_neighbourhood: Topology,
) -> Result<Balance, Failure> {
    let neighbourhood = match &o.neighbourhood {
        Some(n) => n.parse().map_err(Failure::input)?,
        None => default_neighbourhood,
    };
    if let Some(alpha) = o.h_from_alpha {
        if !(alpha > 0.0 && alpha <= 0.5) {
            return Err(Failure::input(format!(
                "--h-from-alpha must be in (0, 0.5], got {alpha}"
            )));
        }
    }
    if let Some(q) = o.jobs_per_pe.filter(|&q| q > 1 << MAX_H) {
        return Err(Failure::input(format!(
            "--q {q} jobs per PE is more than the supported 2^{MAX_H} jobs in all"
        )));
    }
    let kind = match balancer {
        BalancerName::Tree(kind) => kind,
        BalancerName::Dag(s) => {
            return Err(Failure::input(format!(
                "--balancer {s} schedules task DAGs only (`treesplit run|sim dag`)"
            )))
        }
    };
    let jobs = o.h.map(Jobs::Depth).or(o.jobs_per_pe.map(Jobs::PerPe));
    let options = BalancerOptions {
        polling: Some(PollingOptions {
            trim: o.trim,
            fast_init: o.fast_init,
            permuted_init: o.permuted_init,
        }),
        round: Some(o.round.unwrap_or(default_round)),
        neighbourhood: Some(neighbourhood),
        permutation: o.permutation,
        adaptive: o.adaptive.then_some(Adaptive {
            c: o.adaptive_c,
            gamma: o.adaptive_gamma,
        }),
        sync: Some(o.sync),
        embedding: None,
        jobs,
        static_permutation: Some(o.static_permutation),
        bundle: Some(o.bundle),
        splittable: Some(!o.atomic_jobs),
        order: Some(o.deal_order),
        fanout: Some(o.fanout),
        locality: o.poll_within,
    };
    let balance = Balance {
        kind,
        options,
        h_from_alpha: o.h_from_alpha.filter(|_| jobs.is_none()),
        network_phase: None,
        delta_t: o.delta_t.unwrap_or(default_delta_t),
        seed: seed.unwrap_or(1),
        termination: o.termination,
        limits: None,
    };
    balance.config(1)?;
    Ok(balance)
}

/// The simulated machine of `pes` PEs (default 64) and the balancer configuration the
/// simulator's options describe.
pub(super) fn sim_machine(
    o: &SimFlags,
    b: &BalancerOpts,
    balancer: BalancerName,
    pes: Option<usize>,
    seed: Option<u64>,
) -> Result<(usize, SimConfig, Balance), Failure> {
    let pes = pes.unwrap_or(64);
    // Before the network's embedding and anything else whose work grows with P.
    super::check_pes(pes)?;
    let topology: Topology = o.net.parse().map_err(Failure::input)?;
    let delay: Delay = o.delay.parse().map_err(Failure::input)?;
    if o.routing.is_some() && o.byte_time.is_none() {
        return Err(Failure::input(
            "--routing applies only with --byte-time (it says how message length is charged)",
        ));
    }
    if o.contention && o.byte_time.is_none() {
        return Err(Failure::input(
            "--contention applies only with --byte-time (a link carries 1/byte-time bytes per time unit)",
        ));
    }
    if let Some(b) = o.byte_time.filter(|b| !(b.is_finite() && *b >= 0.0)) {
        return Err(Failure::input(format!(
            "--byte-time must be a non-negative number, got {b}"
        )));
    }
    let length = o.byte_time.map(|byte_time| MessageLength {
        byte_time,
        routing: o.routing.unwrap_or_default(),
        contention: o.contention,
    });
    if topology == Topology::Crossbar && o.t_hop.is_some() {
        return Err(Failure::input(
            "--t-hop applies to the networks other than the crossbar (a message on the crossbar takes T_rout, --t-rout)",
        ));
    }
    let sim = SimConfig {
        topology,
        model: o.model.unwrap_or_default(),
        t_rout: o.t_rout,
        t_hop: o.t_hop,
        t_split: o.t_split,
        t_send: o.t_send,
        t_recv: o.t_recv,
        t_poll: o.t_poll,
        poll_alpha: o.poll_alpha,
        t_count: o.t_count,
        delay,
        length,
        slow: parse_pe_list(&o.slow, "slow PE")
            .map_err(|e| Failure::input(format!("--slow: {e}")))?,
        slow_links: parse_pe_list(&o.slow_links, "slow link")
            .map_err(|e| Failure::input(format!("--slow-links: {e}")))?,
        proof: o.proof,
        threads: o.sim_threads,
        ..SimConfig::default()
    };
    sim.validate(pes)
        .map_err(|e| Failure::input(output::config_error(&e)))?;
    if !(0.0..=1.0).contains(&o.empty_splits) {
        return Err(Failure::input(format!(
            "--empty-splits must be a fraction in [0, 1], got {}",
            o.empty_splits
        )));
    }
    // On a crossbar every PE is a neighbour; neighbour polling then means a ring.
    let neighbourhood = if topology == Topology::Crossbar {
        Topology::Ring
    } else {
        topology
    };
    let delta_t = b.delta_t.unwrap_or(o.t_rout.max(1));
    // A round must fit a request, the victim's next poll, a split and the answer, and the
    // PEs' costs of sending and receiving both messages.
    let overheads = sim.send_cost().saturating_add(sim.recv_cost());
    let default_round = o
        .t_rout
        .saturating_add(overheads)
        .saturating_mul(2)
        .saturating_add(o.t_split)
        .saturating_add(delta_t);
    let mut balance = balance(b, balancer, seed, delta_t, default_round, neighbourhood)?;
    // Poll-and-shuffle on the network (paper 002 §4): its hypercube embedding, and without
    // --round a phase as long as the network's most expensive kept phase asks for.
    balance.options.embedding = o.embedding;
    if let Some(c) = o.phase_c {
        if !(c.is_finite() && c > 0.0 && c <= 1e6) {
            return Err(Failure::input(format!(
                "--phase-c must be a positive number (at most 10^6), got {c}"
            )));
        }
    }
    if b.round.is_none() && o.embedding.unwrap_or_default() == Embedding::Network {
        // The fixed costs of a phase's exchange beside its hops: the split and the PEs' costs
        // of sending and receiving the request and the answer.
        let fixed = o.t_split.saturating_add(overheads.saturating_mul(2));
        balance.network_phase = Some(embedding::default_round(
            topology,
            pes,
            Embedding::Network,
            (sim.hop_latency(), fixed, delta_t),
            o.phase_c.unwrap_or(embedding::DEFAULT_PHASE_C),
        ));
    }
    balance.config(pes)?;
    Ok((pes, sim, balance))
}
