//! Task DAGs (paper 001 §14.6) end to end: every DAG scheduler on the simulator (P = 8, 64)
//! and on threads runs every task exactly once, never before its predecessors have
//! finished, and stays within Theorem 14.3 plus the communication term
//! (`treesplit::dag::schedule`); in the simulator with zero latency effects removed the
//! plain theorem is met too where the scheduler is greedy. A DAG given to a tree balancer
//! runs in topological order on one PE.

use std::sync::Arc;
use treesplit::dag::{evaluate, Dag, DagTask};
use treesplit::machine::sim::MessageModel;
use treesplit::machine::simulate_dag;
use treesplit::{run, ConfigError, DagConfig, DagScheduler, RunError, SimConfig, Threads};
use treesplit_apps::dag::{multiply, parse_stg, random_layered};
use treesplit_testkit::data;

fn stg(name: &str) -> Dag {
    let rel = format!("dag/{name}");
    parse_stg(&data::read(&rel), &data::path(&rel).display().to_string()).unwrap()
}

fn dags() -> Vec<(&'static str, Arc<Dag>)> {
    vec![
        ("fig14_7.stg", Arc::new(stg("fig14_7.stg"))),
        ("small10.stg", Arc::new(stg("small10.stg"))),
        ("multiply 3", Arc::new(multiply(3).unwrap())),
        ("random 400", Arc::new(random_layered(400, 5).unwrap())),
    ]
}

#[test]
fn stg_files_have_their_published_measures() {
    let d = stg("fig14_7.stg");
    assert_eq!((d.len(), d.work(), d.critical_path()), (10, 20, 11));
    let d = stg("small10.stg");
    assert_eq!((d.len(), d.work(), d.critical_path()), (12, 44, 23));
}

#[test]
fn every_scheduler_in_the_simulator_respects_dependencies_and_theorem_14_3() {
    for (name, dag) in dags() {
        for scheduler in DagScheduler::ALL.iter().copied() {
            for p in [1, 8, 64] {
                let cfg = DagConfig::new(p, scheduler).seed(3);
                let r = simulate_dag(DagTask::shared(dag.clone(), 0), &cfg, &SimConfig::default())
                    .unwrap_or_else(|e| panic!("{name} {scheduler} P={p}: {e}"))
                    .into_report();
                let rep = &r.report;
                assert_eq!(
                    rep.totals.work_units,
                    dag.work(),
                    "{name} {scheduler} P={p}"
                );
                let (e, _) = evaluate(&dag, &rep.output, p, scheduler.workers(p), 1, 1.0)
                    .unwrap_or_else(|e| panic!("{name} {scheduler} P={p}: {e}"));
                assert_eq!(e.tasks, dag.len());
                assert!(
                    e.holds_with_communication,
                    "{name} {scheduler} P={p}: {e:?}"
                );
                assert!(
                    e.makespan >= e.lower_bound,
                    "{name} {scheduler} P={p}: {e:?}"
                );
                if p == 1 {
                    // One PE: no messages, so the schedule is greedy and exactly W long.
                    assert_eq!(e.makespan, dag.work() as f64, "{name} {scheduler}");
                    assert_eq!(e.communication_term, 0.0);
                }
            }
        }
    }
}

/// The a-priori bound of master–worker in the simulator (T_send = T_recv = 0, crossbar), as
/// docs/cli.md states it: as the master sees it, a task occupies its worker for t_v + 2·T_rout
/// (assignment out, completion back), and the master is greedy, so Theorem 14.3 with those
/// durations on P − 1 workers holds, plus the root's broadcast down the tree of PEs.
fn master_worker_bound(dag: &Dag, p: usize, t_rout: u64) -> f64 {
    let c = 2 * t_rout;
    let mut longest = vec![0u64; dag.len()];
    for &v in dag.topological_order() {
        let before = dag
            .preds(v)
            .iter()
            .map(|&u| longest[u as usize])
            .max()
            .unwrap_or(0);
        longest[v as usize] = before + dag.cost(v) + c;
    }
    let path = longest.iter().copied().max().unwrap_or(0) as f64;
    let work = (dag.work() + c * dag.len() as u64) as f64;
    let depth = (p as f64).log2().ceil();
    work / (p - 1) as f64 + path + 2.0 * depth * t_rout as f64
}

