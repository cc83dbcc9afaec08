//! One case of the page: its verdict, name and place, its cause, its clauses with their text,
//! its boards and the diff.

use std::fmt::Write as _;

use serde_json::Value;

use crate::report::check::Report;
use crate::run::{CaseResult, Shown};
use crate::seam::{escape, DynGame, Marked};

/// The id of a case's article: `case-<name>` (what a URL fragment names).
pub fn anchor(name: &str) -> String {
    format!("case-{name}")
}

/// The article of `result`; its boards drawn unless `first_of_cause` names the first case of
/// its cause (the page draws boards for a bounded number of cases), which a note then links to.
pub fn article(
    out: &mut String,
    result: &CaseResult,
    report: &Report,
    game: Option<&'static dyn DynGame>,
    first_of_cause: Option<&str>,
) {
    let verdict = result.verdict.name();
    let _ = writeln!(
        out,
        "<article class=\"case\" id=\"{}\" data-game=\"{}\" data-verdict=\"{verdict}\" data-clauses=\"{}\">",
        escape(&anchor(&result.name)),
        escape(&result.game),
        escape(&result.rules.join(" "))
    );
    let _ = writeln!(
        out,
        "<h2><span class=\"verdict\">{verdict}</span> <a href=\"#{}\">{}</a></h2>\n<p class=\"where\">{}:{}</p>",
        escape(&anchor(&result.name)),
        escape(&result.name),
        escape(&result.file),
        result.line
    );
    if let Some(departure) = &result.departure {
        let _ = writeln!(
            out,
            "<p class=\"cause\">cause: {}</p>",
            escape(&departure.describe)
        );
    }
    clauses(out, result, report);
    match (&result.shown, first_of_cause) {
        (Some(shown), None) => boards(out, shown, game),
        (Some(_), Some(first)) => {
            let link = if first == result.name {
                String::new()
            } else {
                format!(
                    " (<a href=\"#{}\">the first of this cause</a>)",
                    escape(&anchor(first))
                )
            };
            let _ = writeln!(
                out,
                "<p class=\"undrawn\">Boards not drawn: this page draws them for the first {} cases of each cause, {} in all{link}. The diff is below.</p>",
                super::BOARDS_PER_CAUSE,
                super::BOARDS_IN_ALL,
            );
        }
        (None, _) => {}
    }
    if !result.masked.is_empty() {
        let _ = writeln!(
            out,
            "<p>Left out as unmodelled by the engine: <code>{}</code></p>",
            escape(&result.masked.join(", "))
        );
    }
    let detail = result.verdict.detail();
    if !detail.is_empty() {
        let _ = writeln!(out, "<pre class=\"detail\">{}</pre>", escape(detail));
    }
    out.push_str("</article>\n");
}

/// The case's clauses, each with its text when the report has it.
fn clauses(out: &mut String, result: &CaseResult, report: &Report) {
    if result.rules.is_empty() {
        return;
    }
    out.push_str("<ul class=\"clauses\">\n");
    let texts = report.clauses.get(&result.game);
    for id in &result.rules {
        let text = texts.and_then(|t| t.get(id)).map_or("", String::as_str);
        let _ = writeln!(
            out,
            "<li data-clause=\"{0}\"><code>{0}</code> {1}</li>",
            escape(id),
            escape(text)
        );
    }
    out.push_str("</ul>\n");
}

/// The state given, the result expected and the engine's, side by side; the fields where the
/// results differ highlighted on both.
fn boards(out: &mut String, shown: &Shown, game: Option<&'static dyn DynGame>) {
    let Some(render) = game.and_then(|g| g.info().capabilities.render) else {
        let id = game.map_or("this game", |g| g.info().id);
        let _ = writeln!(
            out,
            "<p class=\"no-drawing\">No drawing for {}.</p>",
            escape(id)
        );
        return;
    };
    let finer = render.finer_differences(&shown.expected, &shown.actual);
    let differing = Marked::new(shown.differing.iter().cloned()).with(finer);
    // What the case does not name of the expected result is the engine's: the caption says so.
    let panes: [(&str, &str, &Value, Marked); 3] = [
        ("given", "given", &shown.given, Marked::default()),
        (
            "expected",
            "expected (the case's then over the actual result)",
            &shown.expected,
            differing.clone(),
        ),
        ("actual", "actual", &shown.actual, differing),
    ];
    out.push_str("<div class=\"boards\">\n");
    for (name, caption, state, marked) in panes {
        let _ = write!(
            out,
            "<figure data-board=\"{name}\"><figcaption>{caption}</figcaption>"
        );
        match render.render(state, &marked) {
            Ok(svg) => out.push_str(&svg),
            Err(e) => {
                let _ = write!(
                    out,
                    "<p class=\"no-drawing\">cannot draw: {}</p>",
                    escape(&e.to_string())
                );
            }
        }
        out.push_str("</figure>\n");
    }
    out.push_str("</div>\n");
    if !shown.differing.is_empty() {
        let _ = writeln!(
            out,
            "<p class=\"differing\">Differing fields: <code>{}</code></p>",
            escape(&shown.differing.join(", "))
        );
    }
}
