//! TSPLIB's symmetric TSP files, read into a distance matrix: `EXPLICIT` weights in the
//! formats `FULL_MATRIX`, `UPPER_ROW`, `LOWER_ROW`, `UPPER_DIAG_ROW` and `LOWER_DIAG_ROW`, and
//! coordinates under `EUC_2D`, `CEIL_2D`, `ATT` and `GEO` with TSPLIB's integer rounding
//! (Reinelt, "TSPLIB 95", and its FAQ for `GEO`'s degrees.minutes). Distances must be computed
//! exactly as TSPLIB does for its published optima to hold, so each rule is written as the
//! documentation states it. A keyword may be followed by `:` with or without spaces, `EOF` is
//! optional and `DISPLAY_DATA_SECTION` is skipped; anything else this reader does not take is
//! an error that names the line and the keyword.

/// The most cities a file may have: the matrix is held whole (4 MB at this size), and the
/// exact search is far beyond reach long before it.
pub const MAX_CITIES: usize = 1000;

/// A symmetric instance: its name and the distances between its `n` cities (0-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matrix {
    /// `NAME`, or empty.
    pub name: String,
    /// Cities.
    pub n: usize,
    /// `dist[i * n + j]`, symmetric, 0 on the diagonal.
    pub dist: Vec<u32>,
}

impl Matrix {
    /// A matrix of `n` cities from `d(i, j)` for i < j (the diagonal is 0).
    pub fn from_fn(name: &str, n: usize, mut d: impl FnMut(usize, usize) -> u32) -> Matrix {
        let mut dist = vec![0; n * n];
        for i in 0..n {
            for j in i + 1..n {
                let w = d(i, j);
                dist[i * n + j] = w;
                dist[j * n + i] = w;
            }
        }
        Matrix {
            name: name.to_string(),
            n,
            dist,
        }
    }
}

impl Matrix {
    /// `n` random cities uniform on the integer points of a 1000 × 1000 square, with EUC_2D
    /// distances, drawn from `seed`.
    pub fn random(n: usize, seed: u64) -> Matrix {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let c: Vec<(f64, f64)> = (0..n)
            .map(|_| {
                (
                    f64::from(rng.random_range(0..1000u32)),
                    f64::from(rng.random_range(0..1000u32)),
                )
            })
            .collect();
        Matrix::from_fn(&format!("random{n}"), n, |i, j| euc_2d(c[i], c[j]))
    }
}

/// How distances are given (`EDGE_WEIGHT_TYPE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WeightType {
    Explicit,
    Euc2d,
    Ceil2d,
    Att,
    Geo,
}

/// The layout of explicit weights (`EDGE_WEIGHT_FORMAT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Function,
    FullMatrix,
    UpperRow,
    LowerRow,
    UpperDiagRow,
    LowerDiagRow,
}

/// TSPLIB's `nint`: the nearest integer, as `(int)(x + 0.5)` (the FAQ: the same for TSPLIB).
fn nint(x: f64) -> i64 {
    (x + 0.5).floor() as i64
}

/// `EUC_2D`: the Euclidean distance rounded to the nearest integer.
pub fn euc_2d(a: (f64, f64), b: (f64, f64)) -> u32 {
    let (dx, dy) = (a.0 - b.0, a.1 - b.1);
    nint((dx * dx + dy * dy).sqrt()) as u32
}

/// `CEIL_2D`: the Euclidean distance rounded up.
pub fn ceil_2d(a: (f64, f64), b: (f64, f64)) -> u32 {
    let (dx, dy) = (a.0 - b.0, a.1 - b.1);
    (dx * dx + dy * dy).sqrt().ceil() as u32
}

/// `ATT`, the pseudo-Euclidean distance: r = √((dx² + dy²) / 10), t = nint(r), and t + 1
/// where t < r.
pub fn att(a: (f64, f64), b: (f64, f64)) -> u32 {
    let (dx, dy) = (a.0 - b.0, a.1 - b.1);
    let r = ((dx * dx + dy * dy) / 10.0).sqrt();
    let t = nint(r);
    (if (t as f64) < r { t + 1 } else { t }) as u32
}

