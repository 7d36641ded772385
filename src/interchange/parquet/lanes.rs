//! Numbers of a row group's column kept at the narrowest of three widths
//! that holds every one so far ([`Lanes`]): a dictionary's indices as
//! bytes while it holds at most 256 values (a side, a piece, a square), as
//! `u16`s to 65,536 (a move, an `ir` value, a `game_id`), else `u32`s; a
//! column's whole numbers as `i16`s while each fits (a move's `seq`,
//! `ply`, `number`), then `i32`s, then `i64`s. A row group's columns are
//! memory first touched (page faults) and then read again: a value of a
//! byte or two is a quarter or an eighth of one of four or eight. The
//! values are widened as they are encoded, so the pages are the same
//! bytes at any width.

use std::marker::PhantomData;

use crate::interchange::rows;

/// A width of [`Lanes`] whose values are `V`s: it holds a value whose
/// reach ([`Reach`]) is at most [`Lane::REACH`].
pub(super) trait Lane<V>: Copy + Default {
    /// The greatest reach of the values it holds.
    const REACH: u64;
    /// The value `v`, whose reach is at most [`Lane::REACH`].
    fn narrow(v: V) -> Self;
    /// The value.
    fn wide(self) -> V;
}

/// How wide a value is: an index itself, a whole number its zigzag (a
/// number of `b` bits, signed, has a reach under `2^b`).
pub(super) trait Reach: Copy {
    /// The value's reach.
    fn reach(self) -> u64;
}

impl Reach for u32 {
    #[inline(always)]
    fn reach(self) -> u64 {
        u64::from(self)
    }
}

impl Reach for i64 {
    #[inline(always)]
    fn reach(self) -> u64 {
        rows::zigzag(self)
    }
}

/// Each [`Lane`] of a kind of value, from one narrower type to a wider.
macro_rules! lanes {
    ($wide:ty: $($t:ty = $reach:expr),*) => {$(
        impl Lane<$wide> for $t {
            const REACH: u64 = $reach;
            #[inline(always)]
            fn narrow(v: $wide) -> $t {
                v as $t
            }
            #[inline(always)]
            fn wide(self) -> $wide {
                self as $wide
            }
        }
    )*};
}

lanes!(u32: u8 = u8::MAX as u64, u16 = u16::MAX as u64, u32 = u32::MAX as u64);
lanes!(i64: i16 = u16::MAX as u64, i32 = u32::MAX as u64, i64 = u64::MAX);

/// One of three things, one a width ([`Lanes::slice`], [`Lanes::fit`]),
/// each handled by the same code ([`each!`](each)).
pub(super) enum Each<A, B, C> {
    /// The narrowest.
    A(A),
    /// The middle one.
    B(B),
    /// The widest.
    C(C),
}

/// `$body` with `$v` bound to what an [`Each`] holds, whichever width (the
/// code made once for each).
macro_rules! each {
    ($e:expr, $v:ident => $body:expr) => {
        match $e {
            $crate::interchange::parquet::lanes::Each::A($v) => $body,
            $crate::interchange::parquet::lanes::Each::B($v) => $body,
            $crate::interchange::parquet::lanes::Each::C($v) => $body,
        }
    };
}
pub(super) use each;

/// The values of [`Lanes`] at their width.
pub(super) type Slice<'a, A, B, C> = Each<&'a [A], &'a [B], &'a [C]>;

/// Values of a column (`V`s) at the narrowest of the widths `A`, `B`, `C`
/// that holds each so far; widened (copied once into the wider vector)
/// when one does not fit. Each width's vector is kept with its room when
/// emptied, for the next row group.
pub(super) struct Lanes<V, A, B, C> {
    a: Vec<A>,
    b: Vec<B>,
    c: Vec<C>,
    /// Which vector holds the values: 0, 1 or 2.
    at: u8,
    wide: PhantomData<V>,
}

/// A dictionary's indices: bytes, `u16`s or `u32`s.
pub(super) type Indices = Lanes<u32, u8, u16, u32>;

/// Whole numbers: `i16`s, `i32`s or `i64`s.
pub(super) type Ints = Lanes<i64, i16, i32, i64>;

impl<V, A, B, C> Default for Lanes<V, A, B, C> {
    fn default() -> Self {
        Lanes {
            a: Vec::new(),
            b: Vec::new(),
            c: Vec::new(),
            at: 0,
            wide: PhantomData,
        }
    }
}

/// Moves the values of `from` into `to`, a wider vector, with the room
/// `from` had (a row group's rows: not grown by doubling, each time
/// copied into memory touched anew).
fn widen<V, X: Lane<V>, Y: Lane<V>>(from: &mut Vec<X>, to: &mut Vec<Y>) {
    to.clear();
    to.reserve(from.capacity());
    to.extend(from.drain(..).map(|x| Y::narrow(x.wide())));
}

