//! The encodings of the parquet pages kifu writes ([`super::TextChunks`]):
//! Parquet's RLE / bit-packing hybrid, bit-packing, `DELTA_BINARY_PACKED`.

use crate::interchange::rows;

/// Appends an unsigned LEB128 number (the RLE runs' headers).
pub(super) fn varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push(n as u8 | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// Appends `values` as bit-packed runs of `width` bits a value, the last
/// group of eight filled with zeros; at most 63 groups a run (a header of
/// one byte, as parquet-mr writes them).
pub(super) fn bit_packed<T: Copy + Into<u64>>(out: &mut Vec<u8>, values: &[T], width: u32) {
    for run in values.chunks(63 * 8) {
        let groups = run.len().div_ceil(8);
        varint(out, ((groups as u64) << 1) | 1);
        eights(out, run, width);
    }
}

/// Appends `values` in groups of eight, `width` bits a value, the last
/// group filled with zeros (zero bits). A width of at most 16 (every
/// dictionary's indices, the definition levels) packs each group as one
/// number with shifts known when compiled ([`eight`]), a value a few
/// instructions; a wider one goes through [`pack`]. A whole number of
/// groups is what [`pack`] writes of them, byte for byte.
pub(super) fn eights<T: Copy + Into<u64>>(out: &mut Vec<u8>, values: &[T], width: u32) {
    macro_rules! fixed {
        ($($w:literal)*) => {
            match width {
                $($w => return eights_of::<T, $w>(out, values),)*
                _ => {}
            }
        };
    }
    fixed!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16);
    let start = out.len();
    pack(out, values.iter().map(|&v| v.into()), width);
    out.resize(start + values.len().div_ceil(8) * width as usize, 0);
}

/// [`eights`] of `W` bits a value (at most 16).
#[inline]
fn eights_of<T: Copy + Into<u64>, const W: usize>(out: &mut Vec<u8>, values: &[T]) {
    // A group's values, the missing ones of the last zeros.
    let put = |out: &mut Vec<u8>, group: &[T]| {
        let mut eight_values = [0u64; 8];
        for (e, &v) in eight_values.iter_mut().zip(group) {
            *e = v.into();
        }
        out.extend_from_slice(&eight::<W>(eight_values)[..W]);
    };
    out.reserve(values.len().div_ceil(8) * W);
    let mut groups = values.chunks_exact(8);
    for group in &mut groups {
        put(out, group);
    }
    if !groups.remainder().is_empty() {
        put(out, groups.remainder());
    }
}

/// Eight values of `W` bits (at most 16) packed, the first in the lowest
/// bits: the group's `W` bytes, then zeros. Eight values of at most 8 bits
/// (a square's or a piece's index, a definition level) fit one `u64`,
/// shifted in one register each, where a `u128` takes two.
#[inline(always)]
fn eight<const W: usize>(group: [u64; 8]) -> [u8; 16] {
    if W <= 8 {
        let mut acc = 0u64;
        for (k, v) in group.into_iter().enumerate() {
            acc |= v << (k * W);
        }
        let mut bytes = [0; 16];
        bytes[..8].copy_from_slice(&acc.to_le_bytes());
        return bytes;
    }
    let mut acc = 0u128;
    for (k, v) in group.into_iter().enumerate() {
        acc |= u128::from(v) << (k * W);
    }
    acc.to_le_bytes()
}

/// Appends `values` `width` bits each (at most 64), the first in the
/// lowest bits, the last byte filled with zeros.
#[inline]
fn pack(out: &mut Vec<u8>, values: impl Iterator<Item = u64>, width: u32) {
    if width <= 32 {
        // Four bytes written at a time from a word.
        let (mut acc, mut bits) = (0u64, 0u32);
        for v in values {
            acc |= v << bits;
            bits += width;
            if bits >= 32 {
                out.extend_from_slice(&(acc as u32).to_le_bytes());
                acc >>= 32;
                bits -= 32;
            }
        }
        out.extend_from_slice(&acc.to_le_bytes()[..bits.div_ceil(8) as usize]);
        return;
    }
    let (mut acc, mut bits) = (0u128, 0u32);
    for v in values {
        acc |= u128::from(v) << bits;
        bits += width;
        if bits >= 64 {
            out.extend_from_slice(&(acc as u64).to_le_bytes());
            acc >>= 64;
            bits -= 64;
        }
    }
    let tail = bits.div_ceil(8) as usize;
    out.extend_from_slice(&(acc as u64).to_le_bytes()[..tail]);
}

