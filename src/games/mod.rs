//! The registry of games: the only place that lists them. Each game is a crate of its own
//! (`crates/shinpan-<game>`), seen here under its module name (`games::spring2022`). A
//! test-only game (`nim`, the proof that a game needs nothing outside its crate) is listed
//! with the `test-games` feature.

use crate::seam::DynGame;

/// Declares the games, one line each (`crate as module::Game`, attributes allowed): each game's
/// crate under its module name, and [`all`], in the order given.
macro_rules! registry {
    ($($(#[$attribute:meta])* $krate:ident as $module:ident::$game:ident),* $(,)?) => {
        $($(#[$attribute])* pub use $krate as $module;)*

        /// Every game shinpan knows, in a stable order.
        #[allow(
            clippy::vec_init_then_push,
            reason = "a game behind a feature is pushed under its `cfg`, which `vec![]` cannot take"
        )]
        pub fn all() -> Vec<&'static dyn DynGame> {
            let mut games: Vec<&'static dyn DynGame> = Vec::new();
            $($(#[$attribute])* games.push(&$module::$game);)*
            games
        }
    };
}

registry! {
    shinpan_codevs_reborn as codevs_reborn::CodevsReborn,
    shinpan_cedec2013 as cedec2013::Cedec2013,
    shinpan_codevs4 as codevs4::Codevs4,
    shinpan_tsg_auto_chess as tsg_auto_chess::TsgAutoChess,
    shinpan_spring2022 as spring2022::Spring2022,
    #[cfg(feature = "test-games")] shinpan_nim as nim::Nim,
}

/// The game with this id.
pub fn by_id(id: &str) -> Option<&'static dyn DynGame> {
    all().into_iter().find(|g| g.info().id == id)
}

/// The fuzz bodies of the game with this id (its fuzz capability), for the fuzz targets of
/// `fuzz/` ([`crate::stepfuzz::run`]).
pub fn fuzz_targets(id: &str) -> Option<&'static crate::seam::FuzzTargets> {
    by_id(id)?.info().capabilities.fuzz
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seam::MatchOptions;

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
            if let Some(handshake) = game.info().handshake {
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
            let start = game.start(0, &MatchOptions::default());
            assert_eq!(
                start.map(|m| m.awaiting().len()).ok(),
                Some(info.replies_per_step),
                "{}: a new match does not await `replies_per_step` replies",
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

    /// Each capability a game lists is one it can use: variants name clauses of its catalogue,
    /// each its own clause, in the catalogue's order, with unique
    /// names; an importer knows a format; a series has matches.
    #[test]
    fn every_capability_a_game_lists_is_usable() {
        for game in all() {
            let id = game.info().id;
            let capabilities = game.info().capabilities;
            if let Some(playable) = capabilities.variants {
                let path = format!("{}/cases/{id}/rules.yaml", env!("CARGO_MANIFEST_DIR"));
                let catalogue = std::fs::read_to_string(&path).unwrap();
                let at = |clause: &str| {
                    catalogue
                        .find(&format!("- id: {clause}\n"))
                        .unwrap_or_else(|| panic!("{id}: {clause} is not in rules.yaml"))
                };
                let variants = playable.variants();
                assert!(!variants.is_empty(), "{id}: variants listed, none given");
                assert!(variants.len() <= crate::seam::VariantSet::CAPACITY, "{id}");
                let places: Vec<usize> = variants.iter().map(|v| at(v.clause)).collect();
                assert!(
                    places.windows(2).all(|w| w[0] < w[1]),
                    "{id}: variants out of the catalogue's order: {variants:?}"
                );
                for (i, variant) in variants.iter().enumerate() {
                    assert!(
                        variants[..i].iter().all(|v| v.name != variant.name),
                        "{id}: the variant {} is listed twice",
                        variant.name
                    );
                }
            }
            if let Some(importer) = capabilities.importer {
                assert!(
                    !importer.formats().is_empty(),
                    "{id}: an importer of nothing"
                );
            }
            if let Some(series) = capabilities.series {
                assert!(!series.series().matches.is_empty(), "{id}: an empty series");
            }
            assert!(
                capabilities.known_departures.is_none() || capabilities.recorded.is_some(),
                "{id}: known departures are played over recorded states"
            );
        }
    }

    /// The capabilities the harness reaches through the registry answer as the game's own
    /// code does: Reborn's reachability refuses a pair that should have vanished, Spring's
    /// set-up writes the league no prompt shows.
    #[test]
    fn capabilities_reached_through_the_registry_do_what_the_game_does() {
        let reborn = by_id("codevs-reborn").unwrap();
        let state = crate::seam::load_state(
            reborn,
            &serde_json::json!({"players": [{"field": "37........\n"}, {}]}),
        )
        .unwrap();
        let refused = reborn.info().capabilities.reachable(&state).unwrap_err();
        assert_eq!(
            refused.path.as_deref(),
            Some("players[0].field"),
            "{refused}"
        );

        let spring = by_id("spring2022").unwrap();
        let recorded = spring.info().capabilities.recorded.unwrap();
        let new = spring.start(1, &MatchOptions::default()).unwrap();
        let shown = recorded
            .observe(&new.prompt(0), 0, None)
            .unwrap()
            .observation
            .state;
        let wood1 = MatchOptions::from_pairs(&["league=wood1".into()]).unwrap();
        let set_up = recorded.set_up_observed(&shown, &wood1).unwrap();
        assert_eq!(set_up["league"], "wood1");
        assert_ne!(shown["league"], "wood1", "the default league is another");
        let mut rest = set_up.clone();
        rest["league"] = shown["league"].clone();
        assert_eq!(rest, shown, "nothing but the league is written");

        let tsg = by_id("tsg-auto-chess").unwrap();
        let importer = tsg.info().capabilities.importer.unwrap();
        assert_eq!(importer.formats(), ["main-rb"]);
        let known = tsg.info().capabilities.known_departures.unwrap();
        let start = tsg
            .start(1, &MatchOptions::default())
            .unwrap()
            .state()
            .unwrap();
        let replies = vec![
            crate::seam::Reply::text("buy 2 7 1\n0"),
            crate::seam::Reply::text("nop\n0"),
        ];
        let model = known.model_from(&start).expect("the start reads");
        let played = known.departures_played(&model, &replies);
        assert!(!played.is_empty(), "main.rb's ways play a step");
        assert!(played.iter().all(|p| !p.clauses.is_empty()));
        assert!(!known.set_up_played().is_empty(), "main.rb's set-up");
        assert!(known.clauses().contains(&"board.size"));
        assert!(known.engine_fails(&model, &replies).is_none());
        assert!(known.starts_late(&start).is_none(), "turn 0 is the start");
    }
}
