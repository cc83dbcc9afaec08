//! What every game's fuzz bodies share, so that a game's `fuzz.rs` holds only what is its own
//! (its state generator, the shape of its plays, its reply parsers' checks and its invariants,
//! given as its [`Fuzzed`]):
//!
//! - the dispatch of the three fuzz targets of `fuzz/`, one per parser kind, not per game: an
//!   input is a game id, a NUL byte, and the bytes for that game's body ([`run`]);
//! - the three bodies of a game, written once from its [`Fuzzed`] ([`targets`]);
//! - the check every prompt and reply body makes of each parser: what parses prints back to
//!   itself ([`prints_back`]; through the game's own [`Game::parse`], [`parses_back`], which the
//!   prompt body runs on every prompt kind and the reply body on the name);
//! - the step body: play a few steps from an arbitrary state with arbitrary replies and check,
//!   after each, what must always hold ([`step`], [`fuzz_steps`], [`ArbitraryReply`]), the
//!   canonical JSON round trip included ([`canonical_round_trip`]).
//!
//! It knows no game: the registry hands it each game's [`FuzzTargets`].

use std::borrow::Cow;

use arbitrary::{Arbitrary, Unstructured};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::seam::{Game, ParseVerdict, Reply};

pub use crate::seam::{FuzzTarget as Target, FuzzTargets};

/// One input of a fuzz target: `<game id>\0<bytes>` runs the game's body of `target` on the
/// bytes, the game found by `targets_of` (the registry's lookup). An input without a NUL byte,
/// or whose id names no game, is passed over.
pub fn run(
    target: Target,
    data: &[u8],
    targets_of: impl FnOnce(&str) -> Option<&'static FuzzTargets>,
) {
    let Some(nul) = data.iter().position(|&b| b == 0) else {
        return;
    };
    let Ok(id) = std::str::from_utf8(&data[..nul]) else {
        return;
    };
    if let Some(targets) = targets_of(id) {
        targets.body(target)(&data[nul + 1..]);
    }
}

/// The fuzzed bytes as the text a parser reads: invalid UTF-8 replaced, as a bot's pipe is read.
pub fn text(data: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// What a game gives its fuzz bodies, in the order of the bodies (prompt, reply, step): the
/// rest is written once, here ([`targets`]).
pub trait Fuzzed: Game {
    /// The game itself (every game is a unit struct).
    const GAME: Self;
    /// The protocol text kinds the prompt body checks with [`parses_back`] (of
    /// [`GameInfo::parse_kinds`](crate::seam::GameInfo::parse_kinds)): `["prompt"]` unless the
    /// game says otherwise (`["request"]`, or each block a prompt is made of).
    const PROMPTS: &'static [&'static str] = &["prompt"];
    /// The game's own part of a fuzzed reply in the step body.
    type Play: Play<Self::State>;

    /// The game's own checks of its reply parsers on any `text`, each panicking on a broken
    /// property: no panic, what the strict grammar takes prints back to itself and the engine
    /// takes it too, read alike. The name is checked by the reply body itself.
    fn replies(text: &str);

    /// What must hold after any step from `before` to `after`, the canonical round trip
    /// included; `Err` says what broke.
    fn check_invariants(before: &Self::State, after: &Self::State) -> Result<(), Broken>;

    /// A state to step from: valid, and near what makes the rules work hard. `Err` when the
    /// bytes run out.
    fn arbitrary_state(u: &mut Unstructured) -> arbitrary::Result<Self::State>;
}

/// The three bodies of the game `G`, from its [`Fuzzed`]: `pub static TARGETS: FuzzTargets =
/// stepfuzz::targets::<MyGame>();`.
pub const fn targets<G: Fuzzed>() -> FuzzTargets {
    FuzzTargets::new(prompt_body::<G>, reply_body::<G>, step_body::<G>)
}

/// Any bytes through every prompt parser of `G` ([`Fuzzed::PROMPTS`]).
fn prompt_body<G: Fuzzed>(data: &[u8]) {
    let text = text(data);
    for kind in G::PROMPTS {
        parses_back(&G::GAME, kind, &text);
    }
}

