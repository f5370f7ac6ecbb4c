//! The knapsack instance formats read, told apart by their first data line:
//!
//! - `n capacity` (two numbers), then n lines `profit weight`: the format of
//!   `shared/data/knapsack/`, `#` comments (whole lines or after the numbers);
//! - a capacity alone, then `profit weight` lines to the end of the file (n = their number);
//!   if the second data line is one number too, it is the optimum the file states: YewPar's
//!   knapsack instances (`apps/bnb/knapsack`: capacity, expected result, items), `#` comments
//!   as above;
//! - a name (one word, not a number): Pisinger's CSV files of hard instances, blocks of
//!   `NAME`, `n N`, `c C`, `z Z` (the optimum), `time T`, N lines `index,profit,weight,x` and a
//!   line of dashes; a file of several blocks needs one picked ([`Pick`]).
//!
//! Errors name the file and the line.

use super::Instance;

/// An instance as its file gives it.
#[derive(Debug)]
pub struct Parsed {
    /// The items and the capacity.
    pub instance: Instance,
    /// The optimum the file itself states, and what states it (YewPar's second line,
    /// Pisinger's `z` line).
    pub stated: Option<(u64, String)>,
    /// The instance's own name, where the file gives one (a Pisinger block's first line).
    pub name: Option<String>,
}

/// Which instance of a file of several (Pisinger's CSV) to read: `FILE#K` (1-based) or
/// `FILE#NAME` on the command line.
pub type Pick<'a> = Option<&'a str>;

/// A data line's fields (whitespace-separated, a `#` comment removed), or `None` when blank.
fn data_fields(raw: &str) -> Option<Vec<&str>> {
    let line = raw.split('#').next().unwrap_or("").trim();
    (!line.is_empty()).then(|| line.split_whitespace().collect())
}

/// `f` as a whole number ≥ 0, or an error saying what `what` is wrong with.
fn number(f: &str, what: &str) -> Result<u64, String> {
    if f.starts_with('-') && f[1..].parse::<u64>().is_ok() {
        return Err(format!("{what} is negative ({f})"));
    }
    f.parse::<u64>().map_err(|_| {
        if !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()) {
            format!("{what} {f} does not fit in 64 bits")
        } else {
            format!("{what} is not a whole number: '{f}'")
        }
    })
}

/// A capacity, at most 2^63 − 1.
fn capacity(f: &str) -> Result<u64, String> {
    let c = number(f, "the capacity")?;
    if c > i64::MAX as u64 {
        return Err(format!("the capacity {c} overflows (more than 2^63 − 1)"));
    }
    Ok(c)
}

/// Parse `text` (named `file` in errors) in whichever of the formats it is in; `pick` selects
/// an instance of a file of several.
pub fn parse(text: &str, file: &str, pick: Pick<'_>) -> Result<Parsed, String> {
    let first = text.lines().find_map(data_fields);
    let named = first.is_some_and(|f| {
        f.len() == 1 && !f[0].starts_with(|c: char| c.is_ascii_digit() || c == '-')
    });
    if named {
        return parse_pisinger(text, file, pick);
    }
    if let Some(p) = pick {
        return Err(format!(
            "{file}#{p}: '#' picks one instance of a file of several (Pisinger's CSV), but {file} holds one instance"
        ));
    }
    parse_lines(text, file)
}

