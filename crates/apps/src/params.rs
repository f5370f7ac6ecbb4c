//! An application's parameters as plain data: each [`Param`] says its name, whether it is a
//! positional argument, a long flag (`--name`) or a one-letter flag (`-x`), the type of its
//! value, its default, its help and which others it needs or excludes. The command line turns
//! the list into its own parser and what that parser read into [`Values`], which the
//! application reads through typed getters; a value that does not read as its type is bad
//! input ([`AppError::BadInput`]). So the applications know no command-line library, and
//! [`Values::from_words`] reads an application's words without one (its tests, the lab). It
//! names no application.

use crate::error::AppError;
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{OsStr, OsString};
use std::fmt::Display;
use std::path::PathBuf;
use std::str::FromStr;

/// How a parameter appears on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// A positional argument, in the order of the list (shown as `NAME` upper-cased).
    Positional,
    /// `--name VALUE`, or `--name` alone for a switch.
    Long,
    /// `-x VALUE`, the name being the letter.
    Short,
}

/// The type of a parameter's value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Type {
    /// No value: the flag is given or not.
    Switch,
    /// A whole number in `u32`.
    U32,
    /// A whole number in `u64`.
    U64,
    /// A whole number in `usize`.
    Usize,
    /// A signed whole number in `i64`.
    I64,
    /// A floating-point number.
    F64,
    /// Any text.
    Text,
    /// A path (`-` names standard input where the application reads one).
    Path,
    /// One of a few names.
    Choice(&'static [Choice]),
}

/// One name a [`Type::Choice`] parameter takes, and what it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    /// The name.
    pub name: &'static str,
    /// What it means.
    pub help: &'static str,
}

/// One parameter of an application.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Param {
    /// Its name: the flag's name after `--`, a positional argument's name, or the letter of a
    /// one-letter flag. [`Values`] are looked up by it.
    pub name: &'static str,
    /// How it appears.
    pub form: Form,
    /// The type of its value.
    pub ty: Type,
    /// What its value is called in the help (default: the name upper-cased, `-` as `_`).
    pub value_name: Option<&'static str>,
    /// Its value when not given.
    pub default: Option<&'static str>,
    /// Its help, one paragraph.
    pub help: &'static str,
    /// It must be given (unless one of `required_unless` is).
    pub required: bool,
    /// It must be given unless one of these is.
    pub required_unless: &'static [&'static str],
    /// It may not be given with any of these.
    pub conflicts: &'static [&'static str],
    /// Its value may start with `-` (a negative number, a corner at -2,-1.25).
    pub negative: bool,
}

impl Param {
    const fn new(name: &'static str, form: Form, ty: Type, help: &'static str) -> Param {
        Param {
            name,
            form,
            ty,
            value_name: None,
            default: None,
            help,
            required: false,
            required_unless: &[],
            conflicts: &[],
            negative: false,
        }
    }

    /// A positional argument.
    pub const fn positional(name: &'static str, ty: Type, help: &'static str) -> Param {
        Param::new(name, Form::Positional, ty, help)
    }

    /// A long flag with a value.
    pub const fn long(name: &'static str, ty: Type, help: &'static str) -> Param {
        Param::new(name, Form::Long, ty, help)
    }

    /// A long flag without a value.
    pub const fn switch(name: &'static str, help: &'static str) -> Param {
        Param::new(name, Form::Long, Type::Switch, help)
    }

    /// A one-letter flag with a value (`name` is the letter).
    pub const fn short(name: &'static str, ty: Type, help: &'static str) -> Param {
        Param::new(name, Form::Short, ty, help)
    }

    /// The same, its value called `value_name` in the help.
    pub const fn value_name(mut self, value_name: &'static str) -> Param {
        self.value_name = Some(value_name);
        self
    }

    /// The same with a default value.
    pub const fn default(mut self, default: &'static str) -> Param {
        self.default = Some(default);
        self
    }

    /// The same, required.
    pub const fn required(mut self) -> Param {
        self.required = true;
        self
    }

