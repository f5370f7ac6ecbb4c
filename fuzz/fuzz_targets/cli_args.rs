//! Fuzz the command line through the CLI library's flag and plan layers
//! (`treesplit_cli::flags`, `treesplit_cli::plan`): argument vectors (NUL-separated in the
//! input) are parsed and planned, never run. An error (exit 2) is fine; a panic is a bug.
//! Arguments with a `/` are skipped, and the working directory is a fresh temporary folder,
//! so that planning, which checks that output files can be written, only touches files
//! there; `-` (standard input) is skipped too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::Once;
use treesplit_cli::{flags, plan};

static CWD: Once = Once::new();

fuzz_target!(|data: &[u8]| {
    CWD.call_once(|| {
        let dir = std::env::temp_dir().join(format!("treesplit-fuzz-cli-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temporary folder");
        std::env::set_current_dir(&dir).expect("enter the temporary folder");
    });
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let args: Vec<&str> = text.split('\0').collect();
    if args.len() > 40 || args.iter().any(|a| a.contains('/') || *a == "-") {
        return;
    }
    let argv = std::iter::once("treesplit").chain(args.iter().copied());
    let Ok((cli, given)) = flags::parse_from(argv) else {
        return;
    };
    let _ = plan::plan(cli, &given);
});
