//! The typed rows of a game's text ([`super::write_typed`]): each table's
//! rows as columns, written by [`super::Columns`] and read back here.
//!
//! A game's text is a code saying whether the moves table has the `fen`
//! column (1) or not (0), then, for each table in the order of [`TABLES`], its rows'
//! count, then each of its columns after the keys ([`super::KEYS`]), in
//! the order of [`super::columns`]: a code a row (0 NULL, else 1 and the
//! value: a whole number zigzagged ([`zigzag`]), a boolean (1 false, 2
//! true), a text's length in bytes), then, for a text column, its values'
//! text one after another. A code under [`ONE_BYTE`] (112) is one byte,
//! itself; a greater one is a byte saying how many follow, then the code
//! less [`ONE_BYTE`] seven bits a byte, the lowest first ([`code`]): every
//! byte of a code is ASCII, so the text stays UTF-8 with no value escaped,
//! and a text value of under 111 bytes (a square, a move, a move's `ir`
//! JSON), NULL, a flag or a number between -55 and 55 costs one. The
//! moves table's `ir` column is preceded by its rows' `ir` ids
//! ([`super::IR_IDS`]: five columns of a byte a row), and its whole
//! numbers are each the difference from the one before in its column
//! ([`super::DELTAS`]).

/// The codes written as one byte, themselves: those under it.
pub(crate) const ONE_BYTE: u64 = 0x70;

/// The most bytes that follow the first of a code (ten of seven bits: 64
/// bits).
const MOST_FOLLOWING: u8 = 10;

use std::io;

use super::{push_int, Kind, TABLES};
use crate::codec::Origin;

/// Appends `n` as a code: itself where it is under [`ONE_BYTE`], else
/// `ONE_BYTE` and the count of the bytes that follow, then `n - ONE_BYTE`
/// seven bits a byte, the lowest first.
#[inline]
pub(crate) fn code(out: &mut String, n: u64) {
    if n < ONE_BYTE {
        out.push(char::from(n as u8));
        return;
    }
    long_code(out, n - ONE_BYTE);
}

/// The bytes of a code of `ONE_BYTE` or more, `m` being the code less it.
#[cold]
fn long_code(out: &mut String, mut m: u64) {
    let following = (u64::BITS - m.leading_zeros()).div_ceil(7).max(1);
    out.push(char::from(ONE_BYTE as u8 + following as u8));
    for _ in 0..following {
        out.push(char::from((m & 0x7f) as u8));
        m >>= 7;
    }
}

/// A code of [`ONE_BYTE`] or more at the start of `bytes` (its first byte
/// `ONE_BYTE` or more): the code, and how many bytes it takes.
#[cold]
fn read_long(bytes: &[u8]) -> io::Result<(u64, usize)> {
    let first = bytes.first().copied().unwrap_or_default();
    let following = first.wrapping_sub(ONE_BYTE as u8);
    if !(1..=MOST_FOLLOWING).contains(&following) {
        return Err(bug("a code of no number"));
    }
    let rest = bytes
        .get(1..1 + usize::from(following))
        .ok_or_else(|| bug("a column cut short"))?;
    let mut m = 0u64;
    for (i, &b) in rest.iter().enumerate() {
        let bits = u64::from(b);
        if b >= 0x80 || (i == 9 && bits > 1) {
            return Err(bug("a code of no number"));
        }
        m |= bits << (7 * i);
    }
    let n = m
        .checked_add(ONE_BYTE)
        .ok_or_else(|| bug("a code of no number"))?;
    Ok((n, 1 + usize::from(following)))
}

/// A whole number as an unsigned one, small either side of 0 (`0, -1, 1,
/// -2` are `0, 1, 2, 3`).
#[inline]
pub(crate) fn zigzag(n: i64) -> u64 {
    ((n << 1) ^ (n >> 63)) as u64
}

/// [`zigzag`] undone.
#[inline]
pub(crate) fn unzigzag(n: u64) -> i64 {
    ((n >> 1) as i64) ^ -((n & 1) as i64)
}

/// The error of typed rows that are not as [`super::Columns`] writes
/// them (a bug).
#[cold]
pub(crate) fn bug(what: &str) -> io::Error {
    io::Error::other(format!("typed rows: {what} (a bug)"))
}

/// A reader of a game's typed rows: each table's count of rows, each
/// column's codes and text, in the order they were written.
pub(crate) struct Typed<'t> {
    bytes: &'t [u8],
    text: &'t str,
    at: usize,
}

