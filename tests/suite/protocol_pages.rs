//! The protocol pages, `docs/protocol/<game>.md` (issue 22, item 16: a bot author could not find
//! the prompt and reply formats and worked them out from case-file comments). Every registered
//! game has one, the crate carries it (`shinpan games GAME` prints it), and its examples are what
//! the reference engine prints and accepts, so a page cannot drift from the engine.
//!
//! An example is a text block right under a line `<!-- example: KIND key=value ... -->`:
//!
//! - `name`: the bot's first line; the game's handshake parses it as valid.
//! - `prompt seed=S player=P [after=K] [others="..."]`: what player `P` is sent. `seed` starts a
//!   new match; without it the page's last match goes on. `after` first plays `K` steps in which
//!   every awaited player replies `others` (`\n` for a line break), or the built-in player's
//!   reply when it is not given. A line of the block starting with `…` stands for lines the page
//!   cut: the first number in it says how many, times the number before `lines each` if any
//!   (`… 497 packs more, 3 lines each …`).
//! - `reply`: a reply to the last prompt, played on the engine (the other awaited players give
//!   the built-in player's reply); the engine must accept it as written.

use std::collections::BTreeMap;
use std::path::Path;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use shinpan::games;
use shinpan::seam::{DynGame, DynMatch, MatchOptions, ParseVerdict, Reply, ReplyVerdict};

#[test]
fn every_registered_game_has_its_protocol_page_built_in() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for game in games::all() {
        let id = game.info().id;
        let page = game.info().protocol;
        let on_disk = std::fs::read_to_string(root.join(page.path))
            .unwrap_or_else(|e| panic!("{id} has no protocol page {}: {e}", page.path));
        assert!(
            page.text == on_disk,
            "{id}: the page built in is not {}",
            page.path
        );
    }
    // A page whose game was renamed or removed would never be shown.
    for entry in std::fs::read_dir(root.join("docs/protocol")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let path = format!("docs/protocol/{name}");
        assert!(
            games::all().iter().any(|g| g.info().protocol.path == path),
            "{path} is no registered game's page"
        );
    }
}

#[test]
fn every_page_example_is_what_the_reference_engine_prints_and_accepts() {
    for game in games::all() {
        let id = game.info().id;
        let examples = examples(game.info().protocol.text);
        let has = |kind: &str| examples.iter().any(|e| e.kind == kind);
        assert!(
            has("prompt") && has("reply"),
            "{id}: the page has no example prompt and reply"
        );
        assert_eq!(
            game.info().handshake.is_some(),
            has("name"),
            "{id}: an example name exactly when the game asks for one first"
        );
        check_examples(game, &examples);
    }
}

/// One example of a page.
struct Example {
    /// The directive's line in the page, from 1.
    line: usize,
    kind: String,
    args: BTreeMap<String, String>,
    /// The block's lines joined by `\n`, without a last line break.
    text: String,
}

/// The examples of a page, in page order.
fn examples(page: &str) -> Vec<Example> {
    let lines: Vec<&str> = page.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(directive) = line
            .strip_prefix("<!-- example:")
            .and_then(|d| d.strip_suffix("-->"))
        else {
            continue;
        };
        let (kind, args) = parse_directive(directive.trim());
        let fence = lines.get(i + 1).copied().unwrap_or("");
        assert!(
            fence.starts_with("```"),
            "line {}: an example directive must be followed by a ``` block",
            i + 1
        );
        let body: Vec<&str> = lines[i + 2..]
            .iter()
            .copied()
            .take_while(|l| !l.starts_with("```"))
            .collect();
        found.push(Example {
            line: i + 1,
            kind,
            args,
            text: body.join("\n"),
        });
    }
    found
}

/// `KIND key=value key="quoted value"`; `\n` in a quoted value is a line break.
fn parse_directive(text: &str) -> (String, BTreeMap<String, String>) {
    let (kind, mut rest) = text.split_once(' ').unwrap_or((text, ""));
    let mut args = BTreeMap::new();
    while let Some((key, after)) = rest.trim_start().split_once('=') {
        let (value, next) = match after.strip_prefix('"') {
            Some(quoted) => {
                let (value, next) = quoted.split_once('"').expect("a closing quote");
                (value.replace("\\n", "\n"), next)
            }
            None => {
                let (value, next) = after.split_once(' ').unwrap_or((after, ""));
                (value.to_string(), next)
            }
        };
        args.insert(key.to_string(), value);
        rest = next;
    }
    (kind.to_string(), args)
}

