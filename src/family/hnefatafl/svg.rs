//! A tafl game drawn ([`crate::family::draw`]) on its board, 5x5 to 19x19:
//! the throne and the corner squares as the rules place them, the
//! attackers dark and the defenders light, the king crowned, the squares
//! of the last move marked and the pieces it captured crossed out where
//! they stood. The files and ranks are lettered as the notation read
//! writes them (`E5` in tafl, `e5` in otn), rank 1 at the bottom (at the
//! top when flipped). The positions are the rules' replay
//! ([`rules::Position::play`]), from the start of the game's rules.

use crate::error::{Kind, Problem};
use crate::family::draw::{self, Diagram, Grid, View};
use crate::family::hnefatafl::{rules, Move, Square};
use crate::ir::Game;

/// The squares, the special squares, and the marks of the last move.
const LIGHT: &str = "#eadbb8";
const LINE: &str = "#8a6d45";
const SPECIAL: &str = "#b08552";
const MARKED: &str = "#e0c35a";
const CAPTURED: &str = "#c0392b";

/// The pieces in a cell of `cell` pixels: a disc for each side, the king
/// with a cross, a commander with a ring, a knight with a diamond.
fn defs(id: &str, cell: f32) -> String {
    let c = cell / 2.0;
    let r = cell * 0.38;
    let mut out = String::new();
    for (letter, fill, detail) in [
        ('t', "#2b2b2b", "#ddd"),
        ('c', "#2b2b2b", "#ddd"),
        ('n', "#2b2b2b", "#ddd"),
        ('k', "#2b2b2b", "#ddd"),
        ('T', "#fbfbf6", "#333"),
        ('C', "#fbfbf6", "#333"),
        ('N', "#fbfbf6", "#333"),
        ('K', "#fbfbf6", "#333"),
    ] {
        let name = if letter.is_ascii_uppercase() {
            format!("d{}", letter.to_ascii_lowercase())
        } else {
            format!("a{letter}")
        };
        let mut g = String::new();
        let king = letter.eq_ignore_ascii_case(&'k');
        draw::circle(
            &mut g,
            c,
            c,
            if king { r * 1.08 } else { r },
            fill,
            "#000",
            1.5,
        );
        match letter.to_ascii_lowercase() {
            'k' => {
                let a = r * 0.6;
                draw::line(&mut g, (c - a, c), (c + a, c), detail, cell * 0.09);
                draw::line(&mut g, (c, c - a), (c, c + a), detail, cell * 0.09);
            }
            'c' => draw::circle(&mut g, c, c, r * 0.55, "none", detail, cell * 0.06),
            'n' => {
                let a = r * 0.55;
                g.push_str(&format!(
                    "<polygon points=\"{},{} {},{} {},{} {},{}\" fill=\"{detail}\"/>\n",
                    draw::num(c),
                    draw::num(c - a),
                    draw::num(c + a),
                    draw::num(c),
                    draw::num(c),
                    draw::num(c + a),
                    draw::num(c - a),
                    draw::num(c)
                ));
            }
            _ => {}
        }
        out.push_str(&format!("<g id=\"{id}-{name}\">{g}</g>\n"));
    }
    out
}

/// The pieces of a position, with their squares.
fn pieces(pos: &rules::Position<'_>, dim: u8) -> Vec<(Square, u8)> {
    (0..dim)
        .flat_map(|r| (0..dim).map(move |f| Square { file: f, rank: r }))
        .filter_map(|sq| Some((sq, pos.piece(sq)?)))
        .collect()
}

/// Draws a tafl game's main line ([`crate::family::hooks::GameFamily::DRAW`]).
pub fn draw(game: &Game, view: &View<'_>) -> Result<Diagram, Problem> {
    let board = game
        .variant
        .as_tafl()
        .ok_or_else(|| Problem::whole("not a tafl game").of_kind(Kind::WrongFamily))?;
    let rules = board
        .rules
        .as_ref()
        .and_then(|r| r.at_position(&game.tags).ok())
        .ok_or_else(|| {
            Problem::whole(
                "the game names no rules (a Rules tag, --from-opt rules=...): there is no start position to draw",
            ).of_kind(Kind::CannotDraw)
        })?;
    let dim = rules.dim;
    let cell = (480.0 / f32::from(dim)).clamp(30.0, 56.0).round();
    let grid = Grid {
        cols: u32::from(dim),
        rows: u32::from(dim),
        cell,
        margin: 18.0,
        flip: view.flip,
    };
    let at = |sq: Square| (u32::from(sq.file), u32::from(sq.rank));
    let mut d = grid.diagram();
    d.defs = defs(view.id, cell);
    for r in 0..grid.rows {
        for c in 0..grid.cols {
            grid.fill(&mut d.board, c, r, LIGHT);
        }
    }
    for &sq in rules.corners.iter().chain(&rules.centres) {
        if sq.on(dim) {
            let (c, r) = at(sq);
            grid.fill(&mut d.board, c, r, SPECIAL);
        }
    }
    let (x0, y0) = (grid.margin, grid.margin);
    let side = cell * f32::from(dim);
    for i in 0..=u32::from(dim) {
        let t = i as f32 * cell;
        draw::line(&mut d.board, (x0 + t, y0), (x0 + t, y0 + side), LINE, 1.0);
        draw::line(&mut d.board, (x0, y0 + t), (x0 + side, y0 + t), LINE, 1.0);
    }
    let upper = view.notation == Some("tafl");
    grid.labels(
        &mut d.board,
        |c| {
            let l = char::from(b'a' + c as u8);
            if upper { l.to_ascii_uppercase() } else { l }.to_string()
        },
        |r| (r + 1).to_string(),
    );
    let frame = |pos: &rules::Position<'_>, last: Option<&crate::family::hnefatafl::Step>| {
        let mut out = String::new();
        if let Some(step) = last {
            for sq in [step.from, step.to] {
                let (c, r) = at(sq);
                grid.fill(&mut out, c, r, MARKED);
            }
        }
        for (sq, p) in pieces(pos, dim) {
            let (x, y) = grid.corner(at(sq).0, at(sq).1);
            let name = if p.is_ascii_uppercase() {
                format!("d{}", p.to_ascii_lowercase() as char)
            } else {
                format!("a{}", p as char)
            };
            draw::place(&mut out, &format!("{}-{name}", view.id), x, y);
        }
        if let Some(step) = last {
            for &sq in &step.captures {
                let (cx, cy) = grid.centre(at(sq).0, at(sq).1);
                let a = cell * 0.28;
                draw::line(
                    &mut out,
                    (cx - a, cy - a),
                    (cx + a, cy + a),
                    CAPTURED,
                    cell * 0.1,
                );
                draw::line(
                    &mut out,
                    (cx - a, cy + a),
                    (cx + a, cy - a),
                    CAPTURED,
                    cell * 0.1,
                );
            }
        }
        out
    };
    let mut pos = rules::Position::new(&rules);
    d.frames.push(frame(&pos, None));
    for ply in &game.moves.plies {
        let step = ply.mv.as_tafl().and_then(Move::step);
        if let Some(step) = step {
            pos.play(step, ply.side, false).map_err(|e| {
                Problem::whole(format!("{}: {e}", ply.label(board.first_mover())))
                    .of_kind(Kind::CannotDraw)
            })?;
        }
        d.frames.push(frame(&pos, step));
    }
    Ok(d)
}
