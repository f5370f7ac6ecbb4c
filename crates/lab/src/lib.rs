//! The papers' lab for treesplit: what checks the papers' claims rather than solving a
//! problem. The applications it measures live in `treesplit-apps`; the command line reaches
//! all of this through `treesplit reproduce`, `treesplit dst`, `treesplit scatter` and
//! `treesplit depth`.
//!
//! - [`reproduce`]: the catalogue of claims (one module per paper) and the report it writes;
//! - [`experiments`]: the measurement sweeps behind the figures (the `figures` binary prints
//!   their rows);
//! - [`scatter`]: randomly scattered data and adversarial job sizes: models, numeric
//!   predictions, Monte Carlo;
//! - [`dst`] and [`dst_systems`]: deterministic simulation testing, random simulated runs
//!   checked against their sequential answers; [`dst_strata`]: its choices drawn by name, and
//!   the golden corpus's cases listed by balancer and network.

pub mod dst;
mod dst_bound;
pub mod dst_search;
pub mod dst_strata;
pub mod dst_systems;
pub mod experiments;
pub mod reproduce;
pub mod scatter;
