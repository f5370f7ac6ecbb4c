//! Fuzz the UTS parameters (`UtsParams::parse`: a tree name and `-t -a -d -b -q -m -r -f`
//! flags, whitespace-separated in the input) and what the CLI computes from them before a
//! run: the expected size and the size check.
#![no_main]
use libfuzzer_sys::fuzz_target;
use treesplit_apps::uts::UtsParams;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let args: Vec<String> = text.split_whitespace().map(String::from).collect();
    if let Ok(p) = UtsParams::parse(&args) {
        let _ = p.expected_nodes();
        let _ = p.check_size(true);
        let _ = p.check_size(false);
        let _ = p.published_nodes();
    }
});
