//! A recorded match as one self-contained HTML page: a replay viewer (`play --format html`,
//! `trace --format html`). Each step's board is drawn in Rust by the game's `Render`, as every
//! board of the `check` page is; the page's script only puts back together the text of the step
//! shown, so it knows no game.
//!
//! The steps are kept compact ([`Replay`]): a drawing is cut before each `<` into *lines* (an
//! element's opening tag with its text, or a closing tag), each distinct line is kept once, and a
//! step is the step before it with a few splices of line numbers (what `similar` finds between
//! the two); every [`KEY`]-th step is kept whole, so a jump costs at most [`KEY`] splices. The
//! prompts and replies are kept the same way, as numbers of distinct text lines. The page
//! itself is written by [`replay_page`].

use std::collections::HashMap;

use serde::Serialize;
use serde_json::Value;
use similar::{capture_diff_slices, Algorithm, DiffOp};

pub use super::replay_page::{
    departures_section, replay_page, PackedMatch, ReplayMatch, ReplayPage,
};

use crate::harness::trace::Seen;
use crate::seam::{DynGame, DynRender, Marked};

/// Every how many steps a step is kept whole.
pub const KEY: usize = 100;

/// How many departure steps get their two boards drawn (the others are listed all the same,
/// and the page says so).
pub const DRAWN_DEPARTURES: usize = 200;

/// Distinct texts, each kept once, by the number of its first use.
#[derive(Default)]
struct Table {
    numbers: HashMap<String, u32>,
    texts: Vec<String>,
}

impl Table {
    fn number(&mut self, text: &str) -> u32 {
        if let Some(&n) = self.numbers.get(text) {
            return n;
        }
        let n = self.texts.len() as u32;
        self.texts.push(text.to_string());
        self.numbers.insert(text.to_string(), n);
        n
    }

    /// `text` as the numbers of its lines.
    fn lines(&mut self, text: &str) -> Vec<u32> {
        text.split('\n').map(|line| self.number(line)).collect()
    }
}

/// The mark of a number taken out of a line's template.
const HOLE: char = '\u{1}';

/// Distinct drawing lines, each kept as a template (the line with its numbers taken out, each
/// template kept once) and the numbers: a unit that moves is a new line of a few numbers, not a
/// new copy of its tag.
#[derive(Default)]
struct Lines {
    numbers: HashMap<String, u32>,
    templates: Table,
    lines: Vec<Vec<u32>>,
}

impl Lines {
    fn number(&mut self, line: &str) -> u32 {
        if let Some(&n) = self.numbers.get(line) {
            return n;
        }
        let (template, numbers) = template(line);
        let mut kept = vec![self.templates.number(&template)];
        kept.extend(numbers);
        let n = self.lines.len() as u32;
        self.lines.push(kept);
        self.numbers.insert(line.to_string(), n);
        n
    }
}

