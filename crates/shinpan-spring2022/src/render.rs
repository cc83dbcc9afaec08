//! A Spring Challenge 2022 state drawn to scale: the map, each base with its health and its
//! player's mana, each hero with the reach of its spells (WIND's radius; CONTROL and SHIELD
//! reach what the hero sees), each mob with its health and its speed vector (one turn's move),
//! and each player's fog: what its base and heroes see, one shaded group per player.

use super::rules::{
    owner_of_hero, BASES, BASE_RADIUS, BASE_VIEW_RADIUS, HERO_VIEW_RADIUS, MAP_HEIGHT, MAP_WIDTH,
    PLAYERS, WIND_RADIUS,
};
use super::state::{Hero, Mob, State};
use super::Spring2022;
use shinpan_core::seam::{Marked, Render, Svg, Tag};

/// Pixels a map unit is drawn with.
const SCALE: f64 = 0.04;
/// The size of text, in map units.
const FONT: f64 = 320.0;
/// Map units of the text line above the map.
const HEAD: f64 = 450.0;

impl Render for Spring2022 {
    fn render(&self, state: &State, marked: &Marked) -> String {
        let (w, h) = (f64::from(MAP_WIDTH), f64::from(MAP_HEIGHT));
        let mut svg = Svg::new("spring2022", w, HEAD + h, SCALE);
        let turn = text(3.0 * FONT, FONT, "turn").path("turn", marked);
        svg.text(
            turn,
            &format!("turn {} ({} league)", state.turn, state.league.name()),
        );
        let map = Tag::new("rect").class("map").attr("x", 0).attr("y", HEAD);
        svg.leaf(map.attr("width", w).attr("height", h));
        for p in 0..PLAYERS {
            fog(&mut svg, state, p);
        }
        for p in 0..PLAYERS {
            base(&mut svg, state, p, marked);
        }
        for (i, hero) in state.heroes.iter().enumerate() {
            draw_hero(&mut svg, hero, i, marked);
        }
        for (i, mob) in state.mobs.iter().enumerate() {
            draw_mob(&mut svg, mob, i, marked);
        }
        svg.finish()
    }

    /// Every drawn thing is a value of its own in the canonical form.
    fn finer_differences(&self, _: &State, _: &State) -> Vec<String> {
        Vec::new()
    }
}

fn text(x: f64, y: f64, class: &str) -> Tag {
    Tag::new("text")
        .class(class)
        .attr("x", x)
        .attr("y", y)
        .attr("font-size", FONT)
}

fn circle(x: f64, y: f64, r: i32, class: &str) -> Tag {
    let tag = Tag::new("circle")
        .class(class)
        .attr("cx", x)
        .attr("cy", HEAD + y);
    tag.attr("r", r)
}

/// What player `p` sees: its base's and its heroes' sight.
fn fog(svg: &mut Svg, state: &State, p: usize) {
    svg.open(
        Tag::new("g")
            .class(format!("sight owner-{p}"))
            .attr("data-fog", p),
    );
    svg.leaf(circle(BASES[p].x, BASES[p].y, BASE_VIEW_RADIUS, "seen"));
    for (i, hero) in state.heroes.iter().enumerate() {
        if owner_of_hero(i) == p {
            let (x, y) = (f64::from(hero.x), f64::from(hero.y));
            svg.leaf(circle(x, y, HERO_VIEW_RADIUS, "seen"));
        }
    }
    svg.close();
}

fn base(svg: &mut Svg, state: &State, p: usize, marked: &Marked) {
    let player = &state.players[p];
    let (x, y) = (BASES[p].x, BASES[p].y);
    let group = Tag::new("g")
        .class(format!("base owner-{p}"))
        .attr("data-base", p);
    svg.open(group.path(&format!("players[{p}].base_health"), marked));
    svg.title(&format!(
        "base of player {p}: health {}",
        player.base_health
    ));
    svg.leaf(circle(x, y, BASE_RADIUS * 2, "base"));
    svg.close();
    // Beside the base, inside the map.
    let (tx, ty) = if p == 0 {
        (2.5 * FONT, HEAD + 1.5 * FONT)
    } else {
        (x - 17.0 * FONT, HEAD + y - 1.6 * FONT)
    };
    let health = text(tx, ty, &format!("owner-{p}"));
    svg.text(
        health.path(&format!("players[{p}].base_health"), marked),
        &format!("health {}", player.base_health),
    );
    let mana = text(tx, ty + FONT * 1.2, &format!("owner-{p}"));
    svg.text(
        mana.paths(
            &[
                &format!("players[{p}].mana"),
                &format!("players[{p}].wild_mana"),
            ],
            marked,
        ),
        &format!("mana {} (wild {})", player.mana, player.wild_mana),
    );
}

