//! Ways of playing a clause of the rules wrong ([`Variant`]), and a set of them played together
//! ([`VariantSet`]): what a game with the [`super::Variants`] capability plays to name a
//! departure.

use serde::Serialize;

/// One way of getting one clause of the rules wrong that the game can play: a planted bug, or
/// what a known engine does instead. Playing an input with each variant and keeping the one
/// whose result shows what an engine showed is how a departure is named
/// (`shinpan::run::departure`, in the crate above this one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Variant {
    /// Kebab-case, unique in the game: `chain-score-rounded`.
    pub name: &'static str,
    /// The clause it breaks, an id of the game's `rules.yaml`.
    pub clause: &'static str,
    /// What it does instead of the rule, in a few words: "chain scores sum round(1.3^i), not
    /// floor(1.3^i)".
    pub does: &'static str,
}

/// Some of a game's variants, played together, by their place in the game's list (none: the
/// rules). A game names its variants with an enum whose discriminant is that place, and asks
/// `set.has(Wrong::ShieldOneTurnShort)`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct VariantSet(u64);

impl VariantSet {
    /// The rules.
    pub const NONE: VariantSet = VariantSet(0);

    /// The most variants a game can have.
    pub const CAPACITY: usize = 64;

    /// The variants at `indices` (an index past [`VariantSet::CAPACITY`] is none).
    pub fn of(indices: &[usize]) -> VariantSet {
        VariantSet(
            indices
                .iter()
                .filter(|&&i| i < Self::CAPACITY)
                .fold(0, |set, &i| set | 1 << i),
        )
    }

    /// Whether the variant at `index` is played.
    pub fn has(self, index: impl Into<usize>) -> bool {
        let index = index.into();
        index < Self::CAPACITY && self.0 & 1 << index != 0
    }
}

/// Declares a game's variants once: an enum naming each (its discriminant is its place in the
/// list, so `set.has(Wrong::X)` asks for it) and the list itself, `Wrong::VARIANTS`, in the
/// same order by construction.
///
/// ```ignore
/// crate::seam::variants! {
///     /// One way of getting a rule wrong.
///     pub enum Wrong {
///         /// `shield.duration`: a shield lasts one turn less.
///         ShieldOneTurnShort = ("shield-one-turn-short", "shield.duration", "a shield lasts one turn less"),
///     }
/// }
/// ```
#[macro_export]
macro_rules! variants {
    (
        $(#[$meta:meta])*
        $vis:vis enum $enum:ident {
            $(
                $(#[$variant_meta:meta])*
                $variant:ident = ($name:literal, $clause:literal, $does:literal $(,)?)
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        $vis enum $enum {
            $( $(#[$variant_meta])* $variant, )*
        }

        impl $enum {
            /// Every variant, each at the place of its discriminant.
            pub const VARIANTS: &'static [$crate::seam::Variant] = &[
                $( $crate::seam::Variant { name: $name, clause: $clause, does: $does }, )*
            ];
        }

        impl From<$enum> for usize {
            fn from(wrong: $enum) -> usize {
                wrong as usize
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_holds_exactly_the_indices_it_was_made_of() {
        let set = VariantSet::of(&[0, 2, 63, 64, 900]);
        let held: Vec<usize> = (0..70usize).filter(|&i| set.has(i)).collect();
        assert_eq!(held, [0, 2, 63]);
        assert!((0..70usize).all(|i| !VariantSet::NONE.has(i)));
        assert_eq!(VariantSet::default(), VariantSet::NONE);
        // An index given twice is still held once.
        assert!(VariantSet::of(&[1, 1]).has(1usize));
    }
}
