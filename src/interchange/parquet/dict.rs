//! The dictionaries of the parquet columns kifu writes
//! ([`super::TextChunks`]): each column chunk's distinct values and each
//! row's index, built as the games come.

use std::io;

use super::lanes::{each, Indices, Lane};

/// A hasher of the dictionaries' keys (FxHash's step, eight bytes at a
/// time): the values are short, and a row group's own.
#[derive(Default)]
struct Fx(u64);

impl std::hash::Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let mut b = [0u8; 8];
            b.copy_from_slice(w);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(b)).wrapping_mul(K);
        }
        // The bytes left: the last eight as one word (a copy of a known
        // size, not a call).
        let mut tail = [0u8; 8];
        match bytes.len().checked_sub(8) {
            Some(at) => tail.copy_from_slice(&bytes[at..]),
            None => tail[..bytes.len()].copy_from_slice(bytes),
        }
        self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(tail)).wrapping_mul(K);
    }

    fn write_usize(&mut self, n: usize) {
        self.0 = (self.0.rotate_left(5) ^ n as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The distinct values of a dictionary column's chunk, each with its
/// index, built as the values come (a game's column at a time,
/// [`super::Filling::read`]), and each value's index in row order: no value is
/// kept but the distinct ones. A value of one or two bytes (a square, a
/// piece, a side) is found by its bytes as a number, the place of its
/// index in a table of every such number ([`TINY`]): no hash, no probe.
/// One of at most 8 bytes (a move) is found as one word in a table of its
/// own, read where it lies ([`small_key_in`]) and placed by one
/// multiplication; one of 9
/// to 16 bytes (a `game_id`) as one number in another ([`short_key`]): no
/// bytes hashed nor slices compared; a longer one (a move's `ir` JSON) by
/// its hash and bytes.
pub(super) struct Dict {
    /// The distinct values, one after another, in the order they came.
    pub(super) data: Vec<u8>,
    /// Where each distinct value ends in `data` (it starts where the one
    /// before ends).
    pub(super) ends: Vec<u32>,
    /// The values of one to eight bytes (a square, a piece, a move): their
    /// keys (the value's bytes as one word, [`short_key`]) and indices,
    /// open addressing (a key of 0: none), at most half full; found by one
    /// multiplication of the key.
    small: Vec<(u64, u32)>,
    /// `64 - log2(small.len())`: the shift that makes a slot of `small`.
    small_shift: u32,
    /// How many values `small` holds.
    smalls: usize,
    /// The values of one or two bytes: each one's index and 1 (0: none)
    /// at its key ([`small_key_in`], under [`TINY`]), found at once.
    /// Zeroed when made, its pages untouched until a key falls in them
    /// (a square's keys lie in some 2 kB).
    tiny: Vec<u32>,
    /// The values of nine to sixteen bytes (a `game_id`): their keys and
    /// indices, open addressing (a key of 0: none), at most half full.
    short: Vec<(u128, u32)>,
    /// How many values `short` holds.
    shorts: usize,
    /// The empty string's index (its key is 0).
    empty: Option<u32>,
    /// The long values' hashes and indices, open addressing ([`NONE`]: an
    /// empty slot), at most half full.
    long: Vec<(u64, u32)>,
    /// How many long values `long` holds.
    longs: usize,
    /// The dictionary's size, `PLAIN`: each value and its length.
    pub(super) bytes: usize,
    /// The longest value's length.
    pub(super) longest: usize,
    /// Each value's index, in row order (NULLs have none), at the
    /// narrowest width that holds them ([`Indices`]).
    pub(super) indices: Indices,
    /// The values' ids seen in the row group ([`Dict::push_ided`]) and
    /// their indices, open addressing (an id of 0: none), at most half
    /// full.
    ids: Vec<(u32, u32)>,
    /// How many ids `ids` holds.
    ided: usize,
    /// The last small value looked up: its key and index, a key of 0 none
    /// (a value as the row's before is not looked up again).
    last: (u64, u32),
}

/// The codes of a game's column ([`Dict::push_all`]): each a byte where
/// every one is (a text of under 63 bytes, NULL), else each a `u64`.
pub(super) trait Code: Copy {
    /// The code as a number.
    fn wide(self) -> u64;
    /// The codes added up; `None` past counting.
    fn sum(codes: &[Self]) -> Option<usize>;
    /// How many codes are 0 (NULL).
    fn zeros(codes: &[Self]) -> usize;
    /// At least the greatest code (a byte's greatest, without a look).
    fn most(codes: &[Self]) -> u64;
    /// Of at most 64 codes, a bit each (the first the lowest): 1 where the
    /// code is not 0 (not NULL), as [`super::levels::Levels`] keeps them.
    fn flags(codes: &[Self]) -> u64;
}

impl Code for u8 {
    #[inline(always)]
    fn wide(self) -> u64 {
        u64::from(self)
    }

    #[inline(always)]
    fn sum(codes: &[u8]) -> Option<usize> {
        Some(super::encode::add_bytes(codes))
    }

    #[inline(always)]
    fn zeros(codes: &[u8]) -> usize {
        // Counted 255 at a time in a byte (a count a byte, many at
        // once), where a `usize` a byte went four bytes a loop.
        codes
            .chunks(255)
            .map(|c| usize::from(c.iter().map(|&b| u8::from(b == 0)).sum::<u8>()))
            .sum()
    }

    #[inline(always)]
    fn most(_: &[u8]) -> u64 {
        u64::from(u8::MAX)
    }

    #[inline(always)]
    fn flags(codes: &[u8]) -> u64 {
        // Eight codes a word: each byte's top bit set where it is not 0,
        // then the eight top bits gathered into a byte by one
        // multiplication (byte `i`'s to bit `i`).
        const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        let eight = |x: u64| {
            let top = (((x & LOW) + LOW) | x) & !LOW;
            (top >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
        };
        let mut words = codes.chunks_exact(8);
        let mut flags = 0;
        let mut at = 0;
        for w in &mut words {
            let mut b = [0u8; 8];
            b.copy_from_slice(w);
            flags |= eight(u64::from_le_bytes(b)) << at;
            at += 8;
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut b = [0u8; 8];
            for (to, &c) in b.iter_mut().zip(rest) {
                *to = c;
            }
            flags |= eight(u64::from_le_bytes(b)) << at;
        }
        flags
    }
}

impl Code for u64 {
    #[inline(always)]
    fn wide(self) -> u64 {
        self
    }

    fn sum(codes: &[u64]) -> Option<usize> {
        codes
            .iter()
            .try_fold(0usize, |t, &c| t.checked_add(usize::try_from(c).ok()?))
    }

    fn zeros(codes: &[u64]) -> usize {
        codes.iter().filter(|&&c| c == 0).count()
    }

    fn most(codes: &[u64]) -> u64 {
        codes.iter().copied().max().unwrap_or(0)
    }

    fn flags(codes: &[u64]) -> u64 {
        codes
            .iter()
            .enumerate()
            .fold(0, |f, (i, &c)| f | (u64::from(c != 0) << i))
    }
}

/// The bytes of a word of which a value of `n` bytes (at most 8) keeps
/// the first `n`.
const MASKS: [u64; 9] = {
    let mut m = [0u64; 9];
    let mut n = 1;
    while n < 9 {
        m[n] = u64::MAX >> (64 - 8 * n);
        n += 1;
    }
    m
};

/// An empty slot of [`Dict::long`].
const NONE: u32 = u32::MAX;

/// The keys of the values of one or two bytes ([`Dict::tiny`]) are under
/// this; those of longer values (no NUL among their bytes) are not.
const TINY: usize = 1 << 16;

impl Default for Dict {
    fn default() -> Dict {
        Dict {
            data: Vec::new(),
            ends: Vec::new(),
            small: Vec::new(),
            small_shift: 0,
            smalls: 0,
            tiny: vec![0; TINY],
            short: Vec::new(),
            shorts: 0,
            empty: None,
            long: Vec::new(),
            longs: 0,
            bytes: 0,
            longest: 0,
            indices: Indices::default(),
            ids: Vec::new(),
            ided: 0,
            last: (0, 0),
        }
    }
}

/// A value of at most 16 bytes as one number: its bytes, zeros after them
/// (two values' numbers are equal only where the values are: no text of
/// the tables holds a NUL, [`crate::interchange::rows::CANNOT_HOLD`]); 0 for the empty string;
/// `None` for a longer value. Read as two overlapping words, not a byte at
/// a time.
#[inline]
pub(super) fn short_key(v: &[u8]) -> Option<u128> {
    let n = v.len();
    let word = |at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&v[at..at + 8]);
        u64::from_le_bytes(w)
    };
    let (low, high) = match n {
        17.. => return None,
        // The last word holds bytes 8..n in its top 8 * (n - 8) bits.
        8..=16 => (
            word(0),
            word(n - 8).checked_shr(8 * (16 - n) as u32).unwrap_or(0),
        ),
        _ => {
            let mut low = 0u64;
            for (i, &b) in v.iter().enumerate() {
                low |= u64::from(b) << (8 * i);
            }
            (low, 0)
        }
    };
    Some(u128::from(low) | (u128::from(high) << 64))
}

/// The key of a value of one to eight bytes, `text[start..end]` (the
/// low word of its [`short_key`]): a word read from its start where 8 bytes
/// of `text` are there, the bytes past the value masked off.
#[inline(always)]
pub(super) fn small_key_in(text: &[u8], start: usize, end: usize) -> u64 {
    let n = end - start;
    match text.get(start..start + 8) {
        Some(word) => {
            let mut w = [0u8; 8];
            w.copy_from_slice(word);
            u64::from_le_bytes(w) & MASKS[n]
        }
        None => {
            let mut key = 0u64;
            for (i, &b) in text[start..end].iter().enumerate() {
                key |= u64::from(b) << (8 * i);
            }
            key
        }
    }
}

/// The tables of [`Dict`] that find a value of one to eight bytes by its
/// key ([`lookup`]).
struct Smalls<'d> {
    tiny: &'d [u32; TINY],
    small: &'d [(u64, u32)],
    shift: u32,
}

