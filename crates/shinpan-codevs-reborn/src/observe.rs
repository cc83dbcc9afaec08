//! Reading a prompt back into the state it shows, for `shinpan trace`. A CODE VS Reborn prompt
//! shows nearly everything: the turn, and for both players the ojama stock, the skill gauge,
//! the score, the field and the time left; the first one also the packs of the whole match.
//! The time left is measured by the engine, so no engine predicts it to the millisecond: it is
//! shown but not compared. The last turn's tallies (chains, turn score, ojama sent) are not
//! shown, and stay as known.

use super::protocol::{PlayerView, Prompt};
use super::state::{Player, State};
use super::CodevsReborn;
use shinpan_core::seam::{Observation, Observed, Recorded};
use shinpan_core::text::ParseError;

impl Recorded for CodevsReborn {
    fn observe(&self, prompt: &str, player: usize, known: Option<&State>) -> Observed<State> {
        let prompt = Prompt::parse(prompt)?;
        let mut state = known.cloned().unwrap_or_default();
        let mut shown = vec!["turn".to_string()];
        let mut drawn = Vec::new();
        state.turn = u32::try_from(prompt.turn.turn).unwrap_or(u32::MAX);
        if let Some(start) = prompt.start {
            state.packs = start.packs;
            shown.push("packs".into());
        }
        let seats = [
            (player.min(1), &prompt.turn.me),
            (1 - player.min(1), &prompt.turn.opponent),
        ];
        for (seat, view) in seats {
            write_view(&mut state.players[seat], view)
                .map_err(|why| ParseError::new(1, 1, "a field where no block floats", why))?;
            for field in ["ojama_stock", "skill_gauge", "score", "field"] {
                shown.push(format!("players[{seat}].{field}"));
            }
            let time = format!("players[{seat}].time_left_ms");
            shown.push(time.clone());
            drawn.push(time);
        }
        Ok(Observation {
            state,
            shown,
            drawn,
        })
    }
}

fn write_view(player: &mut Player, view: &PlayerView) -> Result<(), String> {
    player.field = view.to_field().map_err(|e| e.to_string())?;
    player.ojama_stock = u32::try_from(view.ojama_stock).unwrap_or(u32::MAX);
    player.skill_gauge = u32::try_from(view.skill_gauge).unwrap_or(u32::MAX);
    player.score = view.score;
    player.time_left_ms = view.time_left_ms;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CodevsReborn;
    use shinpan_core::seam::{Game, NoOptions};

    #[test]
    fn a_prompt_reads_back_into_the_state_it_came_from() {
        let state = CodevsReborn.new_match(3, &NoOptions {});
        for player in [0, 1] {
            let prompt = CodevsReborn.prompt(&state, player);
            let seen = CodevsReborn.observe(&prompt, player, None).unwrap();
            assert_eq!(seen.state.packs, state.packs);
            assert_eq!(seen.state.players, state.players);
            assert_eq!(CodevsReborn.prompt(&seen.state, player), prompt);
        }
    }
}
