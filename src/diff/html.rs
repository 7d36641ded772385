//! `kifu diff --format html`: the report as one self-contained page. Per
//! pair that differs, the two transcriptions side by side (each main line
//! in its own notation, the plies that differ marked, the first
//! divergence outlined), the board at the first disagreement (the position
//! both sides share before it, drawn by the family,
//! [`crate::family::draw`]) and the text report's lines; then the
//! summary. No script, nothing fetched.

use std::fmt::Write as _;

use super::{render_text, spell_main_line, GameDiff, Paint, Sided};
use crate::error::Problem;
use crate::family::draw::escape;

/// The page before the pairs.
pub const HEAD: &str = "<!DOCTYPE html>
<html lang=\"en\">
<head>
<meta charset=\"utf-8\">
<title>kifu diff</title>
<style>
body { font-family: \"DejaVu Sans\", Verdana, Arial, sans-serif; margin: 1em; color: #111; }
section.pair { margin-bottom: 2.5em; border-top: 1px solid #ccc; padding-top: 0.6em; }
section.pair h2 { font-size: 1.05em; margin: 0 0 0.6em; }
div.view { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
div.side { flex: 1 1 14em; max-width: 24em; line-height: 1.7; }
div.side h3 { font-size: 0.95em; margin: 0 0 0.3em; word-break: break-all; }
span.ply { padding: 0 0.15em; border-radius: 0.2em; }
div.a span.changed { background: #f8c9c4; }
div.b span.changed { background: #c8ecc4; }
span.first { outline: 2px solid #c0392b; }
figure.board { margin: 0; }
figure.board figcaption { font-size: 0.85em; color: #555; margin-top: 0.3em; max-width: 30em; }
pre.report { background: #f6f6f6; padding: 0.6em; overflow-x: auto; font-size: 0.85em; }
p.summary { font-weight: bold; }
</style>
</head>
<body>
<h1>kifu diff</h1>
";

/// The page after the summary.
pub const TAIL: &str = "</body>\n</html>\n";

/// One pair that differs as a section: `heading` (which games), `n` its
/// place in the report (for the ids of its board), the two sides' names
/// and the differences. What the board's drawing could not do as asked
/// (tenjiku's kanji drawn as abbreviations where no font has them) is put
/// in `warnings`.
pub fn pair(
    heading: &str,
    n: usize,
    names: [&str; 2],
    a: &Sided<'_>,
    b: &Sided<'_>,
    d: &GameDiff,
    warnings: &mut Vec<Problem>,
) -> String {
    let mut out = String::new();
    out.push_str("<section class=\"pair\">\n<h2>");
    escape(heading, &mut out);
    out.push_str("</h2>\n<div class=\"view\">\n");
    // The first ply where they part, on each side (its index in the main
    // line, from 0).
    let first = d.first.as_ref();
    let parts = [
        first.and_then(|f| f.a.as_ref()).map(|s| s.index),
        first.and_then(|f| f.b.as_ref()).map(|s| s.index),
    ];
    let changed: [Vec<usize>; 2] = [
        d.changes
            .iter()
            .flat_map(|c| c.a.iter().map(|s| s.index))
            .collect(),
        d.changes
            .iter()
            .flat_map(|c| c.b.iter().map(|s| s.index))
            .collect(),
    ];
    for (k, side) in [a, b].into_iter().enumerate() {
        let class = ["a", "b"][k];
        let _ = write!(out, "<div class=\"side {class}\">\n<h3>{class}: ");
        escape(names[k], &mut out);
        let _ = writeln!(out, " ({})</h3>", side.format.name);
        let texts = spell_main_line(side.game, side.format, side.read);
        let first_mover = side.game.variant.first_mover();
        for (i, ply) in side.game.moves.plies.iter().enumerate() {
            if ply.side == first_mover || i == 0 {
                out.push_str("<span class=\"num\">");
                escape(&ply.label(first_mover), &mut out);
                out.push_str("</span>");
            }
            let mut classes = String::from("ply");
            if changed[k].contains(&i) {
                classes.push_str(" changed");
            }
            if parts[k] == Some(i) {
                classes.push_str(" first");
            }
            let _ = write!(out, "<span class=\"{classes}\">");
            escape(texts.get(i).map_or("", String::as_str), &mut out);
            out.push_str("</span>\n");
        }
        out.push_str("</div>\n");
    }
    if let Some(at) = parts[0].or(parts[1]) {
        board(a, b, at, n, &mut out, warnings);
    }
    out.push_str("</div>\n<pre class=\"report\">");
    escape(&render_text(d, Paint::default()), &mut out);
    out.push_str("</pre>\n</section>\n");
    out
}

/// The board before the `at`-th ply (from 0), the position both sides
/// share: drawn from the first side, or the second where the first cannot
/// be drawn (its moves not replayed); else a line that says why. The
/// drawing's warnings are put in `warnings`.
fn board(
    a: &Sided<'_>,
    b: &Sided<'_>,
    at: usize,
    n: usize,
    out: &mut String,
    warnings: &mut Vec<Problem>,
) {
    let id = format!("p{n}");
    let view = crate::family::draw::View {
        id: &id,
        ..Default::default()
    };
    let mut why = String::new();
    for side in [a, b] {
        if side.error.is_some() {
            continue;
        }
        match crate::family::diagram(side.game, &view).and_then(|d| {
            let svg = d.svg(Some(at), "the position before the first divergence")?;
            Ok((svg, d.warnings))
        }) {
            Ok((svg, drawn)) => {
                warnings.extend(drawn);
                out.push_str("<figure class=\"board\">\n");
                // Inline: without the XML declaration.
                out.push_str(svg.split_once("?>\n").map_or(svg.as_str(), |(_, s)| s));
                let _ = write!(
                    out,
                    "<figcaption>The position before the first divergence, after {at} plies \
                     of both.</figcaption>\n</figure>\n"
                );
                return;
            }
            Err(e) => why = e.message,
        }
    }
    if why.is_empty() {
        why = "neither side's moves could be replayed".to_string();
    }
    out.push_str("<p class=\"no-board\">No board: ");
    escape(&why, out);
    out.push_str("</p>\n");
}

/// The summary line, as a paragraph.
pub fn summary(text: &str) -> String {
    let mut out = String::from("<p class=\"summary\">");
    escape(text, &mut out);
    out.push_str("</p>\n");
    out
}