/// The indices of a game's values of a column, `codes` (0 NULL, else the
/// value's length and 1), the first from `start` in `text`, the others
/// one after another, written into `out`, from the first up to one that
/// is not in the dictionary, not of one to eight bytes, or that ends in
/// the first eight bytes of `text`: how many codes were read, how many
/// indices written, where the next value starts, and the last key looked
/// up and its index (`last`, given: a value like it is not looked up
/// again, a game's `side`). A value's key ([`small_key_in`]) is the word
/// that ends where it does, shifted. Reads the dictionary only, and calls
/// nothing: a function of its own, its loop's values stay in registers.
#[inline(never)]
fn lookup<C: Code, L: Lane<u32>>(
    smalls: &Smalls<'_>,
    text: &[u8],
    codes: &[C],
    mut start: usize,
    out: &mut [L],
    mut last: (u64, u32),
) -> (usize, usize, usize, (u64, u32)) {
    let Smalls { tiny, small, shift } = *smalls;
    let mask = small.len().wrapping_sub(1);
    let room = out.len();
    let mut slots = out.iter_mut();
    let mut read = 0;
    'values: while let Some(&c) = codes.get(read) {
        let len = c.wide().wrapping_sub(1) as usize;
        if len == usize::MAX {
            read += 1;
            continue;
        }
        if !(1..=8).contains(&len) {
            break;
        }
        let end = start + len;
        let Some(word) = end.checked_sub(8).and_then(|at| text.get(at..end)) else {
            break;
        };
        let Ok(word) = <[u8; 8]>::try_from(word) else {
            break;
        };
        let key = u64::from_le_bytes(word) >> (64 - 8 * len);
        if key != last.0 {
            let index = match key {
                k if k < TINY as u64 => match tiny[k as usize] {
                    0 => break 'values,
                    i => i - 1,
                },
                _ => {
                    let mut at = (key.wrapping_mul(FIBONACCI) >> shift) as usize;
                    loop {
                        match small.get(at) {
                            Some(&(k, index)) if k == key => break index,
                            Some(&(k, _)) if k != 0 => at = (at + 1) & mask,
                            _ => break 'values,
                        }
                    }
                }
            };
            last = (key, index);
        }
        let Some(slot) = slots.next() else {
            break;
        };
        *slot = L::narrow(last.1);
        (read, start) = (read + 1, end);
    }
    let written = room - slots.len();
    (read, written, start, last)
}

