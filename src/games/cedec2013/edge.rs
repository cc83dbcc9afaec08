//! Valid requests at the extremes of the CEDEC 2013 document, for the bot checker: the name
//! request alone, the last round in every seat, every player one point short of the end, the
//! most holes the generator makes, one player holding every tile (and the others none), the
//! largest robot counts, every base type with the largest resource count a tile can show, and
//! the bot's robots on every border tile.
//!
//! A fresh CEDEC bot reads the round-0 name request first (D-cedec-10), so every case starts
//! with the name request for its seat, then gives the extreme state; see
//! [`crate::seam::EdgeCase`]. States are built tile by tile; their scores are derived from the
//! tiles as the engine writes them. Each doc comment says whether the rules can reach the state
//! or only [`Game::validate`] accepts it.

use super::engine::start_turn;
use super::rules::{
    generated_third, index, rotate120, rotate240, Base, COORDS, FACTORY_OUTPUT, PLAYERS, RADIUS,
    ROUNDS, TILES, WINNING_SCORE,
};
use super::state::{Field, State, Tile};
use super::Cedec2013;
use crate::seam::{EdgeCase, EdgeCases, Game, NoOptions};

/// The seed of the generated map of the name request and the last-round cases: any fixed value.
const SEED: u64 = 0;

/// The most robots one tile holds here. Robots are unbounded in principle (nothing in the
/// document caps them); this is what one player can have after 200 turn starts
/// (「ゲームの終了」) when every rule that slows production is waived: its factory makes 5 a turn
/// and each robotmaker 1 (D-cedec-3); a robotmaker costs 50 robots (one build a turn,
/// D-cedec-6); no robot is ever lost. Building the first k robotmakers as soon as 50 robots are
/// at hand and hoarding the rest, the stock after 200 turns is largest at k = 74: 4360 robots
/// (a bot that never builds has 1000). `tests::the_robot_bound_is_200_turns_of_production`
/// recomputes it. Only one player's robots can share a tile (D-cedec-5: others fight them).
pub const MOST_ROBOTS: u32 = 4_360;

/// Of the generated third, the tile that is each player's factory in [`most_holes_field`].
const FACTORY: (i8, i8) = (3, 1);

impl EdgeCases for Cedec2013 {
    /// Each case starts with its seat's round-0 name request, then an extreme state.
    fn edge_cases(&self) -> Vec<EdgeCase<State>> {
        let case = |name: &str, seat: usize, state: State| EdgeCase {
            name: name.into(),
            seat,
            states: vec![name_request(seat), state],
        };
        let mut cases = vec![EdgeCase {
            name: "name-request-alone".into(),
            seat: 0,
            states: vec![name_request(0)],
        }];
        for seat in 0..PLAYERS {
            cases.push(case(
                &format!("last-round-seat-{seat}"),
                seat,
                last_round(seat),
            ));
        }
        cases.extend([
            case("every-player-at-99-points", 1, every_player_at_99()),
            case("14-holes-in-every-third", 0, most_holes_first_turn()),
            case("player-0-holds-every-tile", 1, player_0_holds_every_tile()),
            case("largest-robot-counts", 0, largest_robot_counts()),
            case("every-base-type-and-7-resources", 2, every_base_type()),
            case("own-robots-on-every-border-tile", 0, own_border()),
        ]);
        cases
    }
}

/// Round 0 with `seat` to give its name, the players before it named: reachable.
fn name_request(seat: usize) -> State {
    let mut state = Cedec2013.new_match(SEED, &NoOptions {});
    state.player = seat;
    for (p, player) in state.players.iter_mut().enumerate().take(seat) {
        player.name = Some(format!("player{p}"));
    }
    state
}

/// A match in `round` with `player` to move on `tiles`, every player named.
fn in_round(round: u32, player: usize, tiles: Field) -> State {
    let mut state = State {
        round,
        player,
        scores: tiles.scores(),
        tiles,
        ..State::default()
    };
    for (p, named) in state.players.iter_mut().enumerate() {
        named.name = Some(format!("player{p}"));
    }
    state
}

/// Round 200 with `seat` to move after every player ended every turn at once: reachable. The
/// factories hold 5 robots for each turn start so far (200 for the players up to `seat`, 199
/// after it); `seat` 2 is the last turn of the match.
fn last_round(seat: usize) -> State {
    let mut tiles = Cedec2013.new_match(SEED, &NoOptions {}).tiles;
    for tile in &mut tiles.0 {
        if let (Some(owner), Some(Base::Initial)) = (tile.owner, tile.base) {
            let turn_starts = if usize::from(owner) <= seat {
                ROUNDS
            } else {
                ROUNDS - 1
            };
            tile.robots = FACTORY_OUTPUT * turn_starts;
        }
    }
    in_round(ROUNDS, seat, tiles)
}

