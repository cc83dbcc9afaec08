//! The three CODE VS Reborn engines of `tests/fixtures/misreading-engines/codevs-reborn/`
//! (Python adapters), their misreadings as DEPARTURES.md works them out.

use shinpan::harness::adapter::{Adapter, AdapterConfig};

use super::{judged, Misreading, Spec, GROUPS_BAR};

const DIR: &str = "tests/fixtures/misreading-engines/codevs-reborn";

const GAME_OVER: [&str; 3] = ["outcome", "turn", "last_replies"];

const NO_GAUGE: Spec = Spec {
    game: "codevs-reborn",
    engine: "no_gauge",
    misreadings: &[
        Misreading {
            id: "M1",
            right: &[
                "gauge.gain",
                "gauge.gain-skill",
                "gauge.decrease",
                "gauge.decrease-skill-chains",
                "skill.gauge-reset",
            ],
            fields: &[
                "players[].skill_gauge",
                "players[].chains",
                "players[].field",
                "players[].skill_used",
                "players[].exploded_blocks",
                GAME_OVER[0],
                GAME_OVER[1],
                GAME_OVER[2],
                "prompts",
            ],
        },
        Misreading {
            id: "M2",
            right: &["skill.explosion-score", "ojama.sent-skill", "score.total"],
            fields: &[
                "players[].score",
                "players[].turn_score",
                "players[].ojama_sent",
                "players[].ojama_stock",
                "prompts",
            ],
        },
        Misreading {
            id: "M3",
            right: &["time.total", "time.exceeded", "end.time-over"],
            fields: &[
                "players[].time_left_ms",
                GAME_OVER[0],
                GAME_OVER[1],
                GAME_OVER[2],
                "prompts",
            ],
        },
    ],
    overrides: &[
        (
            "codevs-reborn/time/time-over-beats-the-other-players-valid-chain",
            &["M3"],
        ),
        ("codevs-reborn/time/total-over-three-minutes-loses", &["M3"]),
        ("codevs-reborn/time/one-ms-over-is-time-over", &["M3"]),
        (
            "codevs-reborn/skill/gauge-reaching-eighty-allows-skill-next-turn",
            &["M1"],
        ),
        (
            "codevs-reborn/prompt/prompt-shows-the-running-score-after-two-scoring-turns",
            &["M1"],
        ),
    ],
    attribute: Some(no_gauge_by_hand),
    alone: None,
};

/// A game that ends (or does not) with the time left wrong and the gauge right is the clock
/// (M3): the reply played over time, the match going on.
fn no_gauge_by_hand(fields: &[String]) -> Option<Vec<&'static str>> {
    let has = |f: &str| fields.iter().any(|x| x == f);
    (has("players[].time_left_ms") && !has("players[].skill_gauge")).then(|| vec!["M3"])
}

const PHASE_SWAP: Spec = Spec {
    game: "codevs-reborn",
    engine: "phase_swap",
    misreadings: &[
        Misreading {
            id: "M1",
            right: &["ojama.drop", "turn.order"],
            fields: &[
                "players[].field",
                "players[].chains",
                "players[].score",
                "players[].turn_score",
                "players[].ojama_sent",
                "players[].ojama_stock",
                "players[].exploded_blocks",
                GAME_OVER[0],
                GAME_OVER[1],
                GAME_OVER[2],
                "prompts",
            ],
        },
        Misreading {
            id: "M2",
            right: &["turn.order"],
            fields: &["players[].skill_gauge", "prompts"],
        },
        Misreading {
            id: "M3",
            right: &["gauge.gain-skill", "skill.gauge-reset", "turn.order"],
            fields: &["players[].skill_gauge", "prompts"],
        },
    ],
    overrides: &[
        (
            "codevs-reborn/chains/gauge-gain-applies-before-decrease",
            &["M2"],
        ),
        (
            "codevs-reborn/skill/skill-document-example-five-exploded-five-chains",
            &["M3"],
        ),
        (
            "codevs-reborn/skill/explosion-then-one-skill-chain",
            &["M3"],
        ),
        (
            "codevs-reborn/prompt/prompt-after-document-skill-example",
            &["M3"],
        ),
        ("codevs-reborn/prompt/prompt-shows-ojama-as-eleven", &["M1"]),
    ],
    attribute: None,
    alone: None,
};

const STALE_FIELDS: Spec = Spec {
    game: "codevs-reborn",
    engine: "stale_fields",
    misreadings: &[
        Misreading {
            id: "M1",
            right: &["chain.count", "gauge.decrease"],
            fields: &["players[].chains", "players[].skill_gauge"],
        },
        Misreading {
            id: "M2",
            right: &["ojama.sent-normal", "ojama.sent-skill", "ojama.stock"],
            fields: &[
                "players[].ojama_sent",
                "players[].ojama_stock",
                "players[].field",
                GAME_OVER[0],
                GAME_OVER[1],
                GAME_OVER[2],
            ],
        },
        Misreading {
            id: "M3",
            right: &["prompt.turn-block"],
            fields: &["prompts"],
        },
    ],
    overrides: &[
        (
            "codevs-reborn/end/rows-above-the-sixteenth-are-not-shown",
            &["M3"],
        ),
        (
            "codevs-reborn/prompt/prompt-after-document-skill-example",
            &["M3"],
        ),
        ("codevs-reborn/prompt/prompt-shows-ojama-as-eleven", &["M3"]),
    ],
    attribute: None,
    alone: None,
};

fn adapter(spec: &Spec) -> Adapter {
    let script = format!("{DIR}/{}.py", spec.engine);
    Adapter::start(AdapterConfig::new(vec!["python3".into(), script]))
        .unwrap_or_else(|e| panic!("{}: {e}", spec.engine))
}

#[test]
#[ignore = "minutes of CPU: run by .ci/run in a step of its own, so that the timing tests of the main run do not share the CPU with it"]
fn no_gauge_is_named_by_its_own_clauses() {
    judged(&NO_GAUGE, || adapter(&NO_GAUGE), 300, GROUPS_BAR);
}

#[test]
#[ignore = "minutes of CPU: run by .ci/run in a step of its own, so that the timing tests of the main run do not share the CPU with it"]
fn phase_swap_is_named_by_its_own_clauses() {
    judged(&PHASE_SWAP, || adapter(&PHASE_SWAP), 300, GROUPS_BAR);
}

#[test]
#[ignore = "minutes of CPU: run by .ci/run in a step of its own, so that the timing tests of the main run do not share the CPU with it"]
fn stale_fields_is_named_by_its_own_clauses() {
    judged(&STALE_FIELDS, || adapter(&STALE_FIELDS), 300, GROUPS_BAR);
}