/// Any bytes through the reply parsers of `G` ([`Fuzzed::replies`]) and, when the game reads a
/// name (its [`GameInfo::parse_kinds`](crate::seam::GameInfo::parse_kinds) has `"name"`),
/// through its [`Game::parse`] of the name.
fn reply_body<G: Fuzzed>(data: &[u8]) {
    let text = text(data);
    G::replies(&text);
    if G::INFO.parse_kinds.contains(&"name") {
        parses_back(&G::GAME, "name", &text);
    }
}

/// An arbitrary state of `G` and arbitrary replies through a few steps ([`step`]).
fn step_body<G: Fuzzed>(data: &[u8]) {
    step::<G, G::Play>(&G::GAME, data, G::arbitrary_state, G::check_invariants);
}

/// `text` through `game`'s parser of the protocol texts of `kind`: no panic, and what the
/// strict grammar takes prints back to itself. Panics when the game parses no `kind`.
pub fn parses_back<G: Game>(game: &G, kind: &str, text: &str) {
    let verdict = game
        .parse(kind, text)
        .unwrap_or_else(|| panic!("{} parses no `{kind}`", G::INFO.id));
    if let ParseVerdict::Valid { printed } = verdict {
        assert_eq!(printed, text, "print(parse(x)) == x for a {kind}");
    }
}

/// Parses `text` with `parse`; when it parses, asserts that `print` writes it back to `text`
/// exactly (`print(parse(x)) == x` for `what`), and returns what was read for further checks.
pub fn prints_back<'t, T, E>(
    text: &'t str,
    what: &str,
    parse: impl FnOnce(&'t str) -> Result<T, E>,
    print: impl FnOnce(&T) -> String,
) -> Option<T> {
    let parsed = parse(text).ok()?;
    assert_eq!(print(&parsed), text, "print(parse(x)) == x for {what}");
    Some(parsed)
}

/// An invariant a step broke, as the game's check words it ([`Fuzzed::check_invariants`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Broken(pub String);

impl From<String> for Broken {
    fn from(what: String) -> Broken {
        Broken(what)
    }
}

impl From<&str> for Broken {
    fn from(what: &str) -> Broken {
        Broken(what.into())
    }
}

/// Whether `state` survives its canonical JSON form: written, read back, and equal.
pub fn canonical_round_trip<S: Serialize + DeserializeOwned + PartialEq>(
    state: &S,
) -> Result<(), Broken> {
    let json = serde_json::to_value(state).map_err(|e| e.to_string())?;
    let back: S = serde_json::from_value(json)
        .map_err(|e| format!("canonical state does not load back: {e}"))?;
    if &back != state {
        return Err("canonical state does not round-trip".into());
    }
    Ok(())
}

/// The game's own part of a fuzzed reply: what it draws (mostly well formed, or nearly) and how
/// it writes it, for a match that the fuzzing started from `start`.
pub trait Play<S>: for<'a> Arbitrary<'a> {
    fn into_reply(self, start: &S) -> Reply;
}

/// A reply as a fuzzer should send it: mostly the game's own [`Play`] `P`, now and then
/// anything at all, or no reply.
#[derive(Debug, Arbitrary)]
pub enum ArbitraryReply<P> {
    Play(P),
    Raw(String),
    TimedOut,
    Crashed,
}

impl<P> ArbitraryReply<P> {
    /// The reply, a play written by `print`.
    pub fn into_reply(self, print: impl FnOnce(P) -> Reply) -> Reply {
        match self {
            ArbitraryReply::Play(play) => print(play),
            ArbitraryReply::Raw(text) => Reply::text(text),
            ArbitraryReply::TimedOut => Reply::TimedOut,
            ArbitraryReply::Crashed => Reply::Crashed,
        }
    }
}