impl<'t> Typed<'t> {
    /// A reader of `text`, a game's typed rows.
    pub(crate) fn new(text: &'t str) -> Typed<'t> {
        Typed {
            bytes: text.as_bytes(),
            text,
            at: 0,
        }
    }

    /// The next code.
    #[inline]
    pub(crate) fn code(&mut self) -> io::Result<u64> {
        let b = *self
            .bytes
            .get(self.at)
            .ok_or_else(|| bug("a column cut short"))?;
        if u64::from(b) < ONE_BYTE {
            self.at += 1;
            return Ok(u64::from(b));
        }
        let (n, len) = read_long(&self.bytes[self.at..])?;
        self.at += len;
        Ok(n)
    }

    /// Gives `n` codes to `each`, in order.
    #[inline]
    pub(crate) fn codes(&mut self, n: usize, mut each: impl FnMut(u64)) -> io::Result<()> {
        for _ in 0..n {
            each(self.code()?);
        }
        Ok(())
    }

    /// The next `n` codes into `out` (emptied first): a code of two
    /// bytes (112 to 239: a `ply` past 55, a text of 111 to 238 bytes)
    /// read here, a longer one by [`read_long`].
    #[inline]
    pub(crate) fn codes_into(&mut self, n: usize, out: &mut Vec<u64>) -> io::Result<()> {
        out.clear();
        out.resize(n, 0);
        let rest = self.bytes.get(self.at..).unwrap_or_default();
        let mut at = 0;
        for slot in out.iter_mut() {
            let b = *rest.get(at).ok_or_else(|| bug("a column cut short"))?;
            let (v, len) = match (u64::from(b), rest.get(at + 1)) {
                (b, _) if b < ONE_BYTE => (b, 1),
                (b, Some(&low)) if b == ONE_BYTE + 1 && low < 0x80 => {
                    (ONE_BYTE + u64::from(low), 2)
                }
                _ => read_long(&rest[at..])?,
            };
            *slot = v;
            at += len;
        }
        self.at += at;
        Ok(())
    }

    /// The next `n` codes at once where each is one byte (under
    /// [`ONE_BYTE`]): their bytes, each the code; `None`, nothing read,
    /// where one is not.
    #[inline]
    pub(crate) fn byte_codes(&mut self, n: usize) -> Option<&'t [u8]> {
        let head = self.bytes.get(self.at..)?.get(..n)?;
        // (The greatest byte, which the compiler finds many at a time.)
        if u64::from(head.iter().fold(0, |a, &b| a.max(b))) >= ONE_BYTE {
            return None;
        }
        self.at += n;
        Some(head)
    }

    /// The `ir` ids of `n` moves rows ([`super::IR_IDS`] columns of `n`
    /// bytes, each under 64): an error where they are not.
    #[inline]
    pub(crate) fn ir_ids(&mut self, n: usize) -> io::Result<&'t [u8]> {
        let ids = n
            .checked_mul(super::IR_IDS)
            .and_then(|len| self.bytes.get(self.at..)?.get(..len))
            .ok_or_else(|| bug("the ir ids cut short"))?;
        if ids.iter().fold(0, |m, &b| m.max(b)) >= 64 {
            return Err(bug("an ir id of no number"));
        }
        self.at += ids.len();
        Ok(ids)
    }

    /// The text from here to the end: the next text values, and what
    /// follows them.
    #[inline]
    pub(crate) fn rest(&self) -> &'t [u8] {
        self.bytes.get(self.at..).unwrap_or_default()
    }

    /// The next `len` bytes of text values.
    #[inline]
    pub(crate) fn text(&mut self, len: usize) -> io::Result<&'t str> {
        let end = self
            .at
            .checked_add(len)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| bug("a column's text cut short"))?;
        let text = self
            .text
            .get(self.at..end)
            .ok_or_else(|| bug("a value cut inside a character"))?;
        self.at = end;
        Ok(text)
    }

    /// Whether the moves table has the `fen` column: the text's first
    /// code.
    pub(crate) fn fen(&mut self) -> io::Result<bool> {
        match self.code()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(bug("no fen code")),
        }
    }

    /// Whether every table was read.
    pub(crate) fn done(&self) -> bool {
        self.at == self.bytes.len()
    }
}

