//! The `ir` values kept from row to row ([`IR`]): a ply's `ir` is its
//! move's JSON, and a game's moves repeat across games (the mixed chess
//! file's 85,294 moves are 6,267 values), where serializing each took a
//! fifth of the csv writer's instructions.

use super::*;

/// The sets of [`IR`].
const SETS: usize = 4_096;

/// The slots of a set of [`IR`].
const WAYS: usize = 4;

/// A set's ways in the order they were used, the one used last first: two
/// bits a way, the first in the lowest bits ([`Kept::order`]).
const FIRST_ORDER: u8 = 0b11_10_01_00;

thread_local! {
    /// The `ir` values written last, as they went into their rows (their
    /// encoding's text, from the mark before the value). A move's set of
    /// slots is found from its move fields ([`ir_key`]), the value used
    /// last looked at first and the one used longest ago put out for a new
    /// one (4,096 single slots missed a third of the moves, 8,192 pairs
    /// serialized 9,648); what a slot holds is used only for a move equal
    /// to its own (`Move`'s `==`, the JSON being a function of the move).
    static IR: std::cell::RefCell<Kept> = std::cell::RefCell::new(Kept::default());
}

/// The values kept ([`IR`]) of a thread. A set's tags and order are 16
/// bytes of their own, four sets to a cache line, so that a look-up reads
/// a kept move (and its text) only where its tag matches, and the order
/// of a set's ways is a byte, so that a value found or put is not moved.
#[derive(Default)]
struct Kept {
    /// Each set's tags and order.
    sets: Vec<Set>,
    /// Each set's slots: a move and its text.
    slots: Vec<[Option<(Move, String)>; WAYS]>,
}

/// A set's slots' tags ([`tag`]; 0 for an empty slot) and the order of its
/// ways ([`FIRST_ORDER`]).
#[derive(Clone, Copy)]
#[repr(align(16))]
struct Set {
    tags: [u16; WAYS],
    order: u8,
}

/// The set of [`IR`] of a move whose fields are `key`, and the hash of
/// them it is found from (FxHash's step), of which its slot keeps a tag:
/// a move is compared only with those of the same tag.
fn ir_key(key: [&str; 2]) -> (usize, u64) {
    let mut h = 0u64;
    for part in key {
        for &b in part.as_bytes() {
            h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
        h = (h.rotate_left(5) ^ 0xff).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    ((h >> 50) as usize % SETS, h)
}

/// The tag a slot keeps of a move's hash ([`ir_key`]) in `enc`: never 0,
/// its lowest bit set, the next one the encoding's, fourteen bits of the
/// hash (other than those that find the set) above them.
fn tag(hash: u64, enc: Encoding) -> u16 {
    (((hash >> 24) as u16) & !3) | (u16::from(enc == Encoding::Typed) << 1) | 1
}

/// A set's order ([`Set::order`]) with its `p`th way (`w`) put first.
#[inline(always)]
fn to_front(order: u8, p: usize, w: u8) -> u8 {
    let below = order & ((1u16 << (2 * p)) - 1) as u8;
    let above = (u16::from(order) & !((1u16 << (2 * p + 2)) - 1)) as u8;
    above | (below << 2) | w
}

impl Kept {
    /// The text kept of `mv` with `tag` in set `set`, where there is one,
    /// its way put first in the set's order.
    #[inline(always)]
    fn find(&mut self, set: usize, tag: u16, mv: &Move) -> Option<&str> {
        let s = self.sets.get_mut(set)?;
        let (tags, order) = (s.tags, s.order);
        let slots = self.slots.get(set)?;
        for p in 0..WAYS {
            let w = (order >> (2 * p)) & 3;
            if tags[usize::from(w)] != tag {
                continue;
            }
            if let Some((m, text)) = &slots[usize::from(w)] {
                if m == mv {
                    s.order = to_front(order, p, w);
                    return Some(text);
                }
            }
        }
        None
    }

    /// Puts `mv`'s text, as `write` writes it into the (emptied) text
    /// given, in the slot of `set` used longest ago, put first; gives the
    /// text. Where `write` fails the slot is left empty.
    fn put(
        &mut self,
        set: usize,
        tag: u16,
        mv: &Move,
        write: impl FnOnce(&mut String) -> Result<(), Problem>,
    ) -> Result<&str, Problem> {
        if self.sets.is_empty() {
            let empty = Set {
                tags: [0; WAYS],
                order: FIRST_ORDER,
            };
            self.sets = vec![empty; SETS];
            self.slots.resize_with(SETS, Default::default);
        }
        let (Some(s), Some(slots)) = (self.sets.get_mut(set), self.slots.get_mut(set)) else {
            return Err(
                Problem::whole("an `ir` set out of range").of_kind(crate::error::Kind::Internal)
            );
        };
        let w = usize::from(s.order >> 6);
        s.tags[w] = 0;
        let mut text = match slots[w].take() {
            // Its text's room used again.
            Some((_, mut text)) => {
                text.clear();
                text
            }
            None => String::new(),
        };
        write(&mut text)?;
        s.tags[w] = tag;
        s.order = (s.order << 2) | w as u8;
        Ok(&slots[w].insert((mv.clone(), text)).1)
    }
}

/// Writes a ply's move as JSON ([`Row::ir`]) into the column `column` of
/// `table`, through the values kept ([`IR`]); `key` are move fields of
/// it, which find its set.
#[inline(always)]
pub(super) fn put_ir<O: Out>(
    out: &mut O,
    table: usize,
    column: usize,
    mv: &Move,
    key: [&str; 2],
) -> Result<(), Problem> {
    let (set, hash) = ir_key(key);
    let tag = tag(hash, O::ENC);
    IR.with_borrow_mut(|kept| {
        let text = match kept.find(set, tag, mv) {
            Some(text) => text,
            None => put_new::<O>(kept, set, tag, mv, table, column)?,
        };
        out.encoded(table, column, text);
        Ok(())
    })
}

/// Serializes a move not kept into the slot [`Kept::put`] gives it.
#[inline(never)]
fn put_new<'k, O: Out>(
    kept: &'k mut Kept,
    set: usize,
    tag: u16,
    mv: &Move,
    table: usize,
    column: usize,
) -> Result<&'k str, Problem> {
    kept.put(set, tag, mv, |text| {
        json_text::<O, _>(table, column, mv, |json, quote| {
            O::encode_json(json, quote, text)
        })
    })
}

