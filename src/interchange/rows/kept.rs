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
    /// slots is found from its key ([`Key::of`]), the value used last
    /// looked at first and the one used longest ago put out for a new one
    /// (4,096 single slots missed a third of the moves, 8,192 pairs
    /// serialized 9,648); what a slot holds is used only for a move equal
    /// to its own (the JSON being a function of the move).
    static IR: std::cell::RefCell<Kept> = std::cell::RefCell::new(Kept::default());
}

/// The values kept ([`IR`]) of a thread. A set's keys and order are a
/// cache line of their own, so that a look-up reads a slot's text only
/// where its key matches, and a move that packs into a number
/// ([`Move::packed`]: a chess move) is found by its key alone, with no
/// move kept nor compared; the order of a set's ways is a byte, so that a
/// value found or put is not moved.
#[derive(Default)]
struct Kept {
    /// Each set's keys and order.
    sets: Vec<Set>,
    /// Each set's slots' texts.
    texts: Vec<[String; WAYS]>,
    /// Each set's slots' moves, for a key that is a hash's tag (a move
    /// that does not pack): compared with the move looked up. Empty until
    /// such a move is put.
    moves: Vec<[Option<Move>; WAYS]>,
}

/// A set's slots' keys ([`Key`]; 0 for an empty slot) and the order of its
/// ways ([`FIRST_ORDER`]).
#[derive(Clone, Copy)]
#[repr(align(64))]
struct Set {
    keys: [u64; WAYS],
    order: u8,
}

/// What finds a move's `ir` kept: its set, and the key its slot keeps,
/// never 0: its lowest bit set, the next one the encoding's, the next
/// whether the rest is the move packed ([`Move::packed`]: equal keys are
/// equal moves) or a tag of the hash of its move fields (equal keys are
/// then compared as moves).
#[derive(Clone, Copy)]
struct Key {
    set: usize,
    key: u64,
}

/// The bit of a [`Key`] that says the move is packed in it.
const PACKED: u64 = 4;

impl Key {
    /// The move's `ir` id ([`IR_IDS`]): the move packed, 0 for one that
    /// does not pack (its key a hash's tag).
    #[inline(always)]
    fn id(self) -> u64 {
        match self.key & PACKED {
            0 => 0,
            _ => self.key >> 3,
        }
    }

    /// The key of `mv` in `enc`: its number where it packs into one, else
    /// from the hash of `fields` (two of its move fields, only asked for
    /// then).
    #[inline(always)]
    fn of<'f>(mv: &Move, enc: Encoding, fields: impl FnOnce() -> [&'f str; 2]) -> Key {
        let low = u64::from(enc == Encoding::Typed) << 1 | 1;
        match mv.packed() {
            Some(p) => {
                let h = p.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                Key {
                    set: (h >> 52) as usize % SETS,
                    key: p << 3 | PACKED | low,
                }
            }
            None => {
                let (set, hash) = ir_key(fields());
                Key {
                    set,
                    key: hash & !7 | low,
                }
            }
        }
    }
}

/// The set of [`IR`] of a move whose fields are `key`, and the hash of
/// them it is found from (FxHash's step), of which its slot keeps a tag
/// ([`Key`]): a move is compared only with those of the same tag.
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

/// A set's order ([`Set::order`]) with its `p`th way (`w`) put first.
#[inline(always)]
fn to_front(order: u8, p: usize, w: u8) -> u8 {
    let below = order & ((1u16 << (2 * p)) - 1) as u8;
    let above = (u16::from(order) & !((1u16 << (2 * p + 2)) - 1)) as u8;
    above | (below << 2) | w
}

impl Kept {
    /// The text kept of `mv` under `k`, where there is one, its way put
    /// first in its set's order.
    #[inline(always)]
    fn find(&mut self, k: Key, mv: &Move) -> Option<&str> {
        let s = self.sets.get(k.set)?;
        let (keys, order) = (s.keys, s.order);
        for p in 0..WAYS {
            let w = (order >> (2 * p)) & 3;
            if keys[usize::from(w)] != k.key {
                continue;
            }
            if k.key & PACKED == 0 && !self.same_move(k.set, w, mv) {
                continue;
            }
            self.sets[k.set].order = to_front(order, p, w);
            return Some(&self.texts.get(k.set)?[usize::from(w)]);
        }
        None
    }

    /// Whether the way `w` of `set` keeps `mv` (a move that does not
    /// pack).
    #[inline(never)]
    fn same_move(&self, set: usize, w: u8, mv: &Move) -> bool {
        matches!(self.moves.get(set).map(|m| &m[usize::from(w)]), Some(Some(m)) if m == mv)
    }

