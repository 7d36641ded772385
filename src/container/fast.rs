//! The fast lexer: a byte scan that reads the common case of a container
//! record (quoted tags, move numbers, moves, `{}` and `;` comments, NAGs,
//! glyphs, variations, a result) into the same tokens as the grammar, and
//! gives up on anything else.
//!
//! The grammar stays the definition: every record the lexer does not take
//! whole is parsed by pest, which also gives every syntax error. The lexer
//! takes a record only when pest would read it into the same tokens, which
//! `tests/fast_lexer.rs` checks on the whole shared corpus and on generated
//! movetext. What it gives up on: preambles, bare or escaped tag values, damaged tags,
//! `%` lines, `...` variants, paren glyphs such as `(!)`,
//! stray braces, results inside variations or not at the end, results
//! spaced around their dash, non-ASCII outside comments and tag values, and
//! any move its notation's `move_len` does not know (move numbers without
//! their dot, pawn captures without `x`, a `--` ending the movetext, which
//! is a placeholder result).

use pest::RuleType;

use crate::container::{Lexed, Token};
use crate::family::dialect::{Dialect, Numbering};
use crate::ir::Results;
use crate::ir::{is_ascii, is_plain, CommentKind};

/// Whitespace as the grammar's `WHITESPACE` reads it, in ASCII.
pub fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Where the blanks from `i` on end.
#[inline]
fn skip_space(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && is_space(b[i]) {
        i += 1;
    }
    i
}

/// What may follow a move directly: what starts no longer move.
fn ends_move(b: Option<&u8>) -> bool {
    match b {
        None => true,
        Some(&b) => is_space(b) || matches!(b, b'{' | b'(' | b')' | b'$' | b';' | b'!' | b'?'),
    }
}

/// What a notation tells the lexer besides its dialect.
#[derive(Debug, Clone, Copy)]
pub struct Lexing {
    /// The length of the move at the start of its argument when it is one
    /// the notation's grammar reads as exactly that move (check sign
    /// included, glyph excluded).
    pub move_len: fn(&[u8]) -> Option<usize>,
}

/// Lexes a record, or returns `None` for pest to read it. Move numbers and
/// results are the dialect's: its result tokens, in the order of the
/// grammar's `result_token` (a token that is a result is never a move, as
/// the draughts grammar's `!result` guard says), and its numbers (`12.`,
/// `12...`; `1#`).
pub fn lex<'i, R: RuleType + 'static>(
    text: &'i str,
    lexing: Lexing,
    dialect: &Dialect,
) -> Option<Lexed<'i, R>> {
    let (tags, mut movetext) = lex_tags(text, lexing, dialect)?;
    // (The thread's kept buffer, given back once the record is read.)
    let mut tokens = kept_with::<Token<'static, R>, _>((text.len() - movetext.i) / 4);
    if !movetext.fill::<false, R>(&mut tokens, usize::MAX)? {
        return None;
    }
    Some(Lexed {
        tags,
        tokens,
        main_moves: movetext.main_moves,
    })
}

/// A record's tags read by the fast lexer (name, value without escapes,
/// offset), in the thread's kept buffer (`fast::kept`), given back when
/// dropped.
pub struct LexedTags<'i>(Vec<(&'i str, &'i str, usize)>);

/// A tag of [`LexedTags`] as the kept buffer holds it.
type KeptTag = (&'static str, &'static str, usize);

impl<'i> std::ops::Deref for LexedTags<'i> {
    type Target = [(&'i str, &'i str, usize)];

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl Drop for LexedTags<'_> {
    fn drop(&mut self) {
        keep::<KeptTag, _>(std::mem::take(&mut self.0));
    }
}

thread_local! {
    /// The lexer's buffers kept from record to record on this thread,
    /// empty, one of each type (a record's tags, a piece's tokens of each
    /// notation): made for each record, they cost the allocator's slow
    /// path and their growth by doubling each time (some 2% of converting
    /// plain chess).
    static KEPT: std::cell::RefCell<Vec<Box<dyn std::any::Any>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// This thread's kept buffer of `T` (a new one where there is none), empty,
/// as a buffer of `U`: `T` with the lifetimes of the record being read.
pub(crate) fn kept<T: 'static, U>() -> Vec<U> {
    let buffer: Vec<T> = KEPT
        .with(|k| {
            k.borrow_mut()
                .iter_mut()
                .find_map(|b| b.downcast_mut::<Vec<T>>())
                .map(std::mem::take)
        })
        .unwrap_or_default();
    relabel(buffer)
}

