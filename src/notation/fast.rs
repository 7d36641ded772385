//! The fast lexer: a byte scan that reads the common case of a container
//! record (quoted tags, move numbers, moves, `{}` and `;` comments, NAGs,
//! glyphs, variations, a result) into the same tokens as the grammar, and
//! gives up on anything else.
//!
//! The grammar stays the definition: every record the lexer does not take
//! whole is parsed by pest, which also gives every syntax error. The lexer
//! takes a record only when pest would read it into the same tokens, which
//! `tests/fast_lexer.rs` checks on the whole shared corpus and on generated
//! movetext. What it gives up on: preambles, bare or escaped tag values,
//! unescaped quotes, `%` lines, `...` variants, paren glyphs such as `(!)`,
//! stray braces, results inside variations or not at the end, non-ASCII
//! outside comments and tag values, and any move its notation's `move_len`
//! does not know.

use pest::RuleType;

use crate::ir::CommentKind;
use crate::notation::container::{Lexed, Token};

/// Whitespace as the grammar's `WHITESPACE` reads it, in ASCII.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// What may follow a move directly: what starts no longer move.
fn ends_move(b: Option<&u8>) -> bool {
    match b {
        None => true,
        Some(&b) => is_space(b) || matches!(b, b'{' | b'(' | b')' | b'$' | b';' | b'!' | b'?'),
    }
}

/// Lexes a record, or returns `None` for pest to read it. `move_len` gives
/// the length of the move at the start of its argument when it is one the
/// notation's grammar reads as exactly that move (check sign included, glyph
/// excluded); `results` are the family's result tokens, longest first where
/// one is a prefix of another.
pub fn lex<'i, R: RuleType>(
    text: &'i str,
    move_len: fn(&[u8]) -> Option<usize>,
    results: &[&str],
) -> Option<Lexed<'i, R>> {
    let b = text.as_bytes();
    let n = b.len();
    let skip = |mut i: usize| {
        while i < n && is_space(b[i]) {
            i += 1;
        }
        i
    };
    let mut tags = Vec::new();
    let mut i = skip(0);
    while i < n && b[i] == b'[' {
        let at = i;
        i += 1;
        while i < n && matches!(b[i], b' ' | b'\t') {
            i += 1;
        }
        let name_start = i;
        while i < n && !matches!(b[i], b' ' | b'\t' | b'"' | b']' | b'[' | b'\r' | b'\n') {
            i += 1;
        }
        if i == name_start {
            return None;
        }
        let name = &text[name_start..i];
        while i < n && matches!(b[i], b' ' | b'\t') {
            i += 1;
        }
        if i >= n || b[i] != b'"' {
            return None;
        }
        i += 1;
        let value_start = i;
        let close = value_start + memchr::memchr3(b'"', b'\\', b'\n', &b[value_start..])?;
        if b[close] != b'"' {
            return None;
        }
        let value = &text[value_start..close];
        i = close + 1;
        while i < n && matches!(b[i], b' ' | b'\t') {
            i += 1;
        }
        if i >= n || b[i] != b']' {
            return None;
        }
        tags.push((name, value, at));
        i = skip(i + 1);
    }
    let mut tokens = Vec::with_capacity(n / 4);
    let mut depth = 0usize;
    let mut main_moves = 0;
    while i < n {
        let c = b[i];
        match c {
            b'0'..=b'9' => {
                let mut j = i + 1;
                while j < n && b[j].is_ascii_digit() {
                    j += 1;
                }
                if j < n && b[j] == b'.' {
                    while j < n && b[j] == b'.' {
                        j += 1;
                    }
                    tokens.push(Token::MoveNumber(&text[i..j], i));
                    i = j;
                } else {
                    i = result(text, i, depth, results, &mut tokens)?;
                }
            }
            b'*' => i = result(text, i, depth, results, &mut tokens)?,
            b'{' => {
                let close = i + 1 + memchr::memchr(b'}', &b[i + 1..])?;
                tokens.push(Token::Comment(CommentKind::Brace, &text[i + 1..close], i));
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
                tokens.push(Token::Comment(CommentKind::Line, &text[i + 1..end], i));
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
            _ => {
                let len = move_len(&b[i..])?;
                if len == 0 || !ends_move(b.get(i + len)) {
                    return None;
                }
                tokens.push(Token::Move(&text[i..i + len], i, None));
                main_moves += usize::from(depth == 0);
                i += len;
            }
        }
        i = skip(i);
    }
    if depth != 0 {
        return None;
    }
    Some(Lexed {
        tags,
        tokens,
        main_moves,
    })
}

/// A result token at `i`, which must end the record; returns the record's
/// length.
fn result<'i, R: RuleType>(
    text: &'i str,
    i: usize,
    depth: usize,
    results: &[&str],
    tokens: &mut Vec<Token<'i, R>>,
) -> Option<usize> {
    let rest = &text[i..];
    let r = results.iter().find(|r| rest.starts_with(**r))?;
    if depth != 0 || !rest[r.len()..].bytes().all(is_space) {
        return None;
    }
    tokens.push(Token::Result(&rest[..r.len()]));
    Some(text.len())
}
