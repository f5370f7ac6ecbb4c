//! The applications' parameters as clap arguments: each application states its parameters as
//! plain data (`treesplit_apps::params::Param`); here they become its subcommand's arguments
//! (the same names, help, value names, defaults, value types and rules), and what clap read
//! becomes the application's `Values`. The applications know no clap; this is the one place
//! that turns one into the other, and it names no application.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser, ValueParser};
use clap::parser::ValueSource;
use clap::{value_parser, Arg, ArgAction, ArgMatches, Command};
use treesplit_apps::app::App;
use treesplit_apps::params::{Choice, Form, Param, Type, Values};

/// An application's subcommand: its name, its help and its parameters as arguments.
pub fn command(app: &dyn App) -> Command {
    let command = Command::new(app.name()).about(app.about());
    let command = match app.long_about() {
        Some(long) => command.long_about(long),
        None => command,
    };
    command.args(app.params().iter().map(arg))
}

/// One parameter as a clap argument.
fn arg(p: &Param) -> Arg {
    let arg = Arg::new(p.name).help(p.help).value_name(p.placeholder());
    let arg = match p.form {
        Form::Positional => arg,
        Form::Long => arg.long(p.name),
        Form::Short => arg.short(p.name.chars().next().unwrap_or('?')),
    };
    let arg = match p.ty {
        Type::Switch => arg.action(ArgAction::SetTrue),
        ty => arg.action(ArgAction::Set).value_parser(parser(ty)),
    };
    let arg = match p.default {
        Some(default) => arg.default_value(default),
        None => arg,
    };
    let arg = if p.required_unless.is_empty() {
        arg
    } else {
        arg.required_unless_present_any(p.required_unless)
    };
    arg.required(p.required)
        .conflicts_with_all(p.conflicts)
        .allow_hyphen_values(p.negative)
}

/// The parser of a value of type `ty`: clap's own for the type, so that a bad value is
/// refused in clap's words.
fn parser(ty: Type) -> ValueParser {
    match ty {
        Type::Switch => value_parser!(bool),
        Type::U32 => value_parser!(u32).into(),
        Type::U64 => value_parser!(u64).into(),
        Type::Usize => value_parser!(usize).into(),
        Type::I64 => value_parser!(i64).into(),
        Type::F64 => value_parser!(f64).into(),
        Type::Text => value_parser!(String),
        Type::Path => value_parser!(std::path::PathBuf),
        Type::Choice(choices) => names(choices).into(),
    }
}

/// The names of a choice, each with its help.
pub fn names(choices: &'static [Choice]) -> PossibleValuesParser {
    PossibleValuesParser::new(
        choices
            .iter()
            .map(|c| PossibleValue::new(c.name).help(c.help)),
    )
}

/// A choice read as its type (the names are its `FromStr`'s), for the command line's own
/// flags that take an application's choice.
pub fn choice<T>(choices: &'static [Choice]) -> impl TypedValueParser<Value = T>
where
    T: std::str::FromStr<Err = String> + Clone + Send + Sync + 'static,
{
    names(choices).try_map(|name| name.parse::<T>())
}

/// What clap read of `app`'s arguments, as the application's values.
pub fn values(app: &dyn App, matches: &ArgMatches) -> Values {
    let mut values = Values::new(app.params());
    for p in app.params() {
        let given = matches.value_source(p.name) == Some(ValueSource::CommandLine);
        if p.ty == Type::Switch {
            if matches.get_flag(p.name) {
                values.set(p.name, "true", given);
            }
            continue;
        }
        if let Some(raw) = matches.get_raw(p.name).and_then(|mut raw| raw.next()) {
            values.set(p.name, raw, given);
        }
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use treesplit_apps::registry::APPS;

    /// Every application's subcommand is a valid clap command, and clap reads its example
    /// to the same instance as the applications' own reader of words.
    #[test]
    fn clap_and_the_word_reader_agree_on_every_example() {
        let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../testkit/data");
        for app in APPS {
            let mut command = command(&**app);
            command.build();
            command.clone().debug_assert();
            let words: Vec<String> = app
                .example()
                .iter()
                .map(|w| w.replace("{data}", data))
                .collect();
            let matches = command
                .try_get_matches_from(std::iter::once(app.name().to_string()).chain(words.clone()))
                .unwrap_or_else(|e| panic!("{}: {e}", app.name()));
            let by_clap = app.parse(&values(&**app, &matches), &|_| false);
            let by_words = app.parse_words(&words);
            assert_eq!(
                format!("{by_clap:?}"),
                format!("{by_words:?}"),
                "{}",
                app.name()
            );
        }
    }
}
