//! `treesplit sim`: byte-for-byte reproducible output, the JSON report and pictures, the
//! simulator's bad input and time limits, its network flags, the costs of polling and of a
//! global counter (simulator only), and the timelines (`--trace`,
//! `--gantt`) of real and simulated runs.

mod support;

use support::chrome_trace::check_chrome_trace;
use support::{stderr, stdout, treesplit};

const SIM: &[&str] = &[
    "sim",
    "nqueens",
    "8",
    "--pes",
    "16",
    "--net",
    "hypercube",
    "--t-rout",
    "10",
    "--t-split",
    "5",
    "--delta-t",
    "20",
    "--delay",
    "exp:4",
    "--seed",
    "3",
];

#[test]
fn sim_output_is_reproducible_byte_for_byte() {
    let a = treesplit(SIM);
    assert!(a.status.success(), "{}", stderr(&a));
    let b = treesplit(SIM);
    assert_eq!(a.stdout, b.stdout, "same seed, different output");
    let out = stdout(&a);
    assert!(out.contains("nqueens 8: 92"), "{out}");
    assert!(out.contains("Theorem 1"), "{out}");
    assert!(out.contains("termination detected"), "{out}");
    assert!(stderr(&a).contains("events/s"), "speed goes to stderr");
}

/// The engine on several threads prints the report of one engine (only the speed line on
/// stderr differs).
#[test]
fn sim_output_is_the_same_on_several_engine_threads() {
    let run = |threads: &str| {
        let o = treesplit(&[
            "sim",
            "uts",
            "T1-mini",
            "--pes",
            "700",
            "--sim-threads",
            threads,
            "--seed",
            "4",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    };
    let one = run("1");
    assert!(one.contains("T_par"), "{one}");
    assert_eq!(run("2"), one);
    assert_eq!(run("3"), one);
}

#[test]
fn sim_json_and_pictures() {
    let dir = std::env::temp_dir().join(format!("treesplit-cli-sim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("gantt.svg");
    let png = dir.join("util.png");
    let o = treesplit(&[
        "sim",
        "uts",
        "T1-mini",
        "--pes",
        "8",
        "--json",
        "--gantt",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    assert_eq!(j["result"]["nodes"], 63_914);
    assert_eq!(j["simulation"]["report"]["totals"]["work_units"], 63_914);
    assert!(j["simulation"]["theorem1"]["h"].as_u64().unwrap() > 0);
    assert!(j["simulation"]["termination_delay"].is_u64());
    // The default machine is paper 000 §1.1's: blocking messages, sending and receiving
    // charged T_rout in all; T_par ends at detection and the collection is reported apart.
    let sim = &j["simulation"]["sim"];
    assert_eq!(sim["model"], "blocking");
    let t = |k: &str| sim[k].as_u64().unwrap_or_else(|| panic!("{k} in {sim}"));
    assert!(t("t_send") + t("t_recv") >= t("t_rout"), "{sim}");
    let t_collect = j["simulation"]["t_collect"].as_u64().unwrap();
    assert!(
        t_collect > 0,
        "four-counter collects the result after detection"
    );
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    // Above the timeline limit the picture is the utilization curve.
    let o = treesplit(&[
        "sim",
        "nqueens",
        "9",
        "--pes",
        "600",
        "--gantt",
        png.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sim_bad_input_gets_a_clear_error() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["sim", "nqueens", "8", "--net", "torus"],
            "unknown network",
        ),
        (&["sim", "nqueens", "8", "--delay", "gauss:3"], "bad delay"),
        (
            &["sim", "nqueens", "8", "--pes", "4", "--slow", "9:2"],
            "does not exist",
        ),
        (
            &["sim", "nqueens", "8", "--slow", "1:x"],
            "not a valid value",
        ),
        (
            &["sim", "nqueens", "8", "--empty-splits", "2"],
            "empty-splits",
        ),
        (&["sim", "nqueens", "8", "--t-rout", "0"], "t-rout"),
        (
            &["sim", "nqueens", "8", "--t-hop", "1"],
            "--t-hop applies to the networks other than the crossbar",
        ),
        (
            &["sim", "nqueens", "8", "--t-send", "1", "--t-recv", "1"],
            "use --model latency-only",
        ),
        (
            &["sim", "nqueens", "8", "--model", "lazy"],
            "unknown message model",
        ),
        (
            &["sim", "nqueens", "8", "--poll-alpha", "0"],
            "--poll-alpha must be in (0, 1]",
        ),
        (
            &["sim", "nqueens", "8", "--poll-alpha", "1.5"],
            "--poll-alpha must be in (0, 1]",
        ),
        (
            &["sim", "nqueens", "8", "--gantt", "out.txt"],
            ".svg or .png",
        ),
        (
            &["sim", "nqueens", "8", "--sim-threads", "0"],
            "--sim-threads 0: it must be between 1 and",
        ),
        (
            &["sim", "nqueens", "8", "--pes", "4", "--sim-threads", "5"],
            "at most P = 4",
        ),
        (
            &["sim", "nqueens", "8", "--pes", "4", "--sim-threads", "2"],
            "keeps every PE's timeline whole",
        ),
        (
            &[
                "sim",
                "nqueens",
                "8",
                "--pes",
                "600",
                "--sim-threads",
                "2",
                "--delay",
                "exp:3",
            ],
            "a random delay is drawn from one generator",
        ),
        (
            &[
                "sim",
                "nqueens",
                "8",
                "--pes",
                "600",
                "--sim-threads",
                "2",
                "--max-units",
                "99",
            ],
            "a limit of work units",
        ),
    ];
    for (args, expected) in cases {
        let o = treesplit(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(expected),
            "{args:?}: '{err}' lacks '{expected}'"
        );
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    }
}

/// Simulator time parameters past the limit are bad input naming the flag, never a hang or a
/// wrapped (faster) result.
#[test]
fn simulator_times_have_limits() {
    for (flag, value) in [
        ("--t-rout", "1152921504606846976"),
        ("--t-send", "18446744073709551615"),
        ("--t-recv", "18446744073709551615"),
        ("--t-split", "18446744073709551615"),
        ("--slow-links", "0:18446744073709551615"),
        ("--delay", "exp:1e300"),
        ("--slow", "0:1e18"),
        ("--t-poll", "18446744073709551615"),
        ("--t-count", "18446744073709551615"),
    ] {
        let o = treesplit(&["sim", "nqueens", "8", "--pes", "4", flag, value]);
        assert_eq!(o.status.code(), Some(2), "{flag} {value}: {}", stderr(&o));
        assert!(stderr(&o).contains(flag), "{flag}: {}", stderr(&o));
    }
}

/// The network flags of `sim` — bad values and flags that do not apply are exit 2
/// with a clear message; the new networks and message lengths run to the exact answer.
#[test]
fn sim_network_flags() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["sim", "nqueens", "6", "--embedding", "row-major"],
            "--embedding does not apply to --balancer random-polling",
        ),
        (
            &[
                "sim",
                "nqueens",
                "6",
                "--balancer",
                "poll-and-shuffle",
                "--embedding",
                "diagonal",
            ],
            "unknown embedding",
        ),
        (
            &["sim", "nqueens", "6", "--routing", "packet"],
            "--routing applies only with --byte-time",
        ),
        (&["sim", "nqueens", "6", "--byte-time=-1"], "--byte-time"),
        (
            &[
                "sim",
                "nqueens",
                "6",
                "--byte-time",
                "1",
                "--routing",
                "wormhole",
            ],
            "unknown routing",
        ),
        (
            &[
                "sim",
                "nqueens",
                "6",
                "--balancer",
                "poll-and-shuffle",
                "--phase-c",
                "0",
            ],
            "--phase-c must be a positive number",
        ),
        (
            &[
                "sim",
                "nqueens",
                "6",
                "--balancer",
                "poll-and-shuffle",
                "--phase-c",
                "2",
                "--round",
                "40",
            ],
            "cannot be used with",
        ),
    ];
    for (args, expected) in cases {
        let o = treesplit(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(expected),
            "{args:?}: '{err}' lacks '{expected}'"
        );
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    }
    for net in [
        "butterfly",
        "ccc",
        "shuffle-exchange",
        "de-bruijn",
        "mesh2d",
        "mesh-of-trees",
        "fat-tree",
    ] {
        // 30 PEs fill none of the networks (partners by routing); 64 fills every
        // hypercubic one and 160 the butterfly and CCC (Theorem 2's emulation).
        for (pes, extra) in [
            ("30", &[][..]),
            (
                "30",
                &["--byte-time", "0.5", "--routing", "cut-through"][..],
            ),
            ("64", &[][..]),
            ("160", &["--byte-time", "0.5"][..]),
        ] {
            let mut args = vec![
                "sim",
                "nqueens",
                "7",
                "--pes",
                pes,
                "--net",
                net,
                "--balancer",
                "poll-and-shuffle",
            ];
            args.extend_from_slice(extra);
            let o = treesplit(&args);
            assert!(o.status.success(), "{args:?}: {}", stderr(&o));
            assert!(stdout(&o).contains("40"), "{args:?}: {}", stdout(&o));
        }
    }
}

#[test]
fn trace_and_gantt_of_real_and_simulated_runs() {
    let dir = std::env::temp_dir().join(format!("treesplit-cli-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("run.json");
    let png = dir.join("run.png");
    let o = treesplit(&[
        "run",
        "uts",
        "T1-mini",
        "--pes",
        "3",
        "--trace",
        json.to_str().unwrap(),
        "--gantt",
        png.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("63914 nodes"), "{}", stdout(&o));
    assert!(stdout(&o).contains("request latency"), "{}", stdout(&o));
    let doc = check_chrome_trace(&json, 3);
    assert_eq!(doc["otherData"]["machine"], "threads");
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
    // The simulator: virtual time units as µs, the same format.
    let sim = dir.join("sim.json");
    let svg = dir.join("sim.svg");
    let o = treesplit(&[
        "sim",
        "nqueens",
        "8",
        "--pes",
        "5",
        "--json",
        "--trace",
        sim.to_str().unwrap(),
        "--gantt",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc = check_chrome_trace(&sim, 5);
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    let end = doc["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ph"] == "X" && e["tid"] == 0)
        .map(|e| e["ts"].as_f64().unwrap() + e["dur"].as_f64().unwrap())
        .fold(0.0, f64::max);
    // PE 0's trace ends when it holds the result: T_par (termination detected) plus the
    // collection after it.
    let t_par = j["simulation"]["report"]["t_par"].as_f64().unwrap();
    let t_collect = j["simulation"]["t_collect"].as_f64().unwrap();
    assert_eq!(end, t_par + t_collect);
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn trace_rings_shortened_to_fit_say_how_many_events_they_kept() {
    // 17 MiB leave room for 64 events on each of 96 PEs (a power of two below the 100 that
    // fit beside their state, each event counted with what the writer holds for it); some
    // PEs record more.
    let dir = support::scratch("trace-fit");
    let json = dir.join("t.json");
    let o = support::treesplit_env(
        &[
            "sim",
            "nqueens",
            "9",
            "--pes",
            "96",
            "--trace",
            json.to_str().unwrap(),
        ],
        &[("TREESPLIT_MEMORY_MIB", "17")],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("each PE keeps its last 64 events"), "{err}");
    assert!(
        err.contains("the trace kept the last 64 events per PE: "),
        "{err}"
    );
    let doc = check_chrome_trace(&json, 96);
    assert!(doc["otherData"]["dropped_events"].as_u64().unwrap() > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unwritable_timeline_path_is_bad_input_before_the_run() {
    // Runs that would not end before the runner's hang limit (a tree that never ends, under a
    // limit of 10^12 units; every balancer on T1L): the error must come before them.
    let never = ["uts", "T3-mini", "-q", "1", "--max-units", "1000000000000"];
    for (command, flag, path) in [
        ("sim", "--gantt", "/nonexistent-dir/x.svg"),
        ("sim", "--trace", "/nonexistent-dir/x.json"),
        ("run", "--trace", "/nonexistent-dir/x.json"),
        ("run", "--gantt", "/nonexistent-dir/x.png"),
    ] {
        let mut args = vec![command];
        args.extend(never);
        args.extend([flag, path]);
        let o = treesplit(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("/nonexistent-dir/x."), "{args:?}: {err}");
    }
    let args = ["compare", "uts", "T1L", "--svg", "/nonexistent-dir/x.svg"];
    let o = treesplit(&args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains("/nonexistent-dir/x."), "{args:?}: {err}");
}

/// A Gantt chart labels its PE axis with whole PE numbers (every PE for a few, an evenly
/// spaced subset for many) and draws its legend beside the rows, covering none of them.
#[test]
fn gantt_pe_axis_shows_whole_pes_and_the_legend_covers_no_row() {
    use support::svg::{elements, overlap};
    let dir = support::scratch("gantt-axis");
    for pes in [4, 64] {
        let path = dir.join(format!("g{pes}.svg"));
        let o = treesplit(&[
            "sim",
            "nqueens",
            "8",
            "--pes",
            &pes.to_string(),
            "--quiet",
            "--gantt",
            path.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let all = elements(&std::fs::read_to_string(&path).unwrap());
        // The Gantt chart and its legend come before the utilization curve's caption.
        let end = all
            .iter()
            .position(|e| e.text == "fraction of PEs busy")
            .expect("the utilization curve's caption");
        let gantt = &all[..end];
        // The right-aligned labels there are the PE axis's.
        let axis: Vec<u64> = gantt
            .iter()
            .filter(|e| e.tag == "text" && e.attr("text-anchor") == "end")
            .map(|e| {
                e.text
                    .parse()
                    .unwrap_or_else(|_| panic!("P = {pes}: PE label '{}'", e.text))
            })
            .collect();
        assert!(axis.iter().all(|&pe| pe < pes), "P = {pes}: {axis:?}");
        let mut sorted = axis.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), axis.len(), "P = {pes}: {axis:?}");
        if pes <= 16 {
            assert_eq!(sorted, (0..pes).collect::<Vec<_>>(), "every PE labelled");
        } else {
            assert!((4..=30).contains(&sorted.len()), "P = {pes}: {axis:?}");
            let step = sorted[1] - sorted[0];
            assert!(sorted.windows(2).all(|w| w[1] - w[0] == step), "{sorted:?}");
        }
        let names = [
            "idle",
            "working",
            "splitting",
            "sending",
            "receiving",
            "requesting",
            "terminating",
        ];
        let legend: Vec<_> = gantt
            .iter()
            .filter(|e| e.tag == "text" && names.contains(&e.text.as_str()))
            .collect();
        assert!(legend.iter().any(|e| e.text == "working"), "P = {pes}");
        for label in legend {
            let cover = gantt.iter().find(|r| {
                r.tag == "rect" && r.attr("fill") != "#FFFFFF" && overlap(r.bbox(), label.bbox())
            });
            assert!(
                cover.is_none(),
                "P = {pes}: '{}' over {cover:?}",
                label.text
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Random shift in the simulator prints Theorem 14.2's bound, and says when the run lies
/// outside its premise: a round too short for a request, a split and the reply.
#[test]
fn random_shift_names_a_round_outside_theorem_14_2s_premise() {
    let run = |round: &str| {
        let o = treesplit(&[
            "sim",
            "nqueens",
            "8",
            "--balancer",
            "random-shift",
            "--pes",
            "16",
            "--round",
            round,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let short = run("1");
    assert!(
        short.contains("Theorem 14.2 (random shift, Δ = 1)"),
        "{short}"
    );
    assert!(
        short.contains(
            "outside the theorem's premise: Δ = 1 is shorter than a request, a split and a reply"
        ),
        "{short}"
    );
    let long = run("400");
    assert!(
        long.contains("Theorem 14.2 (random shift, Δ = 400)"),
        "{long}"
    );
    assert!(!long.contains("Δ = 400 is shorter"), "{long}");
}

/// A simulated branch-and-bound reports speedup against the sequential search's work, not
/// against its own (which counts the parallel search's wasted nodes as useful).
#[test]
fn simulated_search_speedup_counts_the_sequential_searchs_work() {
    let graph = ["maxclique", "--random", "120,0.7"];
    let seq = support::json_of(&[&["run"][..], &graph, &["--sequential"]].concat());
    let units = seq["work_units"].as_u64().unwrap();
    let o = treesplit(&[&["sim"][..], &graph, &["--pes", "64", "--json"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    let report = &j["simulation"]["report"];
    assert_eq!(report["t_seq"].as_f64(), Some(units as f64), "{report}");
    let run = report["totals"]["work_units"].as_u64().unwrap();
    assert!(
        stderr(&o).contains(&format!("this parallel search did {run}")),
        "{}",
        stderr(&o)
    );
}

/// Beyond 256 PEs a trace keeps fewer events per PE, at most 2^24 in all, and says so; a
/// Gantt chart draws at most one bar per pixel column of each PE's row.
#[test]
fn timelines_of_many_pes_stay_bounded() {
    let dir = support::scratch("bounded-timelines");
    let trace = dir.join("t.json");
    let o = treesplit(&[
        "sim",
        "nqueens",
        "6",
        "--pes",
        "1024",
        "--trace",
        trace.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("1024 PEs keep their last 16384 events each"),
        "{}",
        stderr(&o)
    );
    let svg = dir.join("g.svg");
    let o = treesplit(&[
        "sim",
        "uts",
        "T1-mini",
        "--pes",
        "512",
        "--quiet",
        "--gantt",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&svg).unwrap();
    let rects = text.matches("<rect").count();
    // 512 rows of at most 1,200 columns, the legend's swatches and the background.
    assert!(rects <= 512 * 1200 + 16, "{rects} rectangles");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--t-poll`, `--poll-alpha` and `--t-count` are the simulator's: the summary reports what
/// they cost; the default report is as without them; on threads they are refused (exit 2).
#[test]
fn polling_and_counter_costs_are_the_simulators() {
    let base = ["sim", "nqueens", "8", "--pes", "8", "--seed", "2"];
    let plain = treesplit(&base);
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
    let mut zero = base.to_vec();
    zero.extend(["--t-poll", "0", "--poll-alpha", "1", "--t-count", "0"]);
    let zero = treesplit(&zero);
    assert_eq!(
        stdout(&zero),
        stdout(&plain),
        "the defaults given change the report"
    );
    assert!(!stdout(&plain).contains("T_poll"));
    let mut costly = base.to_vec();
    costly.extend([
        "--balancer",
        "global-round-robin",
        "--t-poll",
        "2",
        "--poll-alpha",
        "0.5",
        "--t-count",
        "3",
    ]);
    let o = treesplit(&costly);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("polling: T_poll 2, α 0.5"), "{out}");
    assert!(out.contains("global counter: T_count 3"), "{out}");
    for flag in ["--t-poll", "--poll-alpha", "--t-count"] {
        let o = treesplit(&["run", "nqueens", "8", "--pes", "2", flag, "1"]);
        assert_eq!(o.status.code(), Some(2), "run {flag}: {}", stderr(&o));
        assert!(stderr(&o).contains(flag), "run {flag}: {}", stderr(&o));
    }
}
