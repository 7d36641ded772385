//! A Coerceo game drawn ([`crate::family::draw`]): the hexagonal tiles,
//! each of six triangular fields, white and black as the game colours
//! them (`a`, `c`, `e` white), laid out as kifu's numbering places them
//! ([`board`]: flat sides at top and bottom, tile 2 up and left of the
//! centre, 3 above it), each tile's number at its centre and each field's
//! letter in a corner of it. The tiles still on the board are drawn (a
//! tile taken off is gone), the pieces as discs on their fields, the
//! fields of the last step marked, what the last ply captured crossed out
//! in red and the tiles it took off outlined where they were; under the
//! board, the tiles each side holds. Flipped, the board is turned half
//! round. The positions are the rules' replay ([`rules::Position::play`])
//! from the game's start ([`rules::start_of`]).
//!
//! Sizes are fixed: a tile's side is 48 pixels; Laurentius (19 tiles)
//! is 412 x 470, Ocius (7 tiles) 268 x 303.

use std::fmt::Write as _;

use crate::error::{Kind, Problem};
use crate::family::coerceo::board::{self, Geometry, CORNERS, FIELDS, TILES};
use crate::family::coerceo::rules::{self, Turn};
use crate::family::coerceo::Field;
use crate::family::draw::{self, Diagram, View};
use crate::ir::{Game, Side};

/// A tile's side, in pixels.
pub const SIDE: f32 = 48.0;
/// The margin around the board.
const MARGIN: f32 = 14.0;
/// The band under the board that says the tiles each side holds.
const BAND: f32 = 26.0;
/// A piece's radius.
const PIECE: f32 = 9.5;

/// The fields, the lines between them and around a tile, the letters on
/// each colour of field, and the tile's number.
const WHITE_FIELD: &str = "#ece5d3";
const BLACK_FIELD: &str = "#5d5d5d";
const FIELD_LINE: &str = "#8c8c8c";
const TILE_LINE: &str = "#1e1e1e";
const WHITE_LETTER: &str = "#8a7d62";
const BLACK_LETTER: &str = "#d2d2d2";
const NUMBER_DISC: &str = "#e4c872";
/// The marks of the last ply: the fields of its step (on a white and on a
/// black field), its captures, and the tiles it took off.
const MARKED_WHITE: &str = "#f5d63d";
const MARKED_BLACK: &str = "#c9a41a";
const CAPTURED: &str = "#c0392b";

/// The apothem of a tile (half its height), in pixels.
fn apothem() -> f32 {
    SIDE * 3f32.sqrt() / 2.0
}

/// Where the board lies in the picture: its centre, and whether it is
/// turned half round.
#[derive(Debug, Clone, Copy)]
struct Layout {
    cx: f32,
    cy: f32,
    flip: bool,
}

impl Layout {
    /// A point of the board's lattice ([`board::centre`], [`CORNERS`]: x
    /// in half sides, y in apothems, up), in pixels.
    fn point(&self, (x, y): (f32, f32)) -> (f32, f32) {
        let (dx, dy) = (x * SIDE / 2.0, -y * apothem());
        if self.flip {
            (self.cx - dx, self.cy - dy)
        } else {
            (self.cx + dx, self.cy + dy)
        }
    }

    /// A tile's centre, in lattice coordinates.
    fn tile_centre(geo: &Geometry, tile: usize) -> (f32, f32) {
        let (x, y) = board::centre(geo.place[tile]);
        (f32::from(x), f32::from(y))
    }

    /// A field's triangle: the tile's centre and its two corners, in
    /// lattice coordinates.
    fn triangle(geo: &Geometry, field: usize) -> [(f32, f32); 3] {
        let (x, y) = Layout::tile_centre(geo, field / 6);
        let k = usize::from(geo.triangle[field]);
        let corner = |c: (i16, i16)| (x + f32::from(c.0), y + f32::from(c.1));
        [(x, y), corner(CORNERS[k]), corner(CORNERS[(k + 1) % 6])]
    }

    /// A field's centre (where its piece stands), in pixels.
    fn field_centre(&self, geo: &Geometry, field: usize) -> (f32, f32) {
        let [a, b, c] = Layout::triangle(geo, field);
        self.point(((a.0 + b.0 + c.0) / 3.0, (a.1 + b.1 + c.1) / 3.0))
    }

    /// A field's triangle as polygon points.
    fn field_points(&self, geo: &Geometry, field: usize) -> String {
        points(Layout::triangle(geo, field).map(|p| self.point(p)))
    }

    /// A tile's hexagon as polygon points.
    fn tile_points(&self, geo: &Geometry, tile: usize) -> String {
        let (x, y) = Layout::tile_centre(geo, tile);
        points(CORNERS.map(|c| self.point((x + f32::from(c.0), y + f32::from(c.1)))))
    }
}

