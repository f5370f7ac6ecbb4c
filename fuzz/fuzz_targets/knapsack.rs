//! Fuzz the knapsack instance formats (`Instance::parse`: `n capacity`, YewPar's, Pisinger's
//! CSV; `format::parse` with a pick) and `index.tsv` lookup (`index_optimum`): the input is
//! `instance text \0 index text`. Errors are fine; a panic, an overflow or a hang is a bug.
#![no_main]
use libfuzzer_sys::fuzz_target;
use treesplit_apps::knapsack::{index_optimum, Instance};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (file, index) = text.split_once('\0').unwrap_or((text, ""));
    let _ = treesplit_apps::knapsack::format::parse(file, "fuzz.csv", Some("2"));
    let Ok(instance) = Instance::parse(file, "fuzz.txt") else {
        return;
    };
    // The bound is what every search starts from: it must not overflow either.
    let _ = instance.bound(0, instance.capacity);
    let _ = index_optimum(index, "index.tsv", "fuzz", &instance);
});
