//! Three Spring Challenge 2022 engines that misread the rule document (seed 003), in process:
//! the reference engine asked one turn at a time, each engine changing what goes into a turn or
//! comes out of it (`spring2022/turn.rs`), its misreadings marked `MISREADING Mn` in
//! `spring2022/engines.rs` and worked out by hand in
//! `tests/fixtures/misreading-engines/spring2022/DEPARTURES.md`. Written from the document,
//! `spec-notes.md` and the reference's rules code, without reading shinpan's naming code.

mod behaviour;
mod engines;
mod turn;

use shinpan::Suite;

use super::{judged, tally_diff, Misreading, Spec, GROUPS_BAR};
use engines::{Faithful, LeftOut, StaleFields, WrongMoment};
use turn::TurnByTurn;

const LEFT_OUT: Spec = Spec {
    game: "spring2022",
    engine: "left_out",
    misreadings: &[
        Misreading {
            id: "M1",
            right: &["fog.base", "fog.hero"],
            fields: &["prompts"],
        },
        Misreading {
            id: "M2",
            right: &[
                "combat.wild-mana",
                "end.tie-break",
                "end.both-out",
                "league.wood1",
            ],
            fields: &["players[].wild_mana", "outcome"],
        },
        Misreading {
            id: "M3",
            right: &["spawn.sudden-death"],
            fields: &["rng", "mobs", "players[].base_health", "players[].mana"],
        },
    ],
    overrides: &[],
    attribute: None,
    alone: Some(|id| {
        let only = Some(id.strip_prefix('M')?.parse().ok()?);
        Some(Box::new(TurnByTurn(LeftOut { only })))
    }),
};

// Where two misreadings of an engine make the same fields wrong, each lists the fields it makes
// wrong whenever it shows (a state compared whole always differs there; DEPARTURES.md lists the
// rest), so that a `diff` finding is put down to the misreadings it can come from; a `check`
// case that checks none of them is in the overrides, read by hand.

const WRONG_MOMENT: Spec = Spec {
    game: "spring2022",
    engine: "wrong_moment",
    misreadings: &[
        Misreading {
            id: "M1",
            right: &["combat.mana", "turn.order"],
            // The spell the hits paid for leaves the mana 10 short of the rules' for good.
            fields: &["players[].mana"],
        },
        Misreading {
            id: "M2",
            right: &["turn.order"],
            fields: &["mobs[].x", "mobs[].y"],
        },
        Misreading {
            id: "M3",
            right: &["shield.next-turn", "shield.duration"],
            // Not pushed, or not controlled (and no redirection draw).
            fields: &[
                "heroes[].x",
                "heroes[].y",
                "heroes[].controls",
                "mobs[].x",
                "mobs[].y",
                "mobs[].vx",
                "mobs[].vy",
                "mobs[].controls",
                "rng",
            ],
        },
    ],
    overrides: &[
        (
            "spring2022/combat/mana-earned-this-turn-pays-only-next-turn",
            &["M1"],
        ),
        (
            "spring2022/control/a-control-resolves-before-this-turns-shield",
            &["M3"],
        ),
        (
            "spring2022/shield/a-shield-cast-this-turn-does-not-stop-this-turns-wind",
            &["M3"],
        ),
        ("spring2022/spawn/the-first-wave-of-seed-0", &["M2"]),
        ("spring2022/spawn/sudden-death-aims-the-wave", &["M2"]),
    ],
    attribute: None,
    alone: Some(|id| {
        let only = Some(id.strip_prefix('M')?.parse().ok()?);
        Some(Box::new(TurnByTurn(WrongMoment { only })))
    }),
};

const STALE_FIELDS: Spec = Spec {
    game: "spring2022",
    engine: "stale_fields",
    misreadings: &[
        Misreading {
            id: "M1",
            right: &["status.threat"],
            fields: &["prompts"],
        },
        Misreading {
            id: "M2",
            right: &["control.hero"],
            // The kept CONTROL is in the state for good.
            fields: &["heroes[].controls", "heroes[].x", "heroes[].y"],
        },
        Misreading {
            id: "M3",
            right: &["spell.cost", "wind.mana", "shield.on-shielded"],
            // Every spell cast leaves the mana 10 above the rules' for good.
            fields: &["players[].mana"],
        },
    ],
    overrides: &[
        (
            "spring2022/control/a-controlled-mob-turns-at-the-next-turn-start",
            &["M3"],
        ),
        (
            "spring2022/control/a-cast-lands-on-a-hero-for-its-next-reply",
            &["M3"],
        ),
        (
            "spring2022/shield/the-prompt-shows-the-fresh-shield",
            &["M3"],
        ),
        (
            "spring2022/vision/mob-lines-speeds-truncated-and-threats-by-reader",
            &["M1"],
        ),
        (
            "spring2022/wind/a-dead-mob-is-still-blown-and-drawn-for",
            &["M3"],
        ),
    ],
    attribute: None,
    alone: Some(|id| {
        let only = Some(id.strip_prefix('M')?.parse().ok()?);
        Some(Box::new(TurnByTurn(StaleFields { only })))
    }),
};

/// The frame alone (the reference asked a turn at a time, its states read back and its prompts
/// printed again) passes every case: what the engines below get wrong is their misreadings.
#[test]
fn the_turn_by_turn_frame_departs_from_nothing() {
    let results = Suite::new("spring2022", TurnByTurn(Faithful))
        .results(Some("spring2022/"))
        .unwrap();
    assert!(results.len() > 100, "{} cases", results.len());
    let failed: Vec<String> = results
        .iter()
        .filter(|r| r.verdict.name() != "pass")
        .map(|r| format!("{}: {} {}", r.name, r.verdict.name(), r.verdict.detail()))
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    let mut frame = TurnByTurn(Faithful);
    let diff = tally_diff(&FAITHFUL, &mut frame, 1, 100);
    assert_eq!(diff.departures, 0, "{diff}\n{:?}", diff.strays);
}

/// The frame with nothing misread, for `diff`: any departure would be a stray.
const FAITHFUL: Spec = Spec {
    game: "spring2022",
    engine: "faithful",
    misreadings: &[],
    overrides: &[],
    attribute: None,
    alone: None,
};

#[test]
#[ignore = "minutes of CPU: run by .ci/run in a step of its own, so that the timing tests of the main run do not share the CPU with it"]
fn left_out_is_named_by_its_own_clauses() {
    // Not issue 38's bar: 2.0 measured (a ratchet). M1's printer (no fog) is named `fog.hero`
    // where only heroes stand in the fog and is unexplained where a mob does; M2 (no
    // tie-break) shows on `players[].wild_mana` and on `outcome` on different inputs.
    judged(&LEFT_OUT, || TurnByTurn(LeftOut::ALL), 300, 2.0);
}

#[test]
#[ignore = "minutes of CPU: run by .ci/run in a step of its own, so that the timing tests of the main run do not share the CPU with it"]
fn wrong_moment_is_named_by_its_own_clauses() {
    // Not yet issue 38's bar: 1.5 measured on 2026-12-07 (a ratchet).
    judged(
        &WRONG_MOMENT,
        || TurnByTurn(WrongMoment::ALL),
        300,
        GROUPS_BAR,
    );
}

#[test]
#[ignore = "minutes of CPU: run by .ci/run in a step of its own, so that the timing tests of the main run do not share the CPU with it"]
fn stale_fields_is_named_by_its_own_clauses() {
    judged(
        &STALE_FIELDS,
        || TurnByTurn(StaleFields::ALL),
        300,
        GROUPS_BAR,
    );
}
