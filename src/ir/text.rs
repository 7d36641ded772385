//! The text of a comment: a slice of the record it was read from, which the
//! game's comments share, so that reading a comment copies nothing and
//! writing it as it was read copies it once.

use std::fmt;
use std::ops::{Deref, Range};
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A comment's text (a `str`): a slice of a shared text, the record a
/// reader read it from ([`Text::slice`]), or a text of its own
/// ([`From<String>`], [`From<&str>`]). Clones share it. It compares,
/// hashes, prints and serializes as the `str` it holds. It knows whether
/// it is plain ([`Text::is_plain`]), decided once, when it is made.
#[derive(Clone)]
pub struct Text {
    /// The record (or the text alone).
    source: Arc<str>,
    /// The slice of `source`, in bytes: its start.
    start: usize,
    /// Its end, and in the top bit ([`PLAIN`]) whether it is plain (no
    /// slice reaches that far: a `str` holds at most `isize::MAX` bytes).
    end: usize,
}

/// The bit of [`Text`]'s `end` that says the text is plain.
const PLAIN: usize = 1 << (usize::BITS - 1);

/// Whether a text is plain: ASCII, without line breaks (`\n`, `\r`) and
/// without `}`. Such a text stands as it is in a PGN-style container's
/// comment of any kind (between braces, after `;`, on a `%` line), one
/// column per byte: its writer copies it without looking at it again.
pub fn is_plain(text: &str) -> bool {
    let b = text.as_bytes();
    is_ascii(b) && memchr::memchr3(b'\n', b'\r', b'}', b).is_none()
}

/// Whether bytes are all ASCII, as [`slice::is_ascii`] says, which looks
/// at 64 bytes at a time and at the rest one by one (up to 63, most of
/// the cost for a comment of a few hundred bytes): here it is given whole
/// blocks only, the last block again (overlapping), and a text shorter
/// than a block is looked at 8 bytes at a time.
pub(crate) fn is_ascii(b: &[u8]) -> bool {
    const BLOCK: usize = 64;
    let n = b.len();
    if n >= BLOCK {
        return b[..n - n % BLOCK].is_ascii() && b[n - BLOCK..].is_ascii();
    }
    if n < 8 {
        return b.is_ascii();
    }
    let word = |c: &[u8]| {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        u64::from_le_bytes(w)
    };
    let last = word(&b[n - 8..]);
    let all = b.chunks_exact(8).fold(last, |acc, c| acc | word(c));
    all & 0x8080_8080_8080_8080 == 0
}

impl Text {
    /// The slice `range` of `source`, shared with it; `None` where
    /// `range` is not a slice of it (past its end, or not on character
    /// boundaries).
    pub fn slice(source: &Arc<str>, range: Range<usize>) -> Option<Text> {
        let plain = is_plain(source.get(range.clone())?);
        Text::slice_known(source, range, plain)
    }

    /// [`Text::slice`] of a reader that found, as it read the slice,
    /// whether it is plain ([`is_plain`]): it is not looked at again.
    pub(crate) fn slice_known(source: &Arc<str>, range: Range<usize>, plain: bool) -> Option<Text> {
        let text = source.get(range.clone())?;
        debug_assert_eq!(plain, is_plain(text), "{text:?}");
        Some(Text {
            source: Arc::clone(source),
            start: range.start,
            end: range.end | if plain { PLAIN } else { 0 },
        })
    }

    /// The text as a `str`.
    pub fn as_str(&self) -> &str {
        &self.source[self.start..self.end & !PLAIN]
    }

    /// Whether the text is plain ([`is_plain`]), as decided when it was
    /// made: a comment that its writer copies as it is.
    pub fn is_plain(&self) -> bool {
        self.end & PLAIN != 0
    }
}

