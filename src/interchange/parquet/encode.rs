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
pub(super) fn bit_packed<T: Copy + Into<i64>>(out: &mut Vec<u8>, values: &[T], width: u32) {
    for run in values.chunks(63 * 8) {
        let groups = run.len().div_ceil(8);
        varint(out, ((groups as u64) << 1) | 1);
        let start = out.len();
        pack(out, run.iter().map(|&v| v.into() as u64), width);
        // The last group's missing values are zeros: zero bits.
        out.resize(start + groups * width as usize, 0);
    }
}

/// Appends `values` `width` bits each (at most 64), the first in the
/// lowest bits, the last byte filled with zeros.
#[inline]
pub(super) fn pack(out: &mut Vec<u8>, values: impl Iterator<Item = u64>, width: u32) {
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
pub(super) fn rle_hybrid<T: Copy + PartialEq + Into<i64>>(
    out: &mut Vec<u8>,
    values: &[T],
    width: u32,
) {
    let bytes = width.div_ceil(8) as usize;
    let (mut literal, mut i) = (0, 0);
    while i < values.len() {
        // A value unlike the next is a run of one, which is bit-packed:
        // passed over without counting a run.
        while i + 1 < values.len() && values[i] != values[i + 1] {
            i += 1;
        }
        let v = values[i];
        let run = run_len(&values[i..], v);
        // The values bit-packed before a run are whole groups: the run's
        // first values complete the last group.
        let pad = (8 - (i - literal) % 8) % 8;
        if run >= pad + 8 {
            bit_packed(out, &values[literal..i + pad], width);
            varint(out, ((run - pad) as u64) << 1);
            out.extend_from_slice(&(v.into() as u64).to_le_bytes()[..bytes]);
            literal = i + run;
        }
        i += run;
    }
    bit_packed(out, &values[literal..], width);
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

/// Appends `values` in `DELTA_BINARY_PACKED`, as the crate's writer does:
/// blocks of 128 differences, four miniblocks of 32 each, each miniblock's
/// differences less the block's least bit-packed at its own width.
pub(super) fn delta_binary_packed(out: &mut Vec<u8>, values: &[i64]) {
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
    varint(out, rows::zigzag(first));
    let mut deltas = [0u64; BLOCK];
    let mut before = first;
    for block in rest.chunks(BLOCK) {
        let n = block.len();
        let mut least = i64::MAX;
        for (d, &v) in deltas.iter_mut().zip(block) {
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
            pack(out, mini.iter().copied(), width);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::run_len;

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
    }
}
