//! Counts in messages: a number with its noun in the right number ("1 vertex", "2
//! vertices") and a range of PEs in words ("PE 0", "PEs 0 and 1", "PEs 0 to 7"), so that
//! no message says "1 vertices" or "PEs 0..2"; and a list of names in words ("a, b and c").

use std::fmt::Display;

/// `n` and its noun, `one` for 1 and `many` otherwise: `count(1, "vertex", "vertices")` is
/// "1 vertex", `count(0, "vertex", "vertices")` is "0 vertices".
pub fn count(n: impl Display, one: &str, many: &str) -> String {
    let n = n.to_string();
    let noun = if n == "1" { one } else { many };
    format!("{n} {noun}")
}

/// The noun alone for `n` things: `one` for 1, `many` otherwise ("1 PE gets", "2 PEs get").
pub fn noun<'a>(n: impl Display, one: &'a str, many: &'a str) -> &'a str {
    if n.to_string() == "1" {
        one
    } else {
        many
    }
}

/// The first `n` items numbered from 0, with their noun: "PE 0", "PEs 0 and 1", "PEs 0 to
/// 7" (`first(8, "PE", "PEs")`), and "no PEs" for 0.
pub fn first(n: u64, one: &str, many: &str) -> String {
    match n {
        0 => format!("no {many}"),
        1 => format!("{one} 0"),
        2 => format!("{many} 0 and 1"),
        _ => format!("{many} 0 to {}", n - 1),
    }
}

/// The items in words, the last two joined by `last` ("and", "or"): `list(["a", "b", "c"],
/// "or")` is "a, b or c"; one item alone, none as "".
pub fn list<T: Display>(items: impl IntoIterator<Item = T>, last: &str) -> String {
    let items: Vec<String> = items.into_iter().map(|i| i.to_string()).collect();
    match items.split_last() {
        None => String::new(),
        Some((only, [])) => only.clone(),
        Some((end, rest)) => format!("{} {last} {end}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_take_the_singular_for_one_only() {
        assert_eq!(count(1u64, "vertex", "vertices"), "1 vertex");
        assert_eq!(count(0usize, "vertex", "vertices"), "0 vertices");
        assert_eq!(count(11, "PE", "PEs"), "11 PEs");
        assert_eq!(noun(1, "gets", "get"), "gets");
        assert_eq!(noun(21, "gets", "get"), "get");
    }

    #[test]
    fn ranges_of_pes_are_words() {
        assert_eq!(first(0, "PE", "PEs"), "no PEs");
        assert_eq!(first(1, "PE", "PEs"), "PE 0");
        assert_eq!(first(2, "PE", "PEs"), "PEs 0 and 1");
        assert_eq!(first(8, "PE", "PEs"), "PEs 0 to 7");
    }

    #[test]
    fn lists_join_the_last_two_with_the_word_given() {
        assert_eq!(list(["a", "b", "c"], "or"), "a, b or c");
        assert_eq!(list(["a", "b"], "and"), "a and b");
        assert_eq!(list(["a"], "and"), "a");
        assert_eq!(list(Vec::<&str>::new(), "and"), "");
    }
}
