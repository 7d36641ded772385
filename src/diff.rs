//! `kifu diff`: where two transcriptions of the same games disagree.
//!
//! Both sides are read into the IR by the shared pipeline (each file's
//! records read in parallel, in order: [`Games`]), in any notations of one
//! family. Games are paired in order or by tags; each pair is compared by
//! meaning ([`compare`]): tags, the start, the result, and the main line's
//! moves, aligned with `similar` so that a skipped half-move is one
//! insertion. A game whose moves cannot be replayed is read again by its
//! text alone, the illegal move is named, and both games are aligned by
//! what their text says. [`render_text`] and [`render_json`] show a pair.

use std::collections::VecDeque;
use std::io::Read;

use serde_json::{json, Value};
use similar::{capture_diff_slices, group_diff_ops, Algorithm, DiffOp, DiffTag};

use crate::archive::{read_record, ParMap, Record, Records};
use crate::error::Problem;
use crate::family::{main_line_fens, Family};
use crate::format::{Format, ReadOptions, FORMATS};
use crate::ir::{Game, Side};
use crate::spell::{self, DERIVED};

/// One game of one side, as read.
#[derive(Debug)]
pub struct Entry {
    /// Its number in its input, from 1.
    pub number: usize,
    /// The line its record starts on.
    pub line: usize,
    /// The game: replayed, or (when its moves could not be replayed) read
    /// by its text alone.
    pub game: Option<Game>,
    /// Why it could not be read (replayed): `LINE:COL: what` in its input.
    pub error: Option<String>,
}

/// Reads one record for diff: the game, or the error and the game read by
/// its text alone (`--no-validate`) when the text reads that way.
fn entry_of(format: &Format, opts: &ReadOptions, record: Record<'_>) -> Option<Entry> {
    if !record.is_game {
        return None;
    }
    let (game, error) = match read_record(format, opts, record.bytes) {
        Ok(p) => (Some(p.game), None),
        Err(e) => {
            let loose = ReadOptions {
                no_validate: true,
                ..opts.clone()
            };
            let game = read_record(format, &loose, record.bytes)
                .ok()
                .map(|p| p.game);
            (game, Some(located(&record, &e)))
        }
    };
    Some(Entry {
        number: 0,
        line: record.line,
        game,
        error,
    })
}

/// A problem of a record, placed in the whole input.
fn located(record: &Record<'_>, e: &Problem) -> String {
    if e.line == 0 {
        return format!("{}:{}: {}", record.line, record.col, e.message);
    }
    let line = record.line + e.line - 1;
    let col = if e.line == 1 {
        record.col + e.col - 1
    } else {
        e.col
    };
    format!("{line}:{col}: {}", e.message)
}

/// The games of one input, in order, read a batch at a time in parallel
/// (memory holds a few batches, whatever the input's size).
pub struct Games {
    map: ParMap<Option<Entry>>,
    ready: VecDeque<Entry>,
    count: usize,
}

impl Games {
    /// The games of `reader`, read as `format` with `opts`.
    pub fn new<R: Read + Send + 'static>(
        reader: R,
        format: &'static Format,
        opts: ReadOptions,
    ) -> Games {
        Games {
            map: Records::new(reader, format.split).par_map(move |r| entry_of(format, &opts, r)),
            ready: VecDeque::new(),
            count: 0,
        }
    }
}

impl Iterator for Games {
    type Item = std::io::Result<Entry>;

    fn next(&mut self) -> Option<std::io::Result<Entry>> {
        while self.ready.is_empty() {
            match self.map.next()? {
                Ok(mut batch) => self.ready.extend(batch.drain().filter_map(|(_, e)| e)),
                Err(e) => return Some(Err(e)),
            }
        }
        let mut e = self.ready.pop_front()?;
        self.count += 1;
        e.number = self.count;
        Some(Ok(e))
    }
}

/// A tag that differs: its name and its value on each side (`None`: absent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagDiff {
    /// The tag's name.
    pub name: String,
    /// Its value in the first file.
    pub a: Option<String>,
    /// Its value in the second file.
    pub b: Option<String>,
}

/// A ply of a main line as diff shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    /// Its index in the main line, from 0.
    pub index: usize,
    /// Its label (`12.`, `12...`, `7#`).
    pub label: String,
    /// The side that plays it.
    pub side: Side,
    /// The move as its notation spells it.
    pub text: String,
}

