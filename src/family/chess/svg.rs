//! A chess game drawn ([`crate::family::draw`]): the 8x8 board with its
//! coordinates, White at the bottom (Black when flipped), the pieces as
//! shapes of kifu's own, and the squares of the last move marked. The
//! positions are the replay's ([`rules::main_line_fens`]), so a Chess960
//! start is drawn as the game's FEN sets it.

use crate::error::{Kind, Problem};
use crate::family::chess::hooks::ply_of;
use crate::family::chess::{rules, Ply, Square, Wing};
use crate::family::draw::{self, Diagram, Grid, View};
use crate::ir::Game;

/// A square's side, in pixels.
const CELL: f32 = 45.0;
/// The light and dark squares, and the marks of the last move on each.
const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
const MARKED_LIGHT: &str = "#f7ec74";
const MARKED_DARK: &str = "#dac34b";

/// The shapes of the six pieces in a 45-pixel square, each drawn in the
/// colours of its side.
const SHAPES: [(char, &str); 6] = [
    (
        'p',
        "<circle cx=\"22.5\" cy=\"15\" r=\"5.5\"/>\
         <path d=\"M16 36 L18.5 24 Q22.5 20 26.5 24 L29 36 Z\"/>\
         <path d=\"M12 39 H33 V35 H12 Z\"/>",
    ),
    (
        'r',
        "<path d=\"M12 39 H33 V35 H12 Z\"/>\
         <path d=\"M14.5 35 L16 17 H29 L30.5 35 Z\"/>\
         <path d=\"M13 17 V9 H17 V12 H20.5 V9 H24.5 V12 H28 V9 H32 V17 Z\"/>",
    ),
    (
        'n',
        "<path d=\"M13 39 H33 V35 H13 Z\"/>\
         <path d=\"M15 35 C15 28 21 26 22 21 C19 23 15 24 12.5 26 L10.5 22 C13 16 17 11 21 9 \
          L22 5.5 L24.5 9 L27 6.5 L27.5 10 C33 13 34.5 22 32 35 Z\"/>\
         <circle cx=\"20\" cy=\"14\" r=\"1.3\" class=\"eye\"/>",
    ),
    (
        'b',
        "<path d=\"M12 39 H33 V35 H12 Z\"/>\
         <path d=\"M16 35 C14 27 17 19 22.5 12 C28 19 31 27 29 35 Z\"/>\
         <circle cx=\"22.5\" cy=\"9\" r=\"2.8\"/>\
         <path d=\"M22.5 19 V27 M18.5 23 H26.5\" class=\"cut\"/>",
    ),
    (
        'q',
        "<path d=\"M11 39 H34 V35 H11 Z\"/>\
         <path d=\"M12.5 35 L9 15 L16.5 25 L18 11 L22.5 23 L27 11 L28.5 25 L36 15 L32.5 35 Z\"/>\
         <circle cx=\"9\" cy=\"13.5\" r=\"2.3\"/><circle cx=\"18\" cy=\"9.5\" r=\"2.3\"/>\
         <circle cx=\"27\" cy=\"9.5\" r=\"2.3\"/><circle cx=\"36\" cy=\"13.5\" r=\"2.3\"/>",
    ),
    (
        'k',
        "<path d=\"M11 39 H34 V35 H11 Z\"/>\
         <path d=\"M12.5 35 C8 27 9 19 16 19 C19 19 21 21 22.5 24 C24 21 26 19 29 19 \
          C36 19 37 27 32.5 35 Z\"/>\
         <path d=\"M21 4 H24 V8 H28 V11 H24 V17 H21 V11 H17 V8 H21 Z\"/>",
    ),
];