/// Each typed row of one game's text ([`super::write_typed`]), keys
/// first: `push` takes each row's table (an index of [`TABLES`]) and its
/// values as text (`None`: NULL; numbers in decimal, booleans `1` or
/// `0`), in the order of [`super::columns`]; the keys are the game's `id`,
/// and for the games row its source and index from `origin`.
#[cfg_attr(not(any(test, feature = "python")), allow(dead_code))]
pub(crate) fn typed_rows(
    text: &str,
    origin: &Origin<'_>,
    id: &str,
    mut push: impl FnMut(usize, &[Option<&str>]) -> io::Result<()>,
) -> io::Result<()> {
    let mut index = String::new();
    push_int(&mut index, origin.index as i64);
    let mut typed = Typed::new(text);
    let fen = typed.fen()?;
    for t in 0..TABLES.len() {
        let rows = usize::try_from(typed.code()?).map_err(|_| bug("rows past counting"))?;
        let columns = &super::columns(t, fen)[super::KEYS[t]..];
        // Each column's values, a row at a time: a text value where it
        // lies, a number or a flag written as text in `numbers`.
        let mut numbers = String::new();
        let mut values: Vec<Vec<Option<(bool, usize, usize)>>> = Vec::with_capacity(columns.len());
        for (i, &(_, kind, _)) in columns.iter().enumerate() {
            if t == 2 && i + super::KEYS[t] == super::IR_COLUMN {
                typed.ir_ids(rows)?;
            }
            let mut column = Vec::with_capacity(rows);
            match kind {
                Kind::Text | Kind::Json => {
                    let mut len = 0;
                    typed.codes(rows, |c| {
                        column.push(c.checked_sub(1).map(|n| (true, len, len + n as usize)));
                        len += c.saturating_sub(1) as usize;
                    })?;
                    let base = typed.at;
                    typed.text(len)?;
                    for (_, a, b) in column.iter_mut().flatten() {
                        (*a, *b) = (*a + base, *b + base);
                    }
                }
                Kind::Integer | Kind::Boolean => {
                    // (A number of the moves table is the difference from
                    // the one before: `DELTAS`.)
                    let mut last = 0i64;
                    typed.codes(rows, |c| {
                        column.push(c.checked_sub(1).map(|n| {
                            let at = numbers.len();
                            match kind {
                                Kind::Boolean => numbers.push(if n == 1 { '1' } else { '0' }),
                                _ if t == super::DELTAS => {
                                    last = last.wrapping_add(unzigzag(n));
                                    push_int(&mut numbers, last);
                                }
                                _ => push_int(&mut numbers, unzigzag(n)),
                            }
                            (false, at, numbers.len())
                        }));
                    })?;
                }
            }
            values.push(column);
        }
        let mut row: Vec<Option<&str>> = Vec::with_capacity(columns.len() + 3);
        for r in 0..rows {
            row.clear();
            row.push(Some(id));
            if t == 0 {
                row.extend([Some(origin.source), Some(index.as_str())]);
            }
            for column in &values {
                row.push(column[r].map(|(in_text, a, b)| match in_text {
                    true => &text[a..b],
                    false => &numbers[a..b],
                }));
            }
            push(t, &row)?;
        }
    }
    match typed.done() {
        true => Ok(()),
        false => Err(bug("text after the tables")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A code: small ones (a byte each), those about [`ONE_BYTE`], and any.
    fn a_code() -> impl proptest::strategy::Strategy<Value = u64> {
        use proptest::prelude::*;
        prop_oneof![
            0u64..ONE_BYTE,
            (ONE_BYTE - 2)..(ONE_BYTE + 300),
            Just(u64::MAX),
            Just(u64::MAX - ONE_BYTE),
            any::<u64>(),
        ]
    }

    proptest::proptest! {
        /// Any codes read back as they were written, one at a time, given
        /// in turn, or at once (and as bytes where each is one), whatever
        /// follows them; every byte written is ASCII.
        #[test]
        fn any_codes_read_back(
            codes in proptest::collection::vec(a_code(), 0..40),
            after in "[a-z]{0,3}",
        ) {
            let mut text = String::new();
            for &c in &codes {
                code(&mut text, c);
            }
            proptest::prop_assert!(text.is_ascii());
            text.push_str(&after);
            let mut one = Typed::new(&text);
            let mut back = Vec::new();
            for _ in &codes {
                back.push(one.code().unwrap());
            }
            proptest::prop_assert_eq!(&back, &codes);
            proptest::prop_assert_eq!(one.text(after.len()).unwrap(), after.as_str());
            proptest::prop_assert!(one.done());
            let mut given = Vec::new();
            Typed::new(&text).codes(codes.len(), |c| given.push(c)).unwrap();
            proptest::prop_assert_eq!(&given, &codes);
            let mut at_once = Vec::new();
            let mut all = Typed::new(&text);
            all.codes_into(codes.len(), &mut at_once).unwrap();
            proptest::prop_assert_eq!(&at_once, &codes);
            proptest::prop_assert_eq!(all.rest(), after.as_bytes());
            let small = codes.iter().all(|&c| c < ONE_BYTE);
            let bytes = Typed::new(&text).byte_codes(codes.len());
            proptest::prop_assert_eq!(bytes.is_some(), small);
            if let Some(bytes) = bytes {
                let wide: Vec<u64> = bytes.iter().map(|&b| u64::from(b)).collect();
                proptest::prop_assert_eq!(&wide, &codes);
            }
        }
    }

    /// A code's bytes cut short, or of no number, are an error, never a
    /// panic.
    #[test]
    fn damaged_codes_are_errors() {
        for c in [ONE_BYTE, 1 << 20, u64::MAX] {
            let mut text = String::new();
            code(&mut text, c);
            for cut in 0..text.len() {
                assert!(Typed::new(&text[..cut]).code().is_err(), "{c} cut at {cut}");
                let mut v = Vec::new();
                assert!(Typed::new(&text[..cut]).codes_into(1, &mut v).is_err());
            }
        }
        // A count of following bytes of 0 or past ten; a following byte
        // past seven bits can't be in a str's ASCII, but past 64 bits can.
        for bad in [
            "\u{70}",
            "\u{7b}\0\0\0\0\0\0\0\0\0\0\0",
            "\u{7a}\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f",
        ] {
            assert!(Typed::new(bad).code().is_err(), "{bad:?}");
        }
    }
}
