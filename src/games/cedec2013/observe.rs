//! Reading a request back into the state it shows, for `shinpan trace`. A CEDEC 2013 request
//! shows the round, the player to move, and every tile's owner, robots, landform and base; the
//! resources it shows are derived from those (the trace's comparison of the whole request text
//! checks them). A town's bonus and the players' names and time are not shown, and stay as
//! known; the scores are derived from the tiles.

use super::protocol::Request;
use super::rules::index;
use super::state::{Landform, State};
use super::Cedec2013;
use crate::seam::{Observation, Observed, Recorded};

impl Recorded for Cedec2013 {
    fn observe(&self, prompt: &str, player: usize, known: Option<&State>) -> Observed<State> {
        let request = Request::parse(prompt)?;
        let mut state = known.cloned().unwrap_or_default();
        state.round = request.round;
        state.player = player;
        for view in &request.tiles {
            let Some(i) = index(i32::from(view.x), i32::from(view.y)) else {
                continue;
            };
            let tile = &mut state.tiles.0[i];
            tile.owner = u8::try_from(view.owner).ok();
            tile.robots = view.robots;
            tile.hole = view.landform == Landform::Hole;
            tile.base = view.base;
            if tile.base != Some(super::rules::Base::Town) {
                tile.bonus = 0;
            }
        }
        state.scores = state.tiles.scores();
        Ok(Observation {
            state,
            shown: vec!["round".into(), "player".into(), "tiles".into()],
            drawn: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::cedec2013::Cedec2013;
    use crate::seam::{Game, NoOptions};

    #[test]
    fn a_request_reads_back_into_the_state_it_came_from() {
        let state = Cedec2013.new_match(5, &NoOptions {});
        let prompt = Cedec2013.prompt(&state, 0);
        let seen = Cedec2013.observe(&prompt, 0, None).unwrap();
        assert_eq!(seen.state.tiles, state.tiles);
        assert_eq!(Cedec2013.prompt(&seen.state, 0), prompt);
    }
}
