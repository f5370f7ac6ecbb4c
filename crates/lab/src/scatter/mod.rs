//! Randomly scattered data (paper 003, Kimura–Ichiyoshi) and adversarial job sizes (paper 004
//! §2, chapter 14 Theorem 14.1): the models, their predictions computed numerically, and Monte
//! Carlo measurements of both. `treesplit scatter` prints them; the distributed hash table of
//! Example 2.1 is the real application (`treesplit_apps::hashtable`).

pub mod adversary;
pub mod convex;
pub mod extreme;
pub mod model;
pub mod montecarlo;
