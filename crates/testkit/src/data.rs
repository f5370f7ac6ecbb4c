//! The fixtures: files with published answers that the tests of several crates read
//! (`SOURCES-shared-data.txt` in the folder names where each comes from). Paths are absolute,
//! so that a test finds them whatever its working directory.

use std::path::PathBuf;

/// The fixtures folder.
pub const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data");

/// The fixture at `rel` inside [`DIR`] (`knapsack/knapPI_1_100_1000_1.txt`, say).
pub fn path(rel: &str) -> PathBuf {
    PathBuf::from(DIR).join(rel)
}

/// The text of the fixture at `rel`.
pub fn read(rel: &str) -> String {
    let path = path(rel);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read the fixture {}: {e}", path.display()))
}