fn draw_hero(svg: &mut Svg, hero: &Hero, i: usize, marked: &Marked) {
    let owner = owner_of_hero(i);
    let (x, y) = (f64::from(hero.x), f64::from(hero.y));
    let group = Tag::new("g")
        .class(format!("hero owner-{owner}"))
        .attr("data-hero", i);
    svg.open(group.path(&format!("heroes[{i}]"), marked));
    svg.title(&format!(
        "hero {i} of player {owner} at ({}, {}), shield {}",
        hero.x, hero.y, hero.shield
    ));
    svg.leaf(circle(x, y, WIND_RADIUS, "wind"));
    svg.leaf(circle(x, y, 180, "body"));
    svg.close();
}

fn draw_mob(svg: &mut Svg, mob: &Mob, i: usize, marked: &Marked) {
    let (x, y) = (f64::from(mob.x), f64::from(mob.y));
    let group = Tag::new("g").class("mob").attr("data-mob", mob.id);
    let (by_id, by_place) = (format!("mobs[#{}]", mob.id), format!("mobs[{i}]"));
    if marked.marks_any(&[&by_id, &by_place]) {
        svg.ring(x, HEAD + y, 600.0);
    }
    svg.open(group.paths(&[&by_id, &by_place], marked));
    svg.title(&format!(
        "mob {} at ({}, {}), speed ({}, {}), health {}, shield {}",
        mob.id, mob.x, mob.y, mob.vx, mob.vy, mob.health, mob.shield
    ));
    let vector = Tag::new("line")
        .class("vector")
        .attr("x1", x)
        .attr("y1", HEAD + y);
    svg.leaf(vector.attr("x2", x + mob.vx).attr("y2", HEAD + y + mob.vy));
    svg.leaf(circle(x, y, 140, "body"));
    svg.text(text(x + 160.0, HEAD + y, "health"), &mob.health.to_string());
    svg.close();
}

#[cfg(test)]
mod tests {
    use super::*;
    use shinpan_core::seam::render::testing::{count, highlighted};

    fn state() -> State {
        let mob = |id, x, y| Mob {
            id,
            x,
            y,
            vx: 400.0,
            vy: 0.0,
            ..Mob::default()
        };
        State {
            mobs: vec![mob(6, 5000, 5000), mob(9, 9000, 3000)],
            ..State::default()
        }
    }

    #[test]
    fn bases_heroes_mobs_and_each_players_fog_are_drawn() {
        let svg = Spring2022.render(&state(), &Marked::default());
        assert_eq!(count(&svg, "data-base"), 2);
        assert_eq!(count(&svg, "data-hero"), 6);
        assert_eq!(count(&svg, "data-mob"), 2);
        assert_eq!(count(&svg, "data-fog"), 2);
        assert_eq!(svg.matches("class=\"wind\"").count(), 6);
        assert_eq!(svg.matches("class=\"vector\"").count(), 2);
        // Each player sees from its base and its three heroes.
        assert_eq!(svg.matches("class=\"seen\"").count(), 2 * 4);
    }

    #[test]
    fn a_marked_mob_hero_and_base_are_highlighted() {
        let marked = Marked::new(["mobs[#9].health", "heroes[4].x", "players[1].base_health"]);
        let svg = Spring2022.render(&state(), &marked);
        assert_eq!(
            highlighted(&svg),
            [
                "players[1].base_health",
                "players[1].base_health",
                "heroes[4]",
                "mobs[#9]"
            ]
        );
    }
}