impl Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Default for Text {
    fn default() -> Text {
        Text::from("")
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Text {
        Text::from(Arc::<str>::from(text))
    }
}

impl From<String> for Text {
    fn from(text: String) -> Text {
        Text::from(Arc::<str>::from(text))
    }
}

impl From<Arc<str>> for Text {
    fn from(source: Arc<str>) -> Text {
        let plain = if is_plain(&source) { PLAIN } else { 0 };
        Text {
            start: 0,
            end: source.len() | plain,
            source,
        }
    }
}

impl From<Text> for String {
    fn from(text: Text) -> String {
        text.as_str().to_owned()
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Text {}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl std::hash::Hash for Text {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Text, D::Error> {
        String::deserialize(deserializer).map(Text::from)
    }
}

/// Appends a short text: one of one to eight bytes (a square, a piece
/// letter, a move) as a copy of its known size, with no call to `memcpy`
/// (the call costs as much as the rest of such a value's writing: the
/// move fields and the database tables' values are mostly such); a longer
/// one as `push_str` copies it.
#[inline(always)]
pub(crate) fn push_short(out: &mut String, v: &str) {
    // Each arm's length is known to the compiler, which copies it inline.
    #[allow(clippy::match_same_arms)]
    match v.len() {
        1 => out.push_str(v),
        2 => out.push_str(v),
        3 => out.push_str(v),
        4 => out.push_str(v),
        5 => out.push_str(v),
        6 => out.push_str(v),
        7 => out.push_str(v),
        8 => out.push_str(v),
        _ => out.push_str(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slice_shares_its_source() {
        let record: Arc<str> = Arc::from("1. e4 {best by test} e5");
        let text = Text::slice(&record, 7..19).expect("a slice");
        assert_eq!(text, "best by test");
        assert!(std::ptr::eq(text.as_str(), &record[7..19]));
        assert_eq!(Arc::strong_count(&record), 2);
        assert!(Text::slice(&record, 20..30).is_none());
        let accents: Arc<str> = Arc::from("é");
        assert!(Text::slice(&accents, 1..2).is_none());
        assert_eq!(Text::default(), "");
        assert_eq!(String::from(text.clone()), "best by test");
        assert_eq!(format!("{text:?} {text}"), "\"best by test\" best by test");
        assert_eq!(Text::from("best by test"), text);
    }

    #[test]
    fn a_text_knows_whether_it_is_plain() {
        let record: Arc<str> = Arc::from("{plain} {two\nlines} {café} {a}b}");
        for (range, plain) in [
            (1..6, true),
            (9..18, false),
            (21..26, false),
            (29..32, false),
        ] {
            let text = Text::slice(&record, range.clone()).expect("a slice");
            assert_eq!(text.is_plain(), plain, "{text:?}");
            assert_eq!(text.as_str(), &record[range]);
            assert_eq!(Text::from(text.as_str()).is_plain(), plain);
            assert_eq!(text.clone().is_plain(), plain);
        }
        assert!(Text::default().is_plain());
    }

    proptest::proptest! {
        /// [`is_ascii`] says what [`slice::is_ascii`] says, for any length
        /// (shorter than a word, than a block, or several blocks and a
        /// part) and a byte outside ASCII anywhere or nowhere.
        #[test]
        fn is_ascii_agrees_with_the_standard_library(
            len in 0usize..300,
            at in proptest::option::of(0usize..300),
            byte in 0x80u8..=0xff,
        ) {
            let mut b = vec![b'a'; len];
            if let Some(i) = at.filter(|&i| i < len) {
                b[i] = byte;
            }
            proptest::prop_assert_eq!(is_ascii(&b), b.is_ascii());
        }

        /// [`push_short`] appends what `push_str` appends, whatever the
        /// length (each length it copies itself, and longer).
        #[test]
        fn push_short_appends_the_text(before in ".{0,3}", text in ".{0,12}") {
            let mut got = before.clone();
            push_short(&mut got, &text);
            proptest::prop_assert_eq!(got, before + &text);
        }
    }
}