/// A `GEO` coordinate (DDD.MM, degrees and minutes) in radians, as TSPLIB's FAQ converts it:
/// PI = 3.141592, the degrees the integer part (truncated), the minutes the rest.
fn geo_radians(x: f64) -> f64 {
    // TSPLIB's value, not π: the published GEO optima are computed with it.
    #[allow(clippy::approx_constant)]
    const PI: f64 = 3.141592;
    let deg = x.trunc();
    let min = x - deg;
    PI * (deg + 5.0 * min / 3.0) / 180.0
}

/// `GEO`: the distance on the idealised sphere of radius RRR = 6378.388 km, truncated after
/// adding 1, of coordinates (latitude, longitude) in DDD.MM.
pub fn geo(a: (f64, f64), b: (f64, f64)) -> u32 {
    const RRR: f64 = 6378.388;
    let (lat_a, lon_a) = (geo_radians(a.0), geo_radians(a.1));
    let (lat_b, lon_b) = (geo_radians(b.0), geo_radians(b.1));
    let q1 = (lon_a - lon_b).cos();
    let q2 = (lat_a - lat_b).cos();
    let q3 = (lat_a + lat_b).cos();
    (RRR * (0.5 * ((1.0 + q1) * q2 - (1.0 - q1) * q3)).acos() + 1.0) as u32
}

/// The keyword of a specification line and its value: `KEY : VALUE`, `KEY: VALUE`, `KEY :`
/// or `KEY` alone (a section).
fn keyword(line: &str) -> (&str, &str) {
    match line.split_once(':') {
        Some((k, v)) => (k.trim(), v.trim()),
        None => match line.split_once(char::is_whitespace) {
            Some((k, v)) => (k.trim(), v.trim()),
            None => (line, ""),
        },
    }
}

/// True for a line of section data (it starts with a number).
fn is_data(line: &str) -> bool {
    line.trim_start()
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '.'))
}