    /// The same, required unless one of `others` is given.
    pub const fn required_unless(mut self, others: &'static [&'static str]) -> Param {
        self.required_unless = others;
        self
    }

    /// The same, excluding `others`.
    pub const fn conflicts(mut self, others: &'static [&'static str]) -> Param {
        self.conflicts = others;
        self
    }

    /// The same, taking values that start with `-`.
    pub const fn negative(mut self) -> Param {
        self.negative = true;
        self
    }

    /// Whether it takes a value.
    pub fn takes_value(&self) -> bool {
        self.ty != Type::Switch
    }

    /// What its value is called in the help.
    pub fn placeholder(&self) -> String {
        self.value_name.map_or_else(
            || self.name.to_uppercase().replace('-', "_"),
            str::to_string,
        )
    }

    /// The parameter as the user writes it: `--name`, `-x` or `<NAME>`.
    pub fn shown(&self) -> String {
        match self.form {
            Form::Positional => format!("<{}>", self.placeholder()),
            Form::Long => format!("--{}", self.name),
            Form::Short => format!("-{}", self.name),
        }
    }
}

/// An application's parameters as read: each parameter's value (given, or its default) and
/// which were given.
#[derive(Debug, Clone, Default)]
pub struct Values {
    params: &'static [Param],
    values: BTreeMap<&'static str, OsString>,
    given: BTreeSet<&'static str>,
}

impl Values {
    /// No values yet, for the parameters `params`.
    pub fn new(params: &'static [Param]) -> Values {
        Values {
            params,
            ..Values::default()
        }
    }

