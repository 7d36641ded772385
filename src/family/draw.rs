//! A board drawn (the floor of the `svg` and `html` formats): what every
//! family's drawing shares. A family draws a game's main line as one
//! [`Diagram`] ([`crate::family::hooks::GameFamily::DRAW`]): the board that stays
//! (squares, coordinates, the throne), and one frame per position (the
//! pieces and the marks of the last move after 0, 1, 2 ... plies), from
//! the positions its own replay gives. The `svg` format writes one frame
//! as a document of its own ([`Diagram::svg`]); the `html` viewer draws
//! the board once and every frame inside it, and shows one at a time.
//!
//! Everything is plain SVG 1.1: shapes, text in the reader's sans-serif
//! type, `<use>` of the shapes in `<defs>`; no script, no external font
//! or image. Sizes are fixed by the board (in pixels, one cell of a board
//! a fixed size), so that a diagram pastes into a document at its size.

use std::fmt::Write as _;

use crate::error::{Kind, Problem};
use crate::ir::unholdable;

/// How a board is drawn: the options of the `svg` and `html` formats and
/// what the drawing needs of the run.
#[derive(Debug, Clone, Copy, Default)]
pub struct View<'a> {
    /// From the other side: the board turned half round (Black, or the
    /// side that is second, at the bottom).
    pub flip: bool,
    /// The piece set named (`--pieces`), for a family that draws its
    /// pieces as written names (tenjiku: `kanji`, `tsa`, `wikipedia`,
    /// `pbem`); `None`: the family's own default.
    pub pieces: Option<&'a str>,
    /// The font tenjiku's kanji are drawn from (`font=FILE`, as
    /// outlines, [`crate::picture::glyphs`]); `None`: one of the system's
    /// that has them.
    pub font: Option<&'a std::path::Path>,
    /// The format the game was read from, for a family whose notations
    /// name the squares differently (draughts: numbers, or the diagonal
    /// coordinates of `draughts-diag`).
    pub notation: Option<&'a str>,
    /// What the ids of the drawing begin with, unique in a page that holds
    /// several drawings.
    pub id: &'a str,
}

/// A game's main line drawn: the board, and each position on it.
#[derive(Debug, Clone, Default)]
pub struct Diagram {
    /// The width, in pixels.
    pub width: u32,
    /// The height, in pixels.
    pub height: u32,
    /// Shapes the frames use (`<use>`), with ids that begin with the
    /// view's [`View::id`].
    pub defs: String,
    /// What stays: the board, its squares and coordinates.
    pub board: String,
    /// The pieces (and the marks of the move that led there) after each
    /// ply of the main line: `frames[0]` the start, `frames[n]` after the
    /// n-th ply.
    pub frames: Vec<String>,
    /// What the drawing could not do as asked, said as warnings (tenjiku's
    /// kanji drawn as abbreviations where no font has them): the writers
    /// return them with the game.
    pub warnings: Vec<Problem>,
}

impl Diagram {
    /// A diagram of `width` x `height` pixels with its white ground drawn
    /// (the paper every family's board stands on), and nothing else yet.
    pub fn sized(width: u32, height: u32) -> Diagram {
        let mut d = Diagram {
            width,
            height,
            ..Diagram::default()
        };
        rect(&mut d.board, 0.0, 0.0, width as f32, height as f32, "#fff");
        d
    }

    /// The position after `ply` plies (the last when `None`) as an SVG
    /// document titled `title`; an error when the game has fewer plies.
    pub fn svg(&self, ply: Option<usize>, title: &str) -> Result<String, Problem> {
        let last = self.frames.len().saturating_sub(1);
        let n = ply.unwrap_or(last);
        let Some(frame) = self.frames.get(n) else {
            return Err(no_such_ply(n, last));
        };
        let mut out = String::with_capacity(self.board.len() + frame.len() + 4096);
        out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        self.open(&mut out, "");
        out.push_str("<title>");
        escape(title, &mut out);
        out.push_str("</title>\n");
        out.push_str(&self.board);
        out.push_str(frame);
        out.push_str("</svg>\n");
        Ok(out)
    }