/// The formats of one instance (`n capacity`, or a capacity alone, then items).
fn parse_lines(text: &str, file: &str) -> Result<Parsed, String> {
    // (n if the header gives it, capacity, header line)
    let mut header: Option<(Option<usize>, u64, usize)> = None;
    let mut stated: Option<(u64, usize)> = None;
    let mut items = Vec::new();
    let mut last_line = 0;
    for (k, raw) in text.lines().enumerate() {
        let line_no = k + 1;
        last_line = line_no;
        let Some(fields) = data_fields(raw) else {
            continue;
        };
        let at = |msg: String| format!("{file}:{line_no}: {msg}");
        let num = |i: usize, what: &str| -> Result<u64, String> {
            let f = fields.get(i).ok_or_else(|| at(format!("missing {what}")))?;
            number(f, what).map_err(at)
        };
        match header {
            None => {
                match fields.len() {
                    1 => {
                        let c = capacity(fields[0]).map_err(at)?;
                        header = Some((None, c, line_no));
                        continue;
                    }
                    2 => {}
                    k => {
                        return Err(at(format!(
                            "expected 'n capacity' (or a capacity alone, then 'profit weight' lines), found {k} numbers"
                        )))
                    }
                }
                let n = num(0, "the number of items n")?;
                let capacity = capacity(fields[1]).map_err(at)?;
                if n > super::MAX_ITEMS as u64 {
                    return Err(at(format!(
                        "{n} items is more than the supported {}",
                        super::MAX_ITEMS
                    )));
                }
                header = Some((Some(n as usize), capacity, line_no));
            }
            Some((n, _, _)) => {
                if fields.len() > 2 {
                    return Err(at(format!("expected two numbers, found {}", fields.len())));
                }
                if n.is_none() && items.is_empty() && stated.is_none() && fields.len() == 1 {
                    // YewPar's second line: the optimum the file expects.
                    stated = Some((num(0, "the stated optimum")?, line_no));
                    continue;
                }
                if let Some(n) = n.filter(|&n| items.len() == n) {
                    return Err(at(format!(
                        "more item lines than the {n} the header announces"
                    )));
                }
                if items.len() == super::MAX_ITEMS {
                    return Err(at(format!("more than {} items", super::MAX_ITEMS)));
                }
                let p = num(0, "the profit")?;
                let w = num(1, "the weight")?;
                items.push((p, w));
            }
        }
    }
    let (n, capacity, header_line) = header.ok_or_else(|| {
        if last_line == 0 {
            format!("{file}: the file is empty (expected a first line 'n capacity')")
        } else {
            format!("{file}:{last_line}: no 'n capacity' line")
        }
    })?;
    match n {
        Some(n) if items.len() != n => {
            return Err(format!(
                "{file}:{last_line}: the header (line {header_line}) announces {n} items, the file has {}",
                items.len()
            ))
        }
        None if items.is_empty() => {
            return Err(format!(
                "{file}:{last_line}: no 'profit weight' lines after the capacity (line {header_line})"
            ))
        }
        _ => {}
    }
    Ok(Parsed {
        instance: Instance::new(capacity, &items).map_err(|e| format!("{file}: {e}"))?,
        stated: stated.map(|(z, line)| (z, format!("the optimum {file}:{line} states"))),
        name: None,
    })
}

/// A block of a Pisinger file: its name, and its lines (0-based, the name's first).
struct Block<'a> {
    name: &'a str,
    lines: std::ops::Range<usize>,
}

/// Whether `line` ends a Pisinger block (a line of three or more dashes).
fn is_separator(line: &str) -> bool {
    line.len() >= 3 && line.bytes().all(|b| b == b'-')
}

