//! Each misreading does what DEPARTURES.md says it does, on a small state worked out by hand,
//! beside what the reference does there: the tally judges shinpan's names on these engines, so
//! the engines themselves must be what they are said to be.

use serde_json::{json, Value};
use shinpan::games::spring2022::jrandom::JavaRandom;
use shinpan::run::{Answered, EngineUnderTest, Reference, StepRequest, StepResponse};
use shinpan::seam::Reply;

use super::engines::{LeftOut, StaleFields, WrongMoment};
use super::turn::TurnByTurn;

/// `turns` (player 0's reply, player 1's) from `given` on `engine`.
fn play(engine: &mut dyn EngineUnderTest, given: &Value, turns: &[[&str; 2]]) -> StepResponse {
    let game = shinpan::games::by_id("spring2022").expect("spring2022 is registered");
    let turns: Vec<Vec<Reply>> = turns
        .iter()
        .map(|t| t.iter().map(|r| Reply::text(*r)).collect())
        .collect();
    let request = StepRequest {
        id: "behaviour",
        game,
        state: given,
        turns: &turns,
        reachable: true,
    };
    match engine.step(request) {
        Answered::Done(response) => response,
        other => panic!("{}: {other:?}", engine.name()),
    }
}

const WAITS: &str = "WAIT\nWAIT\nWAIT";

fn prompt_line(response: &StepResponse, player: usize, line: usize) -> String {
    let prompts = response.prompts.as_ref().expect("prompts");
    prompts[player]
        .lines()
        .nth(line)
        .expect("the line")
        .to_string()
}

/// left_out M1: at the start the enemy heroes are far beyond player 0's sight; without fog its
/// first prompt lists all six heroes (the start block is two lines, then two base lines).
#[test]
fn left_out_shows_what_the_fog_hides() {
    let start = json!({});
    let ours = play(&mut TurnByTurn(LeftOut::ALL), &start, &[]);
    let reference = play(&mut Reference, &start, &[]);
    assert_eq!(prompt_line(&reference, 0, 4), "3");
    assert_eq!(prompt_line(&ours, 0, 4), "6");
}

/// left_out M2: hero 0 at the centre, 9944 from its base, hits a mob 500 away: 2 mana, and 2
/// wild mana by the rules, none here.
#[test]
fn left_out_counts_no_wild_mana() {
    let given = json!({
        "turn": 2, "spawner": {"last_turn": 1},
        "heroes": [{"x": 8815, "y": 4500}],
        "mobs": [{"id": 6, "x": 8815, "y": 5000}],
    });
    let turns = [[WAITS, WAITS]];
    let ours = play(&mut TurnByTurn(LeftOut::ALL), &given, &turns);
    let reference = play(&mut Reference, &given, &turns);
    assert_eq!(reference.state["players"][0]["wild_mana"], 2);
    assert_eq!(ours.state["players"][0]["mana"], 2);
    assert_eq!(ours.state["players"][0]["wild_mana"], 0);
}

/// left_out M2: turn 220 ends with equal base health; player 0 has more wild mana: it wins by
/// the rules, a draw here.
#[test]
fn left_out_ends_equal_health_in_a_draw() {
    let given = json!({
        "turn": 220, "spawner": {"last_turn": 216},
        "players": [{"wild_mana": 4}, {"wild_mana": 2}],
    });
    let turns = [[WAITS, WAITS]];
    let ours = play(&mut TurnByTurn(LeftOut::ALL), &given, &turns);
    let reference = play(&mut Reference, &given, &turns);
    assert_eq!(reference.state["outcome"]["winner"], 0);
    assert_eq!(ours.state["outcome"]["winner"], Value::Null);
}

/// left_out M3: the wave at the end of turn 201 draws one nextDouble per spawn point, as before
/// turn 200, and no target (two nextInt and a nextBoolean each in sudden death).
#[test]
fn left_out_draws_an_ordinary_wave_in_sudden_death() {
    let given = json!({"turn": 201, "spawner": {"last_turn": 196}});
    let turns = [[WAITS, WAITS]];
    let ours = play(&mut TurnByTurn(LeftOut::ALL), &given, &turns);
    let loaded = play(&mut Reference, &given, &[]);
    let rng = loaded.state["rng"].as_u64().expect("rng");
    let mut two_doubles = JavaRandom::from_state(rng);
    two_doubles.next_double();
    two_doubles.next_double();
    assert_eq!(ours.state["rng"], two_doubles.seed);
    assert_eq!(ours.state["mobs"].as_array().map(Vec::len), Some(4));
    assert_eq!(ours.state["spawner"]["last_turn"], 201);
}

/// wrong_moment M1: hero 0 hits five mobs (10 mana) and WINDs them north with no mana in hand.
/// The rules: the WIND fails, 10 mana after the turn, the mobs stay. Here the hits pay for it.
#[test]
fn wrong_moment_lets_the_hits_pay_for_the_spell() {
    let mob = |id: i32| json!({"id": id, "x": 8815, "y": 4600});
    let given = json!({
        "turn": 2, "spawner": {"last_turn": 1},
        "heroes": [{"x": 8815, "y": 4500}],
        "mobs": [mob(6), mob(7), mob(8), mob(9), mob(10)],
    });
    let turns = [["SPELL WIND 8815 0\nWAIT\nWAIT", WAITS]];
    let ours = play(&mut TurnByTurn(WrongMoment::ALL), &given, &turns);
    let reference = play(&mut Reference, &given, &turns);
    assert_eq!(reference.state["players"][0]["mana"], 10);
    assert_eq!(reference.state["mobs"][0]["y"], 4600);
    assert_eq!(ours.state["players"][0]["mana"], 0);
    // Pushed 2200 toward y = 0.
    assert_eq!(ours.state["mobs"][0]["y"], 2400);
}

