//! The parentheses of a record as the grammar nests them, and the
//! comment or variation a record leaves open: the causes a syntax error
//! is said with.

/// The first `{` or outermost `(` of a record that is never closed, and
/// what to say about it: the cause of a syntax error at or after it (the
/// record scanner ends a comment or variation left open at the next line
/// that starts with a tag).
pub(super) fn unclosed(text: &str) -> Option<(usize, &'static str)> {
    let mut open = 0;
    let walk = parens(text, |p| {
        if let Paren::Open { at, depth: 1 } = p {
            open = at;
        }
        false
    });
    match walk {
        Parens::Brace(at) => Some((
            at,
            "a `{` is never closed: its comment runs to the end of the game",
        )),
        Parens::End(depth) if depth > 0 => Some((
            open,
            "a `(` is never closed: its variation runs to the end of the game",
        )),
        Parens::End(_) | Parens::Stopped(_) => None,
    }
}

/// The `(` that opens a variation `depth` levels deep (1: a variation of
/// the main line), if the record has one.
pub(super) fn open_at_depth(text: &str, depth: usize) -> Option<usize> {
    match parens(
        text,
        |p| matches!(p, Paren::Open { depth: d, .. } if d == depth),
    ) {
        Parens::Stopped(at) => Some(at),
        Parens::Brace(_) | Parens::End(_) => None,
    }
}

/// Where [`parens`] ended.
pub(crate) enum Parens {
    /// At the end of the record, with this many `(` left open.
    End(usize),
    /// At a `{` never closed.
    Brace(usize),
    /// At the `(` where the visitor said to stop.
    Stopped(usize),
}

/// A parenthesis [`parens`] meets.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Paren {
    /// A `(` at `at`, opening a variation `depth` levels deep (1: the
    /// outermost).
    Open { at: usize, depth: usize },
    /// The `)` at `at` that closes the innermost variation open.
    Close { at: usize },
    /// A `)` at `at` that closes no variation.
    Stray(usize),
}

/// Walks the parentheses of a record as the grammar nests them: tags, `{}`
/// comments, `;` and `%` lines and glyphs (`(!?)`) are skipped over. Calls
/// `visit` at every other `(` and `)`, and stops at a `(` where that
/// returns true.
pub(crate) fn parens(text: &str, mut visit: impl FnMut(Paren) -> bool) -> Parens {
    let b = text.as_bytes();
    let n = b.len();
    let (mut i, mut depth) = (0, 0usize);
    let line_end = |i: usize| memchr::memchr2(b'\n', b'\r', &b[i..]).map_or(n, |j| i + j);
    while i < n {
        match b[i] {
            b'{' => match memchr::memchr(b'}', &b[i..]) {
                Some(j) => i += j,
                None => return Parens::Brace(i),
            },
            b';' => i = line_end(i),
            b'%' if i == 0 || matches!(b[i - 1], b'\n' | b'\r') => i = line_end(i),
            b'[' if depth == 0 => {
                i = memchr::memchr2(b']', b'\n', &b[i..]).map_or(n, |j| i + j);
            }
            b'(' => {
                let marks = b[i + 1..].iter().take_while(|&&c| c == b'!' || c == b'?');
                let glyph = i + 1 + marks.count();
                if glyph > i + 1 && b.get(glyph) == Some(&b')') {
                    i = glyph;
                } else {
                    depth += 1;
                    if visit(Paren::Open { at: i, depth }) {
                        return Parens::Stopped(i);
                    }
                }
            }
            b')' if depth == 0 => {
                visit(Paren::Stray(i));
            }
            b')' => {
                visit(Paren::Close { at: i });
                depth -= 1;
            }
            _ => {}
        }
        i += 1;
    }
    Parens::End(depth)
}
