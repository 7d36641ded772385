//! Damage to a container record's text that a person reading it would not
//! notice, repaired before the record is parsed: escape sequences written
//! out as text where a blank stands (`\r`, `\n`, `\t`: an export that wrote
//! its line ends escaped), dashes written as Unicode look-alikes (`1–0`,
//! `O‑O`, `32–28`), the forum wrapper lines `[pgn]` and `[/pgn]`, and the
//! HTML line breaks, paragraphs and non-breaking spaces of a PGN pasted
//! from a web page (`<br />`, `<p>`, `&nbsp;`).
//!
//! Only movetext and the text between tags is repaired: tag values and
//! comments keep every character (a `\r` in `[Annotator "C:\raw"]` is a
//! path). A repair keeps the number of characters on every line, so that
//! every line and column the reader reports is the one of the text as
//! written. The record scanner ([`super::scan`]) reads the same damage as
//! blanks, so that it ends records where the reader does.

use crate::codec::line_col;
use crate::container::{parens, Count, Paren};
use crate::error::Kind;
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

/// The length of the HTML at the start of `b` that a PGN pasted from a web
/// page keeps, read as blanks: a line break (`<br>`, `<br/>`, `<br />`,
/// `</br>`), a paragraph's or a block's tag, opening or closing, with
/// attributes or none (`<p>`, `</p>`, `<div class="pgn">`, `</div>`), in
/// any case, and a non-breaking space written as an entity (`&nbsp;`,
/// `&#160;`, `&#xA0;`).
pub fn html_blank_len(b: &[u8]) -> Option<usize> {
    match b.first()? {
        b'<' => markup_len(b),
        b'&' => [&b"&nbsp;"[..], b"&#160;", b"&#xa0;"]
            .iter()
            .find(|e| b.get(..e.len()).is_some_and(|h| h.eq_ignore_ascii_case(e)))
            .map(|e| e.len()),
        _ => None,
    }
}

/// [`html_blank_len`]'s tags: `<br>` as it always was read, `<p ...>`,
/// `</p>`, `<div ...>`, `</div>` on one line.
fn markup_len(b: &[u8]) -> Option<usize> {
    let close = usize::from(b.get(1) == Some(&b'/'));
    let name_at = 1 + close;
    let name = [&b"br"[..], b"p", b"div"].into_iter().find(|n| {
        b.get(name_at..name_at + n.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(n))
    })?;
    let mut k = name_at + name.len();
    if name == b"br" {
        while matches!(b.get(k), Some(b' ' | b'\t')) {
            k += 1;
        }
        if b.get(k) == Some(&b'/') && close == 0 {
            k += 1;
        }
        return (b.get(k) == Some(&b'>')).then_some(k + 1);
    }
    // `<p>`, or `<p` and a blank, its attributes, and `>` on its line.
    match b.get(k)? {
        b'>' => Some(k + 1),
        b' ' | b'\t' if close == 0 => {
            let rest = &b[k..];
            // (ASCII alone: read as as many blanks, every column kept.)
            let end = rest
                .iter()
                .position(|&c| matches!(c, b'>' | b'<' | b'\n' | b'\r') || !c.is_ascii())?;
            (rest[end] == b'>').then_some(k + end + 1)
        }
        _ => None,
    }
}

/// Whether `i` starts a line, after blanks and the HTML [`html_blank_len`]
/// reads as blanks there (`<p>[Event "x"]</p>`: the tag starts its line).
pub fn line_start(b: &[u8], mut i: usize) -> bool {
    loop {
        while i > 0 && matches!(b[i - 1], b' ' | b'\t') {
            i -= 1;
        }
        if i == 0 || matches!(b[i - 1], b'\n' | b'\r') {
            return true;
        }
        match html_before(b, i) {
            Some(start) => i = start,
            None => return false,
        }
    }
}

