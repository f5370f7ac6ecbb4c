//! The chapter's examples (mandelbrot, integrate, bfs) under `run`, `sim` and `bench`: their
//! answers on threads and the simulator, and bad input as exit 2 with a clear message.

mod support;

use support::{json_of, stderr, stdout, treesplit, treesplit_with};

#[test]
fn examples_report_their_answers_on_threads_and_sim() {
    // Hard-coded counts from an independent Python loop with the same f64 arithmetic.
    let m = [
        "mandelbrot",
        "--n",
        "50",
        "--z0",
        "-0.75,0.1",
        "--a0",
        "0.05",
        "--max-iter",
        "500",
    ];
    for (cmd, balancer) in [
        ("run", "round-robin"),
        ("sim", "master-worker"),
        ("run", "prefix-sum"),
    ] {
        let mut args = vec![cmd];
        args.extend(m);
        args.extend(["--pes", "3", "--balancer", balancer]);
        let j = json_of(&args);
        let result = &j["result"];
        assert_eq!(result["in_set"], 2006, "{j}");
        assert_eq!(result["iterations"], 1_054_079u64, "{j}");
    }
    let dir = std::env::temp_dir().join(format!("treesplit-mandel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("m.png");
    let o = treesplit(&[
        "run",
        "mandelbrot",
        "--n",
        "64",
        "--png",
        png.to_str().unwrap(),
        "--pes",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("in_set"), "{}", stdout(&o));
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
    for f in ["pi", "osc", "sing"] {
        let j = json_of(&["sim", "integrate", "--f", f, "--tol", "1e-9", "--pes", "16"]);
        assert_eq!(j["published"]["matches"], true, "{j}");
        let seq = json_of(&[
            "run",
            "integrate",
            "--f",
            f,
            "--tol",
            "1e-9",
            "--sequential",
        ]);
        assert_eq!(
            seq["result"]["sum"], j["result"]["sum"],
            "exact sums are bit-identical"
        );
    }
    let edges = dir.join("g.txt");
    std::fs::write(&edges, "# a path and a triangle\n0 1\n1 2\n2 3\n3 1\n5 6\n").unwrap();
    for cmd in ["run", "sim"] {
        let j = json_of(&[
            cmd,
            "bfs",
            edges.to_str().unwrap(),
            "--source",
            "0",
            "--pes",
            "2",
        ]);
        assert_eq!(j["result"]["reached"], 4, "{j}");
        assert_eq!(j["result"]["distance_sum"], 1 + 2 + 2, "{j}");
        assert_eq!(j["result"]["depth"], 2, "{j}");
        assert_eq!(j["matches_sequential"], true, "{j}");
    }
    // `-`: the edge list from standard input.
    let o = treesplit_with(
        &["run", "bfs", "-", "--source", "0", "--pes", "2", "--json"],
        &[],
        Some(&std::fs::read(&edges).unwrap()),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["result"]["reached"], 4, "{j}");
    let o = treesplit(&["run", "bfs", "-", "--machine", "mpi"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("rank 0 only"), "{}", stderr(&o));
    let j = json_of(&[
        "run",
        "bfs",
        "--rmat",
        "10",
        "--edge-factor",
        "4",
        "--pes",
        "2",
        "--balancer",
        "block",
    ]);
    assert_eq!(j["matches_sequential"], true, "{j}");
    assert!(j["teps"].as_f64().is_some(), "{j}");
    let o = treesplit(&["bench", "bfs", "--rmat", "10", "--repeat", "1"]);
    assert!(
        o.status.success() && stdout(&o).contains("speedup"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn examples_bad_input_exits_2_with_a_clear_message() {
    let dir = std::env::temp_dir().join(format!("treesplit-bfsbad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let cases: Vec<(Vec<String>, String)> = vec![
        (
            vec!["bfs".into(), file("neg.txt", "0 1\n# c\n1 -4\n")],
            "neg.txt:3: negative vertex id -4".into(),
        ),
        (
            vec!["bfs".into(), file("three.txt", "0 1 2\n")],
            "three.txt:1: expected two vertex ids".into(),
        ),
        (
            vec!["bfs".into(), file("word.txt", "0 1\nx 2\n")],
            "word.txt:2: 'x' is not a vertex id".into(),
        ),
        (
            vec!["bfs".into(), file("big.txt", "0 99999999999999999999999\n")],
            "big.txt:1: vertex id 99999999999999999999999 is too large".into(),
        ),
        (
            vec!["bfs".into(), file("empty.txt", "# nothing\n")],
            "no edges".into(),
        ),
        (
            vec![
                "bfs".into(),
                file("ok.txt", "0 1\n"),
                "--source".into(),
                "5".into(),
            ],
            "--source 5".into(),
        ),
        (
            vec![
                "bfs".into(),
                file("ok2.txt", "0 1\n"),
                "--source".into(),
                "-1".into(),
            ],
            "--source -1".into(),
        ),
        (
            vec!["bfs".into()],
            "needs an edge-list FILE or --rmat".into(),
        ),
        (
            vec!["bfs".into(), "--rmat".into(), "40".into()],
            "--rmat SCALE must be in 1..=28".into(),
        ),
        (
            vec![
                "bfs".into(),
                "--rmat".into(),
                "8".into(),
                "--edge-factor".into(),
                "0".into(),
            ],
            "--edge-factor must be".into(),
        ),
        (
            vec!["mandelbrot".into(), "--n".into(), "0".into()],
            "--n must be in".into(),
        ),
        (
            vec!["mandelbrot".into(), "--max-iter".into(), "0".into()],
            "--max-iter must be at least 1".into(),
        ),
        (
            vec![
                "mandelbrot".into(),
                "--n".into(),
                "100000".into(),
                "--max-iter".into(),
                "18446744073709551615".into(),
            ],
            "overflows".into(),
        ),
        (
            vec!["mandelbrot".into(), "--z0".into(), "1".into()],
            "--z0 expects RE,IM".into(),
        ),
        (
            vec!["mandelbrot".into(), "--a0".into(), "-1".into()],
            "--a0 must be".into(),
        ),
        (
            vec!["mandelbrot".into(), "--png".into(), "x.svg".into()],
            "must end in .png".into(),
        ),
        (
            vec!["integrate".into(), "--tol".into(), "0".into()],
            "--tol must be a finite number > 0".into(),
        ),
        (
            vec!["integrate".into(), "--tol".into(), "-1e-3".into()],
            "--tol must be a finite number > 0".into(),
        ),
        (
            vec!["integrate".into(), "--tol".into(), "1e-20".into()],
            "below".into(),
        ),
        (
            vec!["integrate".into(), "--f".into(), "exp".into()],
            "unknown integrand 'exp'".into(),
        ),
        (
            vec!["integrate".into(), "--pieces".into(), "0".into()],
            "--pieces must be".into(),
        ),
    ];
    for (app, want) in cases {
        let mut args = vec!["run".to_string()];
        args.extend(app.clone());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = treesplit(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&want),
            "{args:?}: want '{want}' in {}",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    }
    for args in [
        vec!["run", "bfs", "--rmat", "6", "--max-units", "10"],
        vec!["run", "bfs", "--rmat", "6", "--baseline"],
        vec!["sim", "bfs", "--rmat", "6", "--gantt", "x.svg"],
        vec!["compare", "bfs", "--rmat", "6"],
    ] {
        let o = treesplit(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("bfs"), "{args:?}: {}", stderr(&o));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
