//! What a message costs the PEs of the simulated machine: the message model
//! ([`MessageModel`]) and the per-message overheads it gives T_send and T_recv, and what a
//! hop costs on each network.
//!
//! Paper 000 §1.1 adopts LogP but makes "the more conservative assumption that sending and
//! receiving messages always costs T_rout := L + o + g units of time", so that its analysis
//! also covers messaging that blocks until the message is in the recipient's queue. That is
//! the simulator's default model, [`MessageModel::Blocking`]: besides the message's time in
//! flight, sending and receiving it cost the two PEs T_rout of their own time together —
//! ⌈T_rout/2⌉ the sender (T_send) and ⌊T_rout/2⌋ the receiver (T_recv) unless one or both
//! are given, and never less than T_rout in all. [`MessageModel::LatencyOnly`] keeps only
//! the flight: the PEs pay T_send and T_recv as given, 0 unless given, so communication
//! costs a PE only the wait for an answer (LogP with o = g = 0).
//!
//! The flight itself is the network's (`network.rs`): one message on the crossbar takes
//! T_rout (paper 000: every pair of PEs one message apart); on the other networks a message
//! k hops away takes k·T_hop (paper 002 §2.1, packet switching), T_hop = T_rout unless
//! given. A T_hop on the crossbar that differs from T_rout would make the report's T_rout a
//! figure no message takes, and is refused.

use super::SimConfig;
use crate::config::ConfigError;
use crate::names::named;
use crate::topology::Topology;

named! {
    /// What sending and receiving a message costs the PEs (`SimConfig::model`).
    #[derive(Default)]
    pub enum MessageModel("message model") {
        /// Paper 000 §1.1: sending and receiving a message cost the PEs T_rout of their own
        /// time (T_send + T_recv ≥ T_rout), as with messaging that blocks until the message
        /// is delivered. The default.
        #[default]
        Blocking = "blocking",
        /// Only the latency: the PEs pay T_send and T_recv as given (0 unless given) and go on
        /// while the message is in flight.
        LatencyOnly = "latency-only",
    }
}

impl SimConfig {
    /// The sender's cost per message (T_send) under the model.
    pub fn send_cost(&self) -> u64 {
        self.overheads().0
    }

    /// The receiver's cost per message handled (T_recv) under the model.
    pub fn recv_cost(&self) -> u64 {
        self.overheads().1
    }

    /// (T_send, T_recv): as given, and where not given, from the model (module comment).
    pub fn overheads(&self) -> (u64, u64) {
        match self.model {
            MessageModel::LatencyOnly => (self.t_send.unwrap_or(0), self.t_recv.unwrap_or(0)),
            MessageModel::Blocking => {
                let r = self.t_rout;
                match (self.t_send, self.t_recv) {
                    (Some(s), Some(v)) => (s, v),
                    (Some(s), None) => (s, r.saturating_sub(s)),
                    (None, Some(v)) => (r.saturating_sub(v), v),
                    (None, None) => (r.div_ceil(2), r / 2),
                }
            }
        }
    }

    /// The latency of one hop: T_rout on the crossbar (one message, one hop), T_hop (default
    /// T_rout) on the other networks.
    pub fn hop_latency(&self) -> u64 {
        match self.topology {
            Topology::Crossbar => self.t_rout,
            _ => self.t_hop.unwrap_or(self.t_rout),
        }
    }

    /// The same machine with the model's T_send and T_recv written in (what a report shows).
    pub fn resolved(&self) -> SimConfig {
        let (s, v) = self.overheads();
        SimConfig {
            t_send: Some(s),
            t_recv: Some(v),
            ..self.clone()
        }
    }

    /// The model's own rules: the blocking model's overheads cover T_rout, and the crossbar
    /// has no hop latency of its own.
    pub(super) fn validate_model(&self) -> Result<(), ConfigError> {
        if self.topology == Topology::Crossbar && self.t_hop.is_some_and(|h| h != self.t_rout) {
            return Err(ConfigError::HopOnCrossbar {
                t_hop: self.t_hop.unwrap_or_default(),
                t_rout: self.t_rout,
            });
        }
        let (s, v) = self.overheads();
        if self.model == MessageModel::Blocking && s.saturating_add(v) < self.t_rout {
            return Err(ConfigError::BlockingOverheads {
                t_send: s,
                t_recv: v,
                t_rout: self.t_rout,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sim(model: MessageModel, t_rout: u64, s: Option<u64>, v: Option<u64>) -> SimConfig {
        SimConfig {
            model,
            t_rout,
            t_send: s,
            t_recv: v,
            ..SimConfig::default()
        }
    }

    #[test]
    fn blocking_charges_t_rout_between_sender_and_receiver() {
        use MessageModel::*;
        assert_eq!(SimConfig::default().model, Blocking);
        assert_eq!(SimConfig::default().overheads(), (5, 5));
        assert_eq!(sim(Blocking, 37, None, None).overheads(), (19, 18));
        assert_eq!(sim(Blocking, 1, None, None).overheads(), (1, 0));
        assert_eq!(sim(Blocking, 10, Some(8), None).overheads(), (8, 2));
        assert_eq!(sim(Blocking, 10, None, Some(3)).overheads(), (7, 3));
        assert_eq!(sim(Blocking, 10, Some(30), None).overheads(), (30, 0));
        assert_eq!(sim(Blocking, 10, Some(6), Some(6)).overheads(), (6, 6));
        assert!(sim(Blocking, 10, Some(6), Some(6)).validate_model().is_ok());
        assert!(matches!(
            sim(Blocking, 10, Some(4), Some(5)).validate_model(),
            Err(ConfigError::BlockingOverheads { .. })
        ));
        assert_eq!(sim(LatencyOnly, 10, None, None).overheads(), (0, 0));
        assert_eq!(sim(LatencyOnly, 10, Some(2), None).overheads(), (2, 0));
        assert!(sim(LatencyOnly, 10, Some(1), Some(0))
            .validate_model()
            .is_ok());
        let r = sim(Blocking, 9, None, None).resolved();
        assert_eq!((r.t_send, r.t_recv), (Some(5), Some(4)));
        assert_eq!("latency-only".parse::<MessageModel>(), Ok(LatencyOnly));
        assert!("lazy".parse::<MessageModel>().is_err());
    }

    #[test]
    fn a_hop_costs_t_rout_on_the_crossbar_and_t_hop_elsewhere() {
        let crossbar = SimConfig {
            t_rout: 38,
            t_hop: Some(1),
            ..SimConfig::default()
        };
        assert_eq!(crossbar.hop_latency(), 38);
        assert!(matches!(
            crossbar.validate_model(),
            Err(ConfigError::HopOnCrossbar {
                t_hop: 1,
                t_rout: 38
            })
        ));
        let same = SimConfig {
            t_hop: Some(38),
            ..crossbar.clone()
        };
        assert!(same.validate_model().is_ok());
        let ring = SimConfig {
            topology: Topology::Ring,
            ..crossbar
        };
        assert_eq!(ring.hop_latency(), 1);
        assert!(ring.validate_model().is_ok());
    }
}