/// Each player one point short of the 100 that end the match (「ゲームの終了」): its factory and
/// 32 bases, 3 points each (D-cedec-9), all six buildable kinds in turn; the 9 tiles left in each
/// third are holes. [`Game::validate`] accepts it; no build order reaching exactly this layout
/// is shown (the last base built needs own settlements around, which a town turns into houses).
fn every_player_at_99() -> State {
    let mut tiles = Field::default();
    let third: Vec<(i8, i8)> = generated_third().collect();
    for (k, &at) in third.iter().enumerate() {
        let tile = match k {
            0 => owned(0, Some(Base::Initial), 1),
            1..=32 => owned(0, Some(Base::BUILDABLE[(k - 1) % Base::BUILDABLE.len()]), 1),
            _ => Tile {
                hole: true,
                ..Tile::default()
            },
        };
        place_rotated(&mut tiles, at, tile);
    }
    let state = in_round(150, 1, tiles);
    debug_assert_eq!(state.scores, [WINNING_SCORE - 1; PLAYERS]);
    state
}

/// Round 1, player 0 to move, on a map with 14 holes in every third: the most the generator
/// keeps (D-cedec-8 draws a third again at 15). Reachable: the generator can draw it.
fn most_holes_first_turn() -> State {
    let mut tiles = most_holes_field();
    start_turn(&mut tiles, 0);
    in_round(1, 0, tiles)
}

/// Player 0 holds all 127 tiles, the other two factories and robots in all 42 holes included;
/// players 1 (to move) and 2 hold none. Only [`Game::validate`] accepts it: the rules keep a
/// factory with its owner (robots cannot enter an enemy base, D-cedec-5). Player 0 has 91
/// points (3 factories, 82 settlements, holes score 0), so the match goes on.
fn player_0_holds_every_tile() -> State {
    let mut tiles = most_holes_field();
    for tile in &mut tiles.0 {
        tile.owner = Some(0);
        tile.robots = 1;
    }
    in_round(120, 1, tiles)
}

/// [`MOST_ROBOTS`] for each player on one tile: player 0 (to move) on its factory, player 1 in
/// a hole it fell into, player 2 on a robotmaker. An upper bound of what the rules reach (see
/// [`MOST_ROBOTS`]), not a replayed match.
fn largest_robot_counts() -> State {
    let mut tiles = most_holes_field();
    tiles.0[at(FACTORY)].robots = MOST_ROBOTS;
    let hole = generated_third()
        .find(|&p| tiles.0[at(rotate120(p))].hole)
        .map(rotate120)
        .unwrap_or(FACTORY);
    tiles.0[at(hole)].owner = Some(1);
    tiles.0[at(hole)].robots = MOST_ROBOTS;
    let plain = generated_third()
        .find(|&p| {
            let t = tiles.0[at(rotate240(p))];
            !t.hole && t.owner.is_none()
        })
        .map(rotate240)
        .unwrap_or(FACTORY);
    tiles.0[at(plain)] = owned(2, Some(Base::Robotmaker), MOST_ROBOTS);
    in_round(ROUNDS, 0, tiles)
}

/// Every installation for every player, each in a territory where it could have been built:
/// a player holds its whole third as settlements, and on it its factory, one base of each
/// buildable kind, a settlement ringed by six own excavators — 7 resources (D-cedec-4: 1 + 6,
/// the most a tile can have) — and a town on the corner built with exactly the 9 resources it
/// needs (D-cedec-3: bonus 0), its three own neighbours houses since, the excavators that fed
/// them still there. 78 points each. Player 2 to move. Reachable in outline.
///
/// A town's bonus (at most 16: 25 resources around − 9) is not in the request, so a larger
/// one would be no harder for a bot; it would only change the scores.
fn every_base_type() -> State {
    let mut tiles = Field::default();
    for p in generated_third() {
        place_rotated(&mut tiles, p, owned(0, None, 1));
    }
    let excavator = owned(0, Some(Base::Excavator), 1);
    let layout: [((i8, i8), Tile); 19] = [
        ((5, 1), owned(0, Some(Base::Initial), 3)),
        ((4, 0), owned(0, Some(Base::Robotmaker), 2)),
        ((1, 0), owned(0, Some(Base::Tower), 4)),
        ((-3, 5), owned(0, Some(Base::Bridge), 5)),
        ((6, 0), owned(0, Some(Base::House), 0)),
        (TOWN, owned(0, Some(Base::Town), 1)),
        ((-1, 6), owned(0, Some(Base::House), 0)),
        ((0, 5), owned(0, Some(Base::House), 0)),
        ((1, 5), owned(0, Some(Base::House), 0)),
        ((-1, 5), excavator),
        ((0, 4), excavator),
        ((1, 4), excavator),
        (SEVEN_RESOURCES, owned(0, None, 6)),
        ((3, 2), excavator),
        ((1, 2), excavator),
        ((3, 1), excavator),
        ((2, 1), excavator),
        ((2, 3), excavator),
        ((1, 3), excavator),
    ];
    for (at, tile) in layout {
        place_rotated(&mut tiles, at, tile);
    }
    in_round(100, 2, tiles)
}

