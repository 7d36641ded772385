//! A tenjiku game drawn ([`crate::family::draw`]) on its 16x16 board as
//! shogi diagrams draw it: Black at the bottom (White when flipped), file
//! 16 on the left and 1 on the right, rank a at the top; each piece a
//! wedge pointing at the enemy, named by its kanji (the default) or by an
//! abbreviation set (`pieces=tsa`, `wikipedia`, `pbem`: the sets of the
//! `tenjiku` format), a promoted piece named as what it moves as, in red;
//! the squares of the last move marked and the pieces it took (captured
//! or burned) crossed out. The positions are the replay's
//! ([`rules::Board::play`], from [`rules::start_of`]).
//!
//! The kanji are drawn as outlines ([`glyphs`]), each once in the shapes
//! and placed on every piece that bears it, so that the picture shows
//! them on a machine without a Japanese font; where the converting
//! machine has no font with them, the pieces are named by the `tsa`
//! abbreviations instead, with a warning.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::error::{Kind as ProblemKind, Problem};
use crate::family::draw::{self, Diagram, Grid, View};
use crate::family::tenjiku::{rules, Abbreviations, Kind, Piece, Square, KINDS};
use crate::ir::{Game, Side};
use crate::picture::glyphs::{self, Outlines};

/// The squares, the marks of the last move, the pieces.
const BOARD: &str = "#f3d98f";
const LINE: &str = "#6b5a2a";
const MARKED: &str = "#e5b94e";
const TAKEN: &str = "#c0392b";
const WOOD: &str = "#fcebc4";

/// A kind's name in kanji, as the pieces are inscribed (the king as 玉).
fn kanji(kind: Kind) -> &'static str {
    use Kind::*;
    match kind {
        King => "玉将",
        GreatGeneral => "大将",
        ViceGeneral => "副将",
        RookGeneral => "飛将",
        BishopGeneral => "角将",
        FreeEagle => "奔鷲",
        FreeKing => "奔王",
        SoaringEagle => "飛鷲",
        HornedFalcon => "角鷹",
        WaterBuffalo => "水牛",
        ChariotSoldier => "車兵",
        FireDemon => "火鬼",
        LionHawk => "獅鷹",
        Lion => "獅子",
        DragonKing => "龍王",
        DragonHorse => "龍馬",
        Rook => "飛車",
        Bishop => "角行",
        Kirin => "麒麟",
        Phoenix => "鳳凰",
        DrunkElephant => "酔象",
        BlindTiger => "盲虎",
        FerociousLeopard => "猛豹",
        Gold => "金将",
        Silver => "銀将",
        Copper => "銅将",
        VerticalMover => "竪行",
        SideMover => "横行",
        ReverseChariot => "反車",
        VerticalSoldier => "竪兵",
        SideSoldier => "横兵",
        Lance => "香車",
        Knight => "桂馬",
        Iron => "鉄将",
        Dog => "犬",
        Pawn => "歩兵",
        CrownPrince => "太子",
        HeavenlyTetrarch => "四天",
        MultiGeneral => "雑将",
        FlyingStag => "飛鹿",
        FreeBoar => "奔猪",
        FlyingOx => "飛牛",
        Whale => "鯨鯢",
        WhiteHorse => "白駒",
    }
}

/// Every character of every kind's kanji: what a font must have to draw
/// tenjiku's pieces (`--to-opt font=FILE` is checked for them).
pub fn all_kanji() -> String {
    let chars: BTreeSet<char> = KINDS.iter().flat_map(|k| kanji(k.kind).chars()).collect();
    chars.into_iter().collect()
}

/// How the pieces are named: kanji (their outlines, and the prefix of the
/// ids of their shapes), or an abbreviation set.
#[derive(Debug, Clone, Copy)]
enum Names<'a> {
    Kanji(&'a Outlines, &'a str),
    Letters(Abbreviations),
}

