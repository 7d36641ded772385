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
/// hashes, prints and serializes as the `str` it holds.
#[derive(Clone)]
pub struct Text {
    /// The record (or the text alone).
    source: Arc<str>,
    /// The slice of `source`, in bytes.
    start: usize,
    end: usize,
}

impl Text {
    /// The slice `range` of `source`, shared with it; `None` where
    /// `range` is not a slice of it (past its end, or not on character
    /// boundaries).
    pub fn slice(source: &Arc<str>, range: Range<usize>) -> Option<Text> {
        source.get(range.clone())?;
        Some(Text {
            source: Arc::clone(source),
            start: range.start,
            end: range.end,
        })
    }

    /// The text as a `str`.
    pub fn as_str(&self) -> &str {
        &self.source[self.start..self.end]
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
        Text {
            start: 0,
            end: source.len(),
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
}