    /// Puts `mv`'s text, as `write` writes it into the (emptied) text
    /// given, in the slot of its set used longest ago, put first; gives
    /// the text. Where `write` fails the slot is left empty.
    fn put(
        &mut self,
        k: Key,
        mv: &Move,
        write: impl FnOnce(&mut String) -> Result<(), Problem>,
    ) -> Result<&str, Problem> {
        if self.sets.is_empty() {
            let empty = Set {
                keys: [0; WAYS],
                order: FIRST_ORDER,
            };
            self.sets = vec![empty; SETS];
            self.texts.resize_with(SETS, Default::default);
        }
        // The moves' room only once a move that does not pack comes (none
        // of a chess game replayed): some 0.9 MB not touched otherwise.
        if k.key & PACKED == 0 && self.moves.is_empty() {
            self.moves.resize_with(SETS, Default::default);
        }
        let (Some(s), Some(texts)) = (self.sets.get_mut(k.set), self.texts.get_mut(k.set)) else {
            return Err(
                Problem::whole("an `ir` set out of range").of_kind(crate::error::Kind::Internal)
            );
        };
        let w = usize::from(s.order >> 6);
        s.keys[w] = 0;
        // Its text's room used again.
        let text = &mut texts[w];
        text.clear();
        write(text)?;
        s.keys[w] = k.key;
        s.order = (s.order << 2) | w as u8;
        if let Some(moves) = self.moves.get_mut(k.set) {
            moves[w] = match k.key & PACKED {
                0 => Some(mv.clone()),
                _ => None,
            };
        }
        Ok(text)
    }
}

/// Writes a ply's move as JSON ([`Row::ir`]) into the column `column` of
/// `table`, through the values kept ([`IR`]); `fields` gives two move
/// fields of it, which find its set where the move does not pack.
#[inline(always)]
pub(super) fn put_ir<'f, O: Out>(
    out: &mut O,
    table: usize,
    column: usize,
    mv: &Move,
    fields: impl FnOnce() -> [&'f str; 2],
) -> Result<(), Problem> {
    put_kept(out, table, column, mv, Key::of(mv, O::ENC, fields))
}

/// [`put_ir`] of a move whose key is `k`.
#[inline(always)]
fn put_kept<O: Out>(
    out: &mut O,
    table: usize,
    column: usize,
    mv: &Move,
    k: Key,
) -> Result<(), Problem> {
    IR.with_borrow_mut(|kept| {
        let text = match kept.find(k, mv) {
            Some(text) => text,
            None => put_new::<O>(kept, k, mv, table, column)?,
        };
        out.encoded(table, column, text);
        out.ir_id(table, k.id());
        Ok(())
    })
}

/// Serializes a move not kept into the slot [`Kept::put`] gives it.
#[inline(never)]
fn put_new<'k, O: Out>(
    kept: &'k mut Kept,
    k: Key,
    mv: &Move,
    table: usize,
    column: usize,
) -> Result<&'k str, Problem> {
    kept.put(k, mv, |text| {
        // Put together from its parts where its family does (a chess
        // move: `serde_json` took some 1,780 instructions a move), else
        // serialized: the same text (a test compares them).
        let put = COMMENTS.with_borrow_mut(|buf| {
            buf.clear();
            let put = mv.json_parts(O::ENC == Encoding::Csv, buf);
            if put {
                // A move's JSON holds quotes.
                O::encode_json(buf, true, text);
            }
            put
        });
        match put {
            true => Ok(()),
            false => json_text::<O, _>(table, column, mv, |json, quote| {
                O::encode_json(json, quote, text)
            }),
        }
    })
}

/// Whether `mv`'s key in `enc` finds it kept, its fields being `fields`
/// (for the tests).
#[cfg(test)]
pub(super) fn holds(fields: [&str; 2], enc: Encoding, mv: &Move) -> bool {
    let k = Key::of(mv, enc, || fields);
    IR.with_borrow(|kept| kept_at(kept, k, mv))
}

