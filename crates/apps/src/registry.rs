//! The applications the command line offers, one line each, in the order `--help` lists
//! them. Adding an application means adding its module (with its [`App`]) and its line here,
//! plus, while the commands run an instance through the typed [`crate::AppSpec`], its variant
//! there and its arms in `spec.rs` (the task it runs) and `instance.rs` (what the commands ask
//! of it).

use crate::app::App;

/// Every application.
pub static APPS: &[&dyn App] = &[
    &crate::nqueens::app::App,
    &crate::uts::app::App,
    &crate::knapsack::app::App,
    &crate::golomb::app::App,
    &crate::puzzle15::app::App,
    &crate::hashtable::app::App,
    &crate::mandelbrot::app::App,
    &crate::integrate::app::App,
    &crate::bfs::app::App,
    &crate::dag::app::App,
    &crate::synthetic::app::App,
];

/// The application named `name`.
pub fn find(name: &str) -> Option<&'static dyn App> {
    APPS.iter().copied().find(|a| a.name() == name)
}
