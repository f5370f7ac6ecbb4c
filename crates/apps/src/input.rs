//! An application's input, from a file or from standard input (`-`), read whole as the
//! parsers take it, with bounds that make an endless or binary source (`/dev/zero`,
//! `/dev/urandom`, a wrong file) bad input at once instead of filling memory: no line longer
//! than [`MAX_LINE`] bytes and, for text formats, no NUL byte and nothing but UTF-8, each
//! checked line by line as it is read; input of any bytes has a bound on its lines; no input
//! larger than [`MAX_INPUT`] (`yes | treesplit run maxclique -` ends); and an input the memory
//! cannot hold is an error, not an abort.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// The longest line an input may have (1 MiB): far above any line of the formats read here.
pub const MAX_LINE: usize = 1 << 20;

/// The largest input read (4 GiB): above the largest published instance of every format read
/// here (a dense 16,384-vertex DIMACS graph is about 1.5 GB; 2^28 hash keys of 15 bytes
/// about 4 GB), below what would exhaust a typical node's memory with the parsed copy.
pub const MAX_INPUT: u64 = 1 << 32;

/// The text of `path` (`-`: standard input) and its name for messages (`<stdin>` or the path).
pub fn read_text(path: &Path) -> Result<(String, String), String> {
    let (bytes, name) = read(path, None)?;
    let text = String::from_utf8(bytes).map_err(|e| format!("{name}: not text: {e}"))?;
    Ok((text, name))
}

/// The bytes of `path` (`-`: standard input), at most `max_lines` lines of any bytes, and its
/// name for messages.
pub fn read_bytes(path: &Path, max_lines: u64) -> Result<(Vec<u8>, String), String> {
    read(path, Some(max_lines))
}

/// Read `path`: text (no bound on its lines) or, with `max_lines`, lines of any bytes.
fn read(path: &Path, max_lines: Option<u64>) -> Result<(Vec<u8>, String), String> {
    if path == Path::new("-") {
        let name = "<stdin>".to_string();
        let bytes = lines(std::io::stdin().lock(), &name, max_lines)
            .map_err(|e| e.unwrap_or_else(|e| format!("cannot read standard input: {e}")))?;
        return Ok((bytes, name));
    }
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    let bytes = lines(BufReader::new(file), &name, max_lines)
        .map_err(|e| e.unwrap_or_else(|e| format!("cannot read {name}: {e}")))?;
    Ok((bytes, name))
}

/// Read `reader` to its end a line at a time, as text or (with `max_lines`) as lines of any
/// bytes: `Err(Ok(message))` for input that breaks a bound, `Err(Err(e))` for a read error.
fn lines(
    reader: impl BufRead,
    name: &str,
    max_lines: Option<u64>,
) -> Result<Vec<u8>, Result<String, std::io::Error>> {
    lines_within(reader, name, max_lines, MAX_INPUT)
}

/// [`lines`] with at most `max_bytes` bytes in all.
fn lines_within(
    mut reader: impl BufRead,
    name: &str,
    max_lines: Option<u64>,
    max_bytes: u64,
) -> Result<Vec<u8>, Result<String, std::io::Error>> {
    let text = max_lines.is_none();
    let mut out = Vec::new();
    let mut number = 0u64;
    loop {
        let start = out.len();
        // Room for one more line, reserved so that a machine without it (a `ulimit -v`, a
        // batch job's limit) refuses the input instead of aborting the process.
        if out.capacity() - out.len() <= MAX_LINE {
            out.try_reserve(out.len().max(MAX_LINE + 1)).map_err(|_| {
                Ok(format!(
                    "{name}: not enough memory to hold the input ({} MiB read so far)",
                    out.len() >> 20
                ))
            })?;
        }
        let n = (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut out)
            .map_err(Err)?;
        if n == 0 {
            return Ok(out);
        }
        number += 1;
        if out.len() as u64 > max_bytes {
            return Err(Ok(format!(
                "{name}: more than {} bytes: larger than any input of this kind",
                max_bytes
            )));
        }
        if max_lines.is_some_and(|max| number > max) {
            return Err(Ok(format!(
                "{name}: more than {} lines",
                max_lines.unwrap_or(0)
            )));
        }
        let line = &out[start..];
        if text && line.contains(&0) {
            return Err(Ok(format!(
                "{name}: line {number} holds a NUL byte: not a text file"
            )));
        }
        if n > MAX_LINE && !line.ends_with(b"\n") {
            return Err(Ok(format!(
                "{name}: line {number} is longer than {} MiB: not an input of this kind",
                MAX_LINE >> 20
            )));
        }
        if text {
            if let Err(e) = std::str::from_utf8(line) {
                return Err(Ok(format!("{name}: line {number} is not UTF-8 text: {e}")));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endless_and_binary_sources_are_refused_and_text_is_read_whole() {
        let refused = |r: Result<Vec<u8>, Result<String, std::io::Error>>| r.unwrap_err().unwrap();
        let zeros = std::io::repeat(0).take(1 << 40); // a terabyte, refused at its first line
        let e = refused(lines(BufReader::new(zeros), "z", None));
        assert!(e.contains("line 1 holds a NUL byte"), "{e}");
        let zeros = std::io::repeat(0).take(1 << 40);
        let e = refused(lines(BufReader::new(zeros), "z", Some(10)));
        assert!(e.contains("line 1 is longer than 1 MiB"), "{e}");
        // Endless short lines of any bytes: refused past the bound on lines.
        let newlines = std::io::repeat(b'\n').take(1 << 40);
        let e = refused(lines(BufReader::new(newlines), "n", Some(10)));
        assert!(e.contains("more than 10 lines"), "{e}");
        let e = refused(lines(&b"ok\n\xff\xfe\n"[..], "b", None));
        assert!(e.contains("line 2 is not UTF-8"), "{e}");
        let text = "p edge 2 1\ne 1 2\nlast line without a newline";
        assert_eq!(lines(text.as_bytes(), "t", None).unwrap(), text.as_bytes());
        assert_eq!(lines(&b"\xff\n"[..], "k", Some(1)).unwrap(), b"\xff\n");
        // Endless valid text (`yes`): refused past the bound on bytes.
        let endless = BufReader::new(std::io::repeat(b'\n').take(1 << 40));
        let e = refused(lines_within(endless, "y", None, 1 << 20));
        assert!(e.contains("more than 1048576 bytes"), "{e}");
    }
}
