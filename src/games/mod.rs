//! The registry of games: the only place that lists them.

pub mod cedec2013;
pub mod codevs_reborn;
pub mod spring2022;

use crate::game::DynGame;

static CODEVS_REBORN: codevs_reborn::CodevsReborn = codevs_reborn::CodevsReborn;
static CEDEC2013: cedec2013::Cedec2013 = cedec2013::Cedec2013;
static SPRING2022: spring2022::Spring2022 = spring2022::Spring2022;

/// Every game shinpan knows, in a stable order.
pub fn all() -> Vec<&'static dyn DynGame> {
    vec![&CODEVS_REBORN, &CEDEC2013, &SPRING2022]
}

/// The game with this id.
pub fn by_id(id: &str) -> Option<&'static dyn DynGame> {
    all().into_iter().find(|g| g.info().id == id)
}