    /// The parameter called `name` (a name not in the list is a bug of the application).
    fn param(&self, name: &str) -> &'static Param {
        self.params
            .iter()
            .find(|p| p.name == name)
            .unwrap_or_else(|| panic!("no parameter '{name}'"))
    }

    /// Set `name`'s value (a switch: any value means given); `given`: the user gave it (not
    /// its default).
    pub fn set(&mut self, name: &str, value: impl Into<OsString>, given: bool) {
        let name = self.param(name).name;
        self.values.insert(name, value.into());
        if given {
            self.given.insert(name);
        }
    }

    /// Whether the user gave `name` (its default does not count).
    pub fn given(&self, name: &str) -> bool {
        self.given.contains(self.param(name).name)
    }

    /// Whether the switch `name` is on.
    pub fn switch(&self, name: &str) -> bool {
        self.given(name)
    }

    /// The value of `name` as given, where it has one.
    pub fn raw(&self, name: &str) -> Option<&OsStr> {
        self.values
            .get(self.param(name).name)
            .map(OsString::as_os_str)
    }

    /// The path `name` names, where it has one.
    pub fn path(&self, name: &str) -> Option<PathBuf> {
        self.raw(name).map(PathBuf::from)
    }

    /// The path `name` names, which it has (it is required).
    pub fn need_path(&self, name: &str) -> Result<PathBuf, AppError> {
        self.path(name).ok_or_else(|| {
            AppError::BadInput(format!("'{}' needs a value", self.param(name).shown()))
        })
    }

    /// The value of `name` read as a `T`, where it has one; one that does not read is bad
    /// input.
    pub fn get<T: FromStr>(&self, name: &str) -> Result<Option<T>, AppError>
    where
        T::Err: Display,
    {
        let Some(raw) = self.raw(name) else {
            return Ok(None);
        };
        let bad = |why: &dyn Display| {
            AppError::BadInput(format!(
                "invalid value '{}' for '{}': {why}",
                raw.to_string_lossy(),
                self.param(name).shown()
            ))
        };
        let text = raw.to_str().ok_or_else(|| bad(&"not UTF-8"))?;
        text.parse().map(Some).map_err(|e: T::Err| bad(&e))
    }

    /// The value of `name`, which has one (it is required or has a default).
    pub fn value<T: FromStr>(&self, name: &str) -> Result<T, AppError>
    where
        T::Err: Display,
    {
        self.get(name)?.ok_or_else(|| {
            AppError::BadInput(format!("'{}' needs a value", self.param(name).shown()))
        })
    }

    /// The values that `words` give `params`, without a command-line library: positional
    /// arguments in order, `--name VALUE`, `--name=VALUE`, `-x VALUE` and switches; defaults
    /// for the others. A word that names no parameter, or a flag without its value, is bad
    /// input. (Which parameters exclude or need which is the command line's to check.)
    pub fn from_words<S: AsRef<str>>(
        params: &'static [Param],
        words: &[S],
    ) -> Result<Values, AppError> {
        let mut values = Values::new(params);
        let mut positional = params.iter().filter(|p| p.form == Form::Positional);
        let mut words = words.iter().map(AsRef::as_ref);
        while let Some(word) = words.next() {
            let (flag, inline) = match word.split_once('=') {
                Some((f, v)) if f.starts_with("--") => (f, Some(v)),
                _ => (word, None),
            };
            let named = params.iter().find(|p| match p.form {
                Form::Long => flag.strip_prefix("--") == Some(p.name),
                Form::Short => flag.strip_prefix('-') == Some(p.name),
                Form::Positional => false,
            });
            let param = match named {
                Some(p) => p,
                None if !word.starts_with('-') || word == "-" || word.parse::<f64>().is_ok() => {
                    let p = positional.next().ok_or_else(|| {
                        AppError::BadInput(format!("unexpected argument '{word}'"))
                    })?;
                    values.set(p.name, word, true);
                    continue;
                }
                None => return Err(AppError::BadInput(format!("unexpected argument '{word}'"))),
            };
            if !param.takes_value() {
                values.set(param.name, "true", true);
                continue;
            }
            let value = inline
                .or_else(|| words.next())
                .ok_or_else(|| AppError::BadInput(format!("'{}' needs a value", param.shown())))?;
            values.set(param.name, value, true);
        }
        for p in params {
            if let (Some(d), false) = (p.default, values.values.contains_key(p.name)) {
                values.set(p.name, d, false);
            }
        }
        Ok(values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PARAMS: &[Param] = &[
        Param::positional("file", Type::Path, "A file."),
        Param::long("work", Type::U64, "Work.").default("10"),
        Param::long("z0", Type::Text, "A corner.").negative(),
        Param::short("t", Type::Text, "A type."),
        Param::switch("no-published", "No published value."),
    ];

    #[test]
    fn words_read_as_the_parameters_say() {
        let v = Values::from_words(PARAMS, &["f.txt", "--z0", "-2,-1", "-t", "1"]).unwrap();
        assert_eq!(v.path("file"), Some(PathBuf::from("f.txt")));
        assert_eq!(v.value::<u64>("work").unwrap(), 10);
        assert!(!v.given("work"));
        assert_eq!(v.get::<String>("z0").unwrap().as_deref(), Some("-2,-1"));
        assert_eq!(v.get::<String>("t").unwrap().as_deref(), Some("1"));
        assert!(!v.switch("no-published"));
        let v = Values::from_words(PARAMS, &["--work=7", "--no-published"]).unwrap();
        assert_eq!(v.value::<u64>("work").unwrap(), 7);
        assert!(v.switch("no-published") && v.given("work"));
        assert_eq!(v.path("file"), None);
    }

    #[test]
    fn a_bad_value_or_word_is_bad_input() {
        let v = Values::from_words(PARAMS, &["--work", "x"]).unwrap();
        match v.value::<u64>("work") {
            Err(AppError::BadInput(e)) => {
                assert_eq!(
                    e,
                    "invalid value 'x' for '--work': invalid digit found in string"
                )
            }
            other => panic!("{other:?}"),
        }
        for words in [&["--nope"][..], &["a", "b"], &["--work"]] {
            assert!(matches!(
                Values::from_words(PARAMS, words),
                Err(AppError::BadInput(_))
            ));
        }
    }
}
