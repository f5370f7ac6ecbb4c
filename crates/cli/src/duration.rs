//! Durations on the command line (`--time-limit`, `--checkpoint-every`): plain seconds
//! (`0.5`), humantime's forms (`250ms`, `100us`, `30s`, `5m`, `1h30m`, `2days`), and a
//! decimal with one unit (`1.5h`, `2.5ms`); more than zero.

use std::time::Duration;

/// What a duration looks like, for the error messages.
const EXAMPLES: &str = "use e.g. 30s, 5m, 1h30m, 1.5h, 250ms, 100us or plain seconds";

/// Parse a duration (see the module comment); zero, negative and unreadable ones are errors.
pub fn parse(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let duration = match t.parse::<f64>() {
        Ok(seconds) => from_seconds(seconds, text)?,
        Err(_) => match humantime::parse_duration(t) {
            Ok(d) => d,
            Err(_) => decimal_with_unit(t, text)?,
        },
    };
    if duration.is_zero() {
        return Err(format!("a duration must be more than zero, got '{text}'"));
    }
    Ok(duration)
}

/// `1.5h`, `2.5ms`, `-3s`: a decimal number and one unit.
fn decimal_with_unit(t: &str, text: &str) -> Result<Duration, String> {
    let not = || format!("'{text}' is not a duration ({EXAMPLES})");
    let i = t.find(|c: char| c.is_alphabetic()).ok_or_else(not)?;
    let (number, unit) = t.split_at(i);
    let scale = match unit.trim() {
        "ns" => 1e-9,
        "us" | "µs" => 1e-6,
        "ms" => 1e-3,
        "s" | "sec" => 1.0,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        _ => return Err(not()),
    };
    let value: f64 = number.trim().parse().map_err(|_| not())?;
    from_seconds(value * scale, text)
}

fn from_seconds(seconds: f64, text: &str) -> Result<Duration, String> {
    if !seconds.is_finite() {
        return Err(format!("'{text}' is not a duration ({EXAMPLES})"));
    }
    if seconds <= 0.0 {
        return Err(format!("a duration must be more than zero, got '{text}'"));
    }
    Duration::try_from_secs_f64(seconds).map_err(|_| format!("the duration '{text}' is too long"))
}

#[cfg(test)]
mod tests {
    use super::parse;
    use std::time::Duration;

    #[test]
    fn every_form_reads_as_the_same_duration() {
        for (text, want) in [
            ("7", Duration::from_secs(7)),
            ("0.5", Duration::from_millis(500)),
            ("250ms", Duration::from_millis(250)),
            ("100us", Duration::from_micros(100)),
            ("100µs", Duration::from_micros(100)),
            ("30s", Duration::from_secs(30)),
            ("5m", Duration::from_secs(300)),
            ("5min", Duration::from_secs(300)),
            ("1h30m", Duration::from_secs(5400)),
            ("1h 30m", Duration::from_secs(5400)),
            ("1.5h", Duration::from_secs(5400)),
            ("2.5ms", Duration::from_micros(2500)),
            (" 2s ", Duration::from_secs(2)),
        ] {
            assert_eq!(parse(text), Ok(want), "{text}");
        }
    }

    #[test]
    fn zero_negative_and_unreadable_durations_are_errors() {
        for text in ["0", "0s", "-3s", "-1", "0.0ms"] {
            let e = parse(text).unwrap_err();
            assert!(e.contains("more than zero"), "{text}: {e}");
        }
        for text in ["soon", "3 eons", "", "h", "nan", "inf"] {
            let e = parse(text).unwrap_err();
            assert!(e.contains("not a duration"), "{text}: {e}");
        }
        assert!(parse("1e300").unwrap_err().contains("too long"));
    }
}
