//! What the CEDEC 2013 fuzz bodies check that is its own, as its [`Fuzzed`] (the bodies
//! are [`stepfuzz::targets`]). It lives here, not in `fuzz/`, so that proptest runs the very same
//! checks under `cargo test`; each check panics on a broken property.

use arbitrary::{Arbitrary, Unstructured};

use super::protocol::Command;
use super::rules::{Base, Direction, COORDS, PLAYERS, ROUNDS, TILES};
use super::state::{Field, Player, State, Tile};
use super::Cedec2013;
use crate::seam::{Game, Reply};
use crate::stepfuzz::{self, prints_back, FuzzTargets, Fuzzed, Play};

/// The bodies the fuzz targets of `fuzz/` run for this game.
pub static TARGETS: FuzzTargets = stepfuzz::targets::<Cedec2013>();

impl Fuzzed for Cedec2013 {
    const GAME: Self = Cedec2013;
    const PROMPTS: &'static [&'static str] = &["request"];
    type Play = Lines;

    /// Every line through the command parsers: the strict grammar is a subset of what the
    /// engine accepts, and a strict line prints back to itself.
    fn replies(text: &str) {
        for line in text.split('\n') {
            if let Some(command) = prints_back(line, "a command", Command::parse, Command::print) {
                assert_eq!(
                    Command::parse_lenient(line),
                    Ok(command),
                    "strict implies lenient"
                );
            }
            let _ = Command::parse_lenient(line);
        }
    }

    /// What must hold after any step from `before` to `after`.
    fn check_invariants(before: &State, after: &State) -> Result<(), String> {
        Cedec2013.validate(after).map_err(|e| e.to_string())?;
        if after.scores != after.tiles.scores() {
            return Err("scores do not match the tiles".into());
        }
        for (i, (b, a)) in before.tiles.0.iter().zip(&after.tiles.0).enumerate() {
            let at = COORDS[i];
            if b.base.is_some() && (a.base != b.base || a.owner != b.owner) {
                return Err(format!("{at:?}: a base changed or changed hands"));
            }
            if !b.hole && a.hole {
                return Err(format!("{at:?}: a hole appeared"));
            }
            if b.owner.is_some() && a.owner.is_none() {
                return Err(format!("{at:?}: a tile lost its owner"));
            }
        }
        for (p, (b, a)) in before.players.iter().zip(&after.players).enumerate() {
            if a.overrun_ms < b.overrun_ms || (b.out_of_time && !a.out_of_time) {
                return Err(format!("player {p}: time came back"));
            }
            if b.name.is_some() && a.name != b.name {
                return Err(format!("player {p}: the name changed"));
            }
        }
        if after.outcome.is_none() {
            let next = (before.player + 1) % PLAYERS;
            let expected_round = if before.round == 0 {
                if before.player == PLAYERS - 1 {
                    1
                } else {
                    0
                }
            } else {
                before.round + u32::from(next == 0)
            };
            if after.player != next || after.round != expected_round {
                return Err("the turn did not pass to the next player".into());
            }
        } else if let Some(w) = after.outcome.as_ref().and_then(|o| o.winner) {
            if after.scores.iter().enumerate().any(|(p, &s)| {
                !after.players[p].disqualified
                    && (s > after.scores[w] || (s == after.scores[w] && p > w))
            }) {
                return Err("the winner is not the best-placed player".into());
            }
        }
        stepfuzz::canonical_round_trip(after)
    }

    fn arbitrary_state(u: &mut Unstructured) -> arbitrary::Result<State> {
        let round = u.int_in_range(0..=ROUNDS)?;
        let current = u.int_in_range(0..=PLAYERS - 1)?;
        let mut tiles = Field::default();
        for tile in tiles.0.iter_mut() {
            *tile = match u.int_in_range(0..=9u8)? {
                0..=3 => Tile::default(),
                4 => Tile {
                    hole: true,
                    owner: u.arbitrary::<bool>()?.then_some(u.int_in_range(0..=2)?),
                    ..Tile::default()
                },
                5..=7 => Tile {
                    owner: Some(u.int_in_range(0..=2)?),
                    ..Tile::default()
                },
                _ => {
                    let bases = [
                        Base::Initial,
                        Base::Robotmaker,
                        Base::Excavator,
                        Base::Tower,
                    ];
                    let base = *u.choose(&bases)?;
                    let town = u.ratio(1, 5)?;
                    Tile {
                        owner: Some(u.int_in_range(0..=2)?),
                        base: Some(if town { Base::Town } else { base }),
                        bonus: if town { u.int_in_range(0..=20)? } else { 0 },
                        ..Tile::default()
                    }
                }
            };
            if tile.owner.is_some() {
                tile.robots = u.int_in_range(0..=120)?;
                if tile.hole && tile.robots == 0 {
                    tile.robots = 1;
                }
            }
        }
        let mut players: [Player; PLAYERS] = Default::default();
        for (p, player) in players.iter_mut().enumerate() {
            if round > 0 || p < current {
                player.name = Some(format!("p{p}"));
            }
            player.overrun_ms = u.int_in_range(0..=6_000)?;
            player.out_of_time = player.overrun_ms > 5_000;
            player.disqualified = u.ratio(1, 10)?;
        }
        let scores = tiles.scores();
        Ok(State {
            round,
            player: current,
            players,
            tiles,
            scores,
            outcome: None,
        })
    }
}

/// The game's own part of a fuzzed reply (see [`stepfuzz::ArbitraryReply`]): command lines
/// mostly well formed, now and then anything at all, ending in `finish` or not.
#[derive(Debug, Arbitrary)]
pub struct Lines {
    lines: Vec<ArbitraryLine>,
    finish: bool,
    elapsed_ms: u16,
}

#[derive(Debug, Arbitrary)]
enum ArbitraryLine {
    Move { tile: u8, dir: u8, robots: i8 },
    Build { tile: u8, base: u8 },
    Reset,
    Raw(String),
}

impl Play<State> for Lines {
    fn into_reply(self, _start: &State) -> Reply {
        let mut text: Vec<String> = self.lines.into_iter().take(40).map(line_text).collect();
        if self.finish {
            text.push("finish".into());
        }
        Reply::Text {
            text: text.join("\n"),
            elapsed_ms: u64::from(self.elapsed_ms),
        }
    }
}

fn line_text(line: ArbitraryLine) -> String {
    let at = |tile: u8| COORDS[usize::from(tile) % TILES];
    match line {
        ArbitraryLine::Move { tile, dir, robots } => {
            let (x, y) = at(tile);
            let dir = Direction::ALL[usize::from(dir) % 6].name();
            format!("move {x} {y} {dir} {robots}")
        }
        ArbitraryLine::Build { tile, base } => {
            let (x, y) = at(tile);
            let base = Base::BUILDABLE[usize::from(base) % 6].name();
            format!("build {x} {y} {base}")
        }
        ArbitraryLine::Reset => "reset".into(),
        ArbitraryLine::Raw(text) => text,
    }
}
