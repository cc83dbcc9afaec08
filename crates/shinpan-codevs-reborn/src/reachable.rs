//! Which valid CODE VS Reborn states can occur in play ([`shinpan_core::seam::Reachability::reachable`]): a
//! few cheap facts that every state reached from a new match by some replies has, each from
//! the rule document (seed 004). Differential fuzzing mutates only into states that have them;
//! a case that gives a state without them says `reachable: false`.
//!
//! What is *not* checked, because play can produce it: any score, chain count or time left; a
//! field at turn 0 (cases give fields without the packs that built them, and the facts here
//! are about the state itself, not its history); ojama anywhere in a field (the blocks below
//! an ojama row may vanish and let it fall apart); an odd gauge. The gauge moves by +8
//! (「スキルゲージの増加」) and -(12 + 2C) (「スキルゲージの減少」) between 0 and 100, so play gives
//! only even values; but a gauge of 79 is the natural case just below the skill's threshold
//! of 80, and an engine computes on an odd gauge as on an even one, so refusing it would mark
//! good cases and find no departure. Nor the match's totals of packs (「パックの生成について」:
//! 380 of three blocks, 120 of four, 180 blocks of each value): the cases about the turn limit
//! give 500 packs of three for brevity, and no engine plays a pack differently for them.

use super::field::Field;
use super::rules::{VANISH_SUM, WIDTH};
use super::state::{Pack, State};
use shinpan_core::seam::StateError;

/// Every fact below, the first one `state` breaks as the error.
pub fn reachable(state: &State) -> Result<(), StateError> {
    for (p, player) in state.players.iter().enumerate() {
        settled(&player.field).map_err(|why| StateError::at(format!("players[{p}].field"), why))?;
    }
    for (t, pack) in state.packs.iter().enumerate() {
        pack_size(pack).map_err(|why| StateError::at(format!("packs[{t}]"), why))?;
    }
    offset(state.players[0].ojama_stock, state.players[1].ojama_stock)
        .map_err(|why| StateError::at("players[1].ojama_stock", why))
}

/// 「ブロックの消滅」 and 「チェイン」: two neighbours (in eight directions) summing to 10 vanish,
/// and 「1ターンのうちにブロックの落下と消滅が交互に発生します」 until nothing vanishes, so a field
/// between turns holds no such pair. (A skill's explosion is followed by the same falls and
/// vanishes, 「スキルチェイン」; the ojama drop at the start of a turn cannot make a pair, ojama
/// being 11.)
fn settled(field: &Field) -> Result<(), String> {
    for x in 0..WIDTH {
        for y in 0..field.height(x) {
            let v = field.cell(x, y);
            // Each unordered pair once: the cell above, and the three cells of the next column.
            let mut neighbours = vec![(x, y + 1)];
            if x + 1 < WIDTH {
                neighbours.extend((y.saturating_sub(1)..=y + 1).map(|ny| (x + 1, ny)));
            }
            for (nx, ny) in neighbours {
                let n = field.cell(nx, ny);
                if n != 0 && v + n == VANISH_SUM {
                    return Err(format!(
                        "holds {v} (column {x}, row {y} from the floor) next to {n} (column \
                         {nx}, row {ny}), a pair summing to {VANISH_SUM} that vanishes within \
                         the turn: play never leaves it (the field settles before a turn ends)"
                    ));
                }
            }
        }
    }
    Ok(())
}

/// 「パックについて」: 「1つのパックに配置されるブロックの数は3~4個です」.
fn pack_size(pack: &Pack) -> Result<(), String> {
    let blocks = pack.0.iter().flatten().filter(|&&v| v != 0).count();
    if !(3..=4).contains(&blocks) {
        return Err(format!(
            "holds {blocks} blocks; every pack holds 3 or 4 (「1つのパックに配置されるブロックの\
             数は3~4個です」)"
        ));
    }
    Ok(())
}

/// 「お邪魔ブロックの相殺」: at the end of every turn, while both stocks are non-zero both lose
/// one, so play never leaves both non-zero.
fn offset(mine: u32, theirs: u32) -> Result<(), String> {
    if mine > 0 && theirs > 0 {
        return Err(format!(
            "{theirs} while player 0's stock is {mine}: the offset at the end of every turn \
             (「お邪魔ブロックの相殺」) leaves at least one stock 0"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CodevsReborn;
    use shinpan_core::selfplay;

    fn state(json: serde_json::Value) -> State {
        serde_json::from_value(json).unwrap()
    }

    fn refused_at(json: serde_json::Value) -> String {
        let e = reachable(&state(json)).unwrap_err();
        e.path.unwrap_or_default()
    }

    #[test]
    fn each_fact_refuses_its_field() {
        assert_eq!(
            refused_at(serde_json::json!({"players": [{"field": "37........\n"}]})),
            "players[0].field"
        );
        assert_eq!(
            refused_at(serde_json::json!({"players": [{}, {"field": "3.........\n17........\n"}]})),
            "players[1].field",
            "diagonal"
        );
        assert_eq!(
            refused_at(serde_json::json!({"players": [{"field": "3.........\n7.........\n"}]})),
            "players[0].field",
            "vertical"
        );
        assert_eq!(
            refused_at(serde_json::json!({"packs": [[[1, 2], [0, 0]]]})),
            "packs[0]"
        );
        assert_eq!(
            refused_at(serde_json::json!({"players": [{"ojama_stock": 3}, {"ojama_stock": 1}]})),
            "players[1].ojama_stock"
        );
    }

    #[test]
    fn what_play_leaves_is_accepted() {
        assert_eq!(
            reachable(&state(serde_json::json!({
                "players": [{"field": "X1........\n22........\n", "skill_gauge": 80, "ojama_stock": 4}, {}],
                "packs": [[[1, 2], [3, 0]], [[1, 2], [3, 4]]],
            }))),
            Ok(())
        );
        // Every state of a few self-played matches.
        for seed in 0..3 {
            let (_, steps) = selfplay::play_random_match(
                &CodevsReborn,
                seed,
                &Default::default(),
                selfplay::Prompts::Skipped,
                |state, _| {
                    assert_eq!(reachable(state), Ok(()), "seed {seed}, turn {}", state.turn);
                    true
                },
            );
            assert!(steps > 10);
        }
    }
}
