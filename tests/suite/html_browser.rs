//! The HTML page of `check` opened in a real browser: headless Chromium loads the page from a
//! file (no network: every host resolves to nothing), runs its script and dumps the DOM. The
//! boards it drew are all there, the filters ran (they write how many cases they show), the
//! fragment `#case-<name>` selected its case, and the console holds no error.
//! (`browser.rs` finds and drives the browser.)

use std::time::Duration;

use crate::browser::{assert_quiet, browser_or_skip, open};

const ENGINE: &str = "python3 conformance/adapters/codevs_reborn.py --bug chain-round";
const CASE: &str = "case-codevs-reborn/chains/two-chain-scores-two-sends-one";

#[test]
fn the_page_loads_in_chromium_with_every_board_and_no_console_error() {
    let Some(browser) = browser_or_skip() else {
        return;
    };
    let output = crate::common::shinpan()
        .args(["check", "codevs-reborn", "--quiet", "--format", "html"])
        .args(["--engine", ENGINE])
        .timeout(Duration::from_secs(180))
        .output()
        .unwrap();
    let html = String::from_utf8(output.stdout).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("check.html");
    std::fs::write(&page, &html).unwrap();
    let (dom, log) = open(&browser, &page, &format!("#{CASE}"), dir.path());
    // Every cell drawn in the file is in the browser's document.
    let cells = html.matches(" data-cell=\"").count();
    assert!(cells > 0);
    assert_eq!(dom.matches(" data-cell=\"").count(), cells);
    assert_eq!(
        dom.matches("<svg class=\"board\"").count(),
        html.matches("<svg class=\"board\"").count()
    );
    // The script ran: it counted the cases and selected the one the fragment names.
    let cases = html.matches("<article class=\"case\"").count();
    assert!(
        dom.contains(&format!(">{cases} of {cases} shown<")),
        "the filters did not run"
    );
    assert!(dom.contains(&format!("class=\"case selected\" id=\"{CASE}\"")));
    assert_quiet(&log);
}

/// Issue 40, item 18: a malformed `#case-%…` fragment threw an uncaught `URIError` on the page.
/// It selects nothing and the console stays quiet; a well-formed encoded one still selects its
/// case.
#[test]
fn a_malformed_case_fragment_selects_nothing_and_throws_nothing() {
    let Some(browser) = browser_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (saved, page) = (dir.path().join("check.json"), dir.path().join("check.html"));
    let failing = |name: &str| {
        serde_json::json!({"name": name, "game": "codevs-reborn", "file": "f.yaml", "line": 1,
                           "rules": [], "verdict": "fail", "detail": "-a\n+b"})
    };
    let report = serde_json::json!({
        "shinpan_version": "0.1.0", "library_digest": "abc", "library": "built-in",
        "engine": "forged", "groups": [], "stopped": null,
        "counts": {"passed": 0, "failed": 2, "errors": 0, "unsupported": 0,
                   "expected_failures": 0, "fixed": 0},
        "results": [failing("codevs-reborn/f/one"), failing("codevs-reborn/f/two")]
    });
    std::fs::write(&saved, report.to_string()).unwrap();
    crate::common::shinpan()
        .arg("report")
        .arg(&saved)
        .arg("--html")
        .arg(&page)
        .assert()
        .code(1);
    for malformed in ["#case-%E0%A4%A", "#case-%", "#case-codevs-reborn/f/%ZZone"] {
        let (dom, log) = open(&browser, &page, malformed, dir.path());
        assert_quiet(&log);
        assert!(
            dom.contains(">2 of 2 shown<"),
            "the script ran: {malformed}"
        );
        assert!(!dom.contains("case selected"), "{malformed}");
    }
    let (dom, log) = open(&browser, &page, "#case-codevs-reborn%2Ff%2Ftwo", dir.path());
    assert_quiet(&log);
    assert!(dom.contains("class=\"case selected\" id=\"case-codevs-reborn/f/two\""));
}