/// Pisinger's CSV: the blocks, one picked (or the only one) and read whole.
fn parse_pisinger(text: &str, file: &str, pick: Pick<'_>) -> Result<Parsed, String> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut blocks: Vec<Block<'_>> = Vec::new();
    let mut open: Option<(usize, &str)> = None;
    for (k, line) in lines.iter().enumerate() {
        match open {
            None if line.is_empty() => {}
            None => open = Some((k, line)),
            Some((start, name)) if is_separator(line) => {
                blocks.push(Block {
                    name,
                    lines: start..k,
                });
                open = None;
            }
            Some(_) => {}
        }
    }
    if let Some((start, name)) = open {
        blocks.push(Block {
            name,
            lines: start..lines.len(),
        });
    }
    let names = || {
        let first: Vec<&str> = blocks.iter().take(3).map(|b| b.name).collect();
        let more = if blocks.len() > 3 { ", …" } else { "" };
        format!("{}{more}", first.join(", "))
    };
    let block = match pick {
        None if blocks.len() == 1 => &blocks[0],
        None => {
            return Err(format!(
                "{file} holds {} instances ({}): pick one as {file}#K (1..={}) or {file}#NAME",
                blocks.len(),
                names(),
                blocks.len()
            ))
        }
        Some(k) if !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) => {
            let i = k.parse::<usize>().unwrap_or(0);
            if i == 0 || i > blocks.len() {
                return Err(format!(
                    "{file}#{k}: the file holds {} instances: K must be in 1..={} (or name one: {})",
                    blocks.len(),
                    blocks.len(),
                    names()
                ));
            }
            &blocks[i - 1]
        }
        Some(name) => {
            let mut found = blocks.iter().filter(|b| b.name == name);
            match (found.next(), found.next()) {
                (Some(b), None) => b,
                (Some(_), Some(_)) => {
                    return Err(format!(
                        "{file}#{name}: several instances have that name: pick one by its place, {file}#K"
                    ))
                }
                (None, _) => {
                    return Err(format!(
                        "{file}#{name}: no instance of that name among the {} of the file ({})",
                        blocks.len(),
                        names()
                    ))
                }
            }
        }
    };
    parse_block(&lines, block, file)
}