/// Parse a TSPLIB file's text; `source` names it in messages.
pub fn parse(text: &str, source: &str) -> Result<Matrix, String> {
    let lines: Vec<&str> = text.lines().collect();
    let at = |i: usize, key: &str, why: String| format!("{source}: line {}: {key}: {why}", i + 1);
    let mut name = String::new();
    let mut n: Option<usize> = None;
    let mut weight_type: Option<(WeightType, usize)> = None;
    let mut format: Option<(Format, usize)> = None;
    let mut coords: Option<Vec<(f64, f64)>> = None;
    let mut weights: Option<(Vec<u32>, usize)> = None;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim();
        if line.is_empty() {
            i += 1;
            continue;
        }
        let (key, value) = keyword(line);
        let fail = |why: String| Err(at(i, key, why));
        match key {
            "EOF" => break,
            "NAME" => name = value.to_string(),
            "COMMENT" | "DISPLAY_DATA_TYPE" => {}
            "TYPE" => {
                if value != "TSP" {
                    return fail(format!(
                        "'{value}' is not supported: only symmetric TSP files (TYPE: TSP) are read"
                    ));
                }
            }
            "DIMENSION" => {
                let d: usize = match value.parse() {
                    Ok(d) => d,
                    Err(_) => return fail(format!("'{value}' is not a number of cities")),
                };
                if d == 0 || d > MAX_CITIES {
                    return fail(format!(
                        "{d} cities: 1 to {MAX_CITIES} are supported (the exact search cannot reach more)"
                    ));
                }
                if n.is_some() {
                    return fail("given twice".into());
                }
                n = Some(d);
            }
            "EDGE_WEIGHT_TYPE" => {
                let t = match value {
                    "EXPLICIT" => WeightType::Explicit,
                    "EUC_2D" => WeightType::Euc2d,
                    "CEIL_2D" => WeightType::Ceil2d,
                    "ATT" => WeightType::Att,
                    "GEO" => WeightType::Geo,
                    _ => {
                        return fail(format!(
                        "'{value}' is not supported (EXPLICIT, EUC_2D, CEIL_2D, ATT and GEO are)"
                    ))
                    }
                };
                weight_type = Some((t, i));
            }
            "EDGE_WEIGHT_FORMAT" => {
                let f = match value {
                    "FUNCTION" => Format::Function,
                    "FULL_MATRIX" => Format::FullMatrix,
                    "UPPER_ROW" => Format::UpperRow,
                    "LOWER_ROW" => Format::LowerRow,
                    "UPPER_DIAG_ROW" => Format::UpperDiagRow,
                    "LOWER_DIAG_ROW" => Format::LowerDiagRow,
                    _ => return fail(format!(
                        "'{value}' is not supported (FULL_MATRIX, UPPER_ROW, LOWER_ROW, UPPER_DIAG_ROW and LOWER_DIAG_ROW are)"
                    )),
                };
                format = Some((f, i));
            }
            "NODE_COORD_TYPE" => {
                if value != "TWOD_COORDS" && value != "NO_COORDS" {
                    return fail(format!("'{value}' is not supported (TWOD_COORDS is)"));
                }
            }
            "DISPLAY_DATA_SECTION" => {
                i += 1;
                while i < lines.len() && (lines[i].trim().is_empty() || is_data(lines[i])) {
                    i += 1;
                }
                continue;
            }
            "NODE_COORD_SECTION" => {
                let Some(n) = n else {
                    return fail("comes before DIMENSION".into());
                };
                if coords.is_some() {
                    return fail("given twice".into());
                }
                let mut c: Vec<Option<(f64, f64)>> = vec![None; n];
                let start = i;
                i += 1;
                let mut read = 0;
                while i < lines.len() && (lines[i].trim().is_empty() || is_data(lines[i])) {
                    let l = lines[i].trim();
                    i += 1;
                    if l.is_empty() {
                        continue;
                    }
                    let bad = |why: &str| Err(at(i - 1, key, format!("'{l}': {why}")));
                    let f: Vec<&str> = l.split_whitespace().collect();
                    if f.len() != 3 {
                        return bad("a city and two coordinates expected");
                    }
                    let Ok(id) = f[0].parse::<usize>() else {
                        return bad("the city is not a whole number");
                    };
                    if id == 0 || id > n {
                        return bad(&format!("city {id} is outside 1..={n} (DIMENSION)"));
                    }
                    let (Ok(x), Ok(y)) = (f[1].parse::<f64>(), f[2].parse::<f64>()) else {
                        return bad("a coordinate is not a number");
                    };
                    if !x.is_finite() || !y.is_finite() || x.abs() > 1e9 || y.abs() > 1e9 {
                        return bad("a coordinate is out of range (at most 1e9 in magnitude)");
                    }
                    if c[id - 1].replace((x, y)).is_some() {
                        return bad(&format!("city {id} is given twice"));
                    }
                    read += 1;
                }
                if read != n {
                    return Err(at(
                        start,
                        key,
                        format!("{read} cities given, DIMENSION says {n}"),
                    ));
                }
                coords = Some(c.into_iter().map(|p| p.expect("every city read")).collect());
                continue;
            }
            "EDGE_WEIGHT_SECTION" => {
                let Some(n) = n else {
                    return fail("comes before DIMENSION".into());
                };
                let Some((f, _)) = format else {
                    return fail("comes before EDGE_WEIGHT_FORMAT".into());
                };
                if weights.is_some() {
                    return fail("given twice".into());
                }
                let want = match f {
                    Format::FullMatrix => n * n,
                    Format::UpperRow | Format::LowerRow => n * (n - 1) / 2,
                    Format::UpperDiagRow | Format::LowerDiagRow => n * (n + 1) / 2,
                    Format::Function => {
                        return fail(
                            "EDGE_WEIGHT_FORMAT is FUNCTION: there are no weights to read".into(),
                        )
                    }
                };
                let start = i;
                let mut w = Vec::with_capacity(want);
                i += 1;
                while i < lines.len() && (lines[i].trim().is_empty() || is_data(lines[i])) {
                    for t in lines[i].split_whitespace() {
                        let Ok(v) = t.parse::<u32>() else {
                            return Err(at(
                                i,
                                key,
                                format!("'{t}' is not a weight (a whole number ≥ 0)"),
                            ));
                        };
                        if w.len() == want {
                            return Err(at(
                                i,
                                key,
                                format!("more than the {want} weights a {n}-city {f:?} has"),
                            ));
                        }
                        w.push(v);
                    }
                    i += 1;
                }
                if w.len() != want {
                    return Err(at(
                        start,
                        key,
                        format!("{} weights given, a {n}-city {f:?} has {want}", w.len()),
                    ));
                }
                weights = Some((w, start));
                continue;
            }
            "FIXED_EDGES_SECTION"
            | "TOUR_SECTION"
            | "DEPOT_SECTION"
            | "DEMAND_SECTION"
            | "EDGE_DATA_SECTION"
            | "CAPACITY"
            | "EDGE_DATA_FORMAT" => {
                return fail("is not supported by this reader (a symmetric TSP needs none)".into())
            }
            _ => {
                return Err(at(
                    i,
                    key,
                    if is_data(line) {
                        "data outside a section".to_string()
                    } else {
                        "not a TSPLIB keyword this reader knows".to_string()
                    },
                ))
            }
        }
        i += 1;
    }
    let end = lines.len();
    let Some(n) = n else {
        return Err(at(end.saturating_sub(1), "DIMENSION", "missing".into()));
    };
    let Some((weight_type, type_line)) = weight_type else {
        return Err(at(
            end.saturating_sub(1),
            "EDGE_WEIGHT_TYPE",
            "missing".into(),
        ));
    };
    let coordinate = |d: fn((f64, f64), (f64, f64)) -> u32| match &coords {
        Some(c) => Ok(Matrix::from_fn(&name, n, |i, j| d(c[i], c[j]))),
        None => Err(at(
            type_line,
            "EDGE_WEIGHT_TYPE",
            "coordinates are needed and there is no NODE_COORD_SECTION".into(),
        )),
    };
    match weight_type {
        WeightType::Euc2d => coordinate(euc_2d),
        WeightType::Ceil2d => coordinate(ceil_2d),
        WeightType::Att => coordinate(att),
        WeightType::Geo => coordinate(geo),
        WeightType::Explicit => {
            let Some((f, format_line)) = format else {
                return Err(at(
                    type_line,
                    "EDGE_WEIGHT_FORMAT",
                    "missing (EXPLICIT weights need it)".into(),
                ));
            };
            let Some((w, section)) = weights else {
                return Err(at(format_line, "EDGE_WEIGHT_SECTION", "missing".into()));
            };
            explicit(&name, n, f, &w).map_err(|why| at(section, "EDGE_WEIGHT_SECTION", why))
        }
    }
}

