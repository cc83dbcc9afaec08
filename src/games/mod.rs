//! The registry of games: the only place that lists them.

pub mod cedec2013;
pub mod codevs4;
pub mod codevs_reborn;
pub mod spring2022;
pub mod tsg_auto_chess;

use crate::game::DynGame;

static CODEVS_REBORN: codevs_reborn::CodevsReborn = codevs_reborn::CodevsReborn;
static CEDEC2013: cedec2013::Cedec2013 = cedec2013::Cedec2013;
static CODEVS4: codevs4::Codevs4 = codevs4::Codevs4;
static TSG_AUTO_CHESS: tsg_auto_chess::TsgAutoChess = tsg_auto_chess::TsgAutoChess;
static SPRING2022: spring2022::Spring2022 = spring2022::Spring2022;

/// Every game shinpan knows, in a stable order.
pub fn all() -> Vec<&'static dyn DynGame> {
    vec![
        &CODEVS_REBORN,
        &CEDEC2013,
        &CODEVS4,
        &TSG_AUTO_CHESS,
        &SPRING2022,
    ]
}

/// The game with this id.
pub fn by_id(id: &str) -> Option<&'static dyn DynGame> {
    all().into_iter().find(|g| g.info().id == id)
}

// Temporary: becomes the fuzz capability of the seam.
/// The fuzz bodies of the game with this id, for the fuzz targets of `fuzz/`
/// ([`crate::stepfuzz::run`]).
pub fn fuzz_targets(id: &str) -> Option<&'static crate::stepfuzz::FuzzTargets> {
    match id {
        "codevs-reborn" => Some(&codevs_reborn::fuzz::TARGETS),
        "cedec2013" => Some(&cedec2013::fuzz::TARGETS),
        "codevs4" => Some(&codevs4::fuzz::TARGETS),
        "tsg-auto-chess" => Some(&tsg_auto_chess::fuzz::TARGETS),
        "spring2022" => Some(&spring2022::fuzz::TARGETS),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::MatchOptions;

    /// What every game must get right when it is registered: a typo in a parse kind would
    /// otherwise score as a pass.
    #[test]
    fn every_registered_game_is_consistent() {
        let games = all();
        for (i, game) in games.iter().enumerate() {
            let info = game.info();
            assert!(
                games[..i].iter().all(|g| g.info().id != info.id),
                "{} is registered twice",
                info.id
            );
            for kind in info.parse_kinds {
                assert!(
                    game.parse(kind, "").is_some(),
                    "{}: `{kind}` is listed but not parsed",
                    info.id
                );
            }
            if let Some(handshake) = game.handshake() {
                assert!(
                    info.parse_kinds.contains(&handshake.parse_kind),
                    "{}: the handshake's `{}` is not one of its parse kinds",
                    info.id,
                    handshake.parse_kind
                );
            }
            assert!(
                game.check_options(&MatchOptions::default()).is_ok(),
                "{}: the default match options are not valid",
                info.id
            );
            assert_eq!(by_id(info.id).map(|g| g.info().id), Some(info.id));
            assert!(
                fuzz_targets(info.id).is_some(),
                "{}: no fuzz bodies",
                info.id
            );
        }
    }
}