/// One change of the aligned main lines: plies of the first file deleted,
/// plies of the second inserted, or both (replaced).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// `delete`, `insert` or `replace`.
    pub kind: &'static str,
    /// The plies of the first file.
    pub a: Vec<Shown>,
    /// The plies of the second file.
    pub b: Vec<Shown>,
    /// The plies both share just before and after, for context.
    pub context: (Vec<Shown>, Vec<Shown>),
}

/// Where two main lines first disagree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence {
    /// The ply of the first file there (none: it ended).
    pub a: Option<Shown>,
    /// The ply of the second file there.
    pub b: Option<Shown>,
    /// The position before it, as a FEN (chess).
    pub position: Option<String>,
}

/// How two games of a pair differ ([`compare`]); empty when they agree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameDiff {
    /// Tags that differ, in the order of the first file, then the second.
    pub tags: Vec<TagDiff>,
    /// The start positions differ (their FEN tags, or a setup on one side).
    pub start: bool,
    /// The results differ: each side's token.
    pub result: Option<(String, String)>,
    /// Why a side's moves could not be replayed (then both are aligned by
    /// what their text says).
    pub illegal: (Option<String>, Option<String>),
    /// Where the main lines first disagree.
    pub first: Option<Divergence>,
    /// The changes of the aligned main lines.
    pub changes: Vec<Change>,
    /// When the lines differ but reach the same position again after the
    /// same number of plies: the first such ply of each side.
    pub transposition: Option<(Shown, Shown)>,
    /// Annotations differ (with `--annotations`): the labels of the plies.
    pub annotations: Vec<String>,
}

impl GameDiff {
    /// Whether the two games agree.
    pub fn is_empty(&self) -> bool {
        *self == GameDiff::default()
    }
}

/// What [`compare`] looks at.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Compare glyphs, NAGs and comments too.
    pub annotations: bool,
}

/// Tag values that say nothing: a tag with one on one side and absent on
/// the other is no difference.
fn placeholder(value: &str) -> bool {
    matches!(value.trim(), "" | "?" | "-" | "*" | "????.??.??")
}

/// The tags that differ, but [`DERIVED`] ones (the IR holds them as typed
/// fields or they restate the moves: their difference is the start's or
/// the result's, said once).
fn tag_diffs(a: &Game, b: &Game) -> Vec<TagDiff> {
    let mut out = Vec::new();
    let value = |g: &Game, name: &str| g.tag(name).map(str::to_string);
    let mut seen: Vec<&str> = Vec::new();
    for t in a.tags.iter().chain(&b.tags) {
        let name = t.name.as_str();
        if seen.iter().any(|s| s.eq_ignore_ascii_case(name))
            || DERIVED.iter().any(|d| d.eq_ignore_ascii_case(name))
        {
            continue;
        }
        seen.push(name);
        let (va, vb) = (value(a, name), value(b, name));
        let same = match (&va, &vb) {
            (Some(x), Some(y)) => x == y,
            (Some(x), None) | (None, Some(x)) => placeholder(x),
            (None, None) => true,
        };
        if !same {
            out.push(TagDiff {
                name: name.to_string(),
                a: va,
                b: vb,
            });
        }
    }
    out
}

/// The formats whose spelling a side's moves are shown in, in the order
/// tried: the side's own, then the family's others that kifu writes (for
/// a side that is not a movetext, such as JSON).
fn spelling_format(own: &'static Format, family: Family) -> Vec<&'static Format> {
    let mut out = vec![own];
    out.extend(
        FORMATS
            .iter()
            .filter(|f| f.family == Some(family) && f.write.is_some() && f.name != own.name),
    );
    out
}

/// How each ply of a game's main line is spelled in its notation
/// ([`crate::spell`]), or in the first of the family's others that spells
/// it; else by what the move means.
fn spell_main_line(game: &Game, own: &'static Format) -> Vec<String> {
    spelling_format(own, game.family())
        .into_iter()
        .find_map(|format| spell::main_line(game, format))
        .unwrap_or_else(|| game.moves.plies.iter().map(|p| p.mv.key(false)).collect())
}

fn shown(game: &Game, spelled: &[String], index: usize) -> Shown {
    let ply = &game.moves.plies[index];
    Shown {
        index,
        label: ply.label(game.variant.first_mover()),
        side: ply.side,
        text: spelled.get(index).cloned().unwrap_or_default(),
    }
}

/// The FEN of a position without its en passant square and move counters:
/// what makes two positions the same (an en passant square is written after
/// every double step, capture possible or not).
fn placement(fen: &str) -> String {
    fen.split(' ').take(3).collect::<Vec<_>>().join(" ")
}

/// A side of a pair: its game, why it could not be replayed, its format.
pub struct Sided<'g> {
    /// The game (read by its text alone when `error` is set).
    pub game: &'g Game,
    /// Why its moves could not be replayed.
    pub error: Option<&'g str>,
    /// Its input's format.
    pub format: &'static Format,
}