/// The matrix of explicit weights `w` in format `f`.
fn explicit(name: &str, n: usize, f: Format, w: &[u32]) -> Result<Matrix, String> {
    let mut m = Matrix {
        name: name.to_string(),
        n,
        dist: vec![0; n * n],
    };
    let mut it = w.iter().copied();
    let mut set = |i: usize, j: usize, v: u32| {
        if i != j {
            m.dist[i * n + j] = v;
            m.dist[j * n + i] = v;
        }
    };
    match f {
        Format::FullMatrix => {
            for (k, &v) in w.iter().enumerate() {
                let (i, j) = (k / n, k % n);
                if i != j && v != w[j * n + i] {
                    return Err(format!(
                        "the FULL_MATRIX is not symmetric: d({}, {}) = {v} but d({}, {}) = {} (asymmetric instances are not supported)",
                        i + 1,
                        j + 1,
                        j + 1,
                        i + 1,
                        w[j * n + i]
                    ));
                }
            }
            for i in 0..n {
                for j in 0..n {
                    set(i, j, it.next().expect("n² weights"));
                }
            }
        }
        Format::UpperRow | Format::UpperDiagRow => {
            let diag = usize::from(f == Format::UpperDiagRow);
            for i in 0..n {
                for j in i + 1 - diag..n {
                    set(i, j, it.next().expect("the row's weights"));
                }
            }
        }
        Format::LowerRow | Format::LowerDiagRow => {
            let diag = usize::from(f == Format::LowerDiagRow);
            for i in 0..n {
                for j in 0..i + diag {
                    set(i, j, it.next().expect("the row's weights"));
                }
            }
        }
        Format::Function => unreachable!("refused when the section is read"),
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 4-city matrix every format below encodes: d(1,2)=1, d(1,3)=2, d(1,4)=3, d(2,3)=4,
    /// d(2,4)=5, d(3,4)=6.
    fn four() -> Vec<u32> {
        vec![0, 1, 2, 3, 1, 0, 4, 5, 2, 4, 0, 6, 3, 5, 6, 0]
    }

    fn explicit_file(format: &str, weights: &str) -> String {
        format!(
            "NAME : four\nTYPE: TSP\nDIMENSION:4\nEDGE_WEIGHT_TYPE :EXPLICIT\nEDGE_WEIGHT_FORMAT: {format}\nEDGE_WEIGHT_SECTION\n{weights}\nEOF\n"
        )
    }

    #[test]
    fn every_explicit_format_gives_the_same_matrix() {
        for (format, weights) in [
            ("FULL_MATRIX", "0 1 2 3\n1 0 4 5\n2 4 0 6\n3 5 6 0"),
            ("UPPER_ROW", "1 2 3\n4 5\n6"),
            ("LOWER_ROW", "1\n2 4\n3 5 6"),
            ("UPPER_DIAG_ROW", "0 1 2 3 0 4 5 0 6 0"),
            ("LOWER_DIAG_ROW", "0\n1 0\n2 4 0\n3 5 6 0"),
        ] {
            let m = parse(&explicit_file(format, weights), "t").unwrap();
            assert_eq!(
                (m.n, m.dist.clone(), m.name.as_str()),
                (4, four(), "four"),
                "{format}"
            );
        }
        // No EOF, DISPLAY_DATA_SECTION skipped, keywords with ':' anywhere or none.
        let text = "NAME:x\nTYPE : TSP\nDIMENSION : 4\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\nDISPLAY_DATA_TYPE: TWOD_DISPLAY\nEDGE_WEIGHT_SECTION :\n 1 2\n 3 4 5 6\nDISPLAY_DATA_SECTION\n1 0 0\n2 1 1\n3 2 2\n4 3 3\n";
        assert_eq!(parse(text, "t").unwrap().dist, four());
    }

    #[test]
    fn coordinates_follow_tsplib_rounding() {
        assert_eq!(euc_2d((0.0, 0.0), (1.0, 1.0)), 1); // 1.414 → 1
        assert_eq!(euc_2d((0.0, 0.0), (1.5, 1.5)), 2); // 2.121 → 2
        assert_eq!(euc_2d((0.0, 0.0), (3.0, 4.0)), 5);
        assert_eq!(ceil_2d((0.0, 0.0), (1.0, 1.0)), 2);
        assert_eq!(ceil_2d((0.0, 0.0), (3.0, 4.0)), 5);
        // ATT: √(100/10) = 3.162 → t = 3 < r → 4; √(90/10) = 3 exactly → 3.
        assert_eq!(att((0.0, 0.0), (10.0, 0.0)), 4);
        assert_eq!(att((0.0, 0.0), (9.0, 3.0)), 3);
        // GEO: burma14's cities 1 and 2 are 153 km apart in TSPLIB's distances.
        assert_eq!(geo((16.47, 96.10), (16.47, 94.44)), 153);
        assert_eq!(geo((16.47, 96.10), (20.09, 92.54)), 510);
        let text = "NAME: c\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n3 3 4\n1 0 0\n2 0 1.5\n";
        let m = parse(text, "t").unwrap();
        assert_eq!(m.dist, vec![0, 2, 5, 2, 0, 4, 5, 4, 0]);
        // GEO: 1.5 is 1°30' = 1.8333°, on the equator 6378.388 × 0.0319977 = 204.09 → 205.
        for (t, want) in [("CEIL_2D", 2), ("ATT", 1), ("GEO", 205)] {
            let m = parse(&text.replace("EUC_2D", t), "t").unwrap();
            assert_eq!(m.dist[1], want, "{t}");
        }
    }

    #[test]
    fn malformed_files_name_the_line_and_the_keyword() {
        let cases: &[(&str, &str)] = &[
            ("NAME: a\nTYPE: ATSP\n", "line 2: TYPE: 'ATSP' is not supported"),
            ("DIMENSION: x\n", "line 1: DIMENSION: 'x' is not"),
            ("DIMENSION: 0\n", "line 1: DIMENSION: 0 cities"),
            ("DIMENSION: 3\nEDGE_WEIGHT_TYPE: MAN_2D\n", "line 2: EDGE_WEIGHT_TYPE: 'MAN_2D' is not supported"),
            ("DIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_COL\n", "line 3: EDGE_WEIGHT_FORMAT: 'UPPER_COL'"),
            ("NODE_COORD_SECTION\n1 0 0\n", "line 1: NODE_COORD_SECTION: comes before DIMENSION"),
            ("DIMENSION: 2\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n3 1 1\n", "line 5: NODE_COORD_SECTION: '3 1 1': city 3 is outside"),
            ("DIMENSION: 2\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n1 1 1\n", "line 5: NODE_COORD_SECTION: '1 1 1': city 1 is given twice"),
            ("DIMENSION: 2\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1\n", "line 5: NODE_COORD_SECTION: '2 1': a city and two"),
            ("DIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 1\nEOF\n", "line 3: NODE_COORD_SECTION: 2 cities given, DIMENSION says 3"),
            ("DIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\n", "EDGE_WEIGHT_TYPE: coordinates are needed"),
            ("DIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION\n1 2\n", "line 4: EDGE_WEIGHT_SECTION: 2 weights given, a 3-city UpperRow has 3"),
            ("DIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION\n1 2 3 4\n", "line 5: EDGE_WEIGHT_SECTION: more than the 3"),
            ("DIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION\n1 -2 3\n", "line 5: EDGE_WEIGHT_SECTION: '-2' is not a weight"),
            ("DIMENSION: 2\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n0 1\n2 0\n", "line 4: EDGE_WEIGHT_SECTION: the FULL_MATRIX is not symmetric"),
            ("DIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_SECTION\n1 2 3\n", "line 3: EDGE_WEIGHT_SECTION: comes before EDGE_WEIGHT_FORMAT"),
            ("DIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\n", "line 3: EDGE_WEIGHT_SECTION: missing"),
            ("NAME: a\nEDGE_WEIGHT_TYPE: GEO\n", "DIMENSION: missing"),
            ("DIMENSION: 3\n", "EDGE_WEIGHT_TYPE: missing"),
            ("DIMENSION: 3\nFIXED_EDGES_SECTION\n", "line 2: FIXED_EDGES_SECTION: is not supported"),
            ("DIMENSION: 3\nCOLOUR: red\n", "line 2: COLOUR: not a TSPLIB keyword"),
            ("DIMENSION: 3\n1 2 3\n", "line 2: 1: data outside a section"),
        ];
        for (text, want) in cases {
            let e = parse(text, "f.tsp").unwrap_err();
            assert!(e.starts_with("f.tsp: "), "{e}");
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }
}
