//! Drawing a state as a board, for the HTML report: the [`Render`] capability (typed, over the
//! game's state) and [`DynRender`] (over the canonical JSON), with what every game's drawing
//! shares, written once: the set of [`Marked`] paths to highlight and a small SVG writer
//! ([`Svg`], [`Tag`]) that escapes every text and attribute it is given.
//!
//! A drawing is one inline `<svg>` element and nothing else: no script, no external reference.
//! Everything a test may count carries a `data-path` attribute, the canonical path of what it
//! draws, in the form `check`'s diff names fields (`players[0].score`, `units[#5]`,
//! `tiles.-1,2`); what a marked path names, or holds, gets the class `diff`.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde_json::Value;

use super::dynamic::read_state;
use super::{Game, StateError};

/// Drawing the game's state as a board.
pub trait Render: Game {
    /// `state` as one `<svg>` element. Each thing drawn carries `data-path` (its canonical
    /// path); those that [`Marked::marks`] get the class `diff`.
    fn render(&self, state: &Self::State, marked: &Marked) -> String;

    /// Where `a` and `b` differ inside values their canonical form writes whole, by the paths
    /// [`Render::render`] gives the parts it draws (CODE VS Reborn writes a field as one text,
    /// and names its cells `players[0].field.3,4`): what a diff of the JSON cannot name. Empty
    /// for a game whose every drawn thing is a value of its own in the canonical form.
    fn finer_differences(&self, a: &Self::State, b: &Self::State) -> Vec<String>;
}

/// [`Render`] of a canonical state. The state is read, not validated: an expectation laid over a
/// result may be no state the rules allow, and is drawn all the same.
pub trait DynRender: Sync {
    fn render(&self, state: &Value, marked: &Marked) -> Result<String, StateError>;
    /// [`Render::finer_differences`]; none when either state cannot be read.
    fn finer_differences(&self, a: &Value, b: &Value) -> Vec<String>;
}

impl<G: Render> DynRender for G {
    fn render(&self, state: &Value, marked: &Marked) -> Result<String, StateError> {
        Ok(Render::render(self, &read_state::<G>(state)?, marked))
    }

    fn finer_differences(&self, a: &Value, b: &Value) -> Vec<String> {
        match (read_state::<G>(a), read_state::<G>(b)) {
            (Ok(a), Ok(b)) => Render::finer_differences(self, &a, &b),
            _ => Vec::new(),
        }
    }
}

/// The canonical paths of the fields to highlight (where two results differ).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Marked(BTreeSet<String>);

impl Marked {
    pub fn new<S: Into<String>>(paths: impl IntoIterator<Item = S>) -> Marked {
        Marked(paths.into_iter().map(Into::into).collect())
    }

    /// Whether the thing at `path` is to be highlighted: a marked path is `path` itself or a
    /// field of it (`units[#5].hp` marks `units[#5]`; `units[#50]` does not).
    pub fn marks(&self, path: &str) -> bool {
        self.0.iter().any(|m| {
            m.strip_prefix(path)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
        })
    }

    /// Whether any of `paths` is marked: a thing the diff may name two ways (a list element by
    /// its id, `units[#5]`, or by its place, `units[2]`).
    pub fn marks_any(&self, paths: &[&str]) -> bool {
        paths.iter().any(|p| self.marks(p))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// These paths marked too.
    pub fn with<S: Into<String>>(mut self, paths: impl IntoIterator<Item = S>) -> Marked {
        self.0.extend(paths.into_iter().map(Into::into));
        self
    }
}

/// `text` made safe inside an XML text node or a quoted attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// One SVG element being described: its name, attributes and classes.
#[derive(Debug, Clone)]
pub struct Tag {
    name: &'static str,
    attrs: Vec<(&'static str, String)>,
    classes: Vec<String>,
}

impl Tag {
    pub fn new(name: &'static str) -> Tag {
        Tag {
            name,
            attrs: Vec::new(),
            classes: Vec::new(),
        }
    }

    /// An attribute; its value is escaped when written.
    pub fn attr(mut self, name: &'static str, value: impl std::fmt::Display) -> Tag {
        self.attrs.push((name, value.to_string()));
        self
    }

    pub fn class(mut self, class: impl Into<String>) -> Tag {
        self.classes.push(class.into());
        self
    }

    /// `data-path="path"`, and the class `diff` when `marked` marks it.
    pub fn path(self, path: &str, marked: &Marked) -> Tag {
        self.paths(&[path], marked)
    }

    /// `data-path` of the first of `paths` (the others: other names of the same thing), and the
    /// class `diff` when `marked` marks any of them.
    pub fn paths(mut self, paths: &[&str], marked: &Marked) -> Tag {
        if marked.marks_any(paths) {
            self.classes.push("diff".into());
        }
        if let Some(first) = paths.first() {
            self.attrs.push(("data-path", first.to_string()));
        }
        self
    }

