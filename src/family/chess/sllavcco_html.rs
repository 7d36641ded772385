//! `sllavcco-html`: the column scoresheet of seed 004 as a printable,
//! self-contained HTML page (write only). The page holds one section per
//! game: the header part (tournament, players with title, rating and
//! country, date, place, round, chessboard, score, the Fischer chess
//! arrangement, then every other tag) and the grid. Pieces are figurines
//! unless the option `pieces` names letters. The cells are those of the `sllavcco`
//! text writer, so both say the same.

use std::fmt::Write as _;

use crate::error::Problem;
use crate::family::chess::sllavcco::{Pieces, Sheet, PIECE_SETS};
use crate::format::{Framing, WriteOptions};
use crate::ir::{Game, Side};
use crate::options::{undeclared, FormatOption, FormatOptions, Sides, Values};

/// The page around the games.
pub const FRAMING: Framing = Framing {
    head: "<!DOCTYPE html>
<html lang=\"en\">
<head>
<meta charset=\"utf-8\">
<title>Scoresheets</title>
<style>
body { font-family: \"DejaVu Sans\", \"Segoe UI Symbol\", sans-serif; margin: 1.5em; }
section.sheet { margin-bottom: 2em; }
h1 { font-size: 1.2em; text-align: center; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #000; padding: 0.15em 0.5em; }
th { font-weight: normal; font-size: 0.8em; text-align: left; }
table.grid td { width: 3.5em; height: 1.3em; text-align: center; font-size: 1.1em; }
table.grid th { text-align: center; }
table.grid tr.black td { border-bottom-width: 2px; }
@media print { section.sheet + section.sheet { break-before: page; } }
</style>
</head>
<body>
",
    between: "",
    tail: "</body>\n</html>\n",
};

/// Escapes text for HTML content and attribute values.
fn escape(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
}

/// Header fields, taken by name as the layout places them; the rest are
/// listed after it.
struct Fields {
    fields: Vec<(String, String, bool)>,
}

impl Fields {
    /// The value of the first unused field with this name, now used.
    fn take(&mut self, name: &str) -> String {
        match self
            .fields
            .iter_mut()
            .find(|(n, _, used)| n == name && !used)
        {
            Some((_, value, used)) => {
                *used = true;
                value.clone()
            }
            None => String::new(),
        }
    }
}

fn cell(tag: &str, text: &str, out: &mut String) {
    let _ = write!(out, "<{tag}>");
    escape(text, out);
    let _ = write!(out, "</{tag}>");
}

/// The options of `sllavcco-html`.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// The piece symbols of the cells.
    pub pieces: Pieces,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            pieces: Pieces::Figurine,
        }
    }
}

impl FormatOptions for Options {
    const LIST: &'static [FormatOption] = &[FormatOption {
        name: "pieces",
        sides: Sides::Write,
        values: Values::Kind(PIECE_SETS),
        default: "figurine",
        help: "the piece symbols of the cells",
    }];

    fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "pieces" => self.pieces = Pieces::parse(value)?,
            _ => return Err(undeclared(name)),
        }
        Ok(())
    }
}

/// Writes one game as a section of the page.
pub fn write(game: &Game, opts: &WriteOptions, out: &mut String) -> Result<Vec<Problem>, Problem> {
    let options = opts.format.get::<Options>().copied().unwrap_or_default();
    let (sheet, warnings) = Sheet::of(game, options.pieces)?;
    let mut fields = Fields {
        fields: sheet
            .fields
            .iter()
            .map(|(n, v)| (n.clone(), v.clone(), false))
            .collect(),
    };
    out.push_str("<section class=\"sheet\">\n");
    let tournament = fields.take("TOURNAMENT");
    if !tournament.is_empty() {
        cell("h1", &tournament, out);
        out.push('\n');
    }
    out.push_str("<table class=\"players\">\n<tr><th></th><th>NAME</th><th>TITLE</th><th>RATING</th><th>COUNTRY</th></tr>\n");
    for side in ["WHITE", "BLACK"] {
        let _ = write!(out, "<tr><th>{side}</th>");
        for part in ["", " TITLE", " RATING", " COUNTRY"] {
            cell("td", &fields.take(&format!("{side}{part}")), out);
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n<table class=\"event\">\n<tr><th>DATE</th>");
    cell("td", &fields.take("DATE"), out);
    out.push_str("<th>PLACE</th>");
    cell("td", &fields.take("PLACE"), out);
    out.push_str("</tr>\n<tr><th>ROUND</th>");
    cell("td", &fields.take("ROUND"), out);
    out.push_str("<th>CHESSBOARD</th>");
    cell("td", &fields.take("CHESSBOARD"), out);
    out.push_str("<th>SCORE</th>");
    cell("td", &fields.take("SCORE"), out);
    out.push_str("</tr>\n</table>\n");
    if let Some(a) = &sheet.arrangement {
        out.push_str("<table class=\"arrangement\">\n<tr><th>ARRANGEMENT</th>");
        for f in 'a'..='h' {
            let _ = write!(out, "<th>{f}</th>");
        }
        out.push_str("</tr>\n<tr><td></td>");
        for c in a {
            cell("td", &c.to_string(), out);
        }
        out.push_str("</tr>\n</table>\n");
    }
    let rest: Vec<&(String, String, bool)> = fields.fields.iter().filter(|f| !f.2).collect();
    if !rest.is_empty() {
        out.push_str("<table class=\"tags\">\n");
        for (name, value, _) in rest {
            out.push_str("<tr>");
            cell("th", name, out);
            cell("td", value, out);
            out.push_str("</tr>\n");
        }
        out.push_str("</table>\n");
    }
    out.push_str("<table class=\"grid\">\n<thead><tr><th>NUMBER OF THE MOVE</th>");
    for f in 'a'..='h' {
        let _ = write!(out, "<th>{f}</th>");
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for (i, row) in sheet.rows.iter().enumerate() {
        match row.side {
            Side::White => {
                let span = match sheet.rows.get(i + 1) {
                    Some(next) if next.side == Side::Black => 2,
                    _ => 1,
                };
                let _ = write!(
                    out,
                    "<tr class=\"white\"><th rowspan=\"{span}\">{:02}</th>",
                    row.number
                );
            }
            Side::Black => out.push_str("<tr class=\"black\">"),
        }
        for c in sheet.cells(row) {
            cell("td", c, out);
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</section>\n");
    Ok(warnings)
}
