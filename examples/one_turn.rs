//! One turn of each game from typed commands, as a bot author plays their own turn to search
//! ahead: no match, no reply text. README's section "One-turn API" shows these functions, word
//! for word (a test keeps it so). `cargo run --example one_turn`.

fn main() {
    codevs_reborn();
    cedec2013();
    codevs4();
    tsg_auto_chess();
    spring2022();
}

fn codevs_reborn() {
    use shinpan::games::codevs_reborn::engine::play_own_field;
    use shinpan::games::codevs_reborn::protocol::Command;
    use shinpan::games::codevs_reborn::CodevsReborn;
    use shinpan::seam::Game;

    let state = CodevsReborn.new_match(1, &Default::default());
    // Player 0's side of turn 0: this turn's pack, dropped at the left edge.
    let mut me = state.players[0].clone();
    let pack = state.packs[state.turn as usize];
    let drop = Command::Drop {
        position: 0,
        rotation: 0,
    };
    play_own_field(&mut me, pack, drop);
    println!(
        "codevs-reborn: field {} high, score {}",
        me.field.max_height(),
        me.score
    );
}

fn cedec2013() {
    use shinpan::games::cedec2013::engine::play_turn;
    use shinpan::games::cedec2013::protocol::Command;
    use shinpan::games::cedec2013::rules::{Direction, COORDS};
    use shinpan::games::cedec2013::Cedec2013;
    use shinpan::seam::{Game, Reply};

    let mut state = Cedec2013.new_match(1, &Default::default());
    // Round 0 is the name exchange (not a turn): three names, then player 0 moves.
    for name in ["a", "b", "c"] {
        Cedec2013
            .step(&mut state, &[Reply::text(name)])
            .expect("a name");
    }
    let factory = (0..COORDS.len()).find(|&i| state.tiles.0[i].owned_by(0));
    let (x, y) = COORDS[factory.expect("player 0 holds a tile")];
    let (x, y) = (i32::from(x), i32::from(y));
    let commands = [
        Command::Move {
            x,
            y,
            dir: Direction::Right,
            robots: 2,
        },
        Command::Move {
            x,
            y,
            dir: Direction::Left,
            robots: 2,
        },
        Command::Finish,
    ];
    let results = play_turn(&mut state, &commands);
    println!("cedec2013: {results:?}, player {} to move", state.player);
}

fn codevs4() {
    use shinpan::games::codevs4::engine::play_turn;
    use shinpan::games::codevs4::protocol::{Command, Order, Orders};
    use shinpan::games::codevs4::rules::{Direction, Kind};
    use shinpan::games::codevs4::state::Unit;
    use shinpan::games::codevs4::Codevs4;
    use shinpan::seam::Game;

    let mut state = Codevs4.new_match(1, &Default::default());
    // Every worker steps right; the castles, with nothing to pay with yet, try a worker each.
    let orders = [0, 1].map(|p| {
        let own = state.units.0.iter().filter(|u| u.owner == p);
        let order = |unit: &Unit| match unit.kind {
            Kind::Castle => Command::Produce(Kind::Worker),
            _ => Command::Move(Direction::Right),
        };
        Orders {
            orders: own
                .map(|u| Order {
                    unit: u.id,
                    command: order(u),
                })
                .collect(),
        }
    });
    let results = play_turn(&mut state, [&orders[0], &orders[1]]);
    // One result per order: `Err` says why the order was ignored.
    println!("codevs4: player 0's orders {:?}", results[0]);
}

fn tsg_auto_chess() {
    use shinpan::games::tsg_auto_chess::engine::play_turn;
    use shinpan::games::tsg_auto_chess::protocol::{Command, TurnReply};
    use shinpan::games::tsg_auto_chess::TsgAutoChess;
    use shinpan::seam::Game;

    let mut state = TsgAutoChess.new_match(1, &Default::default());
    // Each player buys its shop's first unit onto the cell in front of its king, which every
    // player sees at (7, 0) in its own frame.
    let replies = [0, 1].map(|p| {
        let id = i64::from(state.players[p].shop[0].id);
        let command = Command::Buy { id, x: 7, y: 1 };
        TurnReply {
            command,
            moves: Vec::new(),
        }
    });
    play_turn(&mut state, [&replies[0], &replies[1]]);
    println!("tsg-auto-chess: {} units on the board", state.units.len());
}

fn spring2022() {
    use shinpan::games::spring2022::engine::play_turn;
    use shinpan::games::spring2022::protocol::{Command, Order, Reply};
    use shinpan::games::spring2022::Spring2022;
    use shinpan::seam::Game;

    let mut state = Spring2022.new_match(1, &Default::default());
    // Player 0's heroes head for the centre of the map; player 1's wait.
    let order = |command| Order {
        command,
        message: None,
        trailing_spaces: 0,
    };
    let centre = order(Command::Move { x: 8815, y: 4500 });
    let out = Reply {
        orders: vec![centre; 3],
    };
    let wait = Reply {
        orders: vec![order(Command::Wait); 3],
    };
    play_turn(&mut state, [&out, &wait]);
    let hero = &state.heroes[0];
    println!(
        "spring2022: hero 0 at ({}, {}), turn {}",
        hero.x, hero.y, state.turn
    );
}