/// The multiplier that places a key in a table of [`Dict`] (Fibonacci hashing).
const FIBONACCI: u64 = 0x9E37_79B9_7F4A_7C15;

/// Doubles an open-addressing table of keys and indices (at least 64
/// slots): every entry that is not `vacant` placed again at its `slot` in
/// the new length, or the first vacant slot after it. One way for the
/// three tables of [`Dict`], which differ only in their keys, their vacant
/// entry and how a key picks its slot.
fn regrow<K: Copy>(
    table: &mut Vec<(K, u32)>,
    vacant: (K, u32),
    is_vacant: impl Fn(&(K, u32)) -> bool,
    slot: impl Fn(K, usize) -> usize,
) {
    let len = (table.len() * 2).max(64);
    let old = std::mem::replace(table, vec![vacant; len]);
    for entry in old.into_iter().filter(|e| !is_vacant(e)) {
        let mut at = slot(entry.0, len);
        while !is_vacant(&table[at]) {
            at = (at + 1) & (len - 1);
        }
        table[at] = entry;
    }
}

impl Dict {
    /// The slot of a short key in a table of `len` slots (a power of two).
    fn slot(key: u128, len: usize) -> usize {
        let h =
            ((key as u64) ^ ((key >> 64) as u64).wrapping_mul(FIBONACCI)).wrapping_mul(FIBONACCI);
        (h >> 32) as usize & (len - 1)
    }