    fn open_text(&self) -> String {
        let mut out = format!("<{}", self.name);
        if !self.classes.is_empty() {
            let _ = write!(out, " class=\"{}\"", escape(&self.classes.join(" ")));
        }
        for (name, value) in &self.attrs {
            let _ = write!(out, " {name}=\"{}\"", escape(value));
        }
        out
    }
}

/// An SVG drawing being written.
#[derive(Debug)]
pub struct Svg {
    out: String,
    open: Vec<&'static str>,
}

impl Svg {
    /// An inline `<svg>` (HTML needs no namespace for it) of `width` × `height` user units, drawn at `scale` pixels a unit, marked with
    /// the game's id (`data-game`).
    pub fn new(game: &str, width: f64, height: f64, scale: f64) -> Svg {
        let mut svg = Svg {
            out: String::new(),
            open: Vec::new(),
        };
        svg.open(
            Tag::new("svg")
                .class("board")
                .attr("viewBox", format!("0 0 {width} {height}"))
                .attr("width", width * scale)
                .attr("height", height * scale)
                .attr("data-game", game),
        );
        svg
    }

    /// Opens `tag`; [`Svg::close`] closes it.
    pub fn open(&mut self, tag: Tag) {
        self.out.push_str(&tag.open_text());
        self.out.push('>');
        self.open.push(tag.name);
    }

    pub fn close(&mut self) {
        if let Some(name) = self.open.pop() {
            let _ = write!(self.out, "</{name}>");
        }
    }

    /// An element with no content.
    pub fn leaf(&mut self, tag: Tag) {
        self.out.push_str(&tag.open_text());
        self.out.push_str("/>");
    }

    /// An element holding `text` (escaped).
    pub fn text(&mut self, tag: Tag, text: &str) {
        self.out.push_str(&tag.open_text());
        let _ = write!(self.out, ">{}</{}>", escape(text), tag.name);
    }

    /// A red ring of radius `r` around (`cx`, `cy`): where a highlighted thing is too small to
    /// be seen on its own (a unit of one cell on a field of 10,000).
    pub fn ring(&mut self, cx: f64, cy: f64, r: f64) {
        let ring = Tag::new("circle")
            .class("ring")
            .attr("cx", cx)
            .attr("cy", cy);
        self.leaf(ring.attr("r", r));
    }

    /// A `<title>` for the element just opened: what a pointer over it shows.
    pub fn title(&mut self, text: &str) {
        self.text(Tag::new("title"), text);
    }

    /// The drawing, every element closed.
    pub fn finish(mut self) -> String {
        while !self.open.is_empty() {
            self.close();
        }
        self.out
    }
}

/// What the games' tests read of a drawing (built for tests only: `cfg(test)`, or the `testing`
/// feature).
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod testing {
    /// The `data-path` of every element of `svg` with the class `diff`, in drawing order.
    pub fn highlighted(svg: &str) -> Vec<String> {
        svg.split('<')
            .filter_map(|tag| tag.split('>').next())
            .filter(|tag| {
                attribute(tag, "class").is_some_and(|c| c.split(' ').any(|c| c == "diff"))
            })
            .map(|tag| attribute(tag, "data-path").unwrap_or_default().to_string())
            .collect()
    }

    /// How many elements of `svg` carry the attribute `name`.
    pub fn count(svg: &str, name: &str) -> usize {
        svg.matches(&format!(" {name}=\"")).count()
    }

    fn attribute<'t>(tag: &'t str, name: &str) -> Option<&'t str> {
        let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        tag[at..].split('"').next()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marked_field_marks_what_holds_it_and_nothing_beside_it() {
        let marked = Marked::new(["units[#5].hp", "tiles.-1,2"]);
        assert!(marked.marks("units[#5]"));
        assert!(marked.marks("units[#5].hp"));
        assert!(!marked.marks("units[#50]"));
        assert!(!marked.marks("units[#5].x"));
        assert!(marked.marks("tiles.-1,2"));
        assert!(!marked.marks("tiles.-1,20"));
        assert!(!marked.marks("tiles.-1,2.robots"));
        assert!(marked.marks_any(&["units[2]", "units[#5]"]));
    }

    #[test]
    fn text_and_attributes_are_escaped() {
        let mut svg = Svg::new("g\"><script>", 1.0, 1.0, 10.0);
        svg.text(
            Tag::new("text").attr("data-x", "<a&b>"),
            "</svg><script>x</script>",
        );
        let out = svg.finish();
        assert!(!out.contains("<script"), "{out}");
        assert!(out.contains("&lt;/svg&gt;&lt;script&gt;"), "{out}");
        assert!(out.contains("data-x=\"&lt;a&amp;b&gt;\""), "{out}");
        assert!(out.ends_with("</svg>"), "{out}");
    }

    #[test]
    fn the_highlighted_elements_are_read_back_by_their_paths() {
        let marked = Marked::new(["a.b"]);
        let mut svg = Svg::new("g", 1.0, 1.0, 1.0);
        svg.leaf(Tag::new("rect").path("a", &marked));
        svg.leaf(Tag::new("rect").path("c", &marked));
        let svg = svg.finish();
        assert_eq!(testing::highlighted(&svg), ["a"]);
        assert_eq!(testing::count(&svg, "data-path"), 2);
    }

    #[test]
    fn a_marked_tag_gets_the_diff_class() {
        let marked = Marked::new(["players[0].score"]);
        let tag = Tag::new("text")
            .class("score")
            .path("players[0].score", &marked);
        assert!(tag.open_text().contains("class=\"score diff\""));
        let tag = Tag::new("text").path("players[1].score", &marked);
        assert!(!tag.open_text().contains("diff"));
    }
}
