//! The reference engines' speed against the figures issue 27 sets, one line a game: what is
//! measured, the figure, the target, and whether it is met. Every figure is the best of five
//! rounds over the same workload, made once before the rounds from seeded self-play between
//! the built-in players (so that a figure is the engine's, not the players').
//!
//! - CODE VS Reborn: `play_own_field` on every player-turn of 20 matches, in player-turns/s.
//!   The target is the figure a contestant's bitboard simulator reached on such a workload in
//!   one process with shinpan's (7.93 M; the peer is not part of this repository).
//! - CEDEC 2013: 20 whole matches replayed from their replies, in player-turns/s (one reply a
//!   step): through `Game::step` (reading each reply's text) and through the one-turn API
//!   (`engine::play_turn`, commands read beforehand). Target: 1 M.
//! - CODE VS 4.0: one turn with 200 units a side in contact (every unit about a dozen enemies in
//!   range, both players ordering every unit), a thousand times: the time of a 1,000-turn stage
//!   so crowded. Target: under 50 ms.
//! - TSG AUTO CHESS: 20 whole matches between the built-in players, in turns/s. Target: 300 k.
//! - Spring Challenge 2022: 20 whole matches between the built-in players, in matches/s.
//!   Target: 2,000.
//!
//! `cargo bench --bench targets`.

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use shinpan::games::cedec2013::protocol::{is_finish, Command as CedecCommand};
use shinpan::games::cedec2013::Cedec2013;
use shinpan::games::codevs4::Codevs4;
use shinpan::games::codevs_reborn::engine::play_own_field;
use shinpan::games::spring2022::Spring2022;
use shinpan::games::tsg_auto_chess::TsgAutoChess;
use shinpan::seam::{Game, Reply};
use shinpan::selfplay::{match_steps, play_random_match, Prompts};

const SEEDS: std::ops::Range<u64> = 0..20;
const ROUNDS: usize = 5;

/// The shortest of [`ROUNDS`] runs of `run`.
fn best(mut run: impl FnMut()) -> Duration {
    (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            run();
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// One line of the table.
struct Figure {
    game: &'static str,
    what: &'static str,
    measured: f64,
    target: f64,
    unit: &'static str,
    /// Lower is better (a time), else higher (a rate).
    lower_is_better: bool,
}

impl Figure {
    fn rate(game: &'static str, what: &'static str, count: usize, time: Duration) -> Figure {
        Figure {
            game,
            what,
            measured: count as f64 / time.as_secs_f64(),
            target: 0.0,
            unit: "/s",
            lower_is_better: false,
        }
    }

    fn at_least(mut self, target: f64) -> Figure {
        self.target = target;
        self
    }

    fn met(&self) -> bool {
        if self.lower_is_better {
            self.measured <= self.target
        } else {
            self.measured >= self.target
        }
    }
}

/// 1234567 → "1.23 M", 45678 → "45.7 k".
fn human(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.2} M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1} k", x / 1e3)
    } else {
        format!("{x:.1}")
    }
}

fn reborn() -> Figure {
    let turns = common::reborn_turns(SEEDS);
    let mut copies = turns.clone();
    let time = best(|| {
        copies.clone_from(&turns);
        for (player, pack, command) in copies.iter_mut() {
            play_own_field(player, *pack, *command);
        }
        black_box(&copies);
    });
    Figure::rate(
        "codevs-reborn",
        "play_own_field, player-turns",
        turns.len(),
        time,
    )
    .at_least(7.93e6)
}

/// CEDEC 2013's matches as replies (one a step), from the first step.
fn cedec_matches() -> Vec<Vec<Reply>> {
    SEEDS
        .map(|seed| {
            let mut replies = Vec::new();
            play_random_match(
                &Cedec2013,
                seed,
                &Default::default(),
                Prompts::Skipped,
                |_, exchange| {
                    replies.push(Reply::text(exchange.replies[0].clone()));
                    true
                },
            );
            replies
        })
        .collect()
}

/// The commands of a reply's lines up to `finish`, as the engine reads them (a line it cannot
/// read is left out: the engine refuses it and plays on).
fn cedec_commands(reply: &Reply) -> Vec<CedecCommand> {
    let Reply::Text { text, .. } = reply else {
        return Vec::new();
    };
    text.split('\n')
        .take_while(|line| !is_finish(line))
        .filter_map(|line| CedecCommand::parse_lenient(line).ok())
        .chain([CedecCommand::Finish])
        .collect()
}

