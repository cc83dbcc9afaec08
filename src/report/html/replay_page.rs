//! The replay page: the header, the controls, the departures (ticks on the slider, a list of
//! links, and at each the state the rules expect beside the one shown), the board and what was
//! said, and the steps as data for `replay.js` ([`Replay`]).

use std::fmt::Write as _;

use super::replay::Replay;
use crate::harness::trace::Departure;
use crate::seam::{escape, Marked};

/// What a replay page shows besides the steps.
pub struct ReplayPage<'a> {
    /// The page's title and heading.
    pub title: &'a str,
    /// Name and value rows of the header (the game, the log, the seed…).
    pub facts: &'a [(&'a str, String)],
    /// The end of the match, as people read it.
    pub outcome: &'a str,
    /// The departures a trace found (none for a plain replay).
    pub departures: &'a [Departure],
}

const STYLE: &str = include_str!("style.css");
const REPLAY_STYLE: &str = include_str!("replay.css");
const SCRIPT: &str = include_str!("replay.js");

/// The whole page of `replay`.
pub fn replay_page(page: &ReplayPage<'_>, replay: &Replay) -> String {
    let mut out = String::with_capacity(1024 * 1024);
    let _ = writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{0}</title>\n<style>\n{STYLE}{REPLAY_STYLE}</style>\n</head>\n<body>\n<header>\n<h1>{0}</h1>\n<dl class=\"meta\">",
        escape(page.title)
    );
    for (name, value) in page.facts {
        let _ = writeln!(out, "<dt>{}</dt><dd>{}</dd>", escape(name), escape(value));
    }
    let _ = writeln!(
        out,
        "<dt>outcome</dt><dd id=\"outcome\">{}</dd>\n</dl>\n</header>",
        escape(page.outcome)
    );
    let last = replay.steps().saturating_sub(1);
    let _ = writeln!(
        out,
        "<nav class=\"player\">\n<button id=\"play\" type=\"button\">play</button>\n<input id=\"slider\" type=\"range\" min=\"0\" max=\"{last}\" value=\"0\" list=\"departure-steps\" aria-label=\"step\">\n<span id=\"step\">step 0 / {last}</span>\n<span class=\"keys\">← → step, space plays</span>\n</nav>"
    );
    departures(&mut out, page.departures, replay);
    if replay.steps() == 0 {
        out.push_str("<p id=\"end\">Nothing to replay: the log holds no step that could be read.</p>\n</body>\n</html>\n");
        return out;
    }
    out.push_str("<main class=\"replay\">\n<div id=\"board\"></div>\n<p id=\"undrawn\" class=\"no-drawing\" hidden></p>\n<section id=\"said\"></section>\n<p id=\"end\" hidden></p>\n</main>\n");
    let data = serde_json::to_string(replay)
        .unwrap_or_default()
        .replace('<', "\\u003c");
    let _ = write!(
        out,
        "<script type=\"application/json\" id=\"replay-data\">{data}</script>\n<script>\n{SCRIPT}</script>\n</body>\n</html>\n"
    );
    out
}

/// The departures: ticks on the slider, a list linking to their steps, and at each drawn
/// step the reference's prediction beside what the engine showed.
fn departures(out: &mut String, departures: &[Departure], replay: &Replay) {
    if departures.is_empty() {
        return;
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
        }
        let _ = writeln!(
            out,
            "<pre class=\"detail\">{}</pre>\n</article>",
            escape(&d.diff)
        );
    }
    out.push_str("</section>\n");
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::harness::log::Exchange;
    use crate::harness::trace::Seen;
    use crate::report::html::replay::ReplayBuilder;
    use crate::seam::tests::Count;

    #[test]
    fn what_a_program_said_cannot_end_the_data_or_open_a_script() {
        let mut builder = ReplayBuilder::new(&Count);
        let exchange = Exchange {
            prompt: "</script><script>alert(1)</script>".into(),
            reply: Some("<!-- <img src=x onerror=alert(2)>".into()),
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
        let replay = builder.finish();
        assert_eq!(replay.steps(), 2);
        let facts = [("log", "</dd><script>x</script>".to_string())];
        let page = replay_page(
            &ReplayPage {
                title: "<b>t</b>",
                facts: &facts,
                outcome: "<i>won</i>",
                departures: &[],
            },
            &replay,
        );
        assert_eq!(
            page.matches("<script").count(),
            2,
            "the data and the viewer"
        );
        assert!(!page.contains("<img") && !page.contains("<!--") && !page.contains("<b>"));
        assert!(page.contains("\\u003c/script>\\u003cscript>alert(1)"));
    }
}