fn check_examples(game: &dyn DynGame, examples: &[Example]) {
    let id = game.info().id;
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut current: Option<Box<dyn DynMatch + '_>> = None;
    let mut last_player = None;
    for example in examples {
        let at = format!("docs/protocol/{id}.md:{}", example.line);
        let number = |key: &str| -> Option<u64> {
            example.args.get(key).map(|v| {
                v.parse()
                    .unwrap_or_else(|_| panic!("{at}: {key}={v} is not a number"))
            })
        };
        match example.kind.as_str() {
            "name" => {
                let kind = game.info().handshake.expect("a handshake").parse_kind;
                match game.parse(kind, &example.text) {
                    Some(ParseVerdict::Valid { .. }) => {}
                    other => panic!("{at}: the name is not valid: {other:?}"),
                }
            }
            "prompt" => {
                if let Some(seed) = number("seed") {
                    current = Some(game.start(seed, &MatchOptions::default()).unwrap());
                }
                let m = current
                    .as_mut()
                    .unwrap_or_else(|| panic!("{at}: the first example prompt needs a seed"));
                for _ in 0..number("after").unwrap_or(0) {
                    let replies: Vec<Reply> = m
                        .awaiting()
                        .into_iter()
                        .map(|p| match example.args.get("others") {
                            Some(text) => Reply::text(text),
                            None => Reply::text(m.random_reply(p, &mut rng)),
                        })
                        .collect();
                    m.step(&replies)
                        .unwrap_or_else(|e| panic!("{at}: playing up to the prompt: {e}"));
                }
                let player =
                    number("player").unwrap_or_else(|| panic!("{at}: no player=")) as usize;
                let printed = m.prompt(player);
                if let Err(why) = matches_with_cuts(&example.text, &printed) {
                    panic!("{at}: the example is not what the engine prints: {why}\n{printed}");
                }
                last_player = Some(player);
            }
            "reply" => {
                let (Some(m), Some(player)) = (current.as_mut(), last_player) else {
                    panic!("{at}: a reply needs an example prompt before it");
                };
                let awaiting = m.awaiting();
                let seat = awaiting
                    .iter()
                    .position(|&p| p == player)
                    .unwrap_or_else(|| panic!("{at}: player {player} is not awaited"));
                let replies: Vec<Reply> = awaiting
                    .iter()
                    .map(|&p| match p == player {
                        true => Reply::text(&example.text),
                        false => Reply::text(m.random_reply(p, &mut rng)),
                    })
                    .collect();
                let report = m
                    .step(&replies)
                    .unwrap_or_else(|e| panic!("{at}: the engine could not play it: {e}"));
                assert_eq!(
                    report.replies[seat],
                    ReplyVerdict::Accepted,
                    "{at}: the engine does not accept the example reply as written"
                );
            }
            other => panic!("{at}: unknown example kind `{other}`"),
        }
    }
}

/// Whether `printed` is the example `shown`, line for line, where a `…` line of `shown` stands
/// for as many lines as it says.
fn matches_with_cuts(shown: &str, printed: &str) -> Result<(), String> {
    let Some(printed) = printed.strip_suffix('\n') else {
        return Err("the prompt does not end with a line break".into());
    };
    let printed: Vec<&str> = printed.split('\n').collect();
    let mut at = 0;
    for (n, line) in shown.lines().enumerate() {
        if line.starts_with('…') {
            at += cut_length(line)
                .ok_or_else(|| format!("example line {}: a cut must say how many lines", n + 1))?;
            continue;
        }
        match printed.get(at) {
            Some(&p) if p == line => at += 1,
            Some(p) => {
                return Err(format!(
                    "example line {} is `{line}`, the engine printed `{p}` (its line {})",
                    n + 1,
                    at + 1
                ))
            }
            None => return Err(format!("example line {} is past the prompt's end", n + 1)),
        }
    }
    if at != printed.len() {
        return Err(format!(
            "the example ends at the prompt's line {at} of {}",
            printed.len()
        ));
    }
    Ok(())
}

/// The lines a cut stands for: its first number, times the number before `lines each`.
fn cut_length(line: &str) -> Option<usize> {
    let numbers: Vec<usize> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    let first = *numbers.first()?;
    let each = if line.contains("lines each") {
        *numbers.get(1)?
    } else {
        1
    };
    Some(first * each)
}

#[test]
fn a_cut_stands_for_as_many_lines_as_it_says() {
    assert_eq!(cut_length("… 497 packs more, 3 lines each …"), Some(1491));
    assert_eq!(cut_length("… 14 rows more …"), Some(14));
    assert_eq!(cut_length("… some lines …"), None);
    assert!(matches_with_cuts("a\n… 2 more …\nd", "a\nb\nc\nd\n").is_ok());
    assert!(matches_with_cuts("a\n… 1 more …\nd", "a\nb\nc\nd\n").is_err());
    assert!(matches_with_cuts("a\nb", "a\nb\nc\n").is_err());
}
