//! A draughts game drawn ([`crate::family::draw`]) on its own board: the
//! GameType's size and orientation (10x10, 8x8 English or Italian, 12x12,
//! Thai ...), White at the bottom (Black when flipped), the squares named
//! as the notation the game was read from names them (the numbers of the
//! playing squares; the diagonal coordinates of `draughts-diag`; the files
//! and ranks of a board whose squares are written alphanumerically), kings
//! crowned, and the squares of the last move marked. The positions are
//! the replay's ([`play::main_line`]).

use crate::error::{Kind, Problem};
use crate::family::draughts::hooks::draughts_move;
use crate::family::draughts::{play, Board, Piece, Square, SquareStyle};
use crate::family::draw::{self, Diagram, Grid, View};
use crate::ir::Game;

/// The squares: the light ones, the playing ones, and those of the last
/// move.
const LIGHT: &str = "#f2e6cf";
const DARK: &str = "#9c7653";
const MARKED: &str = "#c9a63a";

/// A man of each side in a cell of 1: a disc with a rim; a king has a
/// crown on it.
fn defs(id: &str, cell: f32) -> String {
    let c = cell / 2.0;
    let r = cell * 0.4;
    let mut out = String::new();
    for (side, fill, line) in [('w', "#fbfbf8", "#222"), ('b', "#2a2a2a", "#000")] {
        let detail = if side == 'w' { "#444" } else { "#ddd" };
        let mut man = String::new();
        draw::circle(&mut man, c, c, r, fill, line, 1.5);
        draw::circle(&mut man, c, c, r * 0.7, "none", detail, 1.0);
        out.push_str(&format!("<g id=\"{id}-{side}m\">{man}</g>\n"));
        let s = cell / 45.0;
        let p = |x: f32, y: f32| format!("{},{}", draw::num(c + x * s), draw::num(c + y * s));
        let crown = [
            p(-9.0, 6.0),
            p(-11.0, -6.0),
            p(-5.0, 0.0),
            p(0.0, -9.0),
            p(5.0, 0.0),
            p(11.0, -6.0),
            p(9.0, 6.0),
        ]
        .join(" ");
        out.push_str(&format!(
            "<g id=\"{id}-{side}k\">{man}<polygon points=\"{crown}\" fill=\"{detail}\"/></g>\n"
        ));
    }
    out
}

/// A square's name as the notation writes it, for its corner: its number,
/// or its diagonal coordinates (`f4`); `None` on a board whose squares
/// are named by the files and ranks at its edges.
fn name(board: &Board, sq: Square, diagonal: bool) -> Option<String> {
    if diagonal {
        let (letter, digit) = board.diag(sq)?;
        return Some(format!("{}{digit}", char::from(b'a' + letter - 1)));
    }
    (board.style == SquareStyle::Numeric).then(|| sq.0.to_string())
}

/// Draws a draughts game's main line ([`crate::family::hooks::GameFamily::DRAW`]).
pub fn draw(game: &Game, view: &View<'_>) -> Result<Diagram, Problem> {
    let board = *game
        .variant
        .as_draughts()
        .ok_or_else(|| Problem::whole("not a draughts game").of_kind(Kind::WrongFamily))?;
    let positions =
        play::main_line(game).map_err(|e| Problem::whole(e).of_kind(Kind::CannotDraw))?;
    let cell = if board.width.max(board.height) > 10 {
        36.0
    } else {
        42.0
    };
    let grid = Grid {
        cols: u32::from(board.width),
        rows: u32::from(board.height),
        cell,
        margin: 18.0,
        flip: view.flip,
    };
    let diagonal = view.notation == Some("draughts-diag") && board.has_diagonal();
    let mut d = grid.diagram();
    d.defs = defs(view.id, cell);
    // (Column, row) from 0 of a square, White's view.
    let at = |sq: Square| {
        board
            .coords(sq)
            .map(|(c, r)| (u32::from(c) - 1, u32::from(r) - 1))
    };
    for r in 0..grid.rows {
        for c in 0..grid.cols {
            let playing = board.square_at(c as i32 + 1, r as i32 + 1);
            grid.fill(
                &mut d.board,
                c,
                r,
                if playing.is_some() { DARK } else { LIGHT },
            );
        }
    }
    for n in 1..=board.square_count() {
        let sq = Square(n);
        if let (Some((c, r)), Some(label)) = (at(sq), name(&board, sq, diagonal)) {
            let (x, y) = grid.corner(c, r);
            let size = cell * 0.24;
            let _ = std::fmt::Write::write_fmt(
                &mut d.board,
                format_args!(
                    "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"#f4ead8\">{label}</text>\n",
                    draw::num(x + 2.0),
                    draw::num(y + size + 1.0),
                    draw::num(size)
                ),
            );
        }
    }
    if board.style == SquareStyle::Alpha && !diagonal {
        // The files and ranks of the board's own frame (from the
        // GameType's corner).
        let file = |c: u32| {
            (1..=grid.rows)
                .find_map(|r| board.square_at(c as i32 + 1, r as i32))
                .and_then(|sq| board.alpha(sq))
                .map_or(String::new(), |(f, _)| char::from(b'a' + f - 1).to_string())
        };
        let rank = |r: u32| {
            (1..=grid.cols)
                .find_map(|c| board.square_at(c as i32, r as i32 + 1))
                .and_then(|sq| board.alpha(sq))
                .map_or(String::new(), |(_, n)| n.to_string())
        };
        grid.labels(&mut d.board, file, rank);
    }
    for (k, pos) in positions.iter().enumerate() {
        let mut frame = String::new();
        if let Some(ply) = k.checked_sub(1).map(|i| &game.moves.plies[i]) {
            let m = draughts_move(&ply.mv)?;
            for sq in [m.path.first(), m.path.last()].into_iter().flatten() {
                if let Some((c, r)) = at(*sq) {
                    grid.fill(&mut frame, c, r, MARKED);
                }
            }
        }
        let mut put = |p: &Piece, side: char| {
            if let Some((c, r)) = at(p.square) {
                let (x, y) = grid.corner(c, r);
                let kind = if p.king { 'k' } else { 'm' };
                draw::place(&mut frame, &format!("{}-{side}{kind}", view.id), x, y);
            }
        };
        pos.white.iter().for_each(|p| put(p, 'w'));
        pos.black.iter().for_each(|p| put(p, 'b'));
        d.frames.push(frame);
    }
    Ok(d)
}
