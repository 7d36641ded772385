//! Damage to a container record's text that a person reading it would not
//! notice, repaired before the record is parsed: escape sequences written
//! out as text where a blank stands (`\r`, `\n`, `\t`: an export that wrote
//! its line ends escaped), dashes written as Unicode look-alikes (`1–0`,
//! `O‑O`, `32–28`), and the forum wrapper lines `[pgn]` and `[/pgn]`.
//!
//! Only movetext and the text between tags is repaired: tag values and
//! comments keep every character (a `\r` in `[Annotator "C:\raw"]` is a
//! path). A repair keeps the number of characters on every line, so that
//! every line and column the reader reports is the one of the text as
//! written. The record scanner ([`super::scan`]) reads the same damage as
//! blanks, so that it ends records where the reader does.

use crate::container::line_col;
use crate::error::Problem;

/// The Unicode look-alikes of `-` read as one: hyphen, non-breaking hyphen,
/// figure dash, en dash, em dash, horizontal bar (U+2010 to U+2015), minus
/// sign (U+2212), small and fullwidth hyphen-minus (U+FE63, U+FF0D).
pub fn dash_len(b: &[u8]) -> Option<usize> {
    match b {
        [0xE2, 0x80, 0x90..=0x95, ..] | [0xE2, 0x88, 0x92, ..] => Some(3),
        [0xEF, 0xB9, 0xA3, ..] | [0xEF, 0xBC, 0x8D, ..] => Some(3),
        _ => None,
    }
}

/// The length of an escape sequence written as text at the start of `b`
/// (`\r`, `\n`, `\t`), read as blanks.
pub fn escape_len(b: &[u8]) -> Option<usize> {
    match b {
        [b'\\', b'r' | b'n' | b't', ..] => Some(2),
        _ => None,
    }
}

/// The length of a wrapper line's tag at `b` (`[pgn]`, `[/pgn]`, in any
/// case), when only blanks follow it on its line: the markup a forum or a
/// blog puts around a game, no tag of it.
pub fn wrapper_len(b: &[u8]) -> Option<usize> {
    let close = usize::from(b.get(1) == Some(&b'/'));
    let name = b.get(1 + close..4 + close)?;
    if b[0] != b'[' || !name.eq_ignore_ascii_case(b"pgn") || b.get(4 + close) != Some(&b']') {
        return None;
    }
    let len = 5 + close;
    let rest = &b[len..];
    let line_end = rest
        .iter()
        .position(|&c| c == b'\n' || c == b'\r')
        .unwrap_or(rest.len());
    rest[..line_end]
        .iter()
        .all(|&c| c == b' ' || c == b'\t')
        .then_some(len)
}

/// Whether a record may hold damage [`repair`] mends: a cheap test, so that
/// a clean record costs a few memchr passes.
fn may_need(b: &[u8]) -> bool {
    memchr::memchr3(b'\\', 0xE2, 0xEF, b).is_some()
        || memchr::memmem::find(b, b"gn]").is_some()
        || memchr::memmem::find(b, b"GN]").is_some()
}

/// What was repaired of one kind: how many, and where the first was.
#[derive(Default)]
struct Count {
    n: usize,
    first: usize,
}

impl Count {
    fn add(&mut self, at: usize) {
        if self.n == 0 {
            self.first = at;
        }
        self.n += 1;
    }
}

