//! The match options of a CODE VS 4.0 stage: which of the 41 stages it is, and how much of the
//! game's one hour of thinking time each player has left when it starts (D-codevs4-11). A stage
//! played alone starts from these; `play --series` hands each stage what the previous one left
//! (see [`super::Codevs4`]'s `series_carry`).

#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

use super::rules::{STAGES, THINKING_TIME_MS};

/// The match options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// The stage, 0..=40 (3.1). In stages 27–33 player 1, the enemy AI of table 4, earns 20 a
    /// turn instead of 10, and in stages 34–40 it earns 30 (4.6).
    #[serde(default, deserialize_with = "a_stage")]
    #[cfg_attr(feature = "schema", schemars(range(max = 40)))]
    pub stage: u32,
    /// The thinking time (ms) each player has left at turn 0, 0..=3600000: what the earlier
    /// stages left of the one hour for the whole game (D-codevs4-11). One number for both
    /// players, or [player 0's, player 1's] (what `play --series` hands from stage to stage).
    #[serde(default, deserialize_with = "a_time")]
    pub time: TimeLeft,
}

impl Options {
    /// Stage `stage` with the whole hour for both players.
    pub fn stage(stage: u32) -> Options {
        Options {
            stage,
            ..Options::default()
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            stage: 0,
            time: TimeLeft::Both(THINKING_TIME_MS),
        }
    }
}

/// Thinking time left at the start of a stage: the same for both players, or each its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(untagged)]
pub enum TimeLeft {
    Both(u64),
    Each([u64; 2]),
}

impl Default for TimeLeft {
    fn default() -> Self {
        TimeLeft::Both(THINKING_TIME_MS)
    }
}

impl TimeLeft {
    /// Player `player`'s time left, ms.
    pub fn of(self, player: usize) -> u64 {
        match self {
            TimeLeft::Both(ms) => ms,
            TimeLeft::Each(each) => each[player.min(1)],
        }
    }
}

fn a_stage<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    let stage = u32::deserialize(deserializer)?;
    if stage >= STAGES {
        return Err(serde::de::Error::custom(format!(
            "stage {stage}: the stages are 0..=40"
        )));
    }
    Ok(stage)
}

fn a_time<'de, D: Deserializer<'de>>(deserializer: D) -> Result<TimeLeft, D::Error> {
    let time = TimeLeft::deserialize(deserializer).map_err(|_| {
        serde::de::Error::custom(
            "time: the ms left at turn 0, a number for both players or [player 0's, player 1's]",
        )
    })?;
    for player in 0..2 {
        let ms = time.of(player);
        if ms > THINKING_TIME_MS {
            return Err(serde::de::Error::custom(format!(
                "time {ms}: a player has at most {THINKING_TIME_MS} ms left, the one hour for the \
                 whole game (D-codevs4-11)"
            )));
        }
    }
    Ok(time)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> Result<Options, String> {
        serde_json::from_str::<Options>(json).map_err(|e| e.to_string())
    }

    #[test]
    fn options_refuse_a_stage_past_40() {
        assert!(read(r#"{"stage": 41}"#).is_err());
        assert_eq!(read(r#"{"stage": 40}"#).unwrap(), Options::stage(40));
        assert_eq!(read("{}").unwrap().stage, 0);
    }

    #[test]
    fn time_defaults_to_the_whole_hour_and_takes_one_number_or_two() {
        assert_eq!(read("{}").unwrap().time, TimeLeft::Both(3_600_000));
        let both = read(r#"{"time": 1200}"#).unwrap().time;
        assert_eq!((both.of(0), both.of(1)), (1200, 1200));
        let each = read(r#"{"time": [3595304, 0]}"#).unwrap().time;
        assert_eq!((each.of(0), each.of(1)), (3_595_304, 0));
    }

    #[test]
    fn time_past_the_hour_is_refused_with_the_reason() {
        let refused = read(r#"{"time": 3600001}"#).unwrap_err();
        assert!(refused.contains("at most 3600000 ms"), "{refused}");
        assert!(read(r#"{"time": [0, 3600001]}"#).is_err());
        assert!(read(r#"{"time": -1}"#).is_err());
        assert!(read(r#"{"time": [1, 2, 3]}"#).is_err());
        assert!(read(r#"{"time": "an hour"}"#).is_err());
        assert!(read(r#"{"time": 3600000}"#).is_ok());
    }
}
