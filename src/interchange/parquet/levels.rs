//! The definition levels of a row group's column (1 a value, 0 NULL)
//! kept a bit a row as the games come ([`Levels`]), and made bytes (a
//! level a byte, as the pages' encoding reads them) only where a page or
//! a chunk is written, into one buffer of the writer's for every column
//! ([`Levels::bytes`]). Kept a byte a row, the moves table's eighteen
//! columns that may be NULL held 1.8 MB a row group, memory first touched
//! (a page fault each 4 kB): as bits, 225 kB.

use super::dict::Code;

/// A column's definition levels, a bit each (the first row the lowest bit
/// of the first word).
#[derive(Default)]
pub(super) struct Levels {
    words: Vec<u64>,
    /// How many levels it holds.
    len: usize,
}

/// Each byte's eight bits as eight bytes of 0 or 1 (bit `i` the byte at
/// `i`, little-endian): a byte of levels made bytes by one look-up.
static SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            t[b] |= ((b as u64 >> i) & 1) << (8 * i);
            i += 1;
        }
        b += 1;
    }
    t
};

impl Levels {
    /// Empty, with room for `rows` levels (reserved, not touched).
    pub(super) fn with_capacity(rows: usize) -> Levels {
        Levels {
            words: Vec::with_capacity(rows.div_ceil(64)),
            len: 0,
        }
    }

    /// How many levels it holds.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Empties it, its room kept.
    pub(super) fn clear(&mut self) {
        self.words.clear();
        self.len = 0;
    }

    /// The room it has, in levels.
    #[cfg(test)]
    pub(super) fn capacity(&self) -> usize {
        self.words.capacity() * 64
    }

    /// Appends `n` levels (1 to 64), the low `n` bits of `bits` (those
    /// above them 0).
    #[inline(always)]
    fn push_bits(&mut self, bits: u64, n: usize) {
        let at = self.len % 64;
        match self.words.last_mut() {
            Some(last) if at > 0 => {
                *last |= bits << at;
                if at + n > 64 {
                    self.words.push(bits >> (64 - at));
                }
            }
            _ => self.words.push(bits),
        }
        self.len += n;
    }

    /// Appends `n` levels of 1 (a key's, never NULL).
    pub(super) fn ones(&mut self, mut n: usize) {
        while n > 0 {
            let k = n.min(64);
            self.push_bits(u64::MAX >> (64 - k), k);
            n -= k;
        }
    }

    /// Appends `n` levels of 0 (NULLs).
    fn zeros(&mut self, n: usize) {
        self.len += n;
        self.words.resize(self.len.div_ceil(64), 0);
    }

    /// Appends a level a code: 0 (NULL) where the code is 0, else 1;
    /// `nulls`: how many are 0 (a column of a game all NULL or none
    /// NULL, most, is a run).
    #[inline(always)]
    pub(super) fn extend<C: Code>(&mut self, codes: &[C], nulls: usize) {
        match nulls {
            0 => return self.ones(codes.len()),
            _ if nulls == codes.len() => return self.zeros(nulls),
            _ => {}
        }
        for chunk in codes.chunks(64) {
            self.push_bits(C::flags(chunk), chunk.len());
        }
    }

    /// The levels of `rows` as bytes (0 or 1), written into `out` (a
    /// buffer kept from column to column: grown, never emptied, so that it
    /// is written once, not zeroed then written).
    pub(super) fn bytes<'o>(&self, rows: std::ops::Range<usize>, out: &'o mut Vec<u8>) -> &'o [u8] {
        debug_assert!(rows.start <= rows.end && rows.end <= self.len);
        // The words that hold the rows, 64 rows a word, eight a look-up.
        let words = &self.words[rows.start / 64..rows.end.div_ceil(64)];
        if out.len() < 64 * words.len() {
            out.resize(64 * words.len(), 0);
        }
        for (bytes, w) in out.chunks_exact_mut(64).zip(words) {
            for (eight, b) in bytes.chunks_exact_mut(8).zip(w.to_le_bytes()) {
                eight.copy_from_slice(&SPREAD[usize::from(b)].to_le_bytes());
            }
        }
        let skip = rows.start % 64;
        &out[skip..skip + rows.len()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Levels appended as codes (bytes or words, NULLs anywhere, games
        /// of any length) and as runs of 1 read back as the bytes they
        /// are, from any row to any row.
        #[test]
        fn levels_read_back_as_bytes(
            games in proptest::collection::vec(
                (proptest::collection::vec(0u8..3, 0..150), proptest::bool::ANY, 0usize..3),
                1..40,
            ),
            cut in (0usize..10_000, 0usize..10_000),
        ) {
            let (mut levels, mut want) = (Levels::default(), Vec::new());
            for (codes, wide, ones) in &games {
                let nulls = codes.iter().filter(|&&c| c == 0).count();
                if *wide {
                    let codes: Vec<u64> = codes.iter().map(|&c| u64::from(c) * 1_000).collect();
                    levels.extend(&codes, nulls);
                } else {
                    levels.extend(codes, nulls);
                }
                want.extend(codes.iter().map(|&c| u8::from(c != 0)));
                levels.ones(*ones * 40);
                want.extend(std::iter::repeat_n(1, *ones * 40));
            }
            proptest::prop_assert_eq!(levels.len(), want.len());
            let mut out = Vec::new();
            proptest::prop_assert_eq!(levels.bytes(0..want.len(), &mut out), &want[..]);
            let (a, b) = (cut.0 % (want.len() + 1), cut.1 % (want.len() + 1));
            let rows = a.min(b)..a.max(b);
            proptest::prop_assert_eq!(levels.bytes(rows.clone(), &mut out), &want[rows]);
            levels.clear();
            proptest::prop_assert_eq!(levels.bytes(0..0, &mut out), &[] as &[u8]);
        }
    }
}