/// Repairs a record's text; `None` when there is nothing to repair. The
/// warnings are one per kind, with how many were repaired and the first
/// place.
pub fn repair(text: &str) -> Option<(String, Vec<Problem>)> {
    let b = text.as_bytes();
    if !may_need(b) {
        return None;
    }
    let n = b.len();
    let mut out: Vec<u8> = Vec::new();
    // Copied into `out` up to here.
    let mut from = 0;
    let (mut escapes, mut dashes, mut wrappers) =
        (Count::default(), Count::default(), Count::default());
    let line_end = |i: usize| memchr::memchr2(b'\n', b'\r', &b[i..]).map_or(n, |j| i + j);
    let mut i = 0;
    while i < n {
        let at_line_start = {
            let mut k = i;
            while k > 0 && matches!(b[k - 1], b' ' | b'\t') {
                k -= 1;
            }
            k == 0 || matches!(b[k - 1], b'\n' | b'\r')
        };
        match b[i] {
            b'[' if at_line_start => {
                if let Some(len) = wrapper_len(&b[i..]) {
                    out.extend_from_slice(&b[from..i]);
                    wrappers.add(out.len());
                    out.extend(std::iter::repeat_n(b' ', len));
                    i += len;
                    from = i;
                    continue;
                }
                // A tag: its value keeps every character, up to its `]`
                // outside quotes, or the end of the line.
                let end = line_end(i);
                let mut quoted = false;
                let mut k = i + 1;
                while k < end {
                    match b[k] {
                        b'\\' if quoted => k += 1,
                        b'"' => quoted = !quoted,
                        b']' if !quoted => break,
                        _ => {}
                    }
                    k += 1;
                }
                i = if k < end { k + 1 } else { end };
            }
            b'{' => i = memchr::memchr(b'}', &b[i..]).map_or(n, |j| i + j + 1),
            b';' => i = line_end(i),
            b'%' if at_line_start => i = line_end(i),
            b'\\' => match escape_len(&b[i..]) {
                Some(len) => {
                    out.extend_from_slice(&b[from..i]);
                    escapes.add(out.len());
                    out.extend(std::iter::repeat_n(b' ', len));
                    i += len;
                    from = i;
                }
                None => i += 1,
            },
            0xE2 | 0xEF => match dash_len(&b[i..]) {
                Some(len) => {
                    out.extend_from_slice(&b[from..i]);
                    dashes.add(out.len());
                    out.push(b'-');
                    i += len;
                    from = i;
                }
                None => i += 1,
            },
            _ => i += 1,
        }
    }
    if escapes.n + dashes.n + wrappers.n == 0 {
        return None;
    }
    out.extend_from_slice(&b[from..]);
    // Only ASCII replaced whole characters: still UTF-8.
    let fixed = String::from_utf8(out).ok()?;
    let mut warnings = Vec::new();
    let times = |n: usize| if n == 1 { String::new() } else { format!(" ({n} times)") };
    if escapes.n > 0 {
        warnings.push(
            Problem::at(
                line_col(&fixed, escapes.first),
                format!(
                    "an escape sequence written out as text (`\\r`, `\\n`, `\\t`) stands where a blank goes: read as blanks{}",
                    times(escapes.n)
                ),
            )
            .of_kind("escape-as-text"),
        );
    }
    if dashes.n > 0 {
        warnings.push(
            Problem::at(
                line_col(&fixed, dashes.first),
                format!(
                    "a Unicode dash or hyphen (`–`, `‑`, `−`, ...) in the movetext was read as `-`{}",
                    times(dashes.n)
                ),
            )
            .of_kind("unicode-dash"),
        );
    }
    if wrappers.n > 0 {
        warnings.push(
            Problem::at(
                line_col(&fixed, wrappers.first),
                format!(
                    "a `[pgn]` or `[/pgn]` wrapper line was skipped{}",
                    times(wrappers.n)
                ),
            )
            .of_kind("wrapper-line"),
        );
    }
    Some((fixed, warnings))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(text: &str) -> String {
        repair(text).map_or_else(|| text.to_string(), |(t, _)| t)
    }

    #[test]
    fn escapes_blank_outside_tags_and_comments() {
        assert_eq!(fixed("1. e4 e5 1-0\\r\\n"), "1. e4 e5 1-0    ");
        assert_eq!(
            fixed("[Annotator \"C:\\raw\"]\\r\n{a\\nb} 1. e4 ; x\\t\n*"),
            "[Annotator \"C:\\raw\"]  \n{a\\nb} 1. e4 ; x\\t\n*"
        );
        assert!(repair("[Event \"a\\\"b\"]\n1. e4 *").is_none());
    }

    #[test]
    fn dashes_and_wrappers() {
        assert_eq!(fixed("1. O\u{2011}O 1\u{2013}0"), "1. O-O 1-0");
        assert_eq!(fixed("{1\u{2013}0} 1. e4 *"), "{1\u{2013}0} 1. e4 *");
        assert_eq!(fixed("[pgn]\n1. e4 *\n [/PGN] \n"), "     \n1. e4 *\n        \n");
        assert!(repair("[pgn] x\n").is_none());
    }

    #[test]
    fn lines_and_columns_are_kept() {
        let text = "[Event \"x\"]\n1. e4 \u{2014} e5 \\r 2. Nf3 *";
        let (t, w) = repair(text).unwrap();
        assert_eq!(t.lines().count(), text.lines().count());
        for (a, b) in t.lines().zip(text.lines()) {
            assert_eq!(a.chars().count(), b.chars().count());
        }
        assert_eq!((w[0].line, w[0].col), (2, 12));
        assert_eq!((w[1].line, w[1].col), (2, 7));
    }
}
