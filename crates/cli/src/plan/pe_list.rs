//! The simulator's per-PE options on the command line (`--slow`, `--slow-links`): a list of
//! `PE:VALUE` pairs.

/// Parse `PE:VALUE,PE:VALUE,…` (e.g. slow PEs `3:4.0,5:2` or slow links `1:1000`).
pub fn parse_pe_list<V: std::str::FromStr>(s: &str, what: &str) -> Result<Vec<(usize, V)>, String> {
    if s.trim().is_empty() {
        return Ok(vec![]);
    }
    s.split(',')
        .map(|item| {
            let (pe, v) = item
                .split_once(':')
                .ok_or_else(|| format!("bad {what} '{item}': expected PE:VALUE"))?;
            let pe = pe
                .trim()
                .parse()
                .map_err(|_| format!("bad {what} '{item}': '{pe}' is not a PE number"))?;
            let v = v
                .trim()
                .parse()
                .map_err(|_| format!("bad {what} '{item}': '{v}' is not a valid value"))?;
            Ok((pe, v))
        })
        .collect::<Result<Vec<(usize, V)>, String>>()
        .and_then(|list| {
            match list
                .iter()
                .enumerate()
                .find(|(i, (pe, _))| list[..*i].iter().any(|(q, _)| q == pe))
            {
                Some((_, (pe, _))) => Err(format!("{what} {pe} is given twice")),
                None => Ok(list),
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_parse_and_bad_items_are_named() {
        assert_eq!(
            parse_pe_list::<f64>("3:4.0, 5:2", "slow PE"),
            Ok(vec![(3, 4.0), (5, 2.0)])
        );
        assert_eq!(parse_pe_list::<u64>(" ", "slow link"), Ok(vec![]));
        let e = parse_pe_list::<u64>("1:5,x:3", "slow link").unwrap_err();
        assert!(e.contains("'x' is not a PE number"), "{e}");
        let e = parse_pe_list::<u64>("1:5,1:3", "slow link").unwrap_err();
        assert_eq!(e, "slow link 1 is given twice");
    }
}