impl<V: Reach, A: Lane<V>, B: Lane<V>, C: Lane<V>> Lanes<V, A, B, C> {
    /// Empty, with room for `n` values at the narrowest width (reserved,
    /// not touched).
    pub(super) fn with_capacity(n: usize) -> Self {
        Lanes {
            a: Vec::with_capacity(n),
            ..Lanes::default()
        }
    }

    /// The values, at their width.
    #[inline]
    pub(super) fn slice(&self) -> Slice<'_, A, B, C> {
        match self.at {
            0 => Each::A(&self.a),
            1 => Each::B(&self.b),
            _ => Each::C(&self.c),
        }
    }

    /// The vector to add values of reach at most `reach` to: the one
    /// holding them, or a wider one they are moved into where theirs
    /// cannot hold such a value.
    #[inline]
    pub(super) fn fit(&mut self, reach: u64) -> Each<&mut Vec<A>, &mut Vec<B>, &mut Vec<C>> {
        let need = match reach {
            r if r <= A::REACH => 0,
            r if r <= B::REACH => 1,
            _ => 2,
        };
        if need > self.at {
            match (self.at, need) {
                (0, 1) => widen(&mut self.a, &mut self.b),
                (0, _) => widen(&mut self.a, &mut self.c),
                _ => widen(&mut self.b, &mut self.c),
            }
            self.at = need;
        }
        match self.at {
            0 => Each::A(&mut self.a),
            1 => Each::B(&mut self.b),
            _ => Each::C(&mut self.c),
        }
    }

    /// Adds `n` values `v`.
    pub(super) fn push_n(&mut self, v: V, n: usize) {
        each!(self.fit(v.reach()), to => to.resize(to.len() + n, Lane::narrow(v)));
    }

    /// How many values it holds.
    #[inline]
    pub(super) fn len(&self) -> usize {
        each!(self.slice(), v => v.len())
    }

    /// Whether it holds none.
    pub(super) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `i`th value.
    #[cfg(test)]
    fn get(&self, i: usize) -> V {
        each!(self.slice(), v => v[i].wide())
    }

    /// Empties it, its values back at the narrowest width (each vector's
    /// room kept).
    pub(super) fn clear(&mut self) {
        self.a.clear();
        self.b.clear();
        self.c.clear();
        self.at = 0;
    }
}

impl<A, B, C> Slice<'_, A, B, C> {
    /// How many values there are.
    #[inline]
    pub(super) fn len(&self) -> usize {
        each!(self, v => v.len())
    }
}

impl Slice<'_, u8, u16, u32> {
    /// The `i`th index.
    #[inline]
    pub(super) fn get(&self, i: usize) -> u32 {
        each!(self, v => v[i].wide())
    }
}

#[cfg(test)]
mod tests {
    use super::{Indices, Ints};

    proptest::proptest! {
        /// Values added in runs of any reach (indices past a byte and
        /// past 16 bits, numbers of every sign and size) read back as
        /// added, in their order, at the narrowest width that holds them
        /// all; emptied, the lanes start again at the narrowest.
        #[test]
        fn values_read_back_at_the_narrowest_width(
            runs in proptest::collection::vec(
                (proptest::prop_oneof![0i64..300, -40_000i64..70_000, proptest::num::i64::ANY], 1usize..5),
                0..60,
            ),
        ) {
            let mut ints = Ints::with_capacity(4);
            let mut indices = Indices::default();
            for round in 0..2 {
                let mut want = Vec::new();
                for &(v, n) in &runs {
                    ints.push_n(v, n);
                    indices.push_n(v as u32, n);
                    want.extend(std::iter::repeat_n(v, n));
                }
                let got: Vec<i64> = (0..ints.len()).map(|i| ints.get(i)).collect();
                proptest::prop_assert_eq!(&got, &want, "round {}", round);
                let got: Vec<u32> = (0..indices.len()).map(|i| indices.slice().get(i)).collect();
                let want32: Vec<u32> = want.iter().map(|&v| v as u32).collect();
                proptest::prop_assert_eq!(got, want32);
                let width = |reach: u64| match reach { 0..=0xff => 0, 0x100..=0xffff => 1, _ => 2 };
                let most = want.iter().map(|&v| v as u32).max().unwrap_or(0);
                proptest::prop_assert_eq!(indices.at, width(u64::from(most)));
                let most = want.iter().map(|&v| crate::interchange::rows::zigzag(v)).max().unwrap_or(0);
                proptest::prop_assert_eq!(ints.at, match most { 0..=0xffff => 0, 0x1_0000..=0xffff_ffff => 1, _ => 2 });
                ints.clear();
                indices.clear();
                proptest::prop_assert!(ints.is_empty() && indices.is_empty());
                proptest::prop_assert_eq!((ints.at, indices.at), (0, 0));
            }
        }
    }
}