/// Whether the set of `key` keeps `mv` in `enc` (for the tests).
#[cfg(test)]
pub(super) fn holds(key: [&str; 2], enc: Encoding, mv: &Move) -> bool {
    let (set, hash) = ir_key(key);
    IR.with_borrow(|k| {
        (0..WAYS).any(|w| {
            k.sets.get(set).is_some_and(|s| s.tags[w] == tag(hash, enc))
                && matches!(&k.slots[set][w], Some((m, _)) if m == mv)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Putting a way first keeps the others in their order: every order
    /// of four ways, every place.
    #[test]
    fn a_way_put_first_keeps_the_others_in_order() {
        let mut orders = 0;
        for order in 0..=255u8 {
            let ways: Vec<u8> = (0..WAYS).map(|p| (order >> (2 * p)) & 3).collect();
            let mut sorted = ways.clone();
            sorted.sort_unstable();
            if sorted != [0, 1, 2, 3] {
                continue;
            }
            orders += 1;
            for (p, &w) in ways.iter().enumerate() {
                let got = to_front(order, p, w);
                let mut want = ways.clone();
                want.remove(p);
                want.insert(0, w);
                let got: Vec<u8> = (0..WAYS).map(|p| (got >> (2 * p)) & 3).collect();
                assert_eq!(got, want, "{order:08b} {p}");
            }
        }
        assert_eq!(orders, 24);
        assert_eq!(
            (0..WAYS)
                .map(|p| (FIRST_ORDER >> (2 * p)) & 3)
                .collect::<Vec<_>>(),
            [0, 1, 2, 3]
        );
    }

    /// A set keeps the four moves used last: a fifth puts out the one
    /// used longest ago, and a move found goes first.
    #[test]
    fn a_set_keeps_the_moves_used_last() {
        let text = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *";
        let game = crate::family::chess::pgn::read(text, &crate::codec::ReadOptions::default())
            .unwrap()
            .game;
        let mv: Vec<&Move> = game.moves.plies.iter().map(|p| &p.mv).collect();
        let key = ["kept", "set"];
        let write = |m: &Move| {
            let mut cols = Columns::default();
            cols.reset(false);
            put_ir(&mut cols, 2, 20, m, key).unwrap();
        };
        for m in &mv[..4] {
            write(m);
        }
        assert!(mv[..4].iter().all(|m| holds(key, Encoding::Typed, m)));
        // The first used again, then a fifth: the second goes.
        write(mv[0]);
        write(mv[4]);
        let held: Vec<bool> = mv[..5]
            .iter()
            .map(|m| holds(key, Encoding::Typed, m))
            .collect();
        assert_eq!(held, [true, false, true, true, true]);
        assert!(!holds(key, Encoding::Csv, mv[0]));
    }
}