    /// The `i`th distinct value.
    #[inline]
    pub(super) fn value(&self, i: u32) -> &[u8] {
        let i = i as usize;
        let start = match i {
            0 => 0,
            _ => self.ends[i - 1] as usize,
        };
        &self.data[start..self.ends[i] as usize]
    }

    /// The length of the `i`th distinct value.
    #[inline]
    pub(super) fn len_of(&self, i: u32) -> usize {
        let i = i as usize;
        let start = match i {
            0 => 0,
            _ => self.ends[i - 1],
        };
        (self.ends[i] - start) as usize
    }

    /// Whether `more` bytes of values can be added: the values' ends are
    /// kept as `u32`s (a row group's are written at 8 MiB).
    fn room(&self, more: usize) -> io::Result<()> {
        match u32::try_from(self.data.len().saturating_add(more)) {
            Ok(_) => Ok(()),
            Err(_) => Err(io::Error::other("a row group's dictionary past 4 GiB")),
        }
    }

    /// Adds a game's values of the column to the rows: `codes` their
    /// codes (0 NULL, else the length of the value and 1), their values one
    /// after another from the start of `text` (which may go on past them:
    /// a short value's key is read as a word), `len` bytes in all; each
    /// value's index, the value added where it is new. `ids`, where
    /// given, are the values' ids ([`Dict::push_ided`]).
    pub(super) fn push_all<C: Code>(
        &mut self,
        text: &[u8],
        len: usize,
        codes: &[C],
        ids: Option<&[u8]>,
    ) -> io::Result<()> {
        self.room(len)?;
        // Room for every value of the game new, and for each one's index:
        // no check a value. The indices are as wide as the dictionary's
        // values with every one of the game new.
        self.small_room(codes.len());
        let mut indices = std::mem::take(&mut self.indices);
        let reach = (self.ends.len() + codes.len()) as u64;
        each!(indices.fit(reach), to => match ids {
            Some(ids) => self.push_ided(to, text, codes, ids),
            None => self.push_codes(to, text, codes),
        });
        self.indices = indices;
        Ok(())
    }

