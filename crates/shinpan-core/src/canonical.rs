//! What every game's canonical state does alike, written once: reading a fixed row of seats
//! from a JSON list that may give fewer ([`players_up_to`], [`list_up_to`]), the checks of the
//! outcome that every two-player game with a last turn makes ([`check_two_player_outcome`]),
//! and a number's upper bound ([`at_most`]). (What reading a prompt back gives is named in the
//! seam, [`crate::seam::Observed`].)
//!
//! It knows no game and no rule: the bound, the last turn and the player type come from the
//! game.

use std::fmt::Display;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};

use crate::seam::{Outcome, StateError};

/// A JSON list of at most `N` items, refused with "at most `N` `what`" when longer.
pub fn list_up_to<'de, D, T, const N: usize>(
    deserializer: D,
    what: &str,
) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    let given = Vec::<T>::deserialize(deserializer)?;
    if given.len() > N {
        return Err(D::Error::invalid_length(
            given.len(),
            &format!("at most {N} {what}").as_str(),
        ));
    }
    Ok(given)
}

/// The `N` players of a state (`#[serde(deserialize_with = "crate::canonical::players_up_to")]`)
/// from a list of at most `N`: the first seats as given, each seat left out a default player.
pub fn players_up_to<'de, D, P, const N: usize>(deserializer: D) -> Result<[P; N], D::Error>
where
    D: Deserializer<'de>,
    P: Deserialize<'de> + Default,
{
    let mut given = list_up_to::<D, P, N>(deserializer, "players")?.into_iter();
    Ok(std::array::from_fn(|_| given.next().unwrap_or_default()))
}

/// A number of the state that may not pass `max`: refused at `path` as "`value`, at most `max`".
pub fn at_most<T: PartialOrd + Display>(
    path: impl Into<String>,
    value: T,
    max: T,
) -> Result<(), StateError> {
    if value > max {
        return Err(StateError::at(path, format!("{value}, at most {max}")));
    }
    Ok(())
}

/// What a two-player game with a last turn asks of a state's outcome, whatever else it asks: a
/// winner is seat 0 or 1, and a match at `last_turn` is over.
pub fn check_two_player_outcome(
    outcome: Option<&Outcome>,
    turn: u32,
    last_turn: u32,
) -> Result<(), StateError> {
    match outcome {
        Some(outcome) if outcome.winner.is_some_and(|w| w > 1) => {
            Err(StateError::at("outcome.winner", "must be 0, 1 or null"))
        }
        None if turn == last_turn => Err(StateError::at(
            "outcome",
            format!("null, but turn {last_turn} is past the last turn"),
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    #[derive(Debug, Default, PartialEq, Deserialize)]
    struct Player {
        score: u32,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    struct State {
        #[serde(deserialize_with = "players_up_to")]
        players: [Player; 3],
    }

    fn read(json: &str) -> Result<State, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn seats_left_out_are_default_players() {
        let state = read(r#"{"players": [{"score": 4}]}"#).unwrap();
        let scores = state.players.map(|p| p.score);
        assert_eq!(scores, [4, 0, 0]);
    }

    #[test]
    fn more_players_than_seats_are_refused() {
        let four = r#"{"players": [{"score": 1}, {"score": 2}, {"score": 3}, {"score": 4}]}"#;
        assert_eq!(
            read(four).unwrap_err(),
            "invalid length 4, expected at most 3 players at line 1 column 69"
        );
    }

    #[test]
    fn a_number_past_its_bound_is_refused_at_its_path() {
        assert_eq!(at_most("turn", 200, 200), Ok(()));
        assert_eq!(
            at_most("turn", 201, 200),
            Err(StateError::at("turn", "201, at most 200"))
        );
    }

    #[test]
    fn a_winner_is_a_seat_and_the_last_turn_ends_the_match() {
        let won_by = |winner| Outcome::new(winner, "x");
        assert_eq!(check_two_player_outcome(None, 9, 10), Ok(()));
        assert_eq!(
            check_two_player_outcome(None, 10, 10).unwrap_err().path,
            Some("outcome".into())
        );
        assert_eq!(
            check_two_player_outcome(Some(&won_by(Some(1))), 10, 10),
            Ok(())
        );
        assert_eq!(
            check_two_player_outcome(Some(&won_by(Some(2))), 3, 10)
                .unwrap_err()
                .path,
            Some("outcome.winner".into())
        );
    }
}