fn cedec() -> [Figure; 2] {
    let game = Cedec2013;
    let matches = cedec_matches();
    let steps: usize = matches.iter().map(Vec::len).sum();
    let stepped = best(|| {
        for (seed, replies) in SEEDS.zip(&matches) {
            let mut state = game.new_match(seed, &Default::default());
            for reply in replies {
                game.step(&mut state, std::slice::from_ref(reply)).unwrap();
            }
            black_box(&state);
        }
    });
    // The one-turn API from round 1 (round 0 is the name exchange, which it does not play).
    let mut starts = Vec::new();
    let mut turns = Vec::new();
    for (seed, replies) in SEEDS.zip(&matches) {
        let mut state = game.new_match(seed, &Default::default());
        let mut replies = replies.iter();
        while state.round == 0 {
            let Some(reply) = replies.next() else { break };
            game.step(&mut state, std::slice::from_ref(reply)).unwrap();
        }
        starts.push(state);
        turns.push(replies.map(cedec_commands).collect::<Vec<_>>());
    }
    let one_turns: usize = turns.iter().map(Vec::len).sum();
    let played = best(|| {
        for (start, commands) in starts.iter().zip(&turns) {
            let mut state = start.clone();
            for turn in commands {
                black_box(shinpan::games::cedec2013::engine::play_turn(
                    &mut state, turn,
                ));
            }
            black_box(&state);
        }
    });
    [
        Figure::rate("cedec2013", "Game::step, player-turns", steps, stepped).at_least(1e6),
        Figure::rate("cedec2013", "play_turn, player-turns", one_turns, played).at_least(1e6),
    ]
}

fn codevs4() -> Figure {
    let game = Codevs4;
    let (state, replies) = common::codevs4_contact_turn();
    let mut copy = state.clone();
    let time = best(|| {
        for _ in 0..1000 {
            copy.clone_from(&state);
            game.step(&mut copy, &replies).unwrap();
            black_box(&copy);
        }
    });
    Figure {
        game: "codevs4",
        what: "1,000 turns of 200 units a side in contact, ms",
        measured: time.as_secs_f64() * 1e3,
        target: 50.0,
        unit: " ms",
        lower_is_better: true,
    }
}

fn tsg() -> Figure {
    let game = TsgAutoChess;
    let mut steps = 0;
    let time = best(|| {
        steps = SEEDS.map(|s| match_steps(&game, s, Prompts::Skipped)).sum();
    });
    Figure::rate("tsg-auto-chess", "random matches, turns", steps, time).at_least(3e5)
}

fn spring() -> Figure {
    let game = Spring2022;
    let time = best(|| {
        black_box(
            SEEDS
                .map(|s| match_steps(&game, s, Prompts::Skipped))
                .sum::<usize>(),
        );
    });
    Figure::rate("spring2022", "random matches, matches", SEEDS.count(), time).at_least(2e3)
}

fn main() {
    // `cargo bench` passes `--bench`; a filter names the games to measure.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted = |game: &str| filters.is_empty() || filters.iter().any(|f| game.contains(f));
    let mut figures = Vec::new();
    if wanted("codevs-reborn") {
        figures.push(reborn());
    }
    if wanted("cedec2013") {
        figures.extend(cedec());
    }
    if wanted("codevs4") {
        figures.push(codevs4());
    }
    if wanted("tsg-auto-chess") {
        figures.push(tsg());
    }
    if wanted("spring2022") {
        figures.push(spring());
    }
    println!(
        "{:<15} {:<48} {:>12} {:>12}  met",
        "game", "figure", "measured", "target"
    );
    for f in &figures {
        let show = |x: f64| {
            if f.lower_is_better {
                format!("{x:.1}{}", f.unit)
            } else {
                format!("{}{}", human(x), f.unit)
            }
        };
        println!(
            "{:<15} {:<48} {:>12} {:>12}  {}",
            f.game,
            f.what,
            show(f.measured),
            show(f.target),
            if f.met() { "yes" } else { "NO" }
        );
    }
}