/// [`kept`] with room for `n` items at least: a kept buffer with less is
/// let go and a new one made, not grown (growing copies the whole of
/// the old one, which holds nothing).
pub(crate) fn kept_with<T: 'static, U>(n: usize) -> Vec<U> {
    match kept::<T, U>() {
        buffer if buffer.capacity() >= n => buffer,
        _ => Vec::with_capacity(n),
    }
}

/// Gives a buffer of `U` back, emptied, to be kept as a buffer of `T`
/// ([`kept`]).
pub(crate) fn keep<T: 'static, U>(buffer: Vec<U>) {
    let buffer: Vec<T> = relabel(buffer);
    if buffer.capacity() == 0 {
        return;
    }
    KEPT.with(|k| {
        let mut k = k.borrow_mut();
        match k.iter_mut().find_map(|b| b.downcast_mut::<Vec<T>>()) {
            Some(kept) => *kept = buffer,
            None => k.push(Box::new(buffer)),
        }
    });
}

/// A buffer of `A` as a buffer of `B`, emptied (its items dropped): the
/// same allocation where `A` and `B` have one size and alignment, as a type
/// and the same type with other lifetimes have (collected in place).
fn relabel<A, B>(buffer: Vec<A>) -> Vec<B> {
    buffer.into_iter().filter_map(|_| None).collect()
}

/// Lexes a record's tags, and gives the lexer of its movetext, which
/// [`Movetext::fill`] runs a piece at a time; `None` for pest to read the
/// record.
pub fn lex_tags<'i>(
    text: &'i str,
    lexing: Lexing,
    dialect: &Dialect,
) -> Option<(LexedTags<'i>, Movetext<'i>)> {
    let b = text.as_bytes();
    let n = b.len();
    let skip = |i: usize| skip_space(b, i);
    // Spaces and tabs, the only blanks inside a tag.
    let skip_h = |mut i: usize| {
        while i < n && matches!(b[i], b' ' | b'\t') {
            i += 1;
        }
        i
    };
    let mut tags = LexedTags(kept::<KeptTag, _>());
    let mut i = skip(0);
    while i < n && b[i] == b'[' {
        let at = i;
        i = skip_h(i + 1);
        let name_start = i;
        while i < n && !matches!(b[i], b' ' | b'\t' | b'"' | b']' | b'[' | b'\r' | b'\n') {
            i += 1;
        }
        if i == name_start {
            return None;
        }
        let name = &text[name_start..i];
        i = skip_h(i);
        if i >= n || b[i] != b'"' {
            return None;
        }
        i += 1;
        let value_start = i;
        // The value ends at the first quote that `]` follows (after spaces
        // or tabs): a quote inside it is text, as the grammar reads it. Text
        // after the `]` on its line is left to the movetext, which gives up
        // on what is no movetext (the grammar skips it with a warning).
        let (value, end) = loop {
            let q = i + memchr::memchr3(b'"', b'\\', b'\n', &b[i..])?;
            if b[q] != b'"' {
                return None;
            }
            let j = skip_h(q + 1);
            if j < n && b[j] == b']' {
                break (&text[value_start..q], j + 1);
            }
            // A quote that ends its line ends a tag cut short: the grammar
            // reads it, with a warning.
            if j == n || matches!(b[j], b'\r' | b'\n') {
                return None;
            }
            i = q + 1;
        };
        tags.0.push((name, value, at));
        i = skip(end);
    }
    let movetext = Movetext {
        text,
        i,
        depth: 0,
        main_moves: 0,
        move_len: lexing.move_len,
        results: dialect.results,
        numbering: dialect.numbering,
    };
    Some((tags, movetext))
}

