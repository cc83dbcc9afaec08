//! The replay page: the header, the controls, the departures (ticks on the slider, a list of
//! links, and at each the state the rules expect beside the one shown, at the first
//! [`DRAWN_DEPARTURES`] departure steps, the page saying how many have boards), the board and
//! what was said, and each match's steps as data for `replay.js` ([`Replay`]).
//!
//! A log may hold many matches (`play --rounds 10` of 1,000 turns each: 10,000 steps). Each
//! match's data is its own element, JSON compressed with gzip and written in base64, which the
//! script unpacks (`DecompressionStream`) only when its match is shown: the page opens as fast
//! as its first match, however many follow, and is about a third of the size of the JSON.

use std::fmt::Write as _;
use std::io::Write as _;

use base64::Engine as _;
use serde::Serialize;

use super::replay::{Replay, DRAWN_DEPARTURES};
use crate::harness::trace::Departure;
use crate::seam::{escape, Marked};

/// What a replay page shows besides its matches.
pub struct ReplayPage<'a> {
    /// The page's title and heading.
    pub title: &'a str,
    /// Name and value rows of the header (the game, the log…).
    pub facts: &'a [(&'a str, String)],
    /// The departures a trace found in its (one) match ([`departures_section`]; empty for a
    /// plain replay).
    pub departures: &'a str,
}

/// One match of a replay page.
pub struct ReplayMatch {
    /// How the match picker names it.
    pub label: String,
    /// Name and value rows of the match (its seed, its steps…).
    pub facts: Vec<(&'static str, String)>,
    /// The end of the match, as people read it.
    pub outcome: String,
    pub replay: Replay,
}

/// A match as the page holds it ([`ReplayMatch::pack`]): all a page needs, without the steps
/// themselves, which take many times the room.
pub struct PackedMatch {
    label: String,
    steps: usize,
    /// Its rows of the header, as HTML.
    facts: String,
    /// Its data: JSON, gzip, base64.
    data: String,
}

impl ReplayMatch {
    pub fn pack(&self) -> PackedMatch {
        let mut facts = String::new();
        match_facts(&mut facts, self);
        PackedMatch {
            label: self.label.clone(),
            steps: self.replay.steps(),
            facts,
            data: packed(self),
        }
    }
}

/// A match as the page's script reads it, before it is packed.
#[derive(Serialize)]
struct MatchData<'a> {
    facts: &'a [(&'static str, String)],
    outcome: &'a str,
    #[serde(flatten)]
    replay: &'a Replay,
}

const STYLE: &str = include_str!("style.css");
const REPLAY_STYLE: &str = include_str!("replay.css");
const SCRIPT: &str = include_str!("replay.js");

/// The whole page of `matches`.
pub fn replay_page(page: &ReplayPage<'_>, matches: &[PackedMatch]) -> String {
    let size: usize = matches.iter().map(|m| m.data.len()).sum();
    let mut out = String::with_capacity(size + 64 * 1024);
    let _ = writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{0}</title>\n<style>\n{STYLE}{REPLAY_STYLE}</style>\n</head>\n<body>\n<header>\n<h1>{0}</h1>\n<dl class=\"meta\">",
        escape(page.title)
    );
    for (name, value) in page.facts {
        let _ = writeln!(out, "<dt>{}</dt><dd>{}</dd>", escape(name), escape(value));
    }
    out.push_str("</dl>\n");
    let Some(first) = matches.first() else {
        out.push_str("</header>\n<p id=\"end\">Nothing to replay: the log holds no match that could be read.</p>\n</body>\n</html>\n");
        return out;
    };
    // The first match's rows, which the script rewrites when another match is shown.
    let _ = writeln!(
        out,
        "<dl class=\"meta\" id=\"match-facts\">\n{}</dl>\n</header>\n<nav class=\"player\">",
        first.facts
    );
    if matches.len() > 1 {
        out.push_str("<select id=\"match\" aria-label=\"match\">");
        for (k, m) in matches.iter().enumerate() {
            let _ = write!(out, "<option value=\"{k}\">{}</option>", escape(&m.label));
        }
        out.push_str("</select>\n");
    }
    let last = first.steps.saturating_sub(1);
    let _ = writeln!(
        out,
        "<button id=\"play\" type=\"button\">play</button>\n<input id=\"slider\" type=\"range\" min=\"0\" max=\"{last}\" value=\"0\" list=\"departure-steps\" aria-label=\"step\">\n<span id=\"step\">step 0 / {last}</span>\n<span class=\"keys\">← → step, space plays</span>\n</nav>"
    );
    out.push_str(page.departures);
    out.push_str("<main class=\"replay\">\n<p id=\"unpacking\">Unpacking the replay…</p>\n<div id=\"board\"></div>\n<p id=\"undrawn\" class=\"no-drawing\" hidden></p>\n<section id=\"said\"></section>\n<p id=\"end\" hidden></p>\n</main>\n");
    for (k, m) in matches.iter().enumerate() {
        let _ = writeln!(
            out,
            "<script type=\"application/octet-stream\" class=\"replay-data\" id=\"match-{k}\" data-steps=\"{}\">{}</script>",
            m.steps, m.data
        );
    }
    let _ = write!(out, "<script>\n{SCRIPT}</script>\n</body>\n</html>\n");
    out
}

