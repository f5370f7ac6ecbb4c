//! Checkpoint and resume (`treesplit::checkpoint`): a run under `keep_remaining` stopped by a
//! limit or an interrupt keeps every unfinished piece, on every balancer and machine; resuming
//! the pieces on another balancer and number of PEs gives exactly the answer of the
//! uninterrupted computation, and the units of all runs add up to the sequential count (no
//! piece lost, none done twice: the tree's checksum would show either). Periodic checkpoints
//! run the computation in epochs and write a file that decodes; branch-and-bound keeps its
//! incumbent across a resume.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use treesplit::checkpoint::{run_epochs, Policy, Snapshot};
use treesplit::task::pieces::Pieces;
use treesplit::{
    simulate, Balancer, BalancerKind, Config, Ended, Jobs, Limit, Outcome, SimConfig, Stopped,
    Task, Threads,
};
use treesplit_testkit::support::{Knap, Tree};

fn config(kind: BalancerKind, p: usize) -> Config {
    let mut c = Config::new(p).balancer(kind).delta_t(50).seed(p as u64);
    if kind.is_static() {
        c = c.balancer(Balancer::from(kind).with_jobs(Jobs::PerPe(4)));
    }
    c
}

/// Stop a run at `max_units`, keeping its pieces: (output so far, units so far, pieces).
fn stop<T: Task>(root: T, config: &Config, sim: bool) -> (T::Output, u64, Vec<T>)
where
    T::Output: Clone,
{
    let config = config.clone().keep_remaining(true);
    let result = if sim {
        simulate(root, &config, &SimConfig::default()).map(|e| e.map_report(|r| r.report))
    } else {
        Threads::new().run(root, &config)
    };
    match result {
        Ok(Ended::Stopped(Stopped {
            report, remaining, ..
        })) => (report.output, report.totals.work_units, remaining),
        Ok(Ended::Finished(report)) => (report.output, report.totals.work_units, Vec::new()),
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn every_balancer_keeps_its_pieces_and_a_resume_on_another_completes_exactly() {
    let tree = Tree::medium();
    let expected = tree.count();
    let kinds = BalancerKind::ALL;
    for (i, &kind) in kinds.iter().enumerate() {
        let next = kinds[(i + 1) % kinds.len()];
        for sim in [true, false] {
            let p = if sim { 8 } else { 3 };
            let first = config(kind, p).max_units(expected.nodes / 3);
            let (mut output, units, pieces) = stop(tree.clone(), &first, sim);
            assert!(
                units < expected.nodes && !pieces.is_empty(),
                "{kind} sim={sim}: stopped with {units} units and {} pieces",
                pieces.len()
            );
            // Resume on another balancer and P, first stopping once more, then to the end.
            let second = config(next, p + 2).max_units(expected.nodes / 3);
            let (out2, units2, pieces2) = stop(Pieces::new(pieces), &second, sim);
            output.merge(out2);
            let rest = Pieces::new(pieces2.into_iter().flat_map(Pieces::into_inner).collect());
            let last = config(kind, 5);
            let r = if sim {
                simulate(rest, &last, &SimConfig::default())
                    .unwrap()
                    .into_report()
                    .report
            } else {
                Threads::new().run(rest, &last).unwrap().into_report()
            };
            output.merge(r.output);
            assert_eq!(output, expected, "{kind} then {next}, sim={sim}");
            assert_eq!(
                units + units2 + r.totals.work_units,
                expected.nodes,
                "{kind} then {next}, sim={sim}: units"
            );
        }
    }
}

/// Without `keep_remaining` a stopped run keeps nothing (the default is unchanged).
#[test]
fn without_keep_remaining_nothing_is_kept() {
    let config = Config::new(4).delta_t(50).max_units(1000);
    match simulate(Tree::medium(), &config, &SimConfig::default()) {
        Ok(Ended::Stopped(stopped)) => assert_eq!(stopped.remaining.len(), 0),
        other => panic!("{:?}", other.map(|r| r.is_finished())),
    }
}

#[test]
fn an_interrupt_stops_a_thread_run_and_keeps_its_pieces() {
    let mut tree = Tree::binomial(4096, 11);
    tree.shape.spin = 2000; // slow enough that the interrupt comes first
    let expected = tree.count();
    let flag = Arc::new(AtomicBool::new(false));
    let setter = {
        let flag = flag.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            flag.store(true, Ordering::Relaxed);
        })
    };
    let config = Config::new(3)
        .delta_t(20)
        .interrupt(flag)
        .keep_remaining(true);
    let (mut output, units, pieces) = match Threads::new().run(tree.clone(), &config) {
        Ok(Ended::Stopped(Stopped {
            limit,
            report,
            remaining,
        })) => {
            assert_eq!(limit, Limit::Interrupted);
            (report.output, report.totals.work_units, remaining)
        }
        other => panic!("not interrupted: {:?}", other.map(|r| r.is_finished())),
    };
    setter.join().unwrap();
    let rest = treesplit::run_sequential(Pieces::new(pieces));
    output.merge(rest.output);
    assert_eq!(output, expected);
    assert_eq!(units + rest.work_units, expected.nodes);
}