/// Compares two games by meaning.
pub fn compare(a: &Sided<'_>, b: &Sided<'_>, opts: Options) -> GameDiff {
    let (ga, gb) = (a.game, b.game);
    let mut d = GameDiff {
        tags: tag_diffs(ga, gb),
        start: ga.setup != gb.setup,
        illegal: (a.error.map(str::to_string), b.error.map(str::to_string)),
        ..GameDiff::default()
    };
    let (ra, rb) = (ga.effective_result(), gb.effective_result());
    if ra.outcome != rb.outcome {
        d.result = Some((ra.token().to_string(), rb.token().to_string()));
    }
    // Compare replayed moves by what they mean; if either side could not be
    // replayed, both by what their text says.
    let loose = a.error.is_some() || b.error.is_some();
    let keys =
        |g: &Game| -> Vec<String> { g.moves.plies.iter().map(|p| p.mv.key(loose)).collect() };
    let (ka, kb) = (keys(ga), keys(gb));
    let ops = capture_diff_slices(Algorithm::Myers, &ka, &kb);
    if ops.iter().any(|op| op.tag() != DiffTag::Equal) {
        let (sa, sb) = (spell_main_line(ga, a.format), spell_main_line(gb, b.format));
        let show_a = |i: usize| shown(ga, &sa, i);
        let show_b = |i: usize| shown(gb, &sb, i);
        // Each side's positions, once (replayed sides only).
        let fens =
            |g: &Game, error: Option<&str>| error.is_none().then(|| main_line_fens(g)).flatten();
        let (fa, fb) = (fens(ga, a.error), fens(gb, b.error));
        // The first divergence.
        if let Some(op) = ops.iter().find(|op| op.tag() != DiffTag::Equal) {
            let (_, ra, rb) = op.as_tag_tuple();
            d.first = Some(Divergence {
                a: (ra.start < ka.len()).then(|| show_a(ra.start)),
                b: (rb.start < kb.len()).then(|| show_b(rb.start)),
                position: fa.as_ref().and_then(|f| f.get(ra.start).cloned()),
            });
        }
        for group in group_diff_ops(ops.clone(), 1) {
            let mut lead = Vec::new();
            let start = d.changes.len();
            for op in &group {
                let (tag, ra, rb) = op.as_tag_tuple();
                if tag == DiffTag::Equal {
                    let plies: Vec<Shown> = ra.clone().map(show_a).collect();
                    match d.changes[start..].last_mut() {
                        Some(c) => c.context.1 = plies,
                        None => lead = plies,
                    }
                    continue;
                }
                d.changes.push(Change {
                    kind: match tag {
                        DiffTag::Delete => "delete",
                        DiffTag::Insert => "insert",
                        _ => "replace",
                    },
                    a: ra.map(show_a).collect(),
                    b: rb.map(show_b).collect(),
                    context: (std::mem::take(&mut lead), Vec::new()),
                });
            }
        }
        // A transposition: the same position after the same number of plies,
        // past the first divergence.
        if let (Some(fa), Some(fb)) = (&fa, &fb) {
            let first = d
                .first
                .as_ref()
                .and_then(|f| f.a.as_ref().or(f.b.as_ref()))
                .map_or(0, |s| s.index);
            let n = fa.len().min(fb.len());
            if let Some(k) = (first + 1..n).find(|&k| placement(&fa[k]) == placement(&fb[k])) {
                d.transposition = Some((show_a(k - 1), show_b(k - 1)));
            }
        }
    }
    if opts.annotations {
        for op in &ops {
            if let DiffOp::Equal {
                old_index,
                new_index,
                len,
            } = *op
            {
                for k in 0..len {
                    let (pa, pb) = (
                        &ga.moves.plies[old_index + k],
                        &gb.moves.plies[new_index + k],
                    );
                    if pa.glyph != pb.glyph
                        || pa.nags != pb.nags
                        || pa.before != pb.before
                        || pa.after != pb.after
                    {
                        d.annotations.push(pa.label(ga.variant.first_mover()));
                    }
                }
            }
        }
    }
    d
}