    /// [`Dict::push_all`] of values each with an id (`ids`: the
    /// `rows::IR_IDS` columns of a byte a value, six bits each, the lowest
    /// first; 0 none), an id being given only to values of the same bytes
    /// (the moves' `ir` JSON, the move packed): a value is looked up by its
    /// bytes the first time its id comes in the row group, then found by
    /// its id alone (the `ir` values, some 60 bytes, were hashed and
    /// compared each row). The indices are those a look-up of each value
    /// gives, so the chunk is the same bytes.
    #[inline(never)]
    fn push_ided<C: Code, L: Lane<u32>>(
        &mut self,
        to: &mut Vec<L>,
        text: &[u8],
        codes: &[C],
        ids: &[u8],
    ) {
        const _: () = assert!(crate::interchange::rows::IR_IDS == 5);
        let n = codes.len();
        let part = |k: usize| ids.get(k * n..(k + 1) * n).unwrap_or_default();
        let rows =
            (codes.iter().zip(part(0)).zip(part(1))).zip(part(2).iter().zip(part(3)).zip(part(4)));
        // Room for every id of the game new: no check a value.
        while self.ids.len() < 2 * (self.ided + n) {
            self.grow_ids();
        }
        // Room for an index a code, cut to those written.
        let first = to.len();
        to.resize(first + n, L::default());
        let (mut done, mut at) = (first, 0);
        for (((&code, &a), &b), ((&c, &d), &e)) in rows {
            let Some(len) = (code.wide() as usize).checked_sub(1) else {
                continue;
            };
            let id = u32::from(a)
                | u32::from(b) << 6
                | u32::from(c) << 12
                | u32::from(d) << 18
                | u32::from(e) << 24;
            let index = self.id_index(id, text, at, len);
            if let Some(slot) = to.get_mut(done) {
                *slot = L::narrow(index);
            }
            (done, at) = (done + 1, at + len);
        }
        to.truncate(done);
    }

    /// The index of the value `text[at..at + len]` whose id is `id` (0:
    /// none; the ids' table has room for it): found by the id where it
    /// came before in the row group, else by its bytes ([`Dict::new_id`]).
    #[inline(always)]
    fn id_index(&mut self, id: u32, text: &[u8], at: usize, len: usize) -> u32 {
        let mask = self.ids.len().wrapping_sub(1);
        let mut slot = (id.wrapping_mul(0x9E37_79B9) >> 8) as usize & mask;
        if id != 0 {
            while let Some(&(k, index)) = self.ids.get(slot) {
                match k {
                    k if k == id => return index,
                    0 => break,
                    _ => slot = (slot + 1) & mask,
                }
            }
        }
        self.new_id(id, slot, text.get(at..at + len).unwrap_or_default())
    }

    /// The index of the value `v` whose id `id` is not in the ids' table
    /// (its empty `slot` found), or is 0 (none): by its bytes, the id kept
    /// at its slot.
    #[inline(never)]
    fn new_id(&mut self, id: u32, slot: usize, v: &[u8]) -> u32 {
        let index = self.index(v);
        if let (true, Some(s)) = (id != 0, self.ids.get_mut(slot)) {
            *s = (id, index);
            self.ided += 1;
        }
        index
    }

    /// Doubles the ids' table.
    #[cold]
    fn grow_ids(&mut self) {
        regrow(
            &mut self.ids,
            (0, 0),
            |e| e.0 == 0,
            |id, len| (id.wrapping_mul(0x9E37_79B9) >> 8) as usize & (len - 1),
        );
    }

