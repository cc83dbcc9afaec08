//! What the CODE VS 4.0 fuzz bodies check that is its own, as its [`Fuzzed`] (the bodies
//! are [`stepfuzz::targets`]). It lives here, not in `fuzz/`, so that proptest runs the very same
//! checks under `cargo test`; each check panics on a broken property.

use arbitrary::{Arbitrary, Unstructured};

use super::protocol::{Order, Orders};
use super::rules::{gathered, income, Cell, Kind, MAX_ID, RESOURCE_CELLS, STAGES, TURNS};
use super::state::{Player, State, Unit, Units};
use super::Codevs4;
use shinpan_core::seam::{Game, Reply};
use shinpan_core::stepfuzz::{self, prints_back, Broken, FuzzTargets, Fuzzed, Play};

/// The bodies the fuzz targets of `fuzz/` run for this game.
pub static TARGETS: FuzzTargets = stepfuzz::targets::<Codevs4>();

impl Fuzzed for Codevs4 {
    const GAME: Self = Codevs4;
    type Play = Lines;

    /// The output parsers, on the whole text and line by line: the strict grammar is a subset of
    /// what the engine takes, both readings agree, and a strict output prints back to itself.
    fn replies(text: &str) {
        let lenient = Orders::read_lenient(text);
        if let Some(orders) = prints_back(text, "an output", Orders::parse, Orders::print) {
            assert!(lenient.is_whole(), "strict implies lenient");
            let read: Vec<Order> = lenient.lines.iter().flatten().copied().collect();
            assert_eq!(read, orders.orders, "both readings agree");
        }
        for line in text.split('\n') {
            let lenient = Order::read_lenient(line);
            if let Ok(strict) = Orders::parse(&format!("1\n{line}")) {
                assert_eq!(
                    strict.orders.first().copied(),
                    lenient,
                    "strict implies lenient"
                );
            }
        }
    }

    /// What must hold after any step from `before` to `after`: HP never rises, except that a new
    /// unit appears at its kind's full HP less this turn's damage; ids stay unique and new ones
    /// come from `next_id`; units stay on the field and move one cell at most; resources grow by
    /// no more than the turn's income; time never comes back.
    fn check_invariants(before: &State, after: &State) -> Result<(), Broken> {
        Self::GAME.validate(after).map_err(|e| e.to_string())?;
        if after.turn != before.turn + 1 {
            return Err("the turn did not advance by one".into());
        }
        if !after.units.0.windows(2).all(|w| w[0].id < w[1].id) {
            return Err("ids are not unique and ascending".into());
        }
        let first_new = before.next_id();
        for unit in after.units.iter() {
            if !unit.cell.on_field() {
                return Err(format!("unit {} left the field", unit.id).into());
            }
            match before.units.get(unit.id) {
                Some(old) => {
                    if unit.hp > old.hp {
                        return Err(
                            format!("unit {}: HP rose {} → {}", unit.id, old.hp, unit.hp).into(),
                        );
                    }
                    if (unit.owner, unit.kind) != (old.owner, old.kind) {
                        return Err(format!("unit {} changed owner or kind", unit.id).into());
                    }
                    if unit.cell.distance(old.cell) > 1 {
                        return Err(format!("unit {} moved more than one cell", unit.id).into());
                    }
                }
                None => {
                    if unit.id < first_new || Some(unit.id) >= after.next_id {
                        return Err(
                            format!("unit {} has an id not taken from next_id", unit.id).into()
                        );
                    }
                    let producer = before.units.iter().any(|p| {
                        p.owner == unit.owner && p.cell == unit.cell && p.kind.produces(unit.kind)
                    });
                    if !producer {
                        return Err(
                            format!("unit {} appeared where no producer stood", unit.id).into()
                        );
                    }
                }
            }
        }
        for p in 0..2 {
            let (b, a) = (&before.players[p], &after.players[p]);
            let most =
                income(before.stage, p) + gathered(u32::MAX) * before.resource_cells.len() as u32;
            if a.resources > b.resources.saturating_add(most) {
                return Err(format!("player {p}: resources grew by more than {most}").into());
            }
            if a.time_left_ms > b.time_left_ms {
                return Err(format!("player {p}: time came back").into());
            }
        }
        stepfuzz::canonical_round_trip(after)
    }