    /// The opening `<svg>` element with its size, extra attributes
    /// (`attrs`, starting with a blank) and the shapes.
    pub fn open(&self, out: &mut String, attrs: &str) {
        let (w, h) = (self.width, self.height);
        let _ = write!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \
             version=\"1.1\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
             font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\"{attrs}>\n<defs>\n"
        );
        out.push_str(&self.defs);
        out.push_str("</defs>\n");
    }
}

/// The error for `ply=n` of a game of `last` plies in its main line.
pub fn no_such_ply(n: usize, last: usize) -> Problem {
    Problem::whole(format!(
        "ply={n}: the game has {last} plies in its main line (ply=0 is the start)"
    ))
    .of_kind(Kind::CannotDraw)
}

/// The error for a family kifu does not draw yet (`Toy boards are not
/// drawn yet`), for a family added without its drawing
/// ([`crate::family::GameFamily::DRAW`]); `drawn` names the families whose
/// boards kifu draws.
pub fn not_drawn(family: &str, drawn: &[&str]) -> Problem {
    let mut name = family.to_string();
    if let Some(first) = name.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    let list = match drawn {
        [] => "none".to_string(),
        [one] => one.to_string(),
        [most @ .., last] => format!("{} and {last}", most.join(", ")),
    };
    Problem::whole(format!(
        "{name} boards are not drawn yet: kifu draws {list} boards"
    ))
    .of_kind(Kind::CannotDraw)
}

/// The error for a game whose moves were not replayed: there is no
/// position to draw.
pub fn not_replayed() -> Problem {
    Problem::whole(
        "the moves were not replayed (--no-validate, or no rules known): there is no position to draw",
    ).of_kind(Kind::CannotDraw)
}

/// Escapes text for XML and HTML content and attribute values: what every
/// writer of pictures and pages (svg, html, sllavcco-html, diff's page)
/// puts in a tag, a comment or a name. A character XML 1.0 cannot hold,
/// even as a reference ([`unholdable`]: C0 controls but tab, line feed
/// and carriage return; U+FFFE, U+FFFF), is written as a space.
pub fn escape(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if unholdable(c) => out.push(' '),
            _ => out.push(c),
        }
    }
}

/// A board of square cells, columns from the left and rows from the
/// bottom as the first side sees it; turned half round when flipped.
/// Coordinates are written in the margin, left and below.
#[derive(Debug, Clone, Copy)]
pub struct Grid {
    /// Columns.
    pub cols: u32,
    /// Rows.
    pub rows: u32,
    /// A cell's side, in pixels.
    pub cell: f32,
    /// The margin around the cells, for the coordinates.
    pub margin: f32,
    /// Turned half round.
    pub flip: bool,
}

impl Grid {
    /// The width of the drawing.
    pub fn width(&self) -> u32 {
        (self.cols as f32 * self.cell + 2.0 * self.margin).round() as u32
    }

    /// The height of the drawing.
    pub fn height(&self) -> u32 {
        (self.rows as f32 * self.cell + 2.0 * self.margin).round() as u32
    }

    /// The top left corner of a cell (column and row from 0).
    pub fn corner(&self, col: u32, row: u32) -> (f32, f32) {
        let (c, r) = if self.flip {
            (self.cols - 1 - col, row)
        } else {
            (col, self.rows - 1 - row)
        };
        (
            self.margin + c as f32 * self.cell,
            self.margin + r as f32 * self.cell,
        )
    }

    /// The centre of a cell.
    pub fn centre(&self, col: u32, row: u32) -> (f32, f32) {
        let (x, y) = self.corner(col, row);
        (x + self.cell / 2.0, y + self.cell / 2.0)
    }

    /// A diagram of this size, on its white ground ([`Diagram::sized`]).
    pub fn diagram(&self) -> Diagram {
        Diagram::sized(self.width(), self.height())
    }

