//! Every application of the registry is whole: its example parses, through its own `App`, to
//! an instance of that application (an `AppSpec` that names the same `App`); the instance names
//! itself in its description, command line and checkpoint words; its command line parses back
//! to the same instance; and its task, run sequentially, reproduces its published answer. An
//! application missing a part (a parse that made another application's instance, command-line
//! words its parsing does not read back, a published answer its task does not reach) fails
//! here.

use std::fmt::{Debug, Display};
use treesplit::{run_sequential, Task};
use treesplit_apps::app::{Computation, Use};
use treesplit_apps::registry::{self, APPS};
use treesplit_apps::spec::{AppVisitor, Objective, Published};
use treesplit_apps::AppSpec;
use treesplit_testkit::data;

/// The command line's shared flags that an instance's words may carry (an instance's own
/// `--q`, `--seed` and `--instance-seed`), each with its value.
const SHARED: &[&str] = &["--q", "--seed", "--instance-seed"];

/// The application's own words of `words` (its name first): without its name and the shared
/// flags.
fn own(words: &[String]) -> Vec<&str> {
    let mut own = Vec::new();
    let mut rest = words.iter().skip(1);
    while let Some(w) = rest.next() {
        if SHARED.contains(&w.as_str()) {
            rest.next();
        } else {
            own.push(w.as_str());
        }
    }
    own
}

/// The words of `app`'s example, data paths resolved.
fn example(app: &registry::Entry) -> Vec<String> {
    let dir = data::path("");
    let dir = dir.to_str().expect("a UTF-8 path").trim_end_matches('/');
    std::iter::once(app.name().to_string())
        .chain(app.example().iter().map(|w| w.replace("{data}", dir)))
        .collect()
}

/// The instance `words` name, adapted to a machine of two PEs, q = 4, seed 1 as the command
/// line adapts it.
fn parse(app: &registry::Entry, words: &[String]) -> Result<AppSpec, String> {
    let mut spec = app.parse_words(&own(words)).map_err(|e| format!("{e:?}"))?;
    spec.adapt(Some(4), 2, Some(1))?;
    Ok(spec)
}

/// The published answer of the sequential run, where the instance has one.
struct Sequential;

impl AppVisitor for Sequential {
    type Out = Option<Published>;
    fn visit<T>(
        self,
        make_root: impl Fn() -> T,
        published: impl Fn(&T::Output) -> Option<Published>,
    ) -> Self::Out
    where
        T: Task,
        T::Output: Display + PartialEq + Debug + Objective,
    {
        published(&run_sequential(make_root()).output)
    }
}

#[test]
fn names_are_unique_and_found() {
    for (i, app) in APPS.iter().enumerate() {
        assert!(
            APPS[..i].iter().all(|a| a.name() != app.name()),
            "{} is listed twice",
            app.name()
        );
        let found = registry::find(app.name()).expect("every application is found by name");
        assert_eq!(found.name(), app.name());
        let params = app.params();
        for (i, p) in params.iter().enumerate() {
            assert!(
                params[..i].iter().all(|q| q.name != p.name),
                "{}: {} is listed twice",
                app.name(),
                p.name
            );
            for other in p.conflicts.iter().chain(p.required_unless) {
                assert!(
                    params.iter().any(|q| q.name == *other),
                    "{}: {} names no parameter {other}",
                    app.name(),
                    p.name
                );
            }
        }
    }
    assert!(registry::find("no-such-application").is_none());
}

#[test]
fn every_example_round_trips_through_its_instance() {
    let (mut instances, mut visited) = (0, 0);
    for app in APPS {
        let words = example(app);
        if app.computation() == Computation::Dag {
            // Planned by the command line from its own arguments: no tree instance.
            treesplit_apps::params::Values::from_words(app.params(), &own(&words))
                .unwrap_or_else(|e| panic!("{}: the example does not parse: {e:?}", app.name()));
            assert!(
                parse(app, &words).is_err(),
                "{} made an instance",
                app.name()
            );
            continue;
        }
        instances += 1;
        let spec = parse(app, &words).unwrap_or_else(|e| panic!("{words:?}: {e}"));
        let name = app.name();
        assert_eq!(
            spec.name(),
            name,
            "{words:?} made another application's instance"
        );
        assert_eq!(spec.app().name(), name);
        assert!(spec.describe().starts_with(name), "{}", spec.describe());
        assert_eq!(spec.checkpoint_words()[0], name);
        assert!(spec.default_delta_t() > 0);
        // The command line that reproduces the run names the same instance.
        let again: Vec<String> = shell_words(&spec.cli_args());
        let back = parse(app, &again).unwrap_or_else(|e| panic!("{again:?}: {e}"));
        assert_eq!(back, spec, "{} does not read back {again:?}", name);
        // An instance that runs its own loop is visited as one task only where `compare`
        // (which runs tasks) offers it.
        if spec.runs_itself() && !app.offered(Use::Compare) {
            continue;
        }
        let published = spec.visit(Sequential);
        assert!(
            published.is_some(),
            "{} has no published answer",
            spec.describe()
        );
        if let Some(p) = published {
            assert!(p.matches, "{}: {}", spec.describe(), p.line());
        }
        visited += 1;
    }
    assert_eq!(
        instances,
        APPS.len() - 1,
        "every application but the DAG has instances"
    );
    assert_eq!(
        visited,
        instances - 1,
        "every instance but BFS's is one task"
    );
}

#[test]
fn rayon_depth_is_refused_by_name_for_the_peers_without_a_cut_off() {
    let why = registry::rayon_depth_why();
    for app in APPS {
        assert_eq!(
            [" ", ", ", " ("]
                .iter()
                .any(|after| why.contains(&format!(" {}{after}", app.name()))),
            app.rayon_depth().is_some(),
            "{why}"
        );
    }
}

/// Words as a shell splits them: double quotes group.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let (mut word, mut quoted, mut any) = (String::new(), false, false);
    for c in line.chars() {
        match c {
            '"' => (quoted, any) = (!quoted, true),
            c if c.is_whitespace() && !quoted => {
                if any {
                    words.push(std::mem::take(&mut word));
                }
                any = false;
            }
            c => (word.push(c), any = true).0,
        }
    }
    if any {
        words.push(word);
    }
    words
}
