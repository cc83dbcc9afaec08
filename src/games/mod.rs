//! The registry of games: the only place that lists them.

pub mod cedec2013;
pub mod codevs4;
pub mod codevs_reborn;

use crate::game::DynGame;

static CODEVS_REBORN: codevs_reborn::CodevsReborn = codevs_reborn::CodevsReborn;
static CEDEC2013: cedec2013::Cedec2013 = cedec2013::Cedec2013;
static CODEVS4: codevs4::Codevs4 = codevs4::Codevs4;

/// Every game shinpan knows, in a stable order.
pub fn all() -> Vec<&'static dyn DynGame> {
    vec![&CODEVS_REBORN, &CEDEC2013, &CODEVS4]
}

/// The game with this id.
pub fn by_id(id: &str) -> Option<&'static dyn DynGame> {
    all().into_iter().find(|g| g.info().id == id)
}
