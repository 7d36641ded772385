//! What a move the rules refuse needs of the position before it ([`Needs`]):
//! the directed pass of the berserk legs' search looks for the legs that
//! give it. A refused move may need several legs of several earlier moves
//! (the king's `e8-i8` passes f8 and h8, each left by an attacker's lost
//! leg), none of which alone lets it through: the pass keeps a leg that
//! meets more of the move's needs, though the same move is still refused.

use crate::family::hnefatafl::rules::Position;
use crate::family::hnefatafl::{Square, Step, ATTACKERS};
use crate::ir::Side;

/// The squares a refused move needs: its start, which must hold a piece of
/// the mover's, and every square its legs pass or land on, which must be
/// empty.
pub(super) struct Needs {
    from: Square,
    path: Vec<Square>,
}

impl Needs {
    /// The needs of a step, from its squares alone.
    pub(super) fn of(step: &Step) -> Needs {
        let mut path = Vec::new();
        for (at, to) in step.legs() {
            match at.toward(to) {
                Some(passed) => path.extend(passed),
                None => path.push(to),
            }
        }
        Needs {
            from: step.from,
            path,
        }
    }

    /// Whether a leg from `from` to `to`, capturing `captures`, touches the
    /// needs: it lands on the start, or leaves, lands on or captures on a
    /// square of the path.
    pub(super) fn touched(&self, from: Square, to: Square, captures: &[Square]) -> bool {
        to == self.from
            || self.path.contains(&from)
            || self.path.contains(&to)
            || captures
                .iter()
                .any(|c| *c == self.from || self.path.contains(c))
    }

    /// How far a position is from the needs of `side`'s move: 1 where its
    /// start is empty, 2 where a piece of the other side holds it (to be
    /// captured, then entered), and 1 for each piece on its path.
    pub(super) fn unmet(&self, pos: &Position<'_>, side: Side) -> usize {
        let start = match pos.piece(self.from) {
            None => 1,
            Some(p) if p.is_ascii_lowercase() == (side == ATTACKERS) => 0,
            Some(_) => 2,
        };
        start
            + self
                .path
                .iter()
                .filter(|&&sq| pos.piece(sq).is_some())
                .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::hnefatafl::rules::Rules;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn a_move_needs_its_start_and_its_path() {
        let step = Step {
            from: sq("e8"),
            via: vec![sq("e6")],
            to: sq("g6"),
            captures: Vec::new(),
            mark: None,
        };
        let needs = Needs::of(&step);
        assert_eq!(needs.from, sq("e8"));
        assert_eq!(
            needs.path,
            ["e7", "e6", "f6", "g6"].map(sq).to_vec(),
            "every square passed or landed on, in order"
        );
        assert!(needs.touched(sq("a1"), sq("e8"), &[]), "a leg to the start");
        assert!(needs.touched(sq("f6"), sq("f2"), &[]), "a leg off the path");
        assert!(
            needs.touched(sq("a1"), sq("a2"), &[sq("e7")]),
            "a capture on it"
        );
        assert!(!needs.touched(sq("a1"), sq("a2"), &[sq("b2")]));
        // Brandubh: the king on d4, attackers on d1, d2, a4, b4.
        let rules = Rules::parse("dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/").unwrap();
        let pos = Position::new(&rules);
        let king = Needs::of(&Step {
            from: sq("d4"),
            via: Vec::new(),
            to: sq("d7"),
            captures: Vec::new(),
            mark: None,
        });
        // The king's: d5 (a defender), d6 and d7 (attackers) in the way.
        assert_eq!(king.unmet(&pos, ATTACKERS.other()), 3);
        // The attackers' from d4: the king is to be taken first.
        assert_eq!(king.unmet(&pos, ATTACKERS), 5);
        let empty = Needs::of(&Step {
            from: sq("a1"),
            via: Vec::new(),
            to: sq("a3"),
            captures: Vec::new(),
            mark: None,
        });
        assert_eq!(empty.unmet(&pos, ATTACKERS), 1);
    }
}