/// Where the HTML [`html_blank_len`] reads as blanks starts when it ends
/// just before `i` (`<p>` before `1. e4`), read back on its line.
#[cold]
#[inline(never)]
pub fn html_before(b: &[u8], i: usize) -> Option<usize> {
    let open = match b[..i].last()? {
        b'>' => b'<',
        b';' => b'&',
        _ => return None,
    };
    let line = memchr::memrchr2(b'\n', b'\r', &b[..i]).map_or(0, |p| p + 1);
    let p = line + memchr::memrchr(open, &b[line..i])?;
    (html_blank_len(&b[p..]) == Some(i - p)).then_some(p)
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

/// Whether a record may hold damage [`repair`] mends: [`might_need`], then
/// [`mendable`].
fn may_need(b: &[u8]) -> bool {
    might_need(b) && mendable(b)
}

/// Whether a record holds a byte of the damage [`repair`] mends: a cheap
/// test, so that a clean record costs one memchr pass.
fn might_need(b: &[u8]) -> bool {
    // A wrapper line starts its record: the record scanner ends a record
    // before a line that starts with `[` once movetext came, and `[pgn]`
    // comes before a game's tags.
    let lead = b
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(b.len());
    let wrapped = matches!(&b[lead..], [b'[', b'p' | b'P' | b'/', ..]);
    wrapped
        || memchr::memchr3(b'\\', 0xE2, 0xEF, b).is_some()
        || memchr::memchr2(b'<', b'&', b).is_some()
}

/// Whether some byte of a record starts what [`mend`] mends: a wrapper
/// line's `[`, an escape sequence's `\\`, an HTML break's `<`, a Unicode
/// dash; it passes over every other byte. A record where [`might_need`]
/// found only bytes that start nothing it mends (an arrow `→` in an
/// engine's comment, as lichess writes them in every annotated game) is not
/// read again byte by byte.
fn mendable(b: &[u8]) -> bool {
    let at = |k: usize| {
        let rest = &b[k..];
        match rest[0] {
            b'[' => wrapper_len(rest).is_some(),
            b'\\' => escape_len(rest).is_some(),
            b'<' | b'&' => html_blank_len(rest).is_some(),
            _ => dash_len(rest).is_some(),
        }
    };
    memchr::memchr3_iter(b'\\', 0xE2, 0xEF, b).any(at)
        || memchr::memchr3_iter(b'<', b'&', b'[', b).any(at)
}

/// Repairs a record's text; `None` when there is nothing to repair. The
/// warnings are one per kind, with how many were repaired and the first
/// place.
pub fn repair(text: &str) -> Option<(String, Vec<Problem>)> {
    if !may_need(text.as_bytes()) {
        return None;
    }
    mend(text)
}

/// [`repair`] without its cheap test first: every byte of the record read.
fn mend(text: &str) -> Option<(String, Vec<Problem>)> {
    let b = text.as_bytes();
    let n = b.len();
    let mut out: Vec<u8> = Vec::new();
    // Copied into `out` up to here.
    let mut from = 0;
    let (mut escapes, mut dashes, mut wrappers, mut breaks) = (
        Count::default(),
        Count::default(),
        Count::default(),
        Count::default(),
    );
    let line_end = |i: usize| memchr::memchr2(b'\n', b'\r', &b[i..]).map_or(n, |j| i + j);
    let mut i = 0;
    while i < n {
        let at_line_start = matches!(b[i], b'[' | b'%') && line_start(b, i);
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
            // Read as blanks: an escape sequence as text, an HTML break.
            c @ (b'\\' | b'<' | b'&') => {
                let (len, count) = if c == b'\\' {
                    (escape_len(&b[i..]), &mut escapes)
                } else {
                    (html_blank_len(&b[i..]), &mut breaks)
                };
                match len {
                    Some(len) => {
                        out.extend_from_slice(&b[from..i]);
                        count.add(out.len());
                        out.extend(std::iter::repeat_n(b' ', len));
                        i += len;
                        from = i;
                    }
                    None => i += 1,
                }
            }
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
    if escapes.n + dashes.n + wrappers.n + breaks.n == 0 {
        return None;
    }
    out.extend_from_slice(&b[from..]);
    // Only ASCII replaced whole characters: still UTF-8.
    let fixed = String::from_utf8(out).ok()?;
    let said: [(&Count, &str, Kind); 4] = [
        (
            &escapes,
            "an escape sequence written out as text (`\\r`, `\\n`, `\\t`) stands where a blank goes: read as blanks",
            Kind::EscapeAsText,
        ),
        (
            &dashes,
            "a Unicode dash or hyphen (`–`, `‑`, `−`, ...) in the movetext was read as `-`",
            Kind::UnicodeDash,
        ),
        (
            &wrappers,
            "a `[pgn]` or `[/pgn]` wrapper line was skipped",
            Kind::WrapperLine,
        ),
        (
            &breaks,
            "HTML (`<br />`, `<p>`, `&nbsp;`) outside comments was read as blanks",
            Kind::HtmlBreak,
        ),
    ];
    let warnings = said
        .into_iter()
        .filter(|(count, _, _)| count.n > 0)
        .map(|(count, what, kind)| count.said(&fixed, what).of_kind(kind))
        .collect();
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
        assert_eq!(
            fixed("[pgn]\n1. e4 *\n [/PGN] \n"),
            "     \n1. e4 *\n        \n"
        );
        assert!(repair("[pgn] x\n").is_none());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
        /// A record is repaired as it was when every record the cheap test
        /// let through was read byte by byte: any text of tags, comments,
        /// movetext, arrows, dashes, escapes, breaks and wrappers, whole or
        /// cut anywhere.
        #[test]
        fn what_the_test_passes_over_needs_no_repair(
            pieces in proptest::collection::vec(proptest::sample::select(vec![
                "[Event \"a\\rb\"]\n", "[pgn]", "[/PGN] \n", "[pg]", "{ 1\u{2013}0 }", "{a → b}",
                "→", "\u{2013}", "\u{2212}", "\u{2014}", "\u{fe63}", "\u{ff0d}", "\u{ffff}", "\\r",
                "\\x", "<br />", "</br>", "<b>", "<", "1. e4", "e5", "O-O", "1-0", "\n", " ", "%x\n",
                ";c\n", "[%clk 0:01:00]", "(", ")", "\u{2192}",
            ]), 0..24),
        ) {
            let text = pieces.concat();
            for cut in 0..=text.len() {
                let Some(part) = text.get(cut..) else { continue };
                let before = if might_need(part.as_bytes()) { mend(part) } else { None };
                proptest::prop_assert_eq!(
                    format!("{:?}", repair(part)),
                    format!("{:?}", before),
                    "{:?}",
                    part
                );
            }
        }
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

/// The parentheses of a record's movetext: each variation's `(` and its
/// `)` (`None`: never closed), and the `)` that close nothing, as the
/// container's walk ([`parens`], which the depth error uses too) finds them.
struct Spans {
    spans: Vec<(usize, Option<usize>)>,
    stray: Vec<usize>,
}

fn spans(text: &str) -> Spans {
    let mut open: Vec<usize> = Vec::new();
    let mut out = Spans {
        spans: Vec::new(),
        stray: Vec::new(),
    };
    parens(text, |p| {
        match p {
            Paren::Open { at, .. } => {
                open.push(out.spans.len());
                out.spans.push((at, None));
            }
            Paren::Close { at, .. } => {
                if let Some(k) = open.pop() {
                    out.spans[k].1 = Some(at);
                }
            }
            Paren::Stray(at) => out.stray.push(at),
        }
        false
    });
    out
}

/// A comment that holds a `{ ... }` of its own, where the reading stopped
/// after it (`{ a { b } c }` fails at `c`, PGN's comment being `a { b`):
/// the comment is read to the `}` that closes it, the next one before any
/// `{`, its inner braces kept as parentheses (a comment cannot hold a `}`),
/// with a warning. `None` when the failure is not there.
fn nested_comment(text: &str, at: usize) -> Option<(String, Problem)> {
    let b = text.as_bytes();
    // The comment that ends before `at`, blanks between.
    let mut k = at;
    while k > 0 && b[k - 1].is_ascii_whitespace() {
        k -= 1;
    }
    if k == 0 || b[k - 1] != b'}' {
        return None;
    }
    let close = k - 1;
    // Its `{`: comments do not nest, so the last `{` before it that is not
    // inside an earlier comment; scanning forward tells.
    let mut open = None;
    let mut i = 0;
    while i < close {
        match b[i] {
            b'{' => {
                let end = memchr::memchr(b'}', &b[i..]).map_or(b.len(), |j| i + j);
                if end == close {
                    open = Some(i);
                    break;
                }
                i = end;
            }
            b';' => i = memchr::memchr2(b'\n', b'\r', &b[i..]).map_or(b.len(), |j| i + j),
            _ => {}
        }
        i += 1;
    }
    let open = open?;
    let inner = memchr::memchr(b'{', &b[open + 1..close])? + open + 1;
    // The `}` that closes the comment as its writer meant it.
    let end = at + memchr::memchr2(b'{', b'}', &b[at..])?;
    if b[end] != b'}' {
        return None;
    }
    let mut fixed = b.to_vec();
    for c in &mut fixed[inner..close] {
        if *c == b'{' {
            *c = b'(';
        }
    }
    fixed[close] = b')';
    let warning = Problem::at(
        line_col(text, inner),
        "a comment holds a `{ ... }` of its own: read to its last `}`, the inner braces as parentheses",
    )
    .of_kind(Kind::NestedComment);
    Some((String::from_utf8(fixed).ok()?, warning))
}

/// The byte offset of a 1-based line and column (in characters).
fn offset_of(text: &str, line: usize, col: usize) -> Option<usize> {
    let mut start = 0;
    for _ in 1..line {
        let b = text.as_bytes();
        let j = memchr::memchr2(b'\n', b'\r', &b[start..])?;
        start += j + 1;
        if b[start - 1] == b'\r' && b.get(start) == Some(&b'\n') {
            start += 1;
        }
    }
    let rest = &text[start..];
    Some(
        start
            + rest
                .char_indices()
                .nth(col.checked_sub(1)?)
                .map_or(rest.len(), |(k, _)| k),
    )
}

/// Whether the movetext before `at` holds no move: only tags, comments,
/// blanks and move numbers.
fn before_any_move(b: &[u8], at: usize) -> bool {
    let mut i = 0;
    let line_end = |i: usize| memchr::memchr2(b'\n', b'\r', &b[i..at]).map_or(at, |j| i + j);
    while i < at {
        match b[i] {
            b'{' => i = memchr::memchr(b'}', &b[i..at]).map_or(at, |j| i + j + 1),
            b';' => i = line_end(i),
            b'%' if i == 0 || matches!(b[i - 1], b'\n' | b'\r') => i = line_end(i),
            b'[' => i = memchr::memchr2(b']', b'\n', &b[i..at]).map_or(at, |j| i + j + 1),
            b'(' | b'.' => i += 1,
            c if c.is_ascii_whitespace() || c.is_ascii_digit() => i += 1,
            _ => return false,
        }
    }
    true
}

/// What to do with a record whose reading failed with `problem`, when the
/// failure is in a variation or its parentheses, or after a comment that
/// holds braces of its own: the text to read instead and the warning that
/// says what was done. A variation that cannot be
/// read or played is an annotation: it is kept as a comment (its `(` and
/// `)` become `{` and `}`, braces inside it blanks), and the main line is
/// read again. A `)` that closes nothing is skipped; a `(` never closed is a
/// variation to the end of the movetext (before its result, which
/// `is_result` tells), and is skipped before any move. `None` when the
/// failure is not in a variation: the game fails.
pub fn demote(
    text: &str,
    problem: &Problem,
    is_result: &dyn Fn(&[u8]) -> bool,
) -> Option<(String, Problem)> {
    if problem.line == 0 || crate::codec::is_too_deep(problem) {
        return None;
    }
    let at = offset_of(text, problem.line, problem.col)?;
    let b = text.as_bytes();
    if let Some(joined) = nested_comment(text, at) {
        return Some(joined);
    }
    let p = spans(text);
    let mut fixed = b.to_vec();
    let pos = |offset: usize| line_col(text, offset);
    // A `)` that closes nothing, where the reading stopped.
    if let Some(&s) = p.stray.iter().find(|&&s| s == at) {
        fixed[s] = b' ';
        let warning = Problem::at(pos(s), "a `)` that closes no variation was skipped")
            .of_kind(Kind::StrayParen);
        return Some((String::from_utf8(fixed).ok()?, warning));
    }
    // The innermost variation that holds the place of the failure.
    let &(open, close) = p
        .spans
        .iter()
        .rev()
        .find(|&&(o, c)| o <= at && c.is_none_or(|c| at <= c))?;
    let why = problem.message.as_str();
    let blank_braces = |fixed: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut fixed[from..to] {
            if matches!(*c, b'{' | b'}') {
                *c = b' ';
            }
        }
    };
    let mut kind = Kind::VariationAsText;
    let warning = match close {
        Some(close) => {
            blank_braces(&mut fixed, open + 1, close);
            fixed[open] = b'{';
            fixed[close] = b'}';
            Problem::at(
                pos(open),
                format!("a variation that cannot be read or played was kept as a comment ({why})"),
            )
        }
        None if before_any_move(b, open) => {
            fixed[open] = b' ';
            kind = Kind::StrayParen;
            Problem::at(
                pos(open),
                "a `(` before any move that is never closed was skipped",
            )
        }
        None => {
            // To the end of the movetext, before a result that ends it.
            let body = text.trim_end();
            let last = body
                .rfind(|c: char| c.is_whitespace() || c == ')')
                .map_or(0, |k| k + 1);
            let end = if last > open && is_result(&b[last..body.len()]) {
                last
            } else {
                body.len()
            };
            blank_braces(&mut fixed, open + 1, end);
            fixed[open] = b'{';
            fixed.insert(end, b'}');
            Problem::at(
                pos(open),
                "a `(` is never closed: its variation, to the end of the game, was kept as a comment",
            )
        }
    };
    Some((String::from_utf8(fixed).ok()?, warning.of_kind(kind)))
}

#[cfg(test)]
mod demote_tests {
    use super::*;

    fn step(text: &str, line: usize, col: usize) -> Option<String> {
        let results = |t: &[u8]| matches!(t, b"*" | b"1-0" | b"0-1" | b"1/2-1/2");
        demote(
            text,
            &Problem::at((line, col), "x").of_kind(Kind::Syntax),
            &results,
        )
        .map(|(t, _)| t)
    }

    #[test]
    fn variations_become_comments() {
        assert_eq!(
            step("1. e4 (1. d4 {a} d5, c4) 1... e5 *", 1, 19).as_deref(),
            Some("1. e4 {1. d4  a  d5, c4} 1... e5 *")
        );
        // The innermost variation that holds the failure.
        assert_eq!(
            step("1. e4 (1. d4 (1. c4 x) d5) e5 *", 1, 21).as_deref(),
            Some("1. e4 (1. d4 {1. c4 x} d5) e5 *")
        );
        assert_eq!(step("1. e4 (1. d4) x *", 1, 15), None);
        assert_eq!(step("1. e4 (1. d4) x *", 0, 0), None);
    }

    #[test]
    fn nested_comments_read_to_their_last_brace() {
        let text = "1. e4 { a { b } c } *";
        assert_eq!(step(text, 1, 17).as_deref(), Some("1. e4 { a ( b ) c } *"));
        // Not when the failure is elsewhere, or the comment holds no `{`.
        assert_eq!(step("1. e4 { a } c } *", 1, 13), None);
    }

    #[test]
    fn unbalanced_parentheses() {
        assert_eq!(
            step("1. e4 (1. d4))) !? *", 1, 14).as_deref(),
            Some("1. e4 (1. d4) ) !? *")
        );
        assert_eq!(step("((( 1. c4 *", 1, 1).as_deref(), Some(" (( 1. c4 *"));
        assert_eq!(
            step("1. e4 (1. d4 d5 *", 1, 7).as_deref(),
            Some("1. e4 {1. d4 d5 }*")
        );
        assert_eq!(
            step("[Event \"(\"]\n1. e4 (1. d4 d5", 2, 7).as_deref(),
            Some("[Event \"(\"]\n1. e4 {1. d4 d5}")
        );
    }
}