/// The shapes, once for each side: `{id}-wp`, `{id}-bk`, ...
fn defs(id: &str) -> String {
    let mut out = String::new();
    for (side, fill, stroke) in [('w', "#fff", "#000"), ('b', "#000", "#000")] {
        for (letter, shape) in SHAPES {
            let detail = if side == 'w' { "#000" } else { "#fff" };
            out.push_str(&format!(
                "<g id=\"{id}-{side}{letter}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.5\" \
                 stroke-linejoin=\"round\">{}</g>\n",
                shape
                    .replace("class=\"eye\"", &format!("fill=\"{detail}\" stroke=\"none\""))
                    .replace("class=\"cut\"", &format!("fill=\"none\" stroke=\"{detail}\""))
            ));
        }
    }
    out
}

/// The squares a ply's move leaves and reaches (the king's, castling).
fn last_move(ply: &crate::ir::Ply) -> Option<(Square, Square)> {
    let Ok(Ply::Move(m)) = ply_of(&ply.mv) else {
        return None;
    };
    let from = m.from?;
    let to = match m.castle {
        Some(Wing::King) => Square::new(6, from.rank()),
        Some(Wing::Queen) => Square::new(2, from.rank()),
        None => m.to,
    };
    Some((from, to))
}

/// The pieces of a FEN's placement field, as (file, rank, FEN letter).
fn placement(fen: &str) -> Vec<(u32, u32, char)> {
    let mut out = Vec::new();
    let board = fen.split(' ').next().unwrap_or("");
    for (i, rank) in board.split('/').enumerate() {
        let row = 7u32.saturating_sub(i as u32);
        let mut col = 0u32;
        for c in rank.chars() {
            match c.to_digit(10) {
                Some(n) => col += n,
                None => {
                    if col < 8 {
                        out.push((col, row, c));
                    }
                    col += 1;
                }
            }
        }
    }
    out
}

/// Draws a chess game's main line ([`crate::family::hooks::GameFamily::DRAW`]).
pub fn draw(game: &Game, view: &View<'_>) -> Result<Diagram, Problem> {
    let fens = rules::main_line_fens(game).ok_or_else(draw::not_replayed)?;
    if fens.len() <= game.moves.plies.len() {
        let ply = &game.moves.plies[fens.len() - 1];
        return Err(Problem::whole(format!(
            "{} cannot be played: there is no position after it to draw",
            ply.label(crate::ir::Side::White)
        ))
        .of_kind(Kind::CannotDraw));
    }
    let grid = Grid {
        cols: 8,
        rows: 8,
        cell: CELL,
        margin: 18.0,
        flip: view.flip,
    };
    let dark = |c: u32, r: u32| (c + r).is_multiple_of(2);
    let mut d = grid.diagram();
    d.defs = defs(view.id);
    for r in 0..8 {
        for c in 0..8 {
            grid.fill(&mut d.board, c, r, if dark(c, r) { DARK } else { LIGHT });
        }
    }
    grid.labels(
        &mut d.board,
        |c| char::from(b'a' + c as u8).to_string(),
        |r| (r + 1).to_string(),
    );
    for (k, fen) in fens.iter().enumerate() {
        let mut frame = String::new();
        if let Some((from, to)) = k
            .checked_sub(1)
            .and_then(|i| last_move(&game.moves.plies[i]))
        {
            for sq in [from, to] {
                let (c, r) = (u32::from(sq.file()), u32::from(sq.rank()));
                let colour = if dark(c, r) {
                    MARKED_DARK
                } else {
                    MARKED_LIGHT
                };
                grid.fill(&mut frame, c, r, colour);
            }
        }
        for (c, r, letter) in placement(fen) {
            let side = if letter.is_ascii_uppercase() {
                'w'
            } else {
                'b'
            };
            let (x, y) = grid.corner(c, r);
            let id = format!("{}-{side}{}", view.id, letter.to_ascii_lowercase());
            draw::place(&mut frame, &id, x, y);
        }
        d.frames.push(frame);
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fen_places_its_pieces() {
        let p = placement("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(p.len(), 32);
        assert!(p.contains(&(4, 3, 'P')));
        assert!(p.contains(&(0, 7, 'r')));
    }
}