/// The fast lexer of a record's movetext, resumable: each
/// [`Movetext::fill`] lexes some more tokens.
pub struct Movetext<'i> {
    text: &'i str,
    /// Where the next token is looked for.
    i: usize,
    /// How many variations are open.
    depth: usize,
    /// How many moves of the main line were lexed.
    pub main_moves: usize,
    move_len: fn(&[u8]) -> Option<usize>,
    results: &'static Results,
    numbering: Numbering,
}

impl<'i> Movetext<'i> {
    /// Lexes tokens into `tokens` until it holds `limit` (when `BOUNDED`;
    /// the whole movetext otherwise, without counting) or the movetext
    /// ends: `Some(true)` at its end, `Some(false)` when there is more;
    /// `None` where the lexer gives up (pest reads the record).
    pub fn fill<const BOUNDED: bool, R: RuleType>(
        &mut self,
        tokens: &mut Vec<Token<'i, R>>,
        limit: usize,
    ) -> Option<bool> {
        let text = self.text;
        let move_len = self.move_len;
        let results = self.results;
        let numbering = self.numbering;
        let mark = numbering.mark();
        let pair_dots = numbering == Numbering::Pair;
        let b = text.as_bytes();
        let n = b.len();
        let skip = |i: usize| skip_space(b, i);
        let mut i = self.i;
        let mut depth = self.depth;
        let mut main_moves = self.main_moves;
        while i < n && (!BOUNDED || tokens.len() < limit) {
            let c = b[i];
            match c {
                b'0'..=b'9' => {
                    let mut j = i + 1;
                    while j < n && b[j].is_ascii_digit() {
                        j += 1;
                    }
                    if j < n && b[j] == mark {
                        j += 1;
                        // `12...`: the dots of a number by move pair.
                        if pair_dots {
                            while j < n && b[j] == b'.' {
                                j += 1;
                            }
                        }
                        tokens.push(Token::MoveNumber(&text[i..j], i));
                        i = j;
                    } else if let Some(r) = result_at(text, i, results) {
                        i = end_with_result(text, i, r, depth, tokens)?;
                    } else {
                        // A move that starts with a digit (draughts squares).
                        i = lex_move(text, i, move_len, tokens, depth, &mut main_moves)?;
                    }
                }
                b'{' => {
                    let (close, plain) = brace_end(b, i + 1)?;
                    let body = &text[i + 1..close];
                    tokens.push(Token::Comment(CommentKind::Brace, body, i, plain));
                    i = close + 1;
                }
                b'(' => {
                    // `(!)` and the like are glyphs: left to the grammar.
                    if matches!(b.get(i + 1), Some(b'!' | b'?')) {
                        return None;
                    }
                    tokens.push(Token::Open(i));
                    depth += 1;
                    i += 1;
                }
                b')' => {
                    depth = depth.checked_sub(1)?;
                    tokens.push(Token::Close);
                    i += 1;
                }
                b'$' => {
                    let mut j = i + 1;
                    while j < n && b[j].is_ascii_digit() {
                        j += 1;
                    }
                    if j == i + 1 {
                        return None;
                    }
                    tokens.push(Token::Nag(&text[i..j], i));
                    i = j;
                }
                b'!' | b'?' => {
                    let mut j = i + 1;
                    while j < n && matches!(b[j], b'!' | b'?') {
                        j += 1;
                    }
                    tokens.push(Token::Glyph(&text[i..j], i));
                    i = j;
                }
                b';' => {
                    let end = memchr::memchr2(b'\n', b'\r', &b[i + 1..]).map_or(n, |e| i + 1 + e);
                    let body = &text[i + 1..end];
                    tokens.push(Token::Comment(CommentKind::Line, body, i, is_plain(body)));
                    i = end;
                }
                b'.' => {
                    let mut j = i + 1;
                    while j < n && b[j] == b'.' {
                        j += 1;
                    }
                    if j - i < 3 {
                        return None;
                    }
                    tokens.push(Token::Ellipsis);
                    i = j;
                }
                // A move, as the grammar tries a move before a result; else a
                // result that starts with another ASCII byte (`*`, `R`; the
                // lexer gives up on non-ASCII, `½-½`).
                _ => {
                    i = match lex_move(text, i, move_len, tokens, depth, &mut main_moves) {
                        Some(j) => j,
                        None if c.is_ascii() && results.firsts().contains(c) => {
                            let r = result_at(text, i, results)?;
                            end_with_result(text, i, r, depth, tokens)?
                        }
                        None => return None,
                    }
                }
            }
            i = skip(i);
        }
        self.i = i;
        self.depth = depth;
        self.main_moves = main_moves;
        if i < n {
            return Some(false);
        }
        (depth == 0).then_some(true)
    }
}