/// Polygon points, `x,y x,y ...`.
fn points<const N: usize>(ps: [(f32, f32); N]) -> String {
    ps.iter()
        .map(|&(x, y)| format!("{},{}", draw::num(x), draw::num(y)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A polygon.
fn polygon(out: &mut String, points: &str, attrs: &str) {
    let _ = writeln!(out, "<polygon points=\"{points}\" {attrs}/>");
}

/// The shapes: each tile with its fields, letters and number
/// (`{id}-t1` to `{id}-t19`, drawn where the tile lies), and a piece of
/// each side centred on the origin (`{id}-w`, `{id}-b`).
fn defs(geo: &Geometry, layout: &Layout, id: &str, tiles: usize) -> String {
    let mut out = String::new();
    let letter_size = 8.0;
    for t in 0..tiles {
        let _ = writeln!(out, "<g id=\"{id}-t{}\">", t + 1);
        for f in 6 * t..6 * t + 6 {
            let white = geo.white[f];
            let fill = if white { WHITE_FIELD } else { BLACK_FIELD };
            polygon(
                &mut out,
                &layout.field_points(geo, f),
                &format!("fill=\"{fill}\" stroke=\"{FIELD_LINE}\" stroke-width=\"0.75\""),
            );
            // The letter in the field's first corner, clear of its piece.
            let [a, b, c] = Layout::triangle(geo, f);
            let at = (
                0.1 * a.0 + 0.75 * b.0 + 0.15 * c.0,
                0.1 * a.1 + 0.75 * b.1 + 0.15 * c.1,
            );
            let (x, y) = layout.point(at);
            let colour = if white { WHITE_LETTER } else { BLACK_LETTER };
            let letter = Field::from_index(f).letter().to_string();
            draw::text(
                &mut out,
                x,
                y + letter_size * 0.35,
                letter_size,
                colour,
                &letter,
            );
        }
        polygon(
            &mut out,
            &layout.tile_points(geo, t),
            &format!(
                "fill=\"none\" stroke=\"{TILE_LINE}\" stroke-width=\"2\" stroke-linejoin=\"round\""
            ),
        );
        let (x, y) = layout.point(Layout::tile_centre(geo, t));
        draw::circle(&mut out, x, y, 7.5, NUMBER_DISC, TILE_LINE, 0.75);
        let size = 9.5;
        draw::text(
            &mut out,
            x,
            y + size * 0.35,
            size,
            "#111",
            &(t + 1).to_string(),
        );
        out.push_str("</g>\n");
    }
    for (side, fill, rim, ring) in [
        ('w', "#fdfdfb", "#1a1a1a", "#9a9a9a"),
        ('b', "#151515", "#f0f0f0", "#6a6a6a"),
    ] {
        let mut g = String::new();
        draw::circle(&mut g, 0.0, 0.0, PIECE, fill, rim, 1.5);
        draw::circle(&mut g, 0.0, 0.0, PIECE * 0.6, "none", ring, 1.0);
        let _ = writeln!(out, "<g id=\"{id}-{side}\">{g}</g>");
    }
    out
}

/// What the last ply did, for its marks: the fields of its step, the
/// fields whose pieces it took, and the tiles it took off.
#[derive(Debug, Default)]
struct Last {
    step: Option<(usize, usize)>,
    captured: Vec<usize>,
    removed: Vec<usize>,
}

/// One position drawn: its tiles, the marks of the ply that led there,
/// its pieces, and the tiles each side holds.
fn frame(
    pos: &rules::Position<'_>,
    geo: &Geometry,
    layout: &Layout,
    id: &str,
    last: &Last,
    band: (f32, f32),
) -> String {
    let mut out = String::new();
    for t in (0..TILES).filter(|&t| pos.has_tile(t)) {
        draw::place(&mut out, &format!("{id}-t{}", t + 1), 0.0, 0.0);
    }
    for &t in &last.removed {
        polygon(
            &mut out,
            &layout.tile_points(geo, t),
            &format!(
                "fill=\"none\" stroke=\"{CAPTURED}\" stroke-width=\"1.5\" stroke-dasharray=\"5 4\""
            ),
        );
    }
    for f in last.step.iter().flat_map(|&(a, b)| [a, b]) {
        let fill = if geo.white[f] {
            MARKED_WHITE
        } else {
            MARKED_BLACK
        };
        polygon(
            &mut out,
            &layout.field_points(geo, f),
            &format!("fill=\"{fill}\" fill-opacity=\"0.7\""),
        );
    }
    for f in 0..FIELDS {
        if let Some(side) = pos.piece(f) {
            let (x, y) = layout.field_centre(geo, f);
            let shape = if side == Side::White { 'w' } else { 'b' };
            draw::place(&mut out, &format!("{id}-{shape}"), x, y);
        }
    }
    for &f in &last.captured {
        let (x, y) = layout.field_centre(geo, f);
        let a = PIECE * 0.8;
        draw::line(&mut out, (x - a, y - a), (x + a, y + a), CAPTURED, 2.5);
        draw::line(&mut out, (x - a, y + a), (x + a, y - a), CAPTURED, 2.5);
    }
    let held = |side| {
        let n = pos.held(side);
        format!("{n} tile{}", if n == 1 { "" } else { "s" })
    };
    draw::text(
        &mut out,
        band.0,
        band.1,
        12.0,
        "#333",
        &format!(
            "held: White {}, Black {}",
            held(Side::White),
            held(Side::Black)
        ),
    );
    out
}

/// Draws a Coerceo game's main line ([`crate::family::hooks::GameFamily::DRAW`]).
pub fn draw(game: &Game, view: &View<'_>) -> Result<Diagram, Problem> {
    let kind = game
        .variant
        .as_coerceo()
        .ok_or_else(|| Problem::whole("not a Coerceo game").of_kind(Kind::WrongFamily))?;
    if !kind.validated {
        return Err(draw::not_replayed());
    }
    let mut pos = rules::start_of(game, kind.game)
        .map_err(|e| Problem::whole(e).of_kind(Kind::CannotDraw))?;
    let geo = board::geometry();
    // The board the game starts on (a run's, the record's start's).
    let ring: u8 = match kind.started_on.unwrap_or_else(|| pos.board()) {
        crate::family::coerceo::Kind::Laurentius => 2,
        crate::family::coerceo::Kind::Ocius => 1,
    };
    let tiles = if ring == 2 { TILES } else { 7 };
    let half_width = (1.5 * f32::from(ring) + 1.0) * SIDE;
    let half_height = (2.0 * f32::from(ring) + 1.0) * apothem();
    let width = (2.0 * (half_width + MARGIN)).round();
    let height = (2.0 * (half_height + MARGIN) + BAND).round();
    let layout = Layout {
        cx: width / 2.0,
        cy: MARGIN + half_height,
        flip: view.flip,
    };
    let band = (width / 2.0, height - MARGIN * 0.6);
    let mut d = Diagram::sized(width as u32, height as u32);
    d.defs = defs(geo, &layout, view.id, tiles);
    d.frames
        .push(frame(&pos, geo, &layout, view.id, &Last::default(), band));
    for ply in &game.moves.plies {
        let m = ply
            .mv
            .of(
                crate::family::any::Family::Coerceo,
                crate::family::any::Move::as_coerceo,
            )
            .map_err(|e| Problem::whole(e).of_kind(Kind::WrongFamily))?;
        let label = ply.label(Side::White);
        let before = pos.clone();
        let mut last = Last {
            step: m.step.map(|s| (s.from.index(), s.to.index())),
            ..Last::default()
        };
        for w in m
            .turns()
            .map_err(|e| Problem::whole(format!("{label} {e}")).of_kind(Kind::CannotDraw))?
        {
            let played = pos
                .play(w.turn)
                .map_err(|e| Problem::whole(format!("{label} {e}")).of_kind(Kind::CannotDraw))?;
            if let Turn::Exchange(_, target) = w.turn {
                last.captured.push(target.index());
            }
            last.captured
                .extend(played.captures.iter().map(|&f| f.index()));
        }
        last.removed = (0..TILES)
            .filter(|&t| before.has_tile(t) && !pos.has_tile(t))
            .collect();
        d.frames
            .push(frame(&pos, geo, &layout, view.id, &last, band));
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fields_lie_as_the_numbering_says() {
        let geo = board::geometry();
        let layout = Layout {
            cx: 0.0,
            cy: 0.0,
            flip: false,
        };
        let at = |s: &str| layout.field_centre(geo, Field::parse(s).unwrap().index());
        // Tile 1: a upper left, b on top, d at the bottom right.
        let (ax, ay) = at("1a");
        let (bx, by) = at("1b");
        let (dx, dy) = at("1d");
        assert!(ax < 0.0 && ay < 0.0, "1a up and left");
        assert!(bx.abs() < 0.01 && by < ay, "1b on top");
        assert!(dx > 0.0 && dy > 0.0, "1d down and right");
        // Tile 3 straight above tile 1, tile 2 up and left.
        let (x3, y3) = at("3e");
        assert!(x3.abs() < 0.01 && y3 < by);
        let (x2, _) = at("2a");
        assert!(x2 < ax);
        // Flipped: turned half round.
        let flipped = Layout {
            flip: true,
            ..layout
        };
        let (fx, fy) = flipped.field_centre(geo, Field::parse("1a").unwrap().index());
        assert!((fx + ax).abs() < 0.01 && (fy + ay).abs() < 0.01);
    }
}
