//! The applications the command line offers, one line each, in the order `--help` lists
//! them. Adding an application means adding its module (with its [`App`]) and its line here.

use crate::app::App;

/// Every application.
pub static APPS: &[&dyn App] = &[
    &crate::nqueens::App,
    &crate::uts::App,
    &crate::knapsack::App,
    &crate::golomb::App,
    &crate::puzzle15::App,
    &crate::hashtable::App,
    &crate::mandelbrot::App,
    &crate::integrate::App,
    &crate::bfs::App,
    &crate::dag::App,
    &crate::synthetic::App,
];

/// The application named `name`.
pub fn find(name: &str) -> Option<&'static dyn App> {
    APPS.iter().copied().find(|a| a.name() == name)
}