#[test]
fn master_worker_meets_its_a_priori_bound() {
    for (name, dag) in dags() {
        for p in [2, 8, 64] {
            for t_rout in [1, 10] {
                let sim = SimConfig {
                    model: MessageModel::LatencyOnly,
                    t_rout,
                    ..SimConfig::default()
                };
                let cfg = DagConfig::new(p, DagScheduler::MasterWorker);
                let r = simulate_dag(DagTask::shared(dag.clone(), 0), &cfg, &sim)
                    .unwrap()
                    .into_report();
                let (e, _) = evaluate(&dag, &r.report.output, p, p - 1, 1, 1.0).unwrap();
                let bound = master_worker_bound(&dag, p, t_rout);
                assert!(
                    e.makespan <= bound,
                    "{name} P={p} T_rout={t_rout}: {} > {bound}",
                    e.makespan
                );
            }
        }
    }
}

#[test]
fn every_scheduler_on_threads_respects_dependencies() {
    for (name, dag) in dags().into_iter().take(3) {
        for scheduler in DagScheduler::ALL.iter().copied() {
            let p = 4;
            let unit_ns = 2_000;
            let cfg = DagConfig::new(p, scheduler);
            let rep = Threads::new()
                .run_dag(DagTask::shared(dag.clone(), unit_ns), &cfg)
                .unwrap_or_else(|e| panic!("{name} {scheduler}: {e}"))
                .into_report();
            assert_eq!(rep.totals.work_units, dag.work());
            let (e, _) = evaluate(&dag, &rep.output, p, scheduler.workers(p), unit_ns, 1e-9)
                .unwrap_or_else(|e| panic!("{name} {scheduler}: {e}"));
            assert!(e.holds_with_communication, "{name} {scheduler}: {e:?}");
            assert!(e.makespan >= e.lower_bound, "{name} {scheduler}: {e:?}");
        }
    }
}

#[test]
fn the_multiplication_dag_is_deterministic_in_the_simulator() {
    let dag = Arc::new(multiply(2).unwrap());
    for scheduler in DagScheduler::ALL.iter().copied() {
        let cfg = DagConfig::new(8, scheduler);
        let simulated = || {
            simulate_dag(DagTask::shared(dag.clone(), 0), &cfg, &SimConfig::default())
                .unwrap()
                .into_report()
        };
        let (a, b) = (simulated(), simulated());
        let (mut x, mut y) = (a.report.output.0.clone(), b.report.output.0.clone());
        x.sort_by_key(|r| r.task);
        y.sort_by_key(|r| r.task);
        assert_eq!(x, y, "{scheduler}");
    }
}

#[test]
fn a_dag_under_a_tree_balancer_runs_in_topological_order_on_one_pe() {
    let dag = Arc::new(multiply(1).unwrap());
    let r = run(DagTask::shared(dag.clone(), 0), &treesplit::Config::new(2))
        .unwrap()
        .into_report();
    let (e, _) = evaluate(&dag, &r.output, 2, 2, 1, 1.0).unwrap();
    assert_eq!(e.tasks, dag.len());
    assert_eq!(e.makespan, dag.work() as f64, "one task after another");
    assert!(r.output.0.iter().all(|p| p.pe == 0));
}

#[test]
fn a_dag_configuration_is_checked() {
    let dag = DagTask::new(multiply(1).unwrap(), 0);
    let err = Threads::new()
        .run_dag(dag, &DagConfig::new(0, DagScheduler::WorkStealing))
        .unwrap_err();
    assert_eq!(err, RunError::InvalidConfig(ConfigError::NoPes));
}