#[test]
fn periodic_checkpoints_run_in_epochs_and_finish_exactly() {
    let mut tree = Tree::binomial(2048, 5);
    tree.shape.spin = 300;
    let expected = tree.count();
    let dir = std::env::temp_dir().join(format!("ts-epochs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plan = Policy {
        path: dir.join("tree.ckpt"),
        every: Some(Duration::from_millis(15)),
    };
    let start = Snapshot::start(tree, vec!["tree".into()]);
    let mut epochs = 0;
    let ended = run_epochs(start, &Config::new(3).delta_t(20), &plan, |root, c| {
        epochs += 1;
        Threads::new().run(root, c)
    })
    .unwrap();
    let (snapshot, Ended::Finished(report)) = ended else {
        panic!("stopped")
    };
    assert_eq!(snapshot.output, expected);
    assert_eq!(report.output, expected);
    assert_eq!(snapshot.work_units, expected.nodes);
    assert!(epochs >= 2, "{epochs} epochs");
    // The final report covers every epoch: T_par is their sum, and the per-PE units add up
    // to the whole computation's.
    assert_eq!(report.totals.work_units, expected.nodes);
    assert_eq!(report.t_par, snapshot.seconds);
    assert_eq!(report.per_pe.len(), 3);
    let per_pe: u64 = report.per_pe.iter().map(|s| s.counters.work_units).sum();
    assert_eq!(per_pe, expected.nodes);
    assert_eq!(
        report.totals.max_pe_work_units,
        report
            .per_pe
            .iter()
            .map(|s| s.counters.work_units)
            .max()
            .unwrap()
    );
    // The last checkpoint written decodes and, resumed, completes the same computation.
    let written = Snapshot::<Tree>::read(&plan.path).unwrap();
    // Resumed with checkpoints, the report says which figures cover only the resumed run.
    let resumed_plan = Policy {
        path: dir.join("resumed.ckpt"),
        every: Some(Duration::from_secs(3600)),
    };
    let (_, resumed) = run_epochs(
        written.clone(),
        &Config::new(2),
        &resumed_plan,
        |root, c| Threads::new().run(root, c),
    )
    .unwrap();
    let Ended::Finished(resumed) = resumed else {
        panic!("stopped")
    };
    assert_eq!(resumed.output, expected);
    assert_eq!(resumed.totals.work_units, expected.nodes);
    let this_run: u64 = resumed.per_pe.iter().map(|s| s.counters.work_units).sum();
    assert_eq!(this_run, expected.nodes - written.work_units);
    if written.work_units > 0 {
        assert!(
            resumed.notes.iter().any(|n| n.starts_with("resumed:")),
            "{:?}",
            resumed.notes
        );
    }
    let mut output = written.output;
    let rest = treesplit::run_sequential(Pieces::new(written.pieces));
    output.merge(rest.output);
    assert_eq!(output, expected);
    assert_eq!(written.work_units + rest.work_units, expected.nodes);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn branch_and_bound_resumes_with_its_incumbent() {
    let knap = Knap::new(56, 7);
    let optimum = knap.optimum_by_dp();
    for sim in [true, false] {
        let first = Config::new(4).delta_t(30).max_units(1_000);
        let (best, units, pieces) = stop(knap.clone(), &first, sim);
        assert!(!pieces.is_empty(), "sim={sim}: finished in {units} units");
        let config = Config::new(3).delta_t(30);
        let config = match best.profit {
            Some(p) => config.incumbent(p),
            None => config,
        };
        let rest = Pieces::new(pieces);
        let out = if sim {
            simulate(rest, &config, &SimConfig::default())
                .unwrap()
                .into_report()
                .report
                .output
        } else {
            Threads::new()
                .run(rest, &config)
                .unwrap()
                .into_report()
                .output
        };
        let mut all = best;
        all.merge(out);
        assert_eq!(all.profit, Some(optimum), "sim={sim}");
    }
}
