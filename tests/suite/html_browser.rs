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
