//! `sllavcco-html`: the column scoresheet of seed 004 as a printable,
//! self-contained HTML page (write only). The page holds one section per
//! game: the header part (tournament, players with title, rating and
//! country, date, place, round, chessboard, score, the Fischer chess
//! arrangement, then every other tag) and the grid. Pieces are figurines
//! unless the option `pieces` names letters. The cells are those of the `sllavcco`
//! text writer, so both say the same.

use std::fmt::Write as _;

use crate::codec::{Framing, WriteOptions};
use crate::error::Problem;
use crate::family::chess::sllavcco::{self, Pieces, Sheet, SheetRow, PIECE_SETS};
use crate::family::chess::Spelling;
use crate::family::spell::Spell;
use crate::ir::{Game, Ply, Side};
use crate::options::{undeclared, FormatOption, FormatOptions, Sides, Values};

/// The page around the games. Sizes are in millimetres, so that a sheet of
/// up to [`MOVES_PER_PAGE`] moves fits the printable area of both A4 and
/// Letter paper (190 x 259 mm inside margins of 10 mm).
pub const FRAMING: Framing = Framing {
    head: "<!DOCTYPE html>
<html lang=\"en\">
<head>
<meta charset=\"utf-8\">
<title>{title}</title>
<style>
@page { margin: 10mm; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { font-family: \"DejaVu Sans\", \"Segoe UI Symbol\", \"Noto Sans Symbols 2\", sans-serif;
  margin: 0; color: #000; }
section.sheet { width: 186mm; margin: 0 auto 10mm; break-inside: avoid; }
section.sheet + section.sheet { break-before: page; }
table { border-collapse: collapse; table-layout: fixed; width: 100%; }
th, td { border: 0.3mm solid #000; padding: 0 1mm; overflow: hidden; white-space: nowrap;
  height: 4.6mm; font-size: 3.2mm; }
th { font-weight: normal; font-size: 2.2mm; text-align: left; letter-spacing: 0.05mm; }
.org { text-align: center; font-size: 3.2mm; }
.tournament { text-align: center; font-size: 4.2mm; font-weight: bold; height: 7mm; }
table.head { margin-bottom: 2mm; }
table.head td.name { font-size: 3.6mm; }
td.score { text-align: center; }
th.colon, td.colon { border-left: 0; border-right: 0; text-align: center; padding: 0; }
div.blocks { display: flex; justify-content: space-between; }
table.grid { width: 91mm; }
table.grid th { text-align: center; height: 6mm; padding: 0; }
table.grid th.number { font-size: 1.7mm; line-height: 1.9mm; white-space: normal; }
table.grid td { height: 3.1mm; padding: 0; text-align: center; font-size: 2.7mm;
  line-height: 3.1mm; }
table.grid tr.white td { border-bottom: 0.1mm dotted #000; }
table.grid tr.white th { font-size: 3.4mm; font-weight: bold; text-align: center; }
table.grid tr.black td { border-bottom-width: 0.5mm; }
table.grid tr.black { break-before: avoid; }
table.grid tr.white { break-after: avoid; }
.fw { font-size: 1.2em; line-height: 0; }
p.note { font-size: 2.3mm; margin: 1.5mm 0 0; white-space: normal; }
p.note span { margin-right: 2mm; }
p.continued { font-size: 2.5mm; text-align: right; margin: 1mm 0 0; }
</style>
</head>
<body>
",
    between: "",
    tail: "</body>\n</html>\n",
    title: Some(page_title),
};

/// The page's title: the `data-title` of the first game's sheet (the game's
/// name, `White - Black, Event, Date`), or `Scoresheets`.
fn page_title(first: &str) -> String {
    let title = first
        .split_once(" data-title=\"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .map_or("", |(t, _)| t);
    if title.is_empty() {
        "Scoresheets".to_string()
    } else {
        title.to_string()
    }
}

/// Whether a tag value only holds a place (`?`, `????.??.??`, empty).
fn placeholder(value: &str) -> bool {
    value.chars().all(|c| matches!(c, '?' | '.' | ' ' | '-'))
}

/// The name of a game, as a page title: `White - Black, Event, Date`, each
/// part known (not `?`).
fn game_title(game: &Game) -> String {
    let known = |name| game.tag(name).map(str::trim).filter(|v| !placeholder(v));
    let players = match (known("White"), known("Black")) {
        (Some(w), Some(b)) => Some(format!("{w} - {b}")),
        (w, b) => w.or(b).map(str::to_string),
    };
    let parts: Vec<String> = [
        players,
        known("Event").map(str::to_string),
        known("Date").map(str::to_string),
    ]
    .into_iter()
    .flatten()
    .collect();
    parts.join(", ")
}

/// The moves on one block of a sheet, and the blocks side by side.
const MOVES_PER_BLOCK: usize = 30;
/// The moves on one page: a longer game continues on the next page.
pub const MOVES_PER_PAGE: usize = 2 * MOVES_PER_BLOCK;

/// Tags kept off the sheet and its note: the scoresheet itself says them
/// (the moves from a set-up position say SetUp; PlyCount is counted).
const UNSHOWN: [&str; 2] = ["SetUp", "PlyCount"];

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

/// Escapes a grid cell: a white (outline) figurine is set a little larger,
/// since fonts draw them smaller than the black ones.
fn escape_cell(text: &str, out: &mut String) {
    for c in text.chars() {
        if ('\u{2654}'..='\u{2659}').contains(&c) {
            out.push_str("<span class=\"fw\">");
            out.push(c);
            out.push_str("</span>");
        } else {
            escape(c.encode_utf8(&mut [0; 4]), out);
        }
    }
}

/// Header fields, taken by name as the layout places them; the rest go in
/// the note under the sheet.
struct Fields {
    fields: Vec<(String, String, bool)>,
}

impl Fields {
    /// The value of the first unused field with this name, now used; empty
    /// for a placeholder (`?`, `????.??.??`), a box to fill in by hand.
    fn take(&mut self, name: &str) -> String {
        match self
            .fields
            .iter_mut()
            .find(|(n, _, used)| n == name && !used)
        {
            Some((_, value, used)) => {
                *used = true;
                if placeholder(value) {
                    String::new()
                } else {
                    value.clone()
                }
            }
            None => String::new(),
        }
    }
}

/// One element with escaped text, and attributes as written.
fn cell(tag: &str, attrs: &str, text: &str, out: &mut String) {
    let _ = write!(out, "<{tag}{attrs}>");
    escape(text, out);
    let _ = write!(out, "</{tag}>");
}

/// The smallest type a header box is set in to hold a long value; a value
/// longer still wraps in its box (never cut off).
const SMALLEST_MM: f32 = 1.8;

/// A header box `width` mm wide whose text is set at `font` mm: a value
/// too long for it is set smaller, as small as it needs to fit on one line
/// (a character of the sheet's sans-serif type is about 0.6 of its size
/// wide), down to [`SMALLEST_MM`], below which it wraps.
fn header_cell(attrs: &str, text: &str, width: f32, font: f32, out: &mut String) {
    let chars = text.chars().count() as f32;
    let fits = (width - 2.0) / (0.6 * font);
    if chars <= fits {
        cell("td", attrs, text, out);
        return;
    }
    let size = (width - 2.0) / (0.6 * chars);
    let style = if size >= SMALLEST_MM {
        format!(" style=\"font-size:{size:.1}mm\"")
    } else {
        format!(
            " style=\"font-size:{SMALLEST_MM}mm;white-space:normal;overflow-wrap:anywhere;line-height:1.1\""
        )
    };
    cell("td", &format!("{attrs}{style}"), text, out);
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

/// The page's cells ([`crate::spell`]): as the scoresheet's
/// ([`sllavcco::Cells`]), in the page's pieces (figurines by default).
pub struct Cells;

impl Spell for Cells {
    type Replay = crate::family::chess::Positions;
    type Options = Options;

    fn spell_ply(
        options: &Options,
        spelling: Spelling,
        ply: &Ply,
        out: &mut String,
    ) -> Result<(), Problem> {
        let sheet = sllavcco::Options {
            pieces: options.pieces,
        };
        sllavcco::Cells::spell_ply(&sheet, spelling, ply, out)
    }
}

/// Writes one game as the pages of its scoresheet: the header part of
/// seed 004 section 5.2 and the grid of section 5.3, in two blocks of
/// [`MOVES_PER_BLOCK`] moves side by side; a longer game continues on the
/// next page under the header again. Tags with no field on the form go in
/// a note under the last page.
pub fn write(game: &Game, opts: &WriteOptions, out: &mut String) -> Result<Vec<Problem>, Problem> {
    let options = opts.format.get::<Options>().copied().unwrap_or_default();
    let (sheet, warnings) = Sheet::of(game, options.pieces)?;
    let mut fields = Fields {
        fields: sheet
            .fields
            .iter()
            .map(|(n, v)| (n.clone(), v.clone(), UNSHOWN.contains(&n.as_str())))
            .collect(),
    };
    let mut header = String::with_capacity(2048);
    write_header(&mut fields, &sheet, &mut header);
    // A placeholder (`EventDate "????.??.??"`) says nothing: not in the note.
    let rest: Vec<&(String, String, bool)> = fields
        .fields
        .iter()
        .filter(|f| !f.2 && !placeholder(&f.1))
        .collect();
    // The grid rows come in pairs, White's line then Black's.
    let slots: Vec<&[SheetRow]> = sheet.rows.chunks(2).collect();
    let first = slots.first().map_or(1, |s| s[0].number);
    let pages = slots.len().div_ceil(MOVES_PER_PAGE).max(1);
    let title = game_title(game);
    for page in 0..pages {
        out.push_str("<section class=\"sheet\" data-title=\"");
        escape(&title, out);
        out.push_str("\">\n");
        out.push_str(&header);
        out.push_str("<div class=\"blocks\">\n");
        for block in 0..2 {
            let from = page * MOVES_PER_PAGE + block * MOVES_PER_BLOCK;
            write_block(&sheet, &slots, from, first, out);
        }
        out.push_str("</div>\n");
        if pages > 1 {
            let _ = writeln!(
                out,
                "<p class=\"continued\">page {} of {pages}</p>",
                page + 1
            );
        }
        if page + 1 == pages && !rest.is_empty() {
            out.push_str("<p class=\"note\">");
            for (name, value, _) in &rest {
                out.push_str("<span>");
                escape(name, out);
                out.push_str(": ");
                escape(value, out);
                out.push_str("</span>");
            }
            out.push_str("</p>\n");
        }
        out.push_str("</section>\n");
    }
    Ok(warnings)
}

/// The header part: organiser, tournament, the players with title, rating
/// and country, date and place, round, chessboard and score, and the
/// arrangement of a Fischer chess game. One table of eight columns, so
/// that every line has the grid's width.
fn write_header(fields: &mut Fields, sheet: &Sheet, out: &mut String) {
    out.push_str(
        "<table class=\"head\">\n<colgroup><col style=\"width:22mm\"><col style=\"width:64mm\">\
         <col style=\"width:24mm\"><col style=\"width:24mm\"><col style=\"width:18mm\">\
         <col style=\"width:15mm\"><col style=\"width:4mm\"><col style=\"width:15mm\"></colgroup>\n",
    );
    out.push_str("<tr><th>ORGANISER</th>");
    header_cell(
        " colspan=\"7\" class=\"org\"",
        &fields.take("EventSponsor"),
        164.0,
        3.2,
        out,
    );
    out.push_str("</tr>\n<tr><th>TOURNAMENT</th>");
    header_cell(
        " colspan=\"7\" class=\"tournament\"",
        &fields.take("TOURNAMENT"),
        164.0,
        4.2,
        out,
    );
    out.push_str(
        "</tr>\n<tr><th></th><th>NAME</th><th>TITLE</th><th>RATING</th><th colspan=\"4\">COUNTRY</th></tr>\n",
    );
    for side in ["WHITE", "BLACK"] {
        let _ = write!(out, "<tr><th>{side}</th>");
        header_cell(" class=\"name\"", &fields.take(side), 64.0, 3.6, out);
        header_cell("", &fields.take(&format!("{side} TITLE")), 24.0, 3.2, out);
        header_cell("", &fields.take(&format!("{side} RATING")), 24.0, 3.2, out);
        header_cell(
            " colspan=\"4\"",
            &fields.take(&format!("{side} COUNTRY")),
            52.0,
            3.2,
            out,
        );
        out.push_str("</tr>\n");
    }
    out.push_str("<tr><th>DATE</th>");
    header_cell("", &fields.take("DATE"), 64.0, 3.2, out);
    out.push_str("<th>PLACE</th>");
    header_cell(" colspan=\"5\"", &fields.take("PLACE"), 76.0, 3.2, out);
    out.push_str("</tr>\n<tr><th>ROUND</th>");
    header_cell("", &fields.take("ROUND"), 64.0, 3.2, out);
    out.push_str("<th>CHESSBOARD</th>");
    header_cell("", &fields.take("CHESSBOARD"), 24.0, 3.2, out);
    out.push_str("<th>SCORE</th>");
    let score = fields.take("SCORE");
    let (white, black) = score.split_once(':').unwrap_or(("", ""));
    cell("td", " class=\"score\"", white.trim(), out);
    out.push_str("<td class=\"colon\">:</td>");
    cell("td", " class=\"score\"", black.trim(), out);
    out.push_str("</tr>\n");
    if let Some(a) = &sheet.arrangement {
        out.push_str("<tr><th>ARRANGEMENT</th><td colspan=\"7\">");
        for (file, c) in ('a'..='h').zip(a) {
            let _ = write!(out, "{file} ");
            escape_cell(c.encode_utf8(&mut [0; 4]), out);
            out.push_str(if file == 'h' { "" } else { " &nbsp; " });
        }
        out.push_str("</td></tr>\n");
    }
    out.push_str("</table>\n");
}

/// One block of the grid: [`MOVES_PER_BLOCK`] moves from the slot `from`,
/// the moves past the game's end left empty, as on a printed form.
fn write_block(sheet: &Sheet, slots: &[&[SheetRow]], from: usize, first: u32, out: &mut String) {
    out.push_str(
        "<table class=\"grid\">\n<colgroup><col style=\"width:11mm\">\
         <col><col><col><col><col><col><col><col></colgroup>\n\
         <thead><tr><th class=\"number\">NUMBER OF THE MOVE</th>",
    );
    for f in 'a'..='h' {
        let _ = write!(out, "<th>{f}</th>");
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for i in from..from + MOVES_PER_BLOCK {
        let number = first.saturating_add(u32::try_from(i).unwrap_or(u32::MAX));
        let rows = slots.get(i).copied().unwrap_or(&[]);
        for (k, side) in [Side::White, Side::Black].into_iter().enumerate() {
            match side {
                Side::White => {
                    let _ = write!(
                        out,
                        "<tr class=\"white\"><th rowspan=\"2\">{number:02}</th>"
                    );
                }
                Side::Black => out.push_str("<tr class=\"black\">"),
            }
            match rows.get(k) {
                Some(row) => {
                    for c in sheet.cells(row) {
                        out.push_str("<td>");
                        escape_cell(c, out);
                        out.push_str("</td>");
                    }
                }
                None => out.push_str(
                    "<td></td><td></td><td></td><td></td><td></td><td></td><td></td><td></td>",
                ),
            }
            out.push_str("</tr>\n");
        }
    }
    out.push_str("</tbody>\n</table>\n");
}