/// Of the generated third, the town of [`every_base_type`] ...
const TOWN: (i8, i8) = (0, 6);
/// ... and its settlement ringed by excavators.
const SEVEN_RESOURCES: (i8, i8) = (2, 2);

/// Player 0 (to move) holds the 36 tiles on the field's border, 10 robots on each, so that
/// every coordinate of the rim is its own and every direction leaves the field somewhere; the
/// factories stand inside. Reachable in outline: by round 100 its factory has made 500 robots,
/// more than the 365 shown, and taking wasteland costs none (D-cedec-5).
fn own_border() -> State {
    let mut tiles = Field::default();
    for (p, q) in [FACTORY, rotate120(FACTORY), rotate240(FACTORY)]
        .into_iter()
        .enumerate()
    {
        tiles.0[at(q)] = owned(p, Some(Base::Initial), 0);
    }
    for i in (0..TILES).filter(|&i| on_border(i)) {
        tiles.0[i] = owned(0, None, 10);
    }
    tiles.0[at(FACTORY)].robots = FACTORY_OUTPUT;
    in_round(100, 0, tiles)
}

/// Whether tile `i` is one of the 36 on the field's rim: distance 6 from the centre (D-cedec-2).
fn on_border(i: usize) -> bool {
    let (x, y) = COORDS[i];
    x.abs().max(y.abs()).max((x + y).abs()) == RADIUS
}

/// The map of the most holes (D-cedec-8): in the generated third, every third tile counted in
/// its order is a hole, 14 in all, the factory at [`FACTORY`]; turned by 120° and 240°; no robots.
fn most_holes_field() -> Field {
    let mut tiles = Field::default();
    for (k, p) in generated_third().enumerate() {
        let tile = if p == FACTORY {
            owned(0, Some(Base::Initial), 0)
        } else {
            Tile {
                hole: k % 3 == 1,
                ..Tile::default()
            }
        };
        place_rotated(&mut tiles, p, tile);
    }
    tiles
}

/// `tile` at `p` for player 0 and turned by 120° and 240° for players 1 and 2.
fn place_rotated(tiles: &mut Field, p: (i8, i8), tile: Tile) {
    for (shift, q) in [p, rotate120(p), rotate240(p)].into_iter().enumerate() {
        let owner = tile.owner.map(|o| (o + shift as u8) % PLAYERS as u8);
        tiles.0[at(q)] = Tile { owner, ..tile };
    }
}

fn owned(player: usize, base: Option<Base>, robots: u32) -> Tile {
    Tile {
        owner: Some(player as u8),
        robots,
        base,
        ..Tile::default()
    }
}