    /// [`Dict::push_all`] of the indices `to` at their width: the values
    /// of one to eight bytes looked up where they are in the dictionary
    /// ([`lookup`]: a loop that calls nothing, its values kept in
    /// registers); a value new to the dictionary, or not of one to eight
    /// bytes, is added or found here, and the look-ups go on after it.
    /// One loop that looked up and added kept some ten of its values in
    /// memory (a call in it): some 45 instructions a value.
    #[inline(never)]
    fn push_codes<C: Code, L: Lane<u32>>(&mut self, to: &mut Vec<L>, text: &[u8], codes: &[C]) {
        // Room for an index a code, cut to those written.
        let first = to.len();
        to.resize(first + codes.len(), L::default());
        let out = &mut to[first..];
        let mut last = self.last;
        let (mut read, mut done, mut at) = (0, 0, 0);
        while let Some(&c) = codes.get(read) {
            let Some(len) = (c.wide() as usize).checked_sub(1) else {
                read += 1;
                continue;
            };
            let small = (1..=8).contains(&len);
            let tiny = <&[u32; TINY]>::try_from(self.tiny.as_slice());
            if let (true, Ok(tiny)) = (small, tiny) {
                let smalls = Smalls {
                    tiny,
                    small: &self.small,
                    shift: self.small_shift,
                };
                let rest = (&codes[read..], &mut out[done..]);
                let (r, d, next, l) = lookup(&smalls, text, rest.0, at, rest.1, last);
                if r > 0 {
                    (read, done, at, last) = (read + r, done + d, next, l);
                    continue;
                }
            }
            // A value new to the dictionary, or not of one to eight bytes.
            let v = text.get(at..at + len).unwrap_or_default();
            let index = match small {
                true => {
                    let key = small_key_in(v, 0, v.len());
                    let index = self.small_index(v, 0..v.len(), key);
                    last = (key, index);
                    index
                }
                false => self.index(v),
            };
            if let Some(slot) = out.get_mut(done) {
                *slot = L::narrow(index);
            }
            (read, done, at) = (read + 1, done + 1, at + len);
        }
        to.truncate(first + done);
        self.last = last;
    }

    /// Adds `n` rows of the value `v` (a key of a game's rows).
    pub(super) fn push_n(&mut self, v: &[u8], n: usize) -> io::Result<()> {
        self.room(v.len())?;
        let index = self.index(v);
        self.indices.push_n(index, n);
        Ok(())
    }

    /// Adds `n` rows of the value `v`, new to the dictionary (a game's
    /// `game_id`, one a record: `csv::GameIds`), without a look-up: a
    /// value already there would be there twice (the rows the same, the
    /// chunk not the same bytes).
    pub(super) fn push_new(&mut self, v: &[u8], n: usize) -> io::Result<()> {
        self.room(v.len())?;
        let index = self.add(v);
        self.indices.push_n(index, n);
        Ok(())
    }

    /// The index of any value (its room checked: [`Dict::room`]).
    fn index(&mut self, v: &[u8]) -> u32 {
        match v.len() {
            1..=8 => {
                self.small_room(1);
                self.small_index(v, 0..v.len(), small_key_in(v, 0, v.len()))
            }
            _ => match short_key(v) {
                Some(key) => self.short_index(v, key),
                None => self.long_index(v),
            },
        }
    }

    /// Makes room in `small` for `more` values: at most half full with
    /// them.
    #[inline(always)]
    fn small_room(&mut self, more: usize) {
        while self.small.len() < 2 * (self.smalls + more) {
            self.grow_small();
        }
    }

    /// The index of the value `text[value]` of one to eight bytes whose key
    /// is `key` ([`small_key_in`]; its room checked: [`Dict::room`], and
    /// [`Dict::small_room`] for it): of one or two bytes in `tiny`, else
    /// in `small`.
    #[inline(always)]
    fn small_index(&mut self, text: &[u8], value: std::ops::Range<usize>, key: u64) -> u32 {
        if let Some(&slot) = self.tiny.get(key as usize) {
            return match slot {
                0 => {
                    let index = self.add(&text[value]);
                    self.tiny[key as usize] = index + 1;
                    index
                }
                _ => slot - 1,
            };
        }
        let mask = self.small.len() - 1;
        let mut at = (key.wrapping_mul(FIBONACCI) >> self.small_shift) as usize;
        loop {
            match self.small[at] {
                (k, index) if k == key => return index,
                (0, _) => {
                    let index = self.add(&text[value]);
                    self.small[at] = (key, index);
                    self.smalls += 1;
                    return index;
                }
                _ => at = (at + 1) & mask,
            }
        }
    }