/// A match's rows of the header, its outcome last.
fn match_facts(out: &mut String, m: &ReplayMatch) {
    for (name, value) in &m.facts {
        let _ = writeln!(out, "<dt>{}</dt><dd>{}</dd>", escape(name), escape(value));
    }
    let _ = writeln!(
        out,
        "<dt>outcome</dt><dd id=\"outcome\">{}</dd>",
        escape(&m.outcome)
    );
}

/// `m` as the page holds it: its JSON, gzip, base64 (no `<` in it, whatever a program said).
fn packed(m: &ReplayMatch) -> String {
    let data = MatchData {
        facts: &m.facts,
        outcome: &m.outcome,
        replay: &m.replay,
    };
    // Serialising plain data cannot fail, nor can writing to a `Vec`. The JSON is made whole
    // first: the encoder pays for each write it is given, and serde writes a token at a time.
    let json = serde_json::to_vec(&data).unwrap_or_default();
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let _ = gzip.write_all(&json);
    let bytes = gzip.finish().unwrap_or_default();
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The departures a trace found in the match of `replay`: ticks on the slider, a list linking
/// to their steps, and at each drawn step the reference's prediction beside what the engine
/// showed (nothing when there is none).
pub fn departures_section(departures: &[Departure], replay: &Replay) -> String {
    let mut out = String::new();
    if departures.is_empty() {
        return out;
    }
    out.push_str("<datalist id=\"departure-steps\">");
    for d in departures {
        let _ = write!(out, "<option value=\"{}\"></option>", d.step);
    }
    let _ = writeln!(
        out,
        "</datalist>\n<section class=\"departures\">\n<h2>Departures: {}</h2>\n<ol>",
        departures.len()
    );
    for d in departures {
        let _ = writeln!(
            out,
            "<li data-departure=\"{0}\"><a href=\"#step={0}\">step {0}</a>, player {1}: <code>{2}</code> ({3})</li>",
            d.step,
            d.player,
            escape(&d.clause),
            escape(&d.fields.join(", "))
        );
    }
    out.push_str("</ol>\n");
    // Past the bound, a departure's step has no boards (issue 40, item 15): the page says so.
    let drawn_up_to = replay.boards.last().map_or(0, |b| b.0);
    let cut = replay.undrawn_departure_steps > 0 && replay.render.is_some();
    if cut {
        let undrawn = departures.iter().filter(|d| d.step > drawn_up_to).count();
        let _ = writeln!(
            out,
            "<p class=\"undrawn\" id=\"undrawn-departures\">Boards are drawn for {} of the {} departures: those at the first {DRAWN_DEPARTURES} steps with a departure (to step {drawn_up_to}). The {undrawn} at the {} steps after are listed without.</p>",
            departures.len() - undrawn,
            departures.len(),
            replay.undrawn_departure_steps
        );
    }
    for d in departures {
        let boards = replay.boards.iter().find(|b| b.0 == d.step);
        let boards = boards
            .zip(replay.render)
            .map(|((_, expected, shown), render)| {
                let mut marks = render.finer_differences(expected, shown);
                marks.extend(d.fields.iter().cloned());
                let marked = Marked::new(marks);
                let draw = |state| render.render(state, &marked).unwrap_or_default();
                (draw(expected), draw(shown))
            });
        let _ = writeln!(
            out,
            "<article class=\"departure\" data-step=\"{}\" hidden>\n<h3>step {}, player {}: {}</h3>",
            d.step,
            d.step,
            d.player,
            escape(&d.clause)
        );
        if let Some((expected, shown)) = boards {
            let _ = writeln!(
                out,
                "<div class=\"boards\"><figure><figcaption>expected (the rules)</figcaption>{expected}</figure><figure><figcaption>shown (the log)</figcaption>{shown}</figure></div>"
            );
        } else if cut && d.step > drawn_up_to {
            let _ = writeln!(
                out,
                "<p class=\"undrawn\">No boards: this page draws them at the first {DRAWN_DEPARTURES} steps with a departure only.</p>"
            );
        }
        let _ = writeln!(
            out,
            "<pre class=\"detail\">{}</pre>\n</article>",
            escape(&d.diff)
        );
    }
    out.push_str("</section>\n");
    out
}

#[cfg(test)]
mod tests {
    use std::io::Read as _;

    use serde_json::{json, Value};

    use super::*;
    use crate::harness::log::Exchange;
    use crate::harness::trace::Seen;
    use crate::report::html::replay::ReplayBuilder;
    use crate::seam::count::Count;

    /// The data of a match, unpacked as the page's script unpacks it.
    fn unpacked(text: &str) -> Value {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(text)
            .unwrap();
        let mut json = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut json)
            .unwrap();
        serde_json::from_str(&json).unwrap()
    }

    /// A match of `Count` with one exchange and the state after it.
    fn a_match(prompt: &str, reply: &str) -> ReplayMatch {
        let mut builder = ReplayBuilder::new(&Count);
        let exchange = Exchange {
            prompt: prompt.into(),
            reply: Some(reply.into()),
            elapsed_ms: None,
        };
        let state = json!({"total": 0, "turn": 0});
        builder.see(Seen {
            step: 0,
            state: &state,
            exchanges: vec![(0, &exchange)],
            predicted: None,
        });
        builder.see(Seen {
            step: 1,
            state: &state,
            exchanges: Vec::new(),
            predicted: None,
        });
        ReplayMatch {
            label: "<u>match 0</u>".into(),
            facts: vec![("seed", "</dd><script>y</script>".into())],
            outcome: "<i>won</i>".into(),
            replay: builder.finish(),
        }
    }

    #[test]
    fn what_a_program_said_cannot_end_the_data_or_open_a_script() {
        let said = "</script><script>alert(1)</script>";
        let m = a_match(said, "<!-- <img src=x onerror=alert(2)>");
        assert_eq!(m.replay.steps(), 2);
        let facts = [("log", "</dd><script>x</script>".to_string())];
        let page = replay_page(
            &ReplayPage {
                title: "<b>t</b>",
                facts: &facts,
                departures: "",
            },
            &[m.pack()],
        );
        assert_eq!(
            page.matches("<script").count(),
            2,
            "the data and the viewer"
        );
        assert!(!page.contains("<img") && !page.contains("<!--") && !page.contains("<b>"));
        assert!(!page.contains("<i>") && !page.contains("<u>"));
        // The program's words are in the data, whole.
        let start = page.find("id=\"match-0\" data-steps=\"2\">").unwrap();
        let text = &page[start..];
        let text = &text[text.find('>').unwrap() + 1..text.find("</script>").unwrap()];
        let data = unpacked(text);
        assert!(data["texts"].as_array().unwrap().contains(&json!(said)));
        assert_eq!(data["outcome"], "<i>won</i>");
        assert_eq!(data["facts"][0], json!(["seed", "</dd><script>y</script>"]));
    }

    #[test]
    fn each_match_is_packed_on_its_own_and_only_several_get_a_picker() {
        let page_of = |matches: Vec<ReplayMatch>| {
            let page = ReplayPage {
                title: "t",
                facts: &[],
                departures: "",
            };
            let packed: Vec<PackedMatch> = matches.iter().map(ReplayMatch::pack).collect();
            replay_page(&page, &packed)
        };
        let one = page_of(vec![a_match("a", "1")]);
        assert!(!one.contains("<select"));
        let three = page_of(vec![
            a_match("a", "1"),
            a_match("b", "2"),
            a_match("c", "3"),
        ]);
        assert_eq!(three.matches("<option value=").count(), 3);
        assert_eq!(three.matches("class=\"replay-data\"").count(), 3);
        for (k, prompt) in ["a", "b", "c"].iter().enumerate() {
            let at = three.find(&format!("id=\"match-{k}\"")).unwrap();
            let text = &three[at..];
            let text = &text[text.find('>').unwrap() + 1..text.find("</script>").unwrap()];
            assert_eq!(unpacked(text)["texts"][0], json!(prompt));
        }
        let none = page_of(Vec::new());
        assert!(none.contains("no match that could be read") && !none.contains("<script"));
    }
}