/// Appends `values` in Parquet's RLE / bit-packing hybrid encoding,
/// `width` bits a value: a run of eight or more equal values as one run
/// where the values before it fill whole groups of eight, the others
/// bit-packed.
pub(super) fn rle_hybrid<T: Copy + PartialEq + Into<u64>>(
    out: &mut Vec<u8>,
    values: &[T],
    width: u32,
) {
    let bytes = width.div_ceil(8) as usize;
    let (mut literal, mut i) = (0, 0);
    while i < values.len() {
        // A value unlike the next is a run of one, which is bit-packed:
        // passed over without counting a run.
        i = unlike_until(values, i);
        let v = values[i];
        let run = run_len(&values[i..], v);
        // The values bit-packed before a run are whole groups: the run's
        // first values complete the last group.
        let pad = (8 - (i - literal) % 8) % 8;
        if run >= pad + 8 {
            bit_packed(out, &values[literal..i + pad], width);
            varint(out, ((run - pad) as u64) << 1);
            out.extend_from_slice(&(v.into()).to_le_bytes()[..bytes]);
            literal = i + run;
        }
        i += run;
    }
    bit_packed(out, &values[literal..], width);
}

/// The first place from `i` where a value is like the next (the last
/// value where none is): eight pairs looked at together (compared at
/// once, no branch a value: the dictionary indices of moves and squares
/// seldom repeat), then one at a time.
#[inline]
fn unlike_until<T: Copy + PartialEq>(values: &[T], mut i: usize) -> usize {
    while let Some(w) = values.get(i..i + 9) {
        if (0..8).fold(false, |any, k| any | (w[k] == w[k + 1])) {
            break;
        }
        i += 8;
    }
    while i + 1 < values.len() && values[i] != values[i + 1] {
        i += 1;
    }
    i
}

/// How many of `values` from the first are `v`: sixteen at a time (a
/// comparison the compiler makes wide: the definition levels' long runs),
/// then one at a time.
#[inline]
fn run_len<T: Copy + PartialEq>(values: &[T], v: T) -> usize {
    let mut n = 0;
    for chunk in values.chunks_exact(16) {
        if !chunk.iter().fold(true, |all, &x| all & (x == v)) {
            break;
        }
        n += 16;
    }
    n + values[n..].iter().take_while(|&&x| x == v).count()
}

/// How many of `bytes` there are, added up 256 at a time in 16 bits (255 *
/// 256 fits), which the compiler does many bytes an instruction (a
/// `usize` a byte went eight bytes a loop, one at a time): a game's codes
/// of a column, a page's definition levels.
#[inline]
pub(super) fn add_bytes(bytes: &[u8]) -> usize {
    bytes
        .chunks(256)
        .map(|c| usize::from(c.iter().map(|&b| u16::from(b)).sum::<u16>()))
        .sum()
}