/// The whole body of a game's `step` target: a state drawn by `arbitrary_state`, then
/// [`fuzz_steps`] with as many [`ArbitraryReply`]s a step as the game takes, their plays `P`.
/// Bytes too few for a state are passed over.
pub fn step<G: Game, P: Play<G::State>>(
    game: &G,
    data: &[u8],
    arbitrary_state: impl FnOnce(&mut Unstructured) -> arbitrary::Result<G::State>,
    check_invariants: impl Fn(&G::State, &G::State) -> Result<(), Broken>,
) {
    let mut u = Unstructured::new(data);
    let Ok(state) = arbitrary_state(&mut u) else {
        return;
    };
    let start = state.clone();
    let replies = |u: &mut Unstructured| {
        (0..G::INFO.replies_per_step)
            .map(|_| Ok(ArbitraryReply::<P>::arbitrary(u)?.into_reply(|p| p.into_reply(&start))))
            .collect()
    };
    fuzz_steps(game, state, &mut u, replies, check_invariants);
}

/// Steps `game` from `state` up to four times with replies drawn by `replies`; panics when a
/// refused step changed the state or `check_invariants(before, after)` reports a broken one.
pub fn fuzz_steps<G: Game>(
    game: &G,
    mut state: G::State,
    u: &mut Unstructured,
    mut replies: impl FnMut(&mut Unstructured) -> arbitrary::Result<Vec<Reply>>,
    check_invariants: impl Fn(&G::State, &G::State) -> Result<(), Broken>,
) {
    assert_eq!(
        game.validate(&state),
        Ok(()),
        "the generator makes valid states"
    );
    for _ in 0..4 {
        if game.outcome(&state).is_some() {
            break;
        }
        let Ok(replies) = replies(u) else { return };
        let before = state.clone();
        if crate::seam::checked_step(game, &mut state, &replies).is_err() {
            assert_eq!(state, before, "a refused step changes nothing");
            return;
        }
        if let Err(broken) = check_invariants(&before, &state) {
            panic!("{broken}\nreplies: {replies:?}\nbefore: {before:?}\nafter: {state:?}");
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::{Cell, RefCell};

    use super::*;
    use crate::seam::count::{Count, Total};

    thread_local! {
        static SEEN: RefCell<Vec<(&'static str, Vec<u8>)>> = const { RefCell::new(Vec::new()) };
    }

    fn seen(kind: &'static str) -> impl Fn(&[u8]) {
        move |data| SEEN.with(|s| s.borrow_mut().push((kind, data.to_vec())))
    }

    static RECORDER: FuzzTargets = FuzzTargets {
        prompt: |d| seen("prompt")(d),
        reply: |d| seen("reply")(d),
        step: |d| seen("step")(d),
    };

    fn lookup(id: &str) -> Option<&'static FuzzTargets> {
        (id == "some-game").then_some(&RECORDER)
    }

    fn runs(target: Target, data: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
        SEEN.with(|s| s.borrow_mut().clear());
        run(target, data, lookup);
        SEEN.with(|s| s.borrow().clone())
    }

    #[test]
    fn an_input_goes_to_the_body_of_its_game_and_target() {
        assert_eq!(
            runs(Target::Reply, b"some-game\0a\0b"),
            vec![("reply", b"a\0b".to_vec())]
        );
        assert_eq!(
            runs(Target::Prompt, b"some-game\0"),
            vec![("prompt", vec![])]
        );
        assert_eq!(
            runs(Target::Step, b"some-game\0x"),
            vec![("step", vec![b'x'])]
        );
    }

    #[test]
    fn an_input_without_a_known_id_does_nothing() {
        assert_eq!(runs(Target::Reply, b"some-game"), vec![]);
        assert_eq!(runs(Target::Reply, b"other-game\0x"), vec![]);
        assert_eq!(runs(Target::Reply, b"\0x"), vec![]);
        assert_eq!(runs(Target::Reply, b"some-\xffgame\0x"), vec![]);
        assert_eq!(runs(Target::Reply, b""), vec![]);
    }

    #[test]
    fn what_parses_must_print_back() {
        let parse = |t: &str| t.trim().parse::<u32>();
        assert_eq!(
            prints_back("12", "a number", parse, u32::to_string),
            Some(12)
        );
        assert_eq!(prints_back("x", "a number", parse, u32::to_string), None);
        let caught = std::panic::catch_unwind(|| {
            prints_back(" 12", "a number", parse, u32::to_string);
        });
        assert!(caught.is_err(), "a text that does not print back panics");
    }

    #[test]
    fn fuzzed_bytes_read_as_text_with_invalid_utf8_replaced() {
        assert_eq!(text(b"2 0"), Cow::Borrowed("2 0"));
        assert_eq!(text(b"S\xff\n"), "S\u{FFFD}\n");
    }

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Lossy {
        kept: u32,
        #[serde(skip)]
        lost: u32,
    }

    #[test]
    fn a_state_that_its_json_form_does_not_restore_fails_the_round_trip() {
        assert_eq!(canonical_round_trip(&Lossy { kept: 1, lost: 0 }), Ok(()));
        assert_eq!(
            canonical_round_trip(&Lossy { kept: 1, lost: 2 }),
            Err("canonical state does not round-trip".into())
        );
    }

    /// A fuzzed move of [`Count`]: a number from 0 to 255.
    #[derive(Debug, Arbitrary)]
    pub struct Number(u8);

    impl Play<Total> for Number {
        fn into_reply(self, _: &Total) -> Reply {
            Reply::text(self.0.to_string())
        }
    }

    thread_local! {
        static REPLIED: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
        static CHECKED: Cell<usize> = const { Cell::new(0) };
    }

    /// [`Count`] as a fuzzed game: a prompt kind it does not parse, no name, its reply checks
    /// and invariant checks recorded.
    impl Fuzzed for Count {
        const GAME: Self = Count;
        const PROMPTS: &'static [&'static str] = &["total"];
        type Play = Number;

        fn replies(text: &str) {
            REPLIED.with(|r| r.borrow_mut().push(text.to_string()));
        }

        fn check_invariants(_: &Total, _: &Total) -> Result<(), Broken> {
            CHECKED.with(|c| c.set(c.get() + 1));
            Ok(())
        }

        fn arbitrary_state(_: &mut Unstructured) -> arbitrary::Result<Total> {
            Ok(Total::default())
        }
    }

    /// The reply body hands the game its text and checks the name only where the game reads
    /// one: [`Count`] parses no `name`, which [`parses_back`] would take for a broken body.
    #[test]
    fn the_reply_body_hands_the_game_its_text_and_checks_no_name_where_there_is_none() {
        REPLIED.with(|r| r.borrow_mut().clear());
        (targets::<Count>().reply)(b"2\xff");
        assert_eq!(REPLIED.with(|r| r.borrow().clone()), ["2\u{FFFD}"]);
    }

    /// The prompt body asks the game's own parser of each of its prompt kinds: [`Count`] lists
    /// `total` and parses nothing, a broken body.
    #[test]
    fn the_prompt_body_parses_every_prompt_kind_the_game_lists() {
        let body = std::panic::catch_unwind(|| (targets::<Count>().prompt)(b"3"));
        assert!(body.is_err(), "Count parses no `total`");
    }

    /// The step body of [`targets`] is [`step`] with the game's own state and invariants: four
    /// steps from zero bytes, each checked.
    #[test]
    fn the_step_body_of_a_fuzzed_game_checks_its_invariants() {
        CHECKED.with(|c| c.set(0));
        (targets::<Count>().step)(&[]);
        assert_eq!(CHECKED.with(Cell::get), 4);
    }

    #[test]
    fn the_step_body_checks_the_invariants_after_every_step_it_plays() {
        // Zero bytes draw `Play(Number(0))` every time: four steps that add nothing.
        let checked = Cell::new(0);
        step::<Count, Number>(
            &Count,
            &[0; 64],
            |_| Ok(Total::default()),
            |before, after| {
                checked.set(checked.get() + 1);
                assert_eq!(after.turn, before.turn + 1);
                Ok(())
            },
        );
        assert_eq!(checked.get(), 4);
    }
}