fn show_list(plies: &[Shown]) -> String {
    plies
        .iter()
        .map(|s| format!("{} {}", s.label, s.text))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Colours for a terminal, or none.
#[derive(Debug, Clone, Copy)]
pub struct Paint {
    /// Whether to colour.
    pub on: bool,
}

impl Paint {
    fn paint(self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

/// A pair's differences as text, one line each, indented under a heading
/// the caller writes.
pub fn render_text(d: &GameDiff, paint: Paint) -> String {
    let mut out = String::new();
    let q = |v: &Option<String>| {
        v.as_ref()
            .map_or("(none)".to_string(), |v| format!("\"{v}\""))
    };
    for t in &d.tags {
        out.push_str(&format!(
            "  tag {}: {} | {}\n",
            t.name,
            paint.paint("31", &q(&t.a)),
            paint.paint("32", &q(&t.b))
        ));
    }
    if d.start {
        out.push_str("  the start positions differ\n");
    }
    if let Some((ra, rb)) = &d.result {
        out.push_str(&format!(
            "  result: {} | {}\n",
            paint.paint("31", ra),
            paint.paint("32", rb)
        ));
    }
    for (name, why) in [("a", &d.illegal.0), ("b", &d.illegal.1)] {
        if let Some(why) = why {
            out.push_str(&format!(
                "  {name}: cannot be replayed: {why}; the moves are aligned as written\n"
            ));
        }
    }
    if let Some(f) = &d.first {
        let at = f.a.as_ref().or(f.b.as_ref());
        let text = |s: &Option<Shown>| {
            s.as_ref()
                .map_or("(nothing)".to_string(), |s| s.text.clone())
        };
        out.push_str(&format!(
            "  first divergence at {}{}: a {}, b {}\n",
            at.map_or(String::new(), |s| s.label.clone()),
            at.map_or(String::new(), |s| format!(" ({})", side_name(s.side))),
            paint.paint("31", &text(&f.a)),
            paint.paint("32", &text(&f.b))
        ));
        if let Some(p) = &f.position {
            out.push_str(&format!("    position before it: {p}\n"));
        }
    }
    for c in &d.changes {
        if !c.context.0.is_empty() {
            out.push_str(&format!("      {}\n", show_list(&c.context.0)));
        }
        if !c.a.is_empty() {
            out.push_str(&format!("    - {}\n", paint.paint("31", &show_list(&c.a))));
        }
        if !c.b.is_empty() {
            out.push_str(&format!("    + {}\n", paint.paint("32", &show_list(&c.b))));
        }
        if !c.context.1.is_empty() {
            out.push_str(&format!("      {}\n", show_list(&c.context.1)));
        }
    }
    if let Some((a, b)) = &d.transposition {
        out.push_str(&format!(
            "  a transposition: both reach the same position after {} plies (a {} {}, b {} {})\n",
            a.index + 1,
            a.label,
            a.text,
            b.label,
            b.text
        ));
    }
    if !d.annotations.is_empty() {
        out.push_str(&format!(
            "  annotations differ at {}\n",
            d.annotations.join(" ")
        ));
    }
    out
}

fn shown_json(s: &Shown) -> Value {
    json!({"ply": s.index + 1, "label": s.label, "side": side_name(s.side).to_ascii_lowercase(), "move": s.text})
}

/// A pair's differences as a JSON object (see the README).
pub fn render_json(d: &GameDiff) -> Value {
    let list = |v: &[Shown]| v.iter().map(shown_json).collect::<Vec<_>>();
    json!({
        "tags": d.tags.iter().map(|t| json!({"name": t.name, "a": t.a, "b": t.b})).collect::<Vec<_>>(),
        "start_differs": d.start,
        "result": d.result.as_ref().map(|(a, b)| json!({"a": a, "b": b})),
        "illegal": {"a": d.illegal.0, "b": d.illegal.1},
        "first_divergence": d.first.as_ref().map(|f| json!({
            "a": f.a.as_ref().map(shown_json),
            "b": f.b.as_ref().map(shown_json),
            "position": f.position,
        })),
        "changes": d.changes.iter().map(|c| json!({
            "kind": c.kind,
            "a": list(&c.a),
            "b": list(&c.b),
        })).collect::<Vec<_>>(),
        "transposition": d.transposition.as_ref().map(|(a, b)| json!({"a": shown_json(a), "b": shown_json(b)})),
        "annotations": d.annotations,
    })
}