/// `line` with each whole number that prints back as itself (no sign, no leading zero, up to
/// nine digits) taken out and replaced by [`HOLE`], and those numbers.
fn template(line: &str) -> (String, Vec<u32>) {
    if line.contains(HOLE) {
        return (line.to_string(), Vec::new());
    }
    let mut template = String::with_capacity(line.len());
    let mut numbers = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find(|c: char| c.is_ascii_digit()) {
        template.push_str(&rest[..at]);
        let digits = rest[at..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(rest.len() - at, |n| n);
        let run = &rest[at..at + digits];
        match run.parse::<u32>() {
            Ok(n) if digits <= 9 && (digits == 1 || !run.starts_with('0')) => {
                template.push(HOLE);
                numbers.push(n);
            }
            _ => template.push_str(run),
        }
        rest = &rest[at + digits..];
    }
    template.push_str(rest);
    (template, numbers)
}

/// A list of numbers changing step by step: every [`KEY`]-th step whole, each step as splices
/// of the step before.
#[derive(Serialize, Default)]
struct Stream {
    /// The steps kept whole: step 0, [`KEY`], 2 × [`KEY`]…
    frames: Vec<Vec<u32>>,
    /// Each step as splices of the step before: `at`, how many go, how many come, what comes
    /// (none for step 0).
    deltas: Vec<Vec<u32>>,
    #[serde(skip)]
    current: Vec<u32>,
}

impl Stream {
    fn push(&mut self, next: Vec<u32>) {
        let step = self.deltas.len();
        if step.is_multiple_of(KEY) {
            self.frames.push(next.clone());
        }
        self.deltas.push(if step == 0 {
            Vec::new()
        } else {
            splices(&self.current, &next)
        });
        self.current = next;
    }

    /// The step before again.
    fn repeat(&mut self) {
        let same = self.current.clone();
        self.push(same);
    }
}

/// A match step by step, as the page's script reads it (JSON).
#[derive(Serialize)]
pub struct Replay {
    /// The templates of the drawing lines ([`HOLE`] where a number goes).
    templates: Vec<String>,
    /// The distinct lines of the drawings: a template's number and the numbers it takes.
    lines: Vec<Vec<u32>>,
    /// The distinct lines of the prompts and replies.
    texts: Vec<String>,
    /// Every how many steps a step is kept whole.
    key: usize,
    /// The drawing of each step, as numbers of `lines`.
    board: Stream,
    /// Each player's last prompt at each step, as numbers of `texts` (by player number).
    prompts: Vec<Stream>,
    /// Who was prompted at each step, in order, and the reply's lines (`None`: no reply).
    said: Vec<Vec<(usize, Option<Vec<u32>>)>>,
    /// Why a step has no drawing (a state the game could not draw), by step.
    undrawn: Vec<(usize, String)>,
    /// The reference's prediction and the state shown, at the first [`DRAWN_DEPARTURES`]
    /// departure steps.
    #[serde(skip)]
    pub(super) boards: Vec<(usize, Value, Value)>,
    /// The departure steps after those, whose boards are not drawn.
    #[serde(skip)]
    pub(super) undrawn_departure_steps: usize,
    #[serde(skip)]
    pub(super) render: Option<&'static dyn DynRender>,
}

impl Replay {
    /// The steps, the first being 0.
    pub fn steps(&self) -> usize {
        self.said.len()
    }
}

/// A replay being made, one step at a time as a trace reads them ([`Seen`]).
pub struct ReplayBuilder {
    lines: Lines,
    texts: Table,
    replay: Replay,
}

impl ReplayBuilder {
    pub fn new(game: &dyn DynGame) -> ReplayBuilder {
        ReplayBuilder {
            lines: Lines::default(),
            texts: Table::default(),
            replay: Replay {
                templates: Vec::new(),
                lines: Vec::new(),
                texts: Vec::new(),
                key: KEY,
                board: Stream::default(),
                prompts: Vec::new(),
                said: Vec::new(),
                undrawn: Vec::new(),
                boards: Vec::new(),
                undrawn_departure_steps: 0,
                render: game.info().capabilities.render,
            },
        }
    }

    /// The next step.
    pub fn see(&mut self, seen: Seen<'_>) {
        let replay = &mut self.replay;
        let step = replay.said.len();
        let drawing = match replay
            .render
            .map(|r| r.render(seen.state, &Marked::default()))
        {
            Some(Ok(svg)) => svg,
            Some(Err(e)) => {
                replay.undrawn.push((step, e.to_string()));
                String::new()
            }
            None => String::new(),
        };
        let next: Vec<u32> = cut(&drawing).map(|l| self.lines.number(l)).collect();
        replay.board.push(next);
        let mut prompted: Vec<Option<Vec<u32>>> = Vec::new();
        let mut said = Vec::new();
        for (player, exchange) in &seen.exchanges {
            if prompted.len() <= *player {
                prompted.resize(player + 1, None);
            }
            prompted[*player] = Some(self.texts.lines(&exchange.prompt));
            let reply = exchange.reply.as_deref().map(|r| self.texts.lines(r));
            said.push((*player, reply));
        }
        while replay.prompts.len() < prompted.len() {
            let mut stream = Stream::default();
            (0..step).for_each(|_| stream.push(Vec::new()));
            replay.prompts.push(stream);
        }
        for (player, stream) in replay.prompts.iter_mut().enumerate() {
            match prompted.get_mut(player).and_then(Option::take) {
                Some(prompt) => stream.push(prompt),
                None => stream.repeat(),
            }
        }
        replay.said.push(said);
        if let Some(predicted) = seen.predicted {
            if replay.boards.len() < DRAWN_DEPARTURES {
                let states = (step, predicted.clone(), seen.state.clone());
                replay.boards.push(states);
            } else {
                replay.undrawn_departure_steps += 1;
            }
        }
    }

    pub fn finish(mut self) -> Replay {
        self.replay.templates = self.lines.templates.texts;
        self.replay.lines = self.lines.lines;
        self.replay.texts = self.texts.texts;
        self.replay
    }
}

/// A drawing cut before each `<`: an escaped text holds none, so each piece is one tag and
/// the text after it.
fn cut(svg: &str) -> impl Iterator<Item = &str> {
    let starts: Vec<usize> = svg.match_indices('<').map(|(i, _)| i).collect();
    let ends: Vec<usize> = starts.iter().skip(1).copied().chain([svg.len()]).collect();
    starts.into_iter().zip(ends).map(move |(a, b)| &svg[a..b])
}

/// `next` as splices of `before`, in order, each at its place in the list being changed:
/// `at`, how many go, how many come, what comes.
fn splices(before: &[u32], next: &[u32]) -> Vec<u32> {
    let mut out = Vec::new();
    // Where the next splice goes in the list as the splices before it left it.
    let mut at = 0;
    for op in capture_diff_slices(Algorithm::Myers, before, next) {
        let (gone, come) = match op {
            DiffOp::Equal { len, .. } => {
                at += len;
                continue;
            }
            DiffOp::Delete { old_len, .. } => (old_len, 0..0),
            DiffOp::Insert {
                new_index, new_len, ..
            } => (0, new_index..new_index + new_len),
            DiffOp::Replace {
                old_len,
                new_index,
                new_len,
                ..
            } => (old_len, new_index..new_index + new_len),
        };
        out.extend([at as u32, gone as u32, come.len() as u32]);
        at += come.len();
        out.extend_from_slice(&next[come]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(before: &[u32], splices: &[u32]) -> Vec<u32> {
        let mut list = before.to_vec();
        let mut i = 0;
        while i < splices.len() {
            let (at, gone, come) = (
                splices[i] as usize,
                splices[i + 1] as usize,
                splices[i + 2] as usize,
            );
            let new = &splices[i + 3..i + 3 + come];
            list.splice(at..at + gone, new.iter().copied());
            i += 3 + come;
        }
        list
    }

    #[test]
    fn splices_played_on_the_step_before_give_the_step() {
        let pairs: [(&[u32], &[u32]); 5] = [
            (&[1, 2, 3, 4, 5], &[1, 9, 3, 4, 5]),
            (&[1, 2, 3], &[]),
            (&[], &[7, 8]),
            (&[1, 2, 3, 4, 5, 6], &[0, 1, 3, 4, 4, 6, 7]),
            (&[5, 5, 5], &[5, 5, 5]),
        ];
        for (before, next) in pairs {
            assert_eq!(apply(before, &splices(before, next)), next, "{before:?}");
        }
        assert!(splices(&[5, 5, 5], &[5, 5, 5]).is_empty());
        // Lists of many repeated numbers, each changed a little, as a board's lines are.
        let mut seed = 7u64;
        let mut draw = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) % n) as u32
        };
        for _ in 0..300 {
            let before: Vec<u32> = (0..draw(40)).map(|_| draw(5)).collect();
            let mut next = before.clone();
            for _ in 0..draw(6) {
                let at = draw(next.len() as u64 + 1) as usize;
                match draw(3) {
                    0 if at < next.len() => drop(next.remove(at)),
                    1 if at < next.len() => next[at] = draw(5),
                    _ => next.insert(at, draw(5)),
                }
            }
            assert_eq!(apply(&before, &splices(&before, &next)), next, "{before:?}");
        }
    }

    #[test]
    fn numbers_come_out_of_a_line_only_where_they_print_back_as_themselves() {
        let (template, numbers) =
            template("<rect x=\"460.5\" y=\"-3\" z=\"007\" w=\"1234567890\">");
        assert_eq!(
            template,
            "<rect x=\"\u{1}.\u{1}\" y=\"-\u{1}\" z=\"007\" w=\"1234567890\">"
        );
        assert_eq!(numbers, [460, 5, 3]);
        assert_eq!(template_of("no digits"), "no digits");
    }

    fn template_of(line: &str) -> String {
        template(line).0
    }

    #[test]
    fn a_drawing_is_cut_into_one_tag_a_line() {
        let lines: Vec<&str> = cut("<svg a=\"1\"><text>a &lt; b</text><rect/></svg>").collect();
        assert_eq!(
            lines,
            [
                "<svg a=\"1\">",
                "<text>a &lt; b",
                "</text>",
                "<rect/>",
                "</svg>"
            ]
        );
        assert_eq!(cut("<a/>").count(), 1);
    }
}