/// Whether `kept` keeps `mv` under `k` (for the tests).
#[cfg(test)]
fn kept_at(kept: &Kept, k: Key, mv: &Move) -> bool {
    (0..WAYS).any(|w| {
        kept.sets.get(k.set).is_some_and(|s| s.keys[w] == k.key)
            && (k.key & PACKED != 0 || kept.same_move(k.set, w as u8, mv))
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

    /// The text a move's `ir` is written as through the values kept, in
    /// the set `set` whatever its key says, in `enc`; and whether it was
    /// kept before.
    fn through_set(set: usize, enc: Encoding, mv: &Move) -> (String, bool) {
        let fields = || ["kept", "set"];
        let k = Key {
            set,
            ..Key::of(mv, enc, fields)
        };
        let was = IR.with_borrow(|kept| kept_at(kept, k, mv));
        let text = match enc {
            Encoding::Csv => {
                let mut out = String::new();
                put_kept(&mut out, 2, 20, mv, k).unwrap();
                out
            }
            Encoding::Typed => {
                let mut cols = Columns::default();
                cols.reset(false);
                put_kept(&mut cols, 2, 20, mv, k).unwrap();
                cols.data(2, 20).clone()
            }
        };
        (text, was)
    }

    /// The text `serde_json` makes of a move's `ir` in `enc`.
    fn json_of(enc: Encoding, mv: &Move) -> String {
        let mut out = String::new();
        match enc {
            Encoding::Csv => json_text::<String, _>(2, 20, mv, |json, quote| {
                <String as Out>::encode_json(json, quote, &mut out)
            }),
            Encoding::Typed => json_text::<Columns, _>(2, 20, mv, |json, quote| {
                <Columns as Out>::encode_json(json, quote, &mut out)
            }),
        }
        .unwrap();
        out
    }

    /// Any chess ply: a move of any fields (squares past the board's
    /// too), a null move, a claimed move (which does not pack).
    fn any_ply() -> impl proptest::strategy::Strategy<Value = Move> {
        use crate::family::chess::{Claim, Move as ChessMove, Ply, Role, Square, Wing};
        use proptest::prelude::*;
        let role = || {
            prop_oneof![
                Just(Role::Pawn),
                Just(Role::Knight),
                Just(Role::Bishop),
                Just(Role::Rook),
                Just(Role::Queen),
                Just(Role::King)
            ]
        };
        let wing = || prop_oneof![Just(Wing::King), Just(Wing::Queen)];
        // Few squares, so that moves alike in all but one field come up.
        let square = || prop_oneof![0u8..3, Just(63u8), Just(64u8), Just(255u8)].prop_map(Square);
        let chess = (
            role(),
            proptest::option::of(square()),
            square(),
            any::<bool>(),
            proptest::option::of(role()),
            proptest::option::of(wing()),
            any::<bool>(),
        )
            .prop_map(|(role, from, to, capture, promotion, castle, en_passant)| {
                Ply::Move(ChessMove {
                    role,
                    from,
                    to,
                    capture,
                    promotion,
                    castle,
                    en_passant,
                })
            });
        let claimed = (
            role(),
            proptest::option::of(0u8..2),
            square(),
            any::<bool>(),
        )
            .prop_map(|(role, file, to, capture)| {
                Ply::Claimed(Claim {
                    role,
                    file,
                    rank: None,
                    to,
                    capture,
                    promotion: None,
                    castle: None,
                    check: Default::default(),
                })
            });
        prop_oneof![4 => chess, 1 => Just(Ply::Null), 2 => claimed].prop_map(Move::Chess)
    }

    proptest::proptest! {
        /// Two moves pack into the same number only where they are equal
        /// (a chess move or null move packs, a claimed one does not).
        #[test]
        fn moves_pack_alike_only_where_equal(a in any_ply(), b in any_ply()) {
            if let (Some(pa), Some(pb)) = (a.packed(), b.packed()) {
                proptest::prop_assert_eq!(pa == pb, a == b, "{:?} {:?}", a, b);
            }
            let claimed = |m: &Move| matches!(m, Move::Chess(crate::family::chess::Ply::Claimed(_)));
            proptest::prop_assert_eq!(a.packed().is_none(), claimed(&a));
        }

        /// A move's JSON put together from its parts
        /// ([`Move::json_parts`]) is `serde_json`'s text, its quotes
        /// doubled for a csv field; a claimed move is left to
        /// `serde_json`, nothing appended. (Written through the values
        /// kept in both encodings: the test below.)
        #[test]
        fn a_moves_json_from_its_parts_is_serde_jsons(mv in any_ply()) {
            let json = serde_json::to_string(&mv).unwrap();
            let claimed = matches!(mv, Move::Chess(crate::family::chess::Ply::Claimed(_)));
            for (csv, json) in [(false, json.clone()), (true, json.replace('"', "\"\""))] {
                let mut out = String::from("before");
                let put = mv.json_parts(csv, &mut out);
                proptest::prop_assert_eq!(put, !claimed);
                let want = if put { format!("before{json}") } else { "before".to_string() };
                proptest::prop_assert_eq!(out, want);
            }
        }

        /// A move's `ir` written through the values kept is its JSON
        /// whatever the set holds: any moves, packed or not, all in one
        /// set, each written twice in each encoding; the second writing
        /// finds it kept.
        #[test]
        fn the_ir_kept_is_the_moves_own(plies in proptest::collection::vec(any_ply(), 1..12)) {
            for mv in &plies {
                for enc in [Encoding::Csv, Encoding::Typed] {
                    let want = json_of(enc, mv);
                    let (first, _) = through_set(5, enc, mv);
                    let (second, kept) = through_set(5, enc, mv);
                    proptest::prop_assert_eq!(&first, &want);
                    proptest::prop_assert_eq!(&second, &want);
                    proptest::prop_assert!(kept);
                }
            }
        }
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
        let held = |n: usize, enc: Encoding| -> Vec<bool> {
            mv[..n]
                .iter()
                .map(|m| {
                    let k = Key {
                        set: 9,
                        ..Key::of(m, enc, || ["kept", "set"])
                    };
                    IR.with_borrow(|kept| kept_at(kept, k, m))
                })
                .collect()
        };
        for m in &mv[..4] {
            through_set(9, Encoding::Typed, m);
        }
        assert_eq!(held(4, Encoding::Typed), [true; 4]);
        // The first used again, then a fifth: the second goes.
        through_set(9, Encoding::Typed, mv[0]);
        through_set(9, Encoding::Typed, mv[4]);
        assert_eq!(held(5, Encoding::Typed), [true, false, true, true, true]);
        assert_eq!(held(1, Encoding::Csv), [false]);
    }
}