/// Where the `{}` comment whose text starts at `from` ends (its `}`), and
/// whether its text is plain ([`is_plain`]): the scan for its end looks
/// for a line break too, and only a text on one line is looked at again
/// (whether it is ASCII), so that the writer need not look at it at all.
#[inline]
fn brace_end(b: &[u8], from: usize) -> Option<(usize, bool)> {
    let rest = &b[from..];
    let k = memchr::memchr3(b'}', b'\n', b'\r', rest)?;
    if rest[k] == b'}' {
        return Some((from + k, is_ascii(&rest[..k])));
    }
    let close = k + 1 + memchr::memchr(b'}', &rest[k + 1..])?;
    Some((from + close, false))
}

/// A move at `i`; returns where it ends.
fn lex_move<'i, R: RuleType>(
    text: &'i str,
    i: usize,
    move_len: fn(&[u8]) -> Option<usize>,
    tokens: &mut Vec<Token<'i, R>>,
    depth: usize,
    main_moves: &mut usize,
) -> Option<usize> {
    let b = text.as_bytes();
    let len = move_len(&b[i..])?;
    if len == 0 || !ends_move(b.get(i + len)) {
        return None;
    }
    tokens.push(Token::Move(&text[i..i + len], i, None));
    *main_moves += usize::from(depth == 0);
    Some(i + len)
}

/// True for a move text that is a result token of `results` spaced after
/// its dash (`1- 1`): the grammar reads it as that result, so a notation's
/// `move_len` must not take it as a move.
#[cold]
pub fn spaced_result(mv: &[u8], results: &Results) -> bool {
    let Some((left, right)) = mv.split_first_chunk::<2>() else {
        return false;
    };
    let right = right.trim_ascii_start();
    results.tokens().iter().any(|r| {
        let r = r.text.as_bytes();
        r.len() > 2 && r.split_at(2) == (&left[..], right)
    })
}

/// The result token at `i`, as the grammar's `result` rule finds one: the
/// first of the dialect's tokens that starts there (they are listed in the
/// grammar's order), not running on into a longer token.
#[inline]
fn result_at(text: &str, i: usize, results: &Results) -> Option<&'static str> {
    let rest = &text.as_bytes()[i..];
    let r = results.prefix(rest)?;
    let runs_on = rest
        .get(r.len())
        .is_some_and(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'/' | b':'));
    (!runs_on).then_some(r)
}

/// A result token at `i`, which must end the record outside any variation;
/// returns the record's length.
fn end_with_result<'i, R: RuleType>(
    text: &'i str,
    i: usize,
    r: &str,
    depth: usize,
    tokens: &mut Vec<Token<'i, R>>,
) -> Option<usize> {
    let rest = &text[i..];
    if depth != 0 || !rest[r.len()..].bytes().all(is_space) {
        return None;
    }
    tokens.push(Token::Result(&rest[..r.len()], i));
    Some(text.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// [`brace_end`] finds the `}` that ends a comment, as a search
        /// for it alone does, and says whether the text before it is plain
        /// as [`is_plain`] does, for any text (line breaks before the `}`
        /// or none, any script, no `}` at all).
        #[test]
        fn a_comment_ends_at_its_brace_and_knows_if_it_is_plain(
            body in "[a-z }\n\ré♞\t]{0,80}",
            tail in "[a-z}]{0,4}",
        ) {
            let text = format!("{{{body}{tail}");
            let b = text.as_bytes();
            let expected = memchr::memchr(b'}', &b[1..]).map(|k| (1 + k, is_plain(&text[1..1 + k])));
            prop_assert_eq!(brace_end(b, 1), expected);
        }
    }
}