/// Appends `values` in `DELTA_BINARY_PACKED`, as the crate's writer does:
/// blocks of 128 differences, four miniblocks of 32 each, each miniblock's
/// differences less the block's least bit-packed at its own width.
/// The values may be narrower than `i64` ([`super::lanes::Ints`]): each
/// is widened as it is read.
pub(super) fn delta_binary_packed<T: Copy + Into<i64>>(out: &mut Vec<u8>, values: &[T]) {
    const BLOCK: usize = 128;
    const MINIBLOCKS: usize = 4;
    const MINI: usize = BLOCK / MINIBLOCKS;
    varint(out, BLOCK as u64);
    varint(out, MINIBLOCKS as u64);
    varint(out, values.len() as u64);
    let Some((&first, rest)) = values.split_first() else {
        varint(out, 0);
        return;
    };
    let first: i64 = first.into();
    varint(out, rows::zigzag(first));
    let mut deltas = [0u64; BLOCK];
    let mut before = first;
    for block in rest.chunks(BLOCK) {
        let n = block.len();
        let mut least = i64::MAX;
        for (d, &v) in deltas.iter_mut().zip(block) {
            let v: i64 = v.into();
            let delta = v.wrapping_sub(before);
            least = least.min(delta);
            *d = delta as u64;
            before = v;
        }
        varint(out, rows::zigzag(least));
        let widths = out.len();
        out.extend_from_slice(&[0; MINIBLOCKS]);
        for m in 0..n.div_ceil(MINI) {
            let mini = &mut deltas[m * MINI..(m + 1) * MINI];
            // The values past the block's last are 0, as the padding.
            let live = n.saturating_sub(m * MINI).min(MINI);
            let mut most = 0u64;
            for d in &mut mini[..live] {
                *d = d.wrapping_sub(least as u64);
                most |= *d;
            }
            mini[live..].fill(0);
            let width = u64::BITS - most.leading_zeros();
            out[widths + m] = width as u8;
            // Four whole groups of eight.
            eights(out, mini, width);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{bit_packed, pack, run_len, unlike_until, varint};

    /// [`bit_packed`] as it was written: every value through [`pack`].
    fn bit_packed_by_pack(out: &mut Vec<u8>, values: &[u32], width: u32) {
        for run in values.chunks(63 * 8) {
            let groups = run.len().div_ceil(8);
            varint(out, ((groups as u64) << 1) | 1);
            let start = out.len();
            pack(out, run.iter().map(|&v| u64::from(v)), width);
            out.resize(start + groups * width as usize, 0);
        }
    }

    proptest::proptest! {
        /// A run's length, found sixteen values at a time, is the count of
        /// the values like the first before one unlike it.
        #[test]
        fn a_run_is_the_values_like_the_first(
            values in proptest::collection::vec(0u8..3, 0..100),
            lead in 0usize..60,
        ) {
            let values: Vec<u8> = std::iter::repeat_n(1, lead).chain(values).collect();
            let Some(&v) = values.first() else { return Ok(()) };
            let want = values.iter().take_while(|&&x| x == v).count();
            proptest::prop_assert_eq!(run_len(&values, v), want);
            let wide: Vec<u32> = values.iter().map(|&x| u32::from(x)).collect();
            proptest::prop_assert_eq!(run_len(&wide, u32::from(v)), want);
        }

        /// The first value like the next, found eight pairs at a time, is
        /// the one found a value at a time, from any place.
        #[test]
        fn the_first_repeat_is_found_as_one_at_a_time(
            values in proptest::collection::vec(0u32..4, 0..80),
            from in 0usize..80,
        ) {
            let from = from.min(values.len().saturating_sub(1));
            let mut want = from;
            while want + 1 < values.len() && values[want] != values[want + 1] {
                want += 1;
            }
            proptest::prop_assert_eq!(unlike_until(&values, from), want);
            let bytes: Vec<u8> = values.iter().map(|&v| v as u8).collect();
            proptest::prop_assert_eq!(unlike_until(&bytes, from), want);
        }

        /// Values bit-packed a group of eight at a time (widths to 16) or
        /// through `pack` (wider) are the bytes of each value packed one
        /// at a time, at every width, any count (runs of 63 groups, a
        /// last group cut short).
        #[test]
        fn groups_of_eight_are_packed_as_one_at_a_time(
            values in proptest::collection::vec(proptest::num::u32::ANY, 0..1100),
            width in 1u32..=32,
        ) {
            let values: Vec<u32> = values
                .iter()
                .map(|&v| v & (u32::MAX >> (32 - width)))
                .collect();
            let (mut got, mut want) = (Vec::new(), Vec::new());
            bit_packed(&mut got, &values, width);
            bit_packed_by_pack(&mut want, &values, width);
            proptest::prop_assert_eq!(got, want);
        }
    }
}