/// One Pisinger block: `n`, `c`, `z` and `time` lines (`n` and `c` required), then n item
/// lines `index,profit,weight,x` with indices 1, 2, …
fn parse_block(lines: &[&str], block: &Block<'_>, file: &str) -> Result<Parsed, String> {
    let name = block.name;
    let (mut n, mut c, mut z) = (None, None, None);
    let mut items: Vec<(u64, u64)> = Vec::new();
    let mut header_line = block.lines.start + 1;
    for (k, &line) in lines
        .iter()
        .enumerate()
        .take(block.lines.end)
        .skip(block.lines.start + 1)
    {
        let line_no = k + 1;
        let at = |msg: String| format!("{file}:{line_no}: {msg}");
        if line.is_empty() {
            continue;
        }
        if line.contains(',') {
            let n = n.ok_or_else(|| at(format!("an item of {name} before its 'n' line")))?;
            if c.is_none() {
                return Err(at(format!("an item of {name} before its 'c' line")));
            }
            if items.len() == n {
                return Err(at(format!("more item lines than the n = {n} of {name}")));
            }
            let f: Vec<&str> = line.split(',').map(str::trim).collect();
            if f.len() != 4 {
                return Err(at(format!(
                    "expected 'index,profit,weight,x' (four fields), found {}",
                    f.len()
                )));
            }
            let index = number(f[0], "the item index").map_err(at)?;
            if index != items.len() as u64 + 1 {
                return Err(at(format!(
                    "item index {index}, expected {} (items are numbered from 1)",
                    items.len() + 1
                )));
            }
            let p = number(f[1], "the profit").map_err(at)?;
            let w = number(f[2], "the weight").map_err(at)?;
            if !matches!(f[3], "0" | "1") {
                return Err(at(format!("x is '{}', not 0 or 1", f[3])));
            }
            items.push((p, w));
            continue;
        }
        if !items.is_empty() {
            return Err(at(format!(
                "expected an item line 'index,profit,weight,x', found '{line}'"
            )));
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        let value = |what: &str| -> Result<&str, String> {
            match f.as_slice() {
                [_, v] => Ok(*v),
                _ => Err(at(format!("expected '{} {what}', found '{line}'", f[0]))),
            }
        };
        header_line = line_no;
        match f[0] {
            "n" => {
                let v = number(value("N")?, "the number of items n").map_err(at)?;
                if v > super::MAX_ITEMS as u64 {
                    return Err(at(format!(
                        "{v} items is more than the supported {}",
                        super::MAX_ITEMS
                    )));
                }
                n = Some(v as usize);
            }
            "c" => c = Some(capacity(value("C")?).map_err(at)?),
            "z" => z = Some((number(value("Z")?, "the optimum z").map_err(at)?, line_no)),
            "time" => {}
            other => {
                return Err(at(format!(
                    "expected the 'n', 'c', 'z' or 'time' line of {name}, or an item line 'index,profit,weight,x', found '{other}'"
                )))
            }
        }
    }
    // The separator line, or the last line of the file.
    let end = (block.lines.end + 1).min(lines.len());
    let (Some(n), Some(c)) = (n, c) else {
        return Err(format!(
            "{file}:{}: instance {name} has no {} line",
            header_line,
            if n.is_none() { "'n N'" } else { "'c C'" }
        ));
    };
    if items.len() != n {
        return Err(format!(
            "{file}:{end}: instance {name} announces n = {n} items, its block has {}",
            items.len()
        ));
    }
    Ok(Parsed {
        instance: Instance::new(c, &items).map_err(|e| format!("{file}: {name}: {e}"))?,
        stated: z.map(|(z, line)| (z, format!("the optimum z of {name} ({file}:{line})"))),
        name: Some(name.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str, pick: Pick<'_>) -> String {
        parse(text, "f", pick).unwrap_err()
    }

    #[test]
    fn parse_errors_name_the_file_and_line() {
        let cases = [
            (
                "3 10\n1 2\n3 4\n",
                "f:3: the header (line 1) announces 3 items, the file has 2",
            ),
            ("# c\n2 10\n1\n", "f:3: missing the weight"),
            ("2 10\n1 -2\n", "f:2: the weight is negative (-2)"),
            (
                "1 99999999999999999999\n",
                "f:1: the capacity 99999999999999999999 does not fit in 64 bits",
            ),
            (
                "1 9223372036854775808\n1 1\n",
                "f:1: the capacity 9223372036854775808 overflows",
            ),
            ("1 10\n1 2\n3 4\n", "f:3: more item lines than the 1"),
            ("1 10\nx 2\n", "f:2: the profit is not a whole number: 'x'"),
            ("# only comments\n", "f:1: no 'n capacity' line"),
            (
                "1 10 7\n",
                "f:1: expected 'n capacity' (or a capacity alone",
            ),
            ("1 10\n1 2 3\n", "f:2: expected two numbers, found 3"),
            ("", "f: the file is empty"),
            (
                "1 10 # n capacity\n3 4 # 7\n1 1\n",
                "f:3: more item lines than the 1",
            ),
            // A capacity alone: items to the end, at least one.
            (
                "10\n",
                "f:1: no 'profit weight' lines after the capacity (line 1)",
            ),
            (
                "10\n7\n",
                "f:2: no 'profit weight' lines after the capacity",
            ),
            ("10\n7\n1 2\n3\n", "f:4: missing the weight"),
            ("10\n1 2\n3\n", "f:3: missing the weight"),
            ("-10\n1 2\n", "f:1: the capacity is negative (-10)"),
        ];
        for (text, want) in cases {
            let e = err(text, None);
            assert!(e.starts_with(want), "{text:?}: {e}");
        }
    }

    #[test]
    fn a_capacity_alone_reads_items_to_the_end_and_a_second_number_is_the_optimum() {
        // YewPar: capacity, expected result, then items.
        let p = parse("10\n9\n5 4\n4 5\n6 6\n", "y.kp", None).unwrap();
        assert_eq!((p.instance.capacity, p.instance.len()), (10, 3));
        assert_eq!(p.stated, Some((9, "the optimum y.kp:2 states".into())));
        // The capacity alone, then items; comments and CRLF as elsewhere.
        let p = parse("# kp\r\n10\r\n5 4 # first\r\n4 5\r\n", "c.kp", None).unwrap();
        assert_eq!(
            (p.instance.capacity, p.instance.len(), p.stated),
            (10, 2, None)
        );
        // The form with n is read as before.
        let p = parse("2 10\n5 4\n4 5\n", "n.txt", None).unwrap();
        assert_eq!((p.instance.capacity, p.instance.len()), (10, 2));
        let e = err("1 10\n5 4\n", Some("1"));
        assert!(e.contains("holds one instance"), "{e}");
    }

    const TWO: &str = "\
kp_a
n 3
c 10
z 9
time 0.00
1,5,4,1
2,4,5,1
3,6,6,0
-----

kp_b
n 2
c 4
z 0
time 0.01
1,5,5,0
2,6,6,0
-----

";

    #[test]
    fn pisinger_blocks_are_picked_by_place_or_name() {
        let a = parse(TWO, "t.csv", Some("1")).unwrap();
        assert_eq!((a.instance.capacity, a.instance.len()), (10, 3));
        assert_eq!(a.stated.as_ref().map(|s| s.0), Some(9));
        assert_eq!(a.name.as_deref(), Some("kp_a"));
        let b = parse(TWO, "t.csv", Some("kp_b")).unwrap();
        assert_eq!((b.instance.capacity, b.stated.map(|s| s.0)), (4, Some(0)));
        let one = TWO.split("-----").next().unwrap();
        assert_eq!(parse(one, "o.csv", None).unwrap().instance.len(), 3);
        for (pick, want) in [
            (
                None,
                "t.csv holds 2 instances (kp_a, kp_b): pick one as t.csv#K (1..=2)",
            ),
            (
                Some("3"),
                "t.csv#3: the file holds 2 instances: K must be in 1..=2",
            ),
            (Some("0"), "t.csv#0: the file holds 2 instances"),
            (Some("kp_c"), "t.csv#kp_c: no instance of that name"),
        ] {
            let e = parse(TWO, "t.csv", pick).unwrap_err();
            assert!(e.starts_with(want), "{pick:?}: {e}");
        }
    }

    #[test]
    fn malformed_pisinger_blocks_name_the_line() {
        for (text, want) in [
            (
                "kp\nn 2\nc 10\n1,5,4,0\n-----\n",
                "f:5: instance kp announces n = 2 items, its block has 1",
            ),
            (
                "kp\nn 1\nc 10\n1,5,4\n",
                "f:4: expected 'index,profit,weight,x' (four fields), found 3",
            ),
            ("kp\nn 1\nc 10\n2,5,4,0\n", "f:4: item index 2, expected 1"),
            ("kp\nn 1\nc 10\n1,5,4,2\n", "f:4: x is '2', not 0 or 1"),
            (
                "kp\nn 1\nc 10\n1,5,-4,0\n",
                "f:4: the weight is negative (-4)",
            ),
            (
                "kp\nc 10\n1,5,4,0\n",
                "f:3: an item of kp before its 'n' line",
            ),
            (
                "kp\nn 1\n1,5,4,0\n",
                "f:3: an item of kp before its 'c' line",
            ),
            (
                "kp\nn 1\nc 10\nq 3\n",
                "f:4: expected the 'n', 'c', 'z' or 'time' line of kp",
            ),
            ("kp\nn\n", "f:2: expected 'n N', found 'n'"),
            (
                "kp\nn 1\nc 10\n1,5,4,0\n2,1,1,0\n",
                "f:5: more item lines than the n = 1 of kp",
            ),
            (
                "kp\nn 1\nc 10\n1,5,4,0\nz 3\n",
                "f:5: expected an item line",
            ),
            ("kp\nn 1\n", "f:2: instance kp has no 'c C' line"),
        ] {
            let e = err(text, None);
            assert!(e.starts_with(want), "{text:?}: {e}");
        }
    }
}
