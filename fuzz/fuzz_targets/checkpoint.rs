//! Fuzz the checkpoint file (`treesplit::checkpoint::Snapshot::decode`): the frame (magic,
//! version, length, SHA-1) and the body, for an N-Queens and a knapsack computation. A
//! damaged file must be an error, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use treesplit::checkpoint::Snapshot;

fuzz_target!(|data: &[u8]| {
    let _ = Snapshot::<treesplit_apps::NQueens>::decode(data);
    let _ = Snapshot::<treesplit_apps::knapsack::Knapsack>::decode(data);
});