    /// A state near a battle: units in a small square so that they meet, at any HP.
    fn arbitrary_state(u: &mut Unstructured) -> arbitrary::Result<State> {
        let stage = u.int_in_range(0..=STAGES - 1)?;
        let turn = u.int_in_range(0..=TURNS - 1)?;
        let spread = u.int_in_range(1..=99)?;
        let corner = Cell {
            x: u.int_in_range(0..=99 - spread)?,
            y: u.int_in_range(0..=99 - spread)?,
        };
        let cell = |u: &mut Unstructured| -> arbitrary::Result<Cell> {
            Ok(Cell {
                x: corner.x + u.int_in_range(0..=spread)?,
                y: corner.y + u.int_in_range(0..=spread)?,
            })
        };
        let mut units = Vec::new();
        let mut id = 0u32;
        for owner in 0..2 {
            units.push(Unit::new(id, owner, Kind::Castle, cell(u)?));
            id += 1;
        }
        let count = u.int_in_range(0..=80)?;
        for _ in 0..count {
            id += u.int_in_range(1..=40)?;
            if id > MAX_ID {
                break;
            }
            let kind = *u.choose(&[
                Kind::Worker,
                Kind::Knight,
                Kind::Fighter,
                Kind::Assassin,
                Kind::Village,
                Kind::Base,
            ])?;
            let mut unit = Unit::new(id, u.int_in_range(0..=1)?, kind, cell(u)?);
            unit.hp = u.int_in_range(1..=kind.max_hp())?;
            units.push(unit);
        }
        for castle in units.iter_mut().take(2) {
            castle.hp = u.int_in_range(1..=Kind::Castle.max_hp())?;
        }
        let mut resource_cells = Vec::new();
        for _ in 0..u.int_in_range(0..=RESOURCE_CELLS)? {
            let c = cell(u)?;
            if !resource_cells.contains(&c) {
                resource_cells.push(c);
            }
        }
        let largest = units.iter().map(|u| u.id).max().unwrap_or(0);
        let next_id = if u.arbitrary()? {
            None
        } else {
            Some(u.int_in_range(largest + 1..=MAX_ID + 1)?)
        };
        let mut players = [Player::default(), Player::default()];
        for player in &mut players {
            player.resources = u.int_in_range(0..=2_000)?;
            player.time_left_ms = u.int_in_range(0..=super::rules::THINKING_TIME_MS)?;
        }
        Ok(State {
            stage,
            turn,
            players,
            units: Units(units),
            resource_cells,
            next_id,
            outcome: None,
        })
    }
}

/// The game's own part of a fuzzed output (see [`stepfuzz::ArbitraryReply`]): mostly order
/// lines for units of the state the fuzzing started from, a count that may be off.
#[derive(Debug, Arbitrary)]
pub struct Lines {
    lines: Vec<ArbitraryLine>,
    count_off_by: i8,
    elapsed_ms: u32,
}

#[derive(Debug, Arbitrary)]
enum ArbitraryLine {
    Order { unit: u16, command: u8 },
    Raw(String),
}

impl Play<State> for Lines {
    fn into_reply(self, start: &State) -> Reply {
        let lines: Vec<String> = self
            .lines
            .into_iter()
            .take(60)
            .map(|line| line_text(line, &start.units.0))
            .collect();
        let count = if self.count_off_by % 8 == 0 {
            lines.len() as i64 + i64::from(self.count_off_by.signum())
        } else {
            lines.len() as i64
        };
        let text = std::iter::once(count.to_string())
            .chain(lines)
            .collect::<Vec<_>>()
            .join("\n");
        Reply::Text {
            text,
            elapsed_ms: u64::from(self.elapsed_ms),
        }
    }
}

fn line_text(line: ArbitraryLine, units: &[Unit]) -> String {
    const LETTERS: [&str; 12] = ["U", "D", "L", "R", "0", "1", "2", "3", "5", "6", "4", "u"];
    match line {
        ArbitraryLine::Order { unit, command } => {
            let id = match units.get(usize::from(unit) % (units.len() + 3)) {
                Some(known) => known.id,
                None => u32::from(unit),
            };
            format!("{id} {}", LETTERS[usize::from(command) % LETTERS.len()])
        }
        ArbitraryLine::Raw(text) => text.replace('\n', " "),
    }
}
