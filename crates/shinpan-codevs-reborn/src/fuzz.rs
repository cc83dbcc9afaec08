//! What the CODE VS Reborn fuzz bodies check that is its own, as its [`Fuzzed`] (the bodies
//! are [`stepfuzz::targets`]). It lives here, not in `fuzz/`, so that proptest runs the very same
//! checks under `cargo test`; each check panics on a broken property.

use arbitrary::{Arbitrary, Unstructured};

use super::field::Field;
use super::protocol::Command;
use super::rules::{CAPACITY, GAUGE_MAX, HEIGHT, OJAMA, PACKS, TURNS, WIDTH};
use super::state::{Pack, Player, State};
use super::CodevsReborn;
use shinpan_core::seam::Reply;
use shinpan_core::stepfuzz::{self, prints_back, Broken, FuzzTargets, Fuzzed, Play};

/// The bodies the fuzz targets of `fuzz/` run for this game.
pub static TARGETS: FuzzTargets = stepfuzz::targets::<CodevsReborn>();

impl Fuzzed for CodevsReborn {
    const GAME: Self = CodevsReborn;
    const PROMPTS: &'static [&'static str] = &["turn", "packs", "prompt"];
    type Play = Action;

    /// The reply parsers: the strict grammar is a subset of what the engine accepts, and a
    /// strict reply prints back to itself.
    fn replies(text: &str) {
        if let Some(command) = prints_back(text, "a reply", Command::parse, Command::print) {
            assert_eq!(
                Command::parse_lenient(text),
                Ok(command),
                "strict implies lenient"
            );
        }
    }

    /// What must hold after any step from `before` to `after`.
    fn check_invariants(before: &State, after: &State) -> Result<(), Broken> {
        for (p, (b, a)) in before.players.iter().zip(&after.players).enumerate() {
            for x in 0..WIDTH {
                if a.field.height(x) > CAPACITY {
                    return Err(format!("player {p}: column {x} is above capacity").into());
                }
                for y in 0..a.field.height(x) {
                    let v = a.field.cell(x, y);
                    if !(1..=9).contains(&v) && v != OJAMA {
                        return Err(format!("player {p}: cell ({x}, {y}) holds {v}").into());
                    }
                }
            }
            if a.skill_gauge > GAUGE_MAX {
                return Err(
                    format!("player {p}: gauge {} above {GAUGE_MAX}", a.skill_gauge).into(),
                );
            }
            if a.score < b.score {
                return Err(format!(
                    "player {p}: score went down from {} to {}",
                    b.score, a.score
                )
                .into());
            }
            if a.time_left_ms > b.time_left_ms {
                return Err(format!("player {p}: thinking time went up").into());
            }
        }
        match &after.outcome {
            None if after.turn != before.turn + 1 => return Err("the turn did not advance".into()),
            None if after.players.iter().any(|p| p.field.max_height() > HEIGHT) => {
                return Err("a field crossed the danger line and the match goes on".into())
            }
            _ => {}
        }
        stepfuzz::canonical_round_trip(after)
    }

    fn arbitrary_state(u: &mut Unstructured) -> arbitrary::Result<State> {
        let turn = u.int_in_range(0..=TURNS - 1)?;
        let pack_count = (turn as usize + 4).min(PACKS);
        let mut packs = Vec::with_capacity(pack_count);
        for _ in 0..pack_count {
            let mut cells = [[0u8; 2]; 2];
            for cell in cells.iter_mut().flatten() {
                *cell = u.int_in_range(0..=9)?;
            }
            packs.push(Pack(cells));
        }
        let mut players: [Player; 2] = Default::default();
        for player in &mut players {
            let mut rows = vec![[0u8; WIDTH]; HEIGHT];
            for x in 0..WIDTH {
                let height = u.int_in_range(0..=HEIGHT)?;
                for row in rows.iter_mut().rev().take(height) {
                    row[x] = if u.ratio(1, 8)? {
                        OJAMA
                    } else {
                        u.int_in_range(1..=9)?
                    };
                }
            }
            player.field =
                Field::from_rows(&rows).map_err(|_| arbitrary::Error::IncorrectFormat)?;
            player.ojama_stock = u.int_in_range(0..=300)?;
            player.skill_gauge = u.int_in_range(0..=GAUGE_MAX)?;
            player.score = u.int_in_range(0..=1_000_000)?;
            player.time_left_ms = u.int_in_range(0..=180_000)?;
        }
        Ok(State {
            turn,
            packs,
            players,
            outcome: None,
        })
    }
}

/// The game's own part of a fuzzed reply (see [`stepfuzz::ArbitraryReply`]): a legal-looking
/// drop or the skill.
#[derive(Debug, Arbitrary)]
pub enum Action {
    Drop {
        position: u8,
        rotation: u8,
        elapsed_ms: u16,
    },
    Skill,
}

impl Play<State> for Action {
    fn into_reply(self, _start: &State) -> Reply {
        match self {
            Action::Drop {
                position,
                rotation,
                elapsed_ms,
            } => Reply::Text {
                text: format!("{} {}", position % 10, rotation % 5),
                elapsed_ms: u64::from(elapsed_ms),
            },
            Action::Skill => Reply::text("S"),
        }
    }
}