    /// Fills a cell.
    pub fn fill(&self, out: &mut String, col: u32, row: u32, colour: &str) {
        let (x, y) = self.corner(col, row);
        rect(out, x, y, self.cell, self.cell, colour);
    }

    /// The column labels under the board and the row labels left of it.
    pub fn labels(
        &self,
        out: &mut String,
        col: impl Fn(u32) -> String,
        row: impl Fn(u32) -> String,
    ) {
        let size = (self.margin * 0.6).min(self.cell * 0.45);
        let bottom = self.margin + self.rows as f32 * self.cell + self.margin * 0.7;
        for c in 0..self.cols {
            let (x, _) = self.centre(c, 0);
            text(out, x, bottom, size, "#333", &col(c));
        }
        for r in 0..self.rows {
            let (_, y) = self.centre(0, r);
            text(
                out,
                self.margin / 2.0,
                y + size * 0.35,
                size,
                "#333",
                &row(r),
            );
        }
    }
}

/// A number as SVG writes it: at most two decimals, no trailing zeros.
pub fn num(v: f32) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// A filled rectangle.
pub fn rect(out: &mut String, x: f32, y: f32, w: f32, h: f32, fill: &str) {
    let _ = writeln!(
        out,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\"/>",
        num(x),
        num(y),
        num(w),
        num(h)
    );
}

/// A circle, filled and outlined (`stroke` `none` for no outline).
pub fn circle(out: &mut String, cx: f32, cy: f32, r: f32, fill: &str, stroke: &str, width: f32) {
    let _ = writeln!(
        out,
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{}\"/>",
        num(cx),
        num(cy),
        num(r),
        num(width)
    );
}

/// A line.
pub fn line(out: &mut String, from: (f32, f32), to: (f32, f32), stroke: &str, width: f32) {
    let _ = writeln!(
        out,
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{stroke}\" stroke-width=\"{}\" stroke-linecap=\"round\"/>",
        num(from.0),
        num(from.1),
        num(to.0),
        num(to.1),
        num(width)
    );
}

/// Text centred on `x`, its baseline at `y`.
pub fn text(out: &mut String, x: f32, y: f32, size: f32, fill: &str, content: &str) {
    let _ = write!(
        out,
        "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{fill}\" text-anchor=\"middle\">",
        num(x),
        num(y),
        num(size)
    );
    escape(content, out);
    out.push_str("</text>\n");
}

/// A shape of the defs placed with its top left corner at `(x, y)`.
pub fn place(out: &mut String, id: &str, x: f32, y: f32) {
    let _ = writeln!(
        out,
        "<use xlink:href=\"#{id}\" x=\"{}\" y=\"{}\"/>",
        num(x),
        num(y)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_text_is_escaped() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.5), "12.5");
        assert_eq!(num(-0.001), "0");
        let mut s = String::new();
        escape("a<b & \"c\"\u{1}", &mut s);
        assert_eq!(s, "a&lt;b &amp; &quot;c&quot; ");
    }

    #[test]
    fn a_flipped_grid_turns_half_round() {
        let g = Grid {
            cols: 8,
            rows: 8,
            cell: 10.0,
            margin: 5.0,
            flip: false,
        };
        assert_eq!(g.corner(0, 0), (5.0, 75.0));
        let f = Grid { flip: true, ..g };
        assert_eq!(f.corner(0, 0), (75.0, 5.0));
        assert_eq!(g.width(), 90);
    }

    #[test]
    fn a_ply_past_the_end_is_an_error() {
        let d = Diagram {
            frames: vec![String::new(), String::new()],
            ..Diagram::default()
        };
        assert!(d.svg(Some(1), "t").is_ok());
        let e = d.svg(Some(2), "t").unwrap_err();
        assert!(e.message.contains("1 plies"), "{}", e.message);
        assert_eq!(
            not_drawn("toy", &["chess", "tafl"]).message,
            "Toy boards are not drawn yet: kifu draws chess and tafl boards"
        );
    }
}
