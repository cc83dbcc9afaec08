//! `bot --format html`: every FAIL links to the prompt that failed and the reply the bot gave,
//! the prompt being the last one of the input saved to replay the failure.

use std::process::Command;

const FAILING_BOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bots/fails_by_seed.sh");

/// The text of the first `<pre class="detail CLASS">` in `html`.
fn pre<'h>(html: &'h str, class: &str) -> &'h str {
    let open = format!("<pre class=\"detail {class}\">");
    let rest = html.split(&open).nth(1).expect("the pre");
    rest.split("</pre>").next().unwrap()
}

#[test]
fn each_failing_check_links_to_the_prompt_and_reply_that_failed() {
    let save_dir = tempfile::tempdir().unwrap();
    // Seed 1: the bot replies `9 0`, outside the field, on its first turn in both seats.
    let output = Command::new(env!("CARGO_BIN_EXE_shinpan"))
        .args(["bot", "codevs-reborn", "--seed", "1", "--phases", "matches"])
        .args(["--format", "html", "--save-dir"])
        .arg(save_dir.path())
        .args(["--", "sh", FAILING_BOT])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let html = String::from_utf8(output.stdout).unwrap();
    let failing = html.matches("<tr data-verdict=\"FAIL\">").count();
    assert!(failing > 0);
    for row in html.split("<tr data-verdict=\"FAIL\">").skip(1) {
        let id = row
            .split("<a href=\"#")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .expect("a FAIL links to what failed");
        let details = html
            .split(&format!("<details class=\"failed\" id=\"{id}\" open>"))
            .nth(1)
            .unwrap_or_else(|| panic!("no #{id}"));
        let details = details.split("</details>").next().unwrap();
        assert_eq!(pre(details, "reply"), "9 0");
        let saved = details
            .split(" &lt; ")
            .nth(1)
            .and_then(|r| r.split("</code>").next())
            .expect("the saved input");
        let input = std::fs::read_to_string(saved).unwrap();
        let prompt = pre(details, "prompt");
        assert!(!prompt.is_empty());
        assert!(input.ends_with(prompt), "the last prompt of {saved}");
    }
}

/// `bot --format html` on `bot` (in tests/bots), failing fast in the matches: the page.
fn page_of_failing(bot: &str) -> String {
    let save_dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_shinpan"))
        .args([
            "bot",
            "codevs-reborn",
            "--phases",
            "matches",
            "--fail-fast",
            "true",
        ])
        .args([
            "--turn-ms",
            "1000",
            "--budget",
            "30",
            "--format",
            "html",
            "--save-dir",
        ])
        .arg(save_dir.path())
        .args(["--", "sh"])
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bots/").to_string() + bot)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    String::from_utf8(output.stdout).unwrap()
}

/// Issue 40, item 17: a reply that was not text, or an overlong line, showed as "(no reply)".
/// What came is shown, escaped (markup as text, bytes that are not UTF-8 and control
/// characters as `\xNN`, a backslash doubled) and cut at a stated length.
#[test]
fn a_reply_that_is_not_text_or_too_long_is_shown_escaped_and_cut() {
    let html = page_of_failing("binary_markup.sh");
    assert!(html.contains(
        "<h3>what came instead of a reply (not text, or past a limit: bytes that are not UTF-8 \
         and control characters as \\xNN, at most 2048 bytes)</h3>"
    ), "{html}");
    assert_eq!(
        pre(&html, "reply"),
        "&lt;b&gt;x&lt;/b&gt; a\\\\b \\x01 \\xff\\xfe"
    );

    let html = page_of_failing("endless_line.sh");
    let shown = pre(&html, "reply");
    let (line, cut) = shown.split_once('\n').expect("the line, then what was cut");
    assert_eq!(line, "x".repeat(2048));
    assert_eq!(
        cut,
        "[cut: the last line is longer than 65536 bytes; 2048 bytes shown in all]"
    );
}