    /// The index of the short `value`, whose [`short_key`] is `key` (its
    /// room checked: [`Dict::room`]).
    #[inline(always)]
    fn short_index(&mut self, value: &[u8], key: u128) -> u32 {
        if key == 0 {
            return match self.empty {
                Some(index) => index,
                None => {
                    let index = self.add(value);
                    self.empty = Some(index);
                    index
                }
            };
        }
        if self.short.len() < 2 * (self.shorts + 1) {
            self.grow_short();
        }
        let mut at = Self::slot(key, self.short.len());
        loop {
            match self.short[at] {
                (0, _) => {
                    let index = self.add(value);
                    self.short[at] = (key, index);
                    self.shorts += 1;
                    return index;
                }
                (k, index) if k == key => return index,
                _ => at = (at + 1) & (self.short.len() - 1),
            }
        }
    }

    /// The index of the long `value` (more than 16 bytes; its room
    /// checked: [`Dict::room`]).
    fn long_index(&mut self, value: &[u8]) -> u32 {
        use std::hash::Hasher;
        let mut fx = Fx::default();
        fx.write(value);
        let hash = fx.finish();
        if self.long.len() < 2 * (self.longs + 1) {
            self.grow_long();
        }
        let mask = self.long.len() - 1;
        let mut at = (hash >> 32) as usize & mask;
        loop {
            match self.long[at] {
                (_, NONE) => {
                    let index = self.add(value);
                    self.long[at] = (hash, index);
                    self.longs += 1;
                    return index;
                }
                (h, index) if h == hash && self.value(index) == value => return index,
                _ => at = (at + 1) & mask,
            }
        }
    }

    /// Adds a new value (its room checked: [`Dict::room`]): its index.
    #[inline(never)]
    fn add(&mut self, value: &[u8]) -> u32 {
        self.data.extend_from_slice(value);
        self.ends.push(self.data.len() as u32);
        self.bytes += 4 + value.len();
        self.longest = self.longest.max(value.len());
        (self.ends.len() - 1) as u32
    }

    /// Doubles the small values' table.
    #[cold]
    fn grow_small(&mut self) {
        regrow(
            &mut self.small,
            (0, 0),
            |e| e.0 == 0,
            |key, len| (key.wrapping_mul(FIBONACCI) >> (64 - len.trailing_zeros())) as usize,
        );
        self.small_shift = 64 - self.small.len().trailing_zeros();
    }

    /// Doubles the short values' table.
    #[cold]
    fn grow_short(&mut self) {
        regrow(&mut self.short, (0, 0), |e| e.0 == 0, Self::slot);
    }

    /// Doubles the long values' table.
    #[cold]
    fn grow_long(&mut self) {
        regrow(
            &mut self.long,
            (0, NONE),
            |e| e.1 == NONE,
            |hash, len| (hash >> 32) as usize & (len - 1),
        );
    }

