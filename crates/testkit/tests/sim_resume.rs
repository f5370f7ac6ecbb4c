//! Every application of the registry checkpoints and resumes in the simulator: a simulated run
//! stopped at a unit limit writes its snapshot (`checkpoint::run_epochs`), the file is read
//! back, and the computation resumed on another P and balancer finishes with the sequential
//! run's answer: for an enumeration the same output and exactly the sequential work units (no
//! piece lost, none done twice), for a search the same objective. Threads and MPI have the
//! same test through the command line (`crates/cli/tests/checkpoint.rs`,
//! `mpi_checkpoint.rs`); the simulator has no checkpoint flag, so its test is here.

use std::fmt::{Debug, Display};
use treesplit::checkpoint::{run_epochs, Policy, Snapshot};
use treesplit::{run_sequential, simulate, BalancerKind, Config, Ended, SimConfig, Stopped, Task};
use treesplit_apps::app::Computation;
use treesplit_apps::registry::APPS;
use treesplit_apps::spec::{AppVisitor, Objective, Published};

/// Instances large enough to stop at the limit, where an application's example is smaller.
const SIZED: &[(&str, &[&str])] = &[
    ("nqueens", &["9"]),
    ("uts", &["T1-mini"]),
    ("golomb", &["7"]),
    ("maxclique", &["--random=60,0.7"]),
    (
        "tsp",
        &[concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/tsplib/eil51.tsp"
        )],
    ),
    ("semigroups", &["14"]),
    ("hashtable", &["--keys", "3000"]),
    ("synthetic", &["--work", "50000"]),
    ("tree-sum", &["--depth", "12"]),
    ("fib", &["16"]),
];

/// Stop after a third of the sequential work, then resume from the file.
struct StopAndResume {
    name: &'static str,
    words: Vec<String>,
    dir: std::path::PathBuf,
}

impl AppVisitor for StopAndResume {
    type Out = ();

    fn visit<T>(self, make_root: impl Fn() -> T, _: impl Fn(&T::Output) -> Option<Published>)
    where
        T: Task,
        T::Output: Display + PartialEq + Debug + Objective,
    {
        let name = self.name;
        let seq = run_sequential(make_root());
        let sim = |root, c: &Config| {
            simulate(root, c, &SimConfig::default()).map(|e| e.map_report(|r| r.report))
        };
        let plan = Policy {
            path: self.dir.join(format!("{name}.ckpt")),
            every: None,
        };
        let first = Config::new(6)
            .balancer(BalancerKind::RandomPolling)
            .delta_t(10)
            .max_units((seq.work_units / 3).max(1));
        let start = Snapshot::start(make_root(), self.words.clone());
        let (_, ended) = run_epochs(start, &first, &plan, sim).unwrap();
        let Ended::Stopped(Stopped {
            report: partial, ..
        }) = ended
        else {
            panic!("{name}: the simulated run did not stop at a third of its work")
        };
        assert!(partial.totals.work_units < seq.work_units, "{name}");
        // The file decodes alone, then belongs to the instance the input gives now.
        let read = Snapshot::<T>::read(&plan.path).unwrap();
        read.check_instance(&make_root()).unwrap();
        assert_eq!(read.app, self.words, "{name}");
        assert_eq!(read.work_units, partial.totals.work_units, "{name}");
        let second = Config::new(9)
            .balancer(BalancerKind::PollAndShuffle)
            .delta_t(7);
        let (snapshot, ended) = run_epochs(read, &second, &plan, sim).unwrap();
        let Ended::Finished(report) = ended else {
            panic!("{name}: the resumed run did not finish")
        };
        if seq.output.objective().is_some() {
            assert!(
                report.output.matches_objective(&seq.output),
                "{name}: resumed {} against the sequential {}",
                report.output,
                seq.output
            );
        } else {
            assert_eq!(report.output, seq.output, "{name}");
            assert_eq!(report.totals.work_units, seq.work_units, "{name}: units");
        }
        assert!(snapshot.is_finished(), "{name}");
    }
}

#[test]
fn every_application_resumes_in_the_simulator_with_the_sequential_answer() {
    let dir = std::env::temp_dir().join(format!("ts-sim-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/data");
    let mut resumed = Vec::new();
    for app in APPS {
        let name = app.name();
        if matches!(app.computation(), Computation::Dag) {
            continue; // a task DAG is no tree of pieces to checkpoint
        }
        let args: Vec<String> = match SIZED.iter().find(|(n, _)| *n == name) {
            Some((_, args)) => args.iter().map(|a| a.to_string()).collect(),
            None => app
                .example()
                .iter()
                .map(|w| w.replace("{data}", data))
                .collect(),
        };
        let mut spec = app
            .parse_words(&args)
            .unwrap_or_else(|e| panic!("{name} {args:?}: {e:?}"));
        if spec.runs_itself() {
            continue; // a sequence of computations (IDA*'s thresholds, BFS's levels)
        }
        // --q: the hash table's buckets per PE (the others take none).
        spec.adapt(Some(4), 6, Some(1))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let words = std::iter::once(name.to_string()).chain(args).collect();
        spec.visit(StopAndResume {
            name,
            words,
            dir: dir.clone(),
        });
        resumed.push(name);
    }
    eprintln!("resumed in the simulator: {resumed:?}");
    // The registry's tree computations, at least those sized above, were all resumed.
    for (name, _) in SIZED {
        assert!(
            resumed.contains(name),
            "{name} was not resumed: {resumed:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