/// The index of a tile of this file's layouts, all on the field.
fn at((x, y): (i8, i8)) -> usize {
    index(i32::from(x), i32::from(y)).unwrap_or_else(|| panic!("({x}, {y}) is off the field"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::cedec2013::mapgen;
    use crate::games::cedec2013::rules::{
        neighbours, MAX_THIRD_HOLES, ROBOTMAKER_OUTPUT, TOWN_BONUS_OFFSET,
    };
    use crate::games::cedec2013::tally::resources_around;
    use crate::seam::{ParseVerdict, Reply, ReplyVerdict};

    #[test]
    fn every_edge_state_is_valid_and_its_request_prints_back() {
        let game = Cedec2013;
        for case in Cedec2013.edge_cases() {
            assert_eq!(
                case.states[0].round, 0,
                "{}: a fresh bot reads its name request first",
                case.name
            );
            for state in &case.states {
                assert_eq!(game.validate(state), Ok(()), "{}", case.name);
                assert_eq!(game.awaiting(state), vec![case.seat], "{}", case.name);
                let prompt = game.prompt(state, case.seat);
                assert_eq!(
                    game.parse("request", &prompt),
                    Some(ParseVerdict::Valid {
                        printed: prompt.clone()
                    }),
                    "{}",
                    case.name
                );
                let answer = if state.round == 0 { "idle" } else { "finish" };
                let mut next = state.clone();
                let report = game.step(&mut next, &[Reply::text(answer)]).unwrap();
                assert_eq!(
                    report.replies,
                    vec![ReplyVerdict::Accepted],
                    "{}",
                    case.name
                );
            }
        }
    }

    #[test]
    fn between_8_and_12_cases_with_distinct_names() {
        let cases = Cedec2013.edge_cases();
        let mut names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), cases.len());
        assert!((8..=12).contains(&cases.len()), "{}", cases.len());
    }

    #[test]
    fn the_most_holes_map_is_one_the_generator_keeps() {
        let facts = mapgen::facts(&most_holes_field());
        assert_eq!(facts["holes_per_third"], MAX_THIRD_HOLES - 1);
        assert_eq!(facts["rotation_symmetric"], true);
        assert_eq!(facts["factories_connected"], true);
        assert_eq!(facts["reachable_more_than_half"], true);
        assert_eq!(facts["centre_is_hole"], false);
    }

    #[test]
    fn the_extremes_are_what_the_cases_say() {
        let scores_of = |name: &str| {
            let case = Cedec2013
                .edge_cases()
                .into_iter()
                .find(|c| c.name == name)
                .unwrap();
            case.states[1].scores
        };
        assert_eq!(scores_of("every-player-at-99-points"), [99, 99, 99]);
        assert_eq!(scores_of("player-0-holds-every-tile"), [91, 0, 0]);
        let bases = Cedec2013
            .edge_cases()
            .into_iter()
            .find(|c| c.name == "every-base-type-and-7-resources")
            .unwrap();
        let state = &bases.states[1];
        assert_eq!(state.scores, [78; PLAYERS]);
        let text = Cedec2013.prompt(state, 2);
        assert!(text.contains("\n2 2 0 6 7 settlement none\n"), "{text}");
        for base in [
            "initial",
            "robotmaker",
            "excavator",
            "tower",
            "bridge",
            "house",
            "town",
        ] {
            assert!(text.contains(&format!(" base {base}\n")), "{base}");
        }
        // Before the town: it and its houses plain settlements, with 9 resources around.
        let mut before = state.tiles.clone();
        let town = at(TOWN);
        before.0[town].base = None;
        for n in neighbours(town) {
            before.0[n].base = None;
        }
        assert_eq!(resources_around(&before, town, 0), TOWN_BONUS_OFFSET);
        let robots = Cedec2013
            .edge_cases()
            .into_iter()
            .find(|c| c.name == "largest-robot-counts")
            .unwrap();
        let text = Cedec2013.prompt(&robots.states[1], 0);
        for (owner, installation) in [
            (0, "base initial"),
            (1, "hole hole"),
            (2, "base robotmaker"),
        ] {
            let line = format!(" {owner} {MOST_ROBOTS} 0 {installation}\n");
            assert!(text.contains(&line), "{line:?} in {text}");
        }
        let border = Cedec2013
            .edge_cases()
            .into_iter()
            .find(|c| c.name == "own-robots-on-every-border-tile")
            .unwrap();
        let rim = (0..TILES)
            .filter(|&i| on_border(i))
            .map(|i| border.states[1].tiles.0[i]);
        assert_eq!(rim.filter(|t| t.owned_by(0) && t.robots == 10).count(), 36);
    }

    /// [`MOST_ROBOTS`]: the largest stock after 200 turn starts, over every number k of
    /// robotmakers built as soon as 50 robots are at hand.
    #[test]
    fn the_robot_bound_is_200_turns_of_production() {
        let stock_with = |k: u32| {
            let (mut robots, mut robotmakers) = (0u32, 0u32);
            for _ in 0..ROUNDS {
                robots += FACTORY_OUTPUT + ROBOTMAKER_OUTPUT * robotmakers;
                if robotmakers < k && robots >= Base::Robotmaker.robot_cost() {
                    robots -= Base::Robotmaker.robot_cost();
                    robotmakers += 1;
                }
            }
            robots
        };
        assert_eq!(stock_with(0), 1000);
        assert_eq!((0..TILES as u32).map(stock_with).max(), Some(MOST_ROBOTS));
    }
}