    /// Empties it for the next row group (its room kept).
    pub(super) fn clear(&mut self) {
        // The tiny values' slots, each found again from its value.
        for i in 0..self.ends.len() as u32 {
            let v = self.value(i);
            if (1..=2).contains(&v.len()) {
                let key = small_key_in(v, 0, v.len()) as usize;
                if let Some(slot) = self.tiny.get_mut(key) {
                    *slot = 0;
                }
            }
        }
        self.data.clear();
        self.ends.clear();
        self.small.fill((0, 0));
        self.smalls = 0;
        self.short.fill((0, 0));
        self.shorts = 0;
        self.empty = None;
        self.long.fill((0, NONE));
        self.longs = 0;
        self.bytes = 0;
        self.longest = 0;
        self.indices.clear();
        self.ids.fill((0, 0));
        self.ided = 0;
        self.last = (0, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::{Code, Dict};

    /// A game's column: its values (`None` NULL) from a few short ones (so
    /// that they repeat, the row before's among them), any of up to 20
    /// bytes, and the empty one.
    fn game() -> impl proptest::strategy::Strategy<Value = Vec<Option<String>>> {
        use proptest::prelude::*;
        let value = prop_oneof![
            4 => proptest::sample::select(vec!["w", "b", "e4", "Nf3", "white", "black", "O-O-O", "e7e8=Q"])
                .prop_map(str::to_string),
            2 => "[a-h1-8=+#]{1,8}",
            1 => "[a-zé♔]{0,20}",
        ];
        proptest::collection::vec(proptest::option::weighted(0.8, value), 0..40)
    }

    proptest::proptest! {
        /// Any games' values of a column, their codes a byte or a `u64`
        /// each, and whatever text follows them: each value's index is
        /// its place among the distinct values in the order they came,
        /// and those are the dictionary's values, as a dictionary built a
        /// value at a time gives them.
        #[test]
        fn games_take_their_values_indices_in_order(
            games in proptest::collection::vec(game(), 1..12),
            wide in proptest::bool::ANY,
            ided in proptest::bool::ANY,
            after in "[a-z]{0,9}",
        ) {
            let mut dict = Dict::default();
            let (mut distinct, mut indices): (Vec<String>, Vec<u32>) = (Vec::new(), Vec::new());
            // With `ided`, each value's id (`rows::IR_IDS` columns of six
            // bits): one of its own (large ones among them), the same for
            // the same value, none (0) for some.
            let mut given = std::collections::HashMap::new();
            let mut id = |v: &str| {
                let next = given.len() as u32;
                *given.entry(v.to_string()).or_insert(match v.len() % 4 {
                    0 => 0,
                    _ => (next + 1).wrapping_mul(0x02f0_b5a1) & ((1 << 30) - 1),
                })
            };
            for game in &games {
                let text: String = game.iter().flatten().map(String::as_str).collect();
                let codes: Vec<u64> = game
                    .iter()
                    .map(|v| v.as_ref().map_or(0, |v| v.len() as u64 + 1))
                    .collect();
                let mut ids = vec![0u8; 5 * game.len()];
                for (r, v) in game.iter().enumerate() {
                    let id = v.as_deref().map_or(0, &mut id);
                    for k in 0..5 {
                        ids[k * game.len() + r] = (id >> (6 * k)) as u8 & 63;
                    }
                }
                let ids = ided.then_some(&ids[..]);
                let with_after = format!("{text}{after}");
                match wide {
                    true => dict.push_all(with_after.as_bytes(), text.len(), &codes, ids).unwrap(),
                    false => {
                        let bytes: Vec<u8> = codes.iter().map(|&c| c as u8).collect();
                        dict.push_all(with_after.as_bytes(), text.len(), &bytes, ids).unwrap();
                    }
                }
                for v in game.iter().flatten() {
                    let i = match distinct.iter().position(|d| d == v) {
                        Some(i) => i,
                        None => {
                            distinct.push(v.clone());
                            distinct.len() - 1
                        }
                    };
                    indices.push(i as u32);
                }
            }
            let got: Vec<u32> = (0..dict.indices.len()).map(|k| dict.indices.slice().get(k)).collect();
            proptest::prop_assert_eq!(got, indices);
            let values: Vec<&[u8]> = (0..dict.ends.len() as u32).map(|i| dict.value(i)).collect();
            let want: Vec<&[u8]> = distinct.iter().map(String::as_bytes).collect();
            proptest::prop_assert_eq!(values, want);
        }
        /// A game's codes read as bytes add up and count their NULLs as
        /// the same codes widened do, however many (past the chunks of
        /// 255 and 256 they are counted in), each code up to 111.
        #[test]
        fn byte_codes_add_up_as_wide_ones(
            codes in proptest::collection::vec(
                proptest::prop_oneof![proptest::strategy::Just(0u8), 0u8..112],
                0..1300,
            ),
        ) {
            let wide: Vec<u64> = codes.iter().map(|&c| u64::from(c)).collect();
            proptest::prop_assert_eq!(u8::sum(&codes), u64::sum(&wide));
            proptest::prop_assert_eq!(u8::zeros(&codes), u64::zeros(&wide));
        }
    }
}
