//! A model of the field written cell by cell, the plainest reading of the document, that the
//! bit-plane [`Field`] is checked against on random fields: the same chains, the same blocks
//! removed, the same field after. The model is slow and obviously right; the field is fast.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::field::Field;
use super::rules::{CAPACITY, EXPLODING_VALUE, HEIGHT, OJAMA, VANISH_SUM, WIDTH};

/// `columns[x]`: column x's blocks from the floor up.
#[derive(Clone, Debug, PartialEq)]
struct Model {
    columns: [Vec<u8>; WIDTH],
}

impl Model {
    fn of(field: &Field) -> Model {
        Model {
            columns: std::array::from_fn(|x| {
                (0..field.height(x)).map(|y| field.cell(x, y)).collect()
            }),
        }
    }

    fn at(&self, x: isize, y: isize) -> u8 {
        if x < 0 || y < 0 {
            return 0;
        }
        self.columns
            .get(x as usize)
            .and_then(|c| c.get(y as usize))
            .copied()
            .unwrap_or(0)
    }

    /// The blocks whose `keep` is false taken out, the rest fallen; how many were taken.
    fn remove(&mut self, doomed: &[Vec<bool>; WIDTH]) -> usize {
        let mut removed = 0;
        for (column, doomed) in self.columns.iter_mut().zip(doomed) {
            let before = column.len();
            let mut y = 0;
            column.retain(|_| {
                y += 1;
                !doomed[y - 1]
            });
            removed += before - column.len();
        }
        removed
    }

    /// 「ブロックの消滅」 and 「チェイン」: every block with a neighbour (8 directions, or 4)
    /// summing to 10 vanishes at once; repeat. The chain count.
    fn settle(&mut self, diagonals: bool) -> u32 {
        let mut chains = 0;
        loop {
            let doomed: [Vec<bool>; WIDTH] = std::array::from_fn(|x| {
                (0..self.columns[x].len())
                    .map(|y| {
                        let (x, y) = (x as isize, y as isize);
                        let v = self.at(x, y);
                        (-1..=1).any(|dx| {
                            (-1..=1).any(|dy| {
                                let straight = dx == 0 || dy == 0;
                                (dx, dy) != (0, 0)
                                    && (diagonals || straight)
                                    && v + self.at(x + dx, y + dy) == VANISH_SUM
                            })
                        })
                    })
                    .collect()
            });
            if self.remove(&doomed) == 0 {
                return chains;
            }
            chains += 1;
        }
    }

    /// 「スキルの効果」: every block but ojama in the 3×3 square around a 5. How many.
    fn explode(&mut self) -> u32 {
        let doomed: [Vec<bool>; WIDTH] = std::array::from_fn(|x| {
            (0..self.columns[x].len())
                .map(|y| {
                    let (x, y) = (x as isize, y as isize);
                    self.at(x, y) != OJAMA
                        && (-1..=1)
                            .any(|dx| (-1..=1).any(|dy| self.at(x + dx, y + dy) == EXPLODING_VALUE))
                })
                .collect()
        });
        self.remove(&doomed) as u32
    }
}

fn random_block(rng: &mut ChaCha8Rng) -> u8 {
    if rng.random_ratio(1, 10) {
        OJAMA
    } else {
        rng.random_range(1..=9)
    }
}

fn random_field(rng: &mut ChaCha8Rng) -> Field {
    let mut field = Field::default();
    for x in 0..WIDTH {
        for _ in 0..rng.random_range(0..=HEIGHT) {
            field.push(x, random_block(rng));
        }
    }
    field
}

/// The field and the model agree: the same blocks, and each operation's answer.
fn agree(field: &Field, model: &Model, what: &str) {
    assert_eq!(Model::of(field), *model, "after {what}");
}

/// 10,000 random fields, each settled, then played on as a turn plays on it: an ojama row, a few
/// blocks dropped onto one or two columns, or the skill; settled again. Field and model at
/// every step. (A field between turns is settled, so the field looks only at the columns a
/// turn changed; the random blocks test that it misses no pair.)
#[test]
fn the_field_plays_as_the_cell_by_cell_model() {
    let mut rng = ChaCha8Rng::seed_from_u64(27);
    for round in 0..10_000 {
        let mut field = random_field(&mut rng);
        let mut model = Model::of(&field);
        let diagonals = round % 10 != 0;
        let (chains, expected) = if diagonals {
            (field.settle(), model.settle(true))
        } else {
            (field.settle_without_diagonals(), model.settle(false))
        };
        assert_eq!(chains, expected, "settling a random field");
        agree(&field, &model, "settling a random field");
        for _ in 0..3 {
            if rng.random_ratio(1, 4) {
                field.drop_ojama_row();
                for column in &mut model.columns {
                    if column.len() < CAPACITY {
                        column.push(OJAMA);
                    }
                }
            }
            if rng.random_ratio(1, 4) {
                assert_eq!(field.explode(), model.explode(), "the skill");
                agree(&field, &model, "the skill");
            } else {
                let x = rng.random_range(0..WIDTH - 1);
                for _ in 0..rng.random_range(1..=4) {
                    let column = x + rng.random_range(0..=1);
                    let block = random_block(&mut rng);
                    let fits = field.push(column, block);
                    assert_eq!(fits, model.columns[column].len() < CAPACITY);
                    if fits {
                        model.columns[column].push(block);
                    }
                }
            }
            let (chains, expected) = if diagonals {
                (field.settle(), model.settle(true))
            } else {
                (field.settle_without_diagonals(), model.settle(false))
            };
            assert_eq!(chains, expected, "a turn's chains");
            agree(&field, &model, "a turn");
        }
    }
}