/// The piece's inscription: its lines, top to bottom.
fn inscription(piece: Piece, names: Names<'_>) -> Vec<String> {
    match names {
        Names::Kanji(..) => kanji(piece.moves_as()).chars().map(String::from).collect(),
        Names::Letters(set) => {
            let mut s = String::new();
            piece.write(set, &mut s);
            vec![s]
        }
    }
}

/// The id of a character's shape.
fn glyph_id(prefix: &str, c: char) -> String {
    format!("{prefix}-k{:x}", u32::from(c))
}

/// The shapes of the kanji of every piece a game can show from its start:
/// each piece's and what it promotes to.
fn glyph_defs(board: &rules::Board, outlines: &Outlines, prefix: &str, out: &mut String) {
    let chars: BTreeSet<char> = board
        .pieces()
        .flat_map(|(_, man)| {
            let p = man.piece;
            let promoted = p.can_promote().then(|| p.promote().moves_as());
            [Some(p.moves_as()), promoted]
        })
        .flatten()
        .flat_map(|kind| kanji(kind).chars())
        .collect();
    for c in chars {
        if let Some(d) = outlines.path(c) {
            let _ = writeln!(
                out,
                "<symbol id=\"{}\" viewBox=\"0 0 {em} {em}\" overflow=\"visible\"><path d=\"{d}\"/></symbol>",
                glyph_id(prefix, c),
                em = glyphs::EM
            );
        }
    }
}

/// The outlines of the kanji, or, where no font has them, the warning
/// that says why the pieces are named by abbreviations.
fn kanji_outlines(view: &View<'_>) -> Result<std::sync::Arc<Outlines>, Problem> {
    glyphs::outlines(view.font, &all_kanji()).map_err(|why| {
        Problem::whole(format!(
            "tenjiku's kanji: {why}: the pieces are drawn with their tsa abbreviations; \
             name a font with --to-opt font=FILE, or ask for the abbreviations with --pieces tsa"
        ))
        .of_kind(ProblemKind::NoFont)
    })
}

/// One piece, its wedge pointing up, in the cell whose top left corner is
/// `(x, y)`; turned half round for the side at the top.
fn piece(out: &mut String, piece: Piece, up: bool, names: Names<'_>, x: f32, y: f32, cell: f32) {
    let (cx, cy) = (x + cell / 2.0, y + cell / 2.0);
    let p = |dx: f32, dy: f32| {
        format!(
            "{},{}",
            draw::num(cx + dx * cell),
            draw::num(cy + dy * cell)
        )
    };
    let turn = if up {
        String::new()
    } else {
        format!(
            " transform=\"rotate(180 {} {})\"",
            draw::num(cx),
            draw::num(cy)
        )
    };
    out.push_str(&format!(
        "<g{turn}><polygon points=\"{} {} {} {} {}\" fill=\"{WOOD}\" stroke=\"#5a4a20\" stroke-width=\"1\"/>",
        p(0.0, -0.45),
        p(0.34, -0.3),
        p(0.4, 0.45),
        p(-0.4, 0.45),
        p(-0.34, -0.3)
    ));
    let colour = if piece.promoted { "#c0141e" } else { "#111" };
    let lines = inscription(piece, names);
    let widest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(1) as f32;
    let size = match names {
        Names::Kanji(..) => cell * 0.3,
        Names::Letters(_) => (cell * 0.72 / (0.62 * widest)).min(cell * 0.36),
    };
    let top = cy + 0.08 * cell - (lines.len() as f32 - 1.0) * size * 0.5;
    for (i, line) in lines.iter().enumerate() {
        let baseline = top + i as f32 * size + size * 0.35;
        match names {
            // The character's shape, its em square on the text's line.
            Names::Kanji(_, prefix) => {
                for c in line.chars() {
                    let _ = writeln!(
                        out,
                        "<use xlink:href=\"#{}\" x=\"{}\" y=\"{}\" width=\"{s}\" height=\"{s}\" fill=\"{colour}\"/>",
                        glyph_id(prefix, c),
                        draw::num(cx - size / 2.0),
                        draw::num(baseline - size * glyphs::BASELINE / glyphs::EM),
                        s = draw::num(size)
                    );
                }
            }
            Names::Letters(_) => {
                let mut t = String::new();
                draw::text(&mut t, cx, baseline, size, colour, line);
                out.push_str(&t);
            }
        }
    }
    out.push_str("</g>\n");
}

