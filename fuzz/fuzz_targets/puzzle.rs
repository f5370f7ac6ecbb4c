//! Fuzz the 15-puzzle inputs: Korf lines (`PuzzleSpec::korf_in`, a `korf100.tsv` text) and
//! tile vectors (`check_tiles`). The first byte picks the instance number asked for.
#![no_main]
use libfuzzer_sys::fuzz_target;
use treesplit_apps::puzzle15::{check_tiles, manhattan};
use treesplit_apps::puzzle15::PuzzleSpec;

fuzz_target!(|data: &[u8]| {
    let Some((&k, rest)) = data.split_first() else {
        return;
    };
    if let Ok(tiles) = check_tiles(rest) {
        let _ = manhattan(&tiles);
    }
    if let Ok(text) = std::str::from_utf8(rest) {
        if let Ok(spec) = PuzzleSpec::korf_in("fuzz.tsv", text, usize::from(k)) {
            let _ = manhattan(&spec.tiles);
        }
    }
});
