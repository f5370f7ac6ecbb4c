//! Reading the SVG charts the CLI draws (plotters' SVG: one element per tag, attributes in
//! double quotes, a text element's content on its own line) as a flat list of elements, and
//! the boxes their text labels take, so that tests can check a chart's layout: which labels an
//! axis has, and that no label overlaps another or a drawn row.

use std::collections::BTreeMap;

/// One element of the SVG: its tag, attributes and (for `text`) its content.
#[derive(Debug, Clone)]
pub struct Element {
    pub tag: String,
    pub attrs: BTreeMap<String, String>,
    pub text: String,
}

impl Element {
    /// The attribute `name` as a number (0 when absent or not a number).
    pub fn num(&self, name: &str) -> f64 {
        self.attrs
            .get(name)
            .and_then(|v| v.parse().ok())
            .unwrap_or(0.0)
    }

    /// The attribute `name` ("" when absent).
    pub fn attr(&self, name: &str) -> &str {
        self.attrs.get(name).map_or("", String::as_str)
    }

    /// The box (x0, y0, x1, y1) a text element's label takes, estimated from its font size
    /// (a character of a sans-serif font is at most about 0.62 em wide, a line about 1 em
    /// tall) and its anchor; the box of a `rect`.
    pub fn bbox(&self) -> (f64, f64, f64, f64) {
        let (x, y) = (self.num("x"), self.num("y"));
        if self.tag == "rect" {
            return (x, y, x + self.num("width"), y + self.num("height"));
        }
        let size = self.num("font-size");
        let width = 0.62 * size * self.text.chars().count() as f64;
        let x0 = match self.attr("text-anchor") {
            "end" => x - width,
            "middle" => x - width / 2.0,
            _ => x,
        };
        (x0, y - size / 2.0, x0 + width, y + size / 2.0)
    }
}

/// Whether two boxes (x0, y0, x1, y1) share more than their edges.
pub fn overlap(a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// The elements of `svg` in document order.
pub fn elements(svg: &str) -> Vec<Element> {
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        rest = &rest[start + 1..];
        let end = rest.find('>').expect("every tag ends");
        let tag_text = &rest[..end];
        rest = &rest[end + 1..];
        if tag_text.starts_with(['/', '?', '!']) {
            continue;
        }
        let tag_text = tag_text.strip_suffix('/').unwrap_or(tag_text);
        let (tag, mut attrs_text) = tag_text.split_once(' ').unwrap_or((tag_text, ""));
        let mut attrs = BTreeMap::new();
        while let Some((key, after)) = attrs_text.split_once("=\"") {
            let (value, after) = after.split_once('"').expect("a quoted value ends");
            attrs.insert(key.trim().to_string(), unescape(value));
            attrs_text = after;
        }
        let text = if tag == "text" {
            unescape(rest[..rest.find('<').unwrap_or(rest.len())].trim())
        } else {
            String::new()
        };
        out.push(Element {
            tag: tag.to_string(),
            attrs,
            text,
        });
    }
    out
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}