/// Draws a tenjiku game's main line ([`crate::family::hooks::GameFamily::DRAW`]).
pub fn draw(game: &Game, view: &View<'_>) -> Result<Diagram, Problem> {
    if !rules::replayed(game) {
        return Err(draw::not_replayed());
    }
    let mut board = rules::start_of(game)
        .map_err(|e| Problem::whole(e).of_kind(crate::error::Kind::CannotDraw))?;
    let mut warnings = Vec::new();
    let outlines;
    let names = match view.pieces.and_then(Abbreviations::named) {
        Some(set) => Names::Letters(set),
        None => match kanji_outlines(view) {
            Ok(found) => {
                outlines = found;
                Names::Kanji(&outlines, view.id)
            }
            // No font has the kanji: the abbreviations, and why.
            Err(warning) => {
                warnings.push(warning);
                Names::Letters(Abbreviations::Tsa)
            }
        },
    };
    let cell = 38.0;
    let grid = Grid {
        cols: 16,
        rows: 16,
        cell,
        margin: 18.0,
        flip: view.flip,
    };
    // Black's view: file 16 on the left, rank a (1) at the top.
    let at = |sq: Square| (16 - u32::from(sq.file()), 16 - u32::from(sq.rank()));
    let mut d = grid.diagram();
    d.warnings = warnings;
    if let Names::Kanji(outlines, prefix) = names {
        glyph_defs(&board, outlines, prefix, &mut d.defs);
    }
    let side = 16.0 * cell;
    draw::rect(&mut d.board, grid.margin, grid.margin, side, side, BOARD);
    for i in 0..=16 {
        let t = i as f32 * cell;
        let (x0, y0) = (grid.margin, grid.margin);
        draw::line(&mut d.board, (x0 + t, y0), (x0 + t, y0 + side), LINE, 1.0);
        draw::line(&mut d.board, (x0, y0 + t), (x0 + side, y0 + t), LINE, 1.0);
    }
    grid.labels(
        &mut d.board,
        |c| (16 - c).to_string(),
        |r| char::from(b'a' + (15 - r) as u8).to_string(),
    );
    let frame = |board: &rules::Board, last: Option<(Square, Square)>, taken: &[Square]| {
        let mut out = String::new();
        for sq in last.iter().flat_map(|&(a, b)| [a, b]) {
            let (c, r) = at(sq);
            grid.fill(&mut out, c, r, MARKED);
        }
        for (sq, man) in board.pieces() {
            let (c, r) = at(sq);
            let (x, y) = grid.corner(c, r);
            let up = (man.side == Side::Black) != view.flip;
            piece(&mut out, man.piece, up, names, x, y, cell);
        }
        for &sq in taken {
            let (cx, cy) = grid.centre(at(sq).0, at(sq).1);
            let a = cell * 0.25;
            draw::line(&mut out, (cx - a, cy - a), (cx + a, cy + a), TAKEN, 3.0);
            draw::line(&mut out, (cx - a, cy + a), (cx + a, cy - a), TAKEN, 3.0);
        }
        out
    };
    d.frames.push(frame(&board, None, &[]));
    for ply in &game.moves.plies {
        let m = ply
            .mv
            .of(
                crate::family::any::Family::Tenjiku,
                crate::family::any::Move::as_tenjiku,
            )
            .and_then(super::Ply::replayed)
            .map_err(|e| Problem::whole(e).of_kind(crate::error::Kind::WrongFamily))?;
        let fx = board.play(ply.side, m);
        // What it took, but where it now stands itself.
        let taken: Vec<Square> = fx
            .captured
            .iter()
            .chain(&fx.burned)
            .copied()
            .filter(|&s| s != m.to || fx.suicide)
            .collect();
        d.frames.push(frame(&board, Some((m.from, m.to)), &taken));
    }
    Ok(d)
}