/// wrong_moment M2: the first wave stands one step in from the spawn points (8815, -799),
/// (8815, 9799), (12815, -799), (4815, 9799).
#[test]
fn wrong_moment_moves_the_wave_as_it_spawns() {
    let ours = play(
        &mut TurnByTurn(WrongMoment::ALL),
        &json!({}),
        &[[WAITS, WAITS]],
    );
    let spawns = [(8815, -799), (8815, 9799), (12815, -799), (4815, 9799)];
    let mobs = ours.state["mobs"].as_array().expect("mobs");
    assert_eq!(mobs.len(), 4);
    for (mob, (x, y)) in mobs.iter().zip(spawns) {
        let at = |k: &str| mob[k].as_f64().expect("a number");
        assert_eq!(at("x"), f64::from(x) + at("vx"), "{mob}");
        assert_eq!(at("y"), f64::from(y) + at("vy"), "{mob}");
    }
}

/// wrong_moment M3: hero 3 shields itself while hero 0, 500 to its west, WINDs east. The rules:
/// the shield is not up yet and hero 3 goes 2200 east, to 10700. Here it stays.
#[test]
fn wrong_moment_shields_at_once() {
    let given = json!({
        "turn": 2, "spawner": {"last_turn": 1},
        "players": [{"mana": 10}, {"mana": 10}],
        "heroes": [{"x": 8000, "y": 4500}, {}, {}, {"x": 8500, "y": 4500}],
    });
    let turns = [[
        "SPELL WIND 17630 4500\nWAIT\nWAIT",
        "SPELL SHIELD 3\nWAIT\nWAIT",
    ]];
    let ours = play(&mut TurnByTurn(WrongMoment::ALL), &given, &turns);
    let reference = play(&mut Reference, &given, &turns);
    assert_eq!(reference.state["heroes"][3]["x"], 10700);
    assert_eq!(ours.state["heroes"][3]["x"], 8500);
    assert_eq!(ours.state["heroes"][3]["shield"], 12);
    assert_eq!(ours.state["players"][0]["mana"], 0);
    assert_eq!(ours.state["players"][1]["mana"], 0);
}

/// stale_fields M1: a mob 4144 from base 1 (inside its zone) threatens player 1's base: its
/// prompt says threatFor 1 by the rules, 2 here; player 0 is not shown it.
#[test]
fn stale_fields_prints_the_threat_in_player_0s_frame() {
    let given = json!({
        "turn": 2, "spawner": {"last_turn": 1},
        "mobs": [{"id": 6, "x": 14000, "y": 7000, "vx": 400, "vy": 0}],
    });
    let ours = play(&mut TurnByTurn(StaleFields::ALL), &given, &[]);
    let reference = play(&mut Reference, &given, &[]);
    let mob_line = |r: &StepResponse| {
        let prompts = r.prompts.as_ref().expect("prompts");
        let line = prompts[1]
            .lines()
            .find(|l| l.starts_with("6 0 "))
            .map(str::to_string);
        line.expect("player 1 sees mob 6")
    };
    assert!(
        mob_line(&reference).ends_with(" 1 1"),
        "{}",
        mob_line(&reference)
    );
    assert!(mob_line(&ours).ends_with(" 1 2"), "{}", mob_line(&ours));
}

/// stale_fields M2: hero 3 is under a CONTROL toward (0, 0). By the rules it obeys once and then
/// WAITs as told; here it goes on toward (0, 0) and stays controlled.
#[test]
fn stale_fields_keeps_a_hero_under_control() {
    let given = json!({
        "turn": 2, "spawner": {"last_turn": 1},
        "heroes": [{}, {}, {}, {"x": 10000, "y": 5000, "controls": [[0, 0]]}],
    });
    let turns = [[WAITS, WAITS], [WAITS, WAITS]];
    let ours = play(&mut TurnByTurn(StaleFields::ALL), &given, &turns);
    let once = play(&mut Reference, &given, &turns[..1]);
    let reference = play(&mut Reference, &given, &turns);
    let x = |r: &StepResponse| r.state["heroes"][3]["x"].as_i64().expect("x");
    assert_eq!(x(&reference), x(&once));
    assert!(x(&ours) < x(&once), "{} then {}", x(&once), x(&ours));
    assert_eq!(ours.state["heroes"][3]["controls"], json!([[0, 0]]));
}

/// stale_fields M3: a WIND with nothing in range costs 10 by the rules; here nothing.
#[test]
fn stale_fields_never_pays_for_a_spell() {
    let given = json!({
        "turn": 2, "spawner": {"last_turn": 1},
        "players": [{"mana": 10}],
    });
    let turns = [["SPELL WIND 0 0\nWAIT\nWAIT", WAITS]];
    let ours = play(&mut TurnByTurn(StaleFields::ALL), &given, &turns);
    let reference = play(&mut Reference, &given, &turns);
    assert_eq!(reference.state["players"][0]["mana"], 0);
    assert_eq!(ours.state["players"][0]["mana"], 10);
}
