//! A `bot` run as one self-contained page (`bot --format html`): the run, the totals, a row
//! a check; each FAIL links to what failed, the prompt the bot was sent last and the reply it
//! gave (or what came instead of one, escaped and cut, or that nothing came), with the saved
//! input that replays it (`bot < file`).

use std::fmt::Write as _;

use crate::harness::bot::{BotReport, CheckVerdict};
use crate::harness::process::SHOWN_BYTES;
use crate::seam::escape;

const STYLE: &str = include_str!("style.css");

/// The whole page.
pub fn bot_page(report: &BotReport) -> String {
    let mut out = String::with_capacity(16 * 1024);
    let title = format!("shinpan bot: {}", report.game);
    let _ = writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{0}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n<header>\n<h1>{0}</h1>\n<dl class=\"meta\">",
        escape(&title)
    );
    let totals = [
        CheckVerdict::Pass,
        CheckVerdict::NonStrict,
        CheckVerdict::Fail,
        CheckVerdict::Info,
        CheckVerdict::Incomplete,
    ]
    .iter()
    .map(|v| format!("{} {}", report.count(*v), v.label()))
    .collect::<Vec<_>>()
    .join(", ");
    let rows = [
        ("shinpan", report.shinpan_version.clone()),
        ("bot", report.command.join(" ")),
        ("seed", report.seed.to_string()),
        ("checks", totals),
        ("not run after a FAIL", report.skipped.to_string()),
        ("not run (budget)", report.not_run.to_string()),
        (
            "time",
            format!("{:.1} s", report.elapsed_ms as f64 / 1000.0),
        ),
    ];
    for (name, value) in rows {
        let _ = writeln!(
            out,
            "<dt>{name}</dt><dd><code>{}</code></dd>",
            escape(&value)
        );
    }
    if let Some(why) = &report.interrupted {
        let _ = writeln!(out, "<dt>INTERRUPTED</dt><dd>{}</dd>", escape(why));
    }
    out.push_str("</dl>\n</header>\n<table class=\"totals\" id=\"checks\">\n<tr><th>phase</th><th>check</th><th>verdict</th><th>time</th><th>detail</th></tr>\n");
    for (i, c) in report.checks.iter().enumerate() {
        let name = if c.verdict == CheckVerdict::Fail {
            format!("<a href=\"#check-{i}\">{}</a>", escape(&c.name))
        } else {
            escape(&c.name)
        };
        let _ = writeln!(
            out,
            "<tr data-verdict=\"{}\"><td>{}</td><td>{name}</td><td>{}</td><td>{} ms</td><td>{}</td></tr>",
            c.verdict.label(),
            c.phase.name(),
            c.verdict.label(),
            c.elapsed_ms,
            escape(&c.detail)
        );
    }
    out.push_str("</table>\n");
    for (i, c) in report.checks.iter().enumerate() {
        if c.verdict != CheckVerdict::Fail {
            continue;
        }
        let _ = writeln!(
            out,
            "<details class=\"failed\" id=\"check-{i}\" open>\n<summary>{} / {}: {}</summary>",
            c.phase.name(),
            escape(&c.name),
            escape(&c.detail)
        );
        let prompt = c.failed_prompt.as_deref().unwrap_or("(not kept)");
        // A reply, or what came instead of one (issue 40, item 17), or that nothing came.
        let (heading, reply) = match (&c.failed_reply, &c.failed_output) {
            (Some(reply), _) => ("the reply".to_string(), reply.as_str()),
            (None, Some(came)) => (
                format!(
                    "what came instead of a reply (not text, or past a limit: bytes that are not \
                     UTF-8 and control characters as \\xNN, at most {SHOWN_BYTES} bytes)"
                ),
                came.as_str(),
            ),
            (None, None) => ("the reply".to_string(), "(nothing came)"),
        };
        let _ = writeln!(
            out,
            "<h3>the prompt</h3>\n<pre class=\"detail prompt\">{}</pre>\n<h3>{}</h3>\n<pre class=\"detail reply\">{}</pre>",
            escape(prompt),
            escape(&heading),
            escape(reply)
        );
        if let Some(path) = &c.saved {
            let _ = writeln!(
                out,
                "<p>Replay: <code>{} &lt; {}</code></p>",
                escape(&report.command.join(" ")),
                escape(&path.display().to_string())
            );
        }
        out.push_str("</details>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}
