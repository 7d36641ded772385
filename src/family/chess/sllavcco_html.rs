//! `sllavcco-html`: the column scoresheet of seed 004 as a printable,
//! self-contained HTML page (write only). The page holds one section per
//! game: the header part (tournament, players with title, rating and
//! country, date as a person writes it, place, round, chessboard, score,
//! the Fischer chess arrangement), the grid, and under it a note of the
//! other tags, at most [`NOTE_LINES`] lines, so that a game of up to
//! [`MOVES_PER_PAGE`] moves is one page whatever its tags. Pieces are figurines
//! unless the option `pieces` names letters. The cells are those of the `sllavcco`
//! text writer, so both say the same.

use std::fmt::Write as _;

use crate::codec::{Framing, RunWriter, WriteOptions};
use crate::error::Problem;
use crate::family::chess::sllavcco::{self, Dropped, Grid, Pieces, SheetRow, PIECE_SETS};
use crate::family::chess::Spelling;
use crate::family::draw::escape;
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
table.grid td { height: 3mm; padding: 0; text-align: center; font-size: 2.7mm;
  line-height: 3mm; }
table.grid tr.white td { border-bottom: 0.1mm dotted #000; }
table.grid tr.white th { font-size: 3.4mm; font-weight: bold; text-align: center; }
table.grid tr.black td { border-bottom-width: 0.5mm; }
table.grid tr.black { break-before: avoid; }
table.grid tr.white { break-after: avoid; }
.fw { font-size: 1.2em; line-height: 0; }
p.note { font-size: 2.2mm; line-height: 2.6mm; max-height: 7.8mm; overflow: hidden;
  margin: 1mm 0 0; white-space: normal; }
p.note span { margin-right: 2mm; }
p.note span.page, p.continued { float: right; margin: 0 0 0 2mm; font-size: 2.2mm; }
p.continued { float: none; text-align: right; margin: 1mm 0 0; line-height: 2.6mm; }
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

/// The name of a game, as a page title: `White - Black, Event, Date`, each
/// part known ([`Game::title`]).
fn game_title(game: &Game) -> String {
    game.title().unwrap_or_default()
}

/// The moves on one block of a sheet, and the blocks side by side.
const MOVES_PER_BLOCK: usize = 30;
/// The moves on one page: a longer game continues on the next page.
pub const MOVES_PER_PAGE: usize = 2 * MOVES_PER_BLOCK;

/// The note under the last page of a sheet, of the tags the header has no
/// box for, is at most this many lines (with the header's fixed height,
/// what keeps [`MOVES_PER_PAGE`] moves on one page, whatever the tags).
pub const NOTE_LINES: usize = 3;
/// The note's type size, in mm.
const NOTE_MM: f32 = 2.2;
/// The note's width: the sheet's, in mm.
const NOTE_WIDTH_MM: f32 = 186.0;
/// The longest a tag's name, and its value, is in the note, in mm of its
/// line (a longer one is cut, with `…`).
const NOTE_NAME_MM: f32 = 40.0;
const NOTE_VALUE_MM: f32 = 180.0;

/// The tags the note gives first, in this order: the start position, then
/// the opening, which a scoresheet names.
const NOTE_FIRST: [&str; 4] = ["FEN", "ECO", "Opening", "Variation"];

/// The note's entries (`Name: value`) of the tags `rest`, as many as its
/// [`NOTE_LINES`] lines hold with room for `reserved` (the page mark),
/// those of `NOTE_FIRST` first, and how many were left out. Each entry is
/// estimated by `width_mm` with the margin between entries, against the
/// lines less what wrapping at words wastes.
pub fn note_entries(rest: &[(&str, &str)], reserved: &str) -> (Vec<String>, usize) {
    let entry = |(name, value): (&str, &str)| {
        format!(
            "{}: {}",
            cut_to(name, NOTE_NAME_MM, NOTE_MM),
            cut_to(value, NOTE_VALUE_MM, NOTE_MM)
        )
    };
    let size = |text: &str| width_mm(text, NOTE_MM) + 2.0;
    let budget = NOTE_LINES as f32 * NOTE_WIDTH_MM * 0.8
        - if reserved.is_empty() {
            0.0
        } else {
            size(reserved)
        };
    let mut order: Vec<(&str, &str)> = rest.to_vec();
    order.sort_by_key(|(name, _)| {
        NOTE_FIRST
            .iter()
            .position(|f| f == name)
            .unwrap_or(NOTE_FIRST.len())
    });
    let all: Vec<String> = order.into_iter().map(entry).collect();
    if all.iter().map(|e| size(e)).sum::<f32>() <= budget {
        return (all, 0);
    }
    // Room for the line that says how many were left out.
    let budget = budget - size(&left_out(rest.len()));
    let mut used = 0.0;
    let mut shown = Vec::new();
    for e in &all {
        if used + size(e) <= budget {
            used += size(e);
            shown.push(e.clone());
        }
    }
    let left = all.len() - shown.len();
    (shown, left)
}

/// What the note says of the tags it leaves out.
fn left_out(n: usize) -> String {
    format!(
        "and {n} more tag{} not printed (the record keeps them)",
        if n == 1 { "" } else { "s" }
    )
}

/// Tags kept off the sheet and its note: the scoresheet itself says them
/// (the moves from a set-up position say SetUp; PlyCount is counted).
const UNSHOWN: [&str; 2] = ["SetUp", "PlyCount"];

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

/// How wide `text` is set at `font` mm, in mm, as a sheet's sans-serif
/// type sets it, a little wider than it does: an ASCII character about
/// 0.62 of its size, any other (accents, figurines, CJK) as wide as its
/// size. What bounds the header boxes and the note.
fn width_mm(text: &str, font: f32) -> f32 {
    text.chars()
        .map(|c| if c.is_ascii() { 0.62 } else { 1.0 })
        .sum::<f32>()
        * font
}

/// `text` cut to what `width` mm at `font` mm holds, with `…` where it is
/// cut (so a cut is never silent); whole when it fits.
fn cut_to(text: &str, width: f32, font: f32) -> String {
    if width_mm(text, font) <= width {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = width_mm("…", font);
    for c in text.chars() {
        used += width_mm(c.encode_utf8(&mut [0; 4]), font);
        if used > width {
            break;
        }
        out.push(c);
    }
    out.truncate(out.trim_end().len());
    out.push('…');
    out
}

/// A sheet's DATE (`DD.MM.YYYY`, `??` for what is unknown) as a person
/// writes it on a form: the unknown day, and then the unknown month, are
/// left out (`??.03.1951` is `03.1951`, `??.??.1951` is `1951`), a date
/// of which nothing is known is an empty box, a full date is as written,
/// and so is anything else (a part known after an unknown one:
/// `07.??.1951`; a value that is no such date).
pub fn date_as_written(date: &str) -> String {
    let unknown = |p: &str| !p.is_empty() && p.bytes().all(|b| b == b'?');
    let parts: Vec<&str> = date.trim().split('.').collect();
    if parts.len() != 3 || parts.iter().any(|p| p.is_empty()) {
        return date.to_string();
    }
    let skip = parts.iter().take(2).take_while(|p| unknown(p)).count();
    if unknown(parts[2]) && skip == 2 {
        return String::new();
    }
    parts[skip..].join(".")
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
                if crate::ir::placeholder(value) {
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
/// longer still wraps in its box, on two lines at most (which the box's
/// height holds, so that the header's height is fixed): a value longer
/// still is cut, with `…`.
const SMALLEST_MM: f32 = 1.8;

/// A header box `width` mm wide whose text is set at `font` mm: a value
/// too long for it is set smaller, as small as it needs to fit on one line
/// ([`width_mm`]), down to [`SMALLEST_MM`], below which it wraps on two
/// lines, and is cut (`…`) past them.
fn header_cell(attrs: &str, text: &str, width: f32, font: f32, out: &mut String) {
    let inside = width - 2.0;
    let wide = width_mm(text, 1.0);
    if wide * font <= inside {
        cell("td", attrs, text, out);
        return;
    }
    let size = inside / wide;
    // Two lines, less what wrapping at words wastes.
    let text = &cut_to(text, 2.0 * inside * 0.8, SMALLEST_MM);
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
    type Replay = crate::family::chess::hooks::Positions;
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
/// `MOVES_PER_BLOCK` moves side by side; a longer game continues on the
/// next page under the header again. Tags with no field on the form go in
/// a note under the last page, as many as its [`NOTE_LINES`] lines hold
/// ([`note_entries`]); it says how many it leaves out.
pub fn write(game: &Game, opts: &WriteOptions, out: &mut String) -> Result<Vec<Problem>, Problem> {
    crate::codec::write_runs(runs(opts), game, out)
}

/// The marks of what each page holds and only the game's end knows
/// ([`RunWriter::end_filled`]): its title, the header part, the number of
/// pages. No text of a game holds a bare `<`.
const TITLE: &str = "<kifu-title>";
const HEADER: &str = "<kifu-header>";
const PAGES: &str = "<kifu-pages>";

/// The writer of a game as the pages of its scoresheet a run at a time
/// ([`crate::codec::RunsFn`]): the grid lines of the page being filled
/// kept, each page written once the next begins (its title, header and
/// number of pages marked, filled at the end), the first kept to go before
/// them with the last.
pub fn runs(opts: &WriteOptions) -> Box<dyn RunWriter> {
    Box::new(PageRuns {
        pieces: opts
            .format
            .get::<Options>()
            .copied()
            .unwrap_or_default()
            .pieces,
        grid: Grid::default(),
        dropped: Dropped::default(),
        depth: 0,
        rows: Vec::new(),
        text: String::new(),
        first: None,
        written: 0,
        first_page: String::new(),
        whole: None,
    })
}

/// A game being written as the pages of its scoresheet ([`runs`]).
struct PageRuns {
    pieces: Pieces,
    grid: Grid,
    dropped: Dropped,
    /// How deep in variations the runs coming are (0: the main line).
    depth: usize,
    /// The grid lines of the pages not yet written, and their cells.
    rows: Vec<SheetRow>,
    text: String,
    /// The number of the first move.
    first: Option<u32>,
    /// The pages written.
    written: usize,
    /// The first page, where it waits for the end (a game read a run at
    /// a time: it goes before the text written).
    first_page: String,
    /// Where the game began in the text, where the head was written
    /// first (a whole game: its pages go to the text as they are made).
    whole: Option<usize>,
}

impl sllavcco::Runs for PageRuns {
    fn parts(&mut self) -> (&mut Grid, &mut Dropped, &mut usize) {
        (&mut self.grid, &mut self.dropped, &mut self.depth)
    }
}

impl PageRuns {
    /// Writes the page of the first grid lines kept (`MOVES_PER_PAGE`
    /// moves, or what is left), `last` the game's last page with the note
    /// of the fields `rest` and its mark `mark` (empty for a page alone).
    fn page(&mut self, last: Option<(&[(&str, &str)], &str)>, out: &mut String) {
        let take = self.rows.len().min(2 * MOVES_PER_PAGE);
        let page: Vec<SheetRow> = self.rows.drain(..take).collect();
        let slots: Vec<&[SheetRow]> = page.chunks(2).collect();
        let first = self.first.unwrap_or(1);
        let number =
            first.saturating_add(u32::try_from(self.written * MOVES_PER_PAGE).unwrap_or(u32::MAX));
        let _ = write!(
            out,
            "<section class=\"sheet\" data-title=\"{TITLE}\">\n{HEADER}<div class=\"blocks\">\n"
        );
        for block in 0..2 {
            write_block(&self.text, &slots, block * MOVES_PER_BLOCK, number, out);
        }
        out.push_str("</div>\n");
        self.written += 1;
        match last {
            Some((rest, mark)) if !rest.is_empty() => {
                // The page mark shares the note's first line.
                let (entries, left) = note_entries(rest, mark);
                out.push_str("<p class=\"note\">");
                if !mark.is_empty() {
                    cell("span", " class=\"page\"", mark, out);
                }
                for e in &entries {
                    cell("span", "", e, out);
                }
                if left > 0 {
                    cell("span", " class=\"left\"", &left_out(left), out);
                }
                out.push_str("</p>\n");
            }
            Some((_, "")) => {}
            Some((_, mark)) => {
                cell("p", " class=\"continued\"", mark, out);
                out.push('\n');
            }
            // A page before the last: "page n of" the pages, filled.
            None => {
                let _ = writeln!(
                    out,
                    "<p class=\"continued\">page {} of {PAGES}</p>",
                    self.written
                );
            }
        }
        out.push_str("</section>\n");
        // The cells left start at 0.
        let cut = self.rows.first().map_or(self.text.len(), |r| r.start());
        self.text.drain(..cut);
        for row in &mut self.rows {
            row.shift(cut);
        }
    }
}

impl RunWriter for PageRuns {
    fn head(&mut self, game: &Game, out: &mut String) -> Result<(), Problem> {
        sllavcco::Sheet::head(game, self.pieces)?;
        self.whole = Some(out.len());
        Ok(())
    }

    fn run(&mut self, run: &Game, out: &mut String) -> Result<(), Problem> {
        if !sllavcco::counted(self, run)? {
            return Ok(());
        }
        self.grid
            .add(run, self.pieces, &mut self.rows, &mut self.text)?;
        if self.first.is_none() {
            self.first = self.rows.first().map(|r| r.number);
        }
        // A page is written once a line of the next one comes.
        while self.rows.len() > 2 * MOVES_PER_PAGE {
            if self.written == 0 && self.whole.is_none() {
                let mut page = std::mem::take(&mut self.first_page);
                self.page(None, &mut page);
                self.first_page = page;
            } else {
                self.page(None, out);
            }
        }
        Ok(())
    }

    fn open(&mut self, _out: &mut String) -> Result<(), Problem> {
        sllavcco::opened(self);
        Ok(())
    }

    fn close(&mut self, trailing: &[crate::ir::Comment], _out: &mut String) -> Result<(), Problem> {
        sllavcco::closed(self, trailing)
    }

    fn end(
        self: Box<Self>,
        game: &Game,
        head: &mut String,
        out: &mut String,
    ) -> Result<Vec<Problem>, Problem> {
        let from = self.whole.unwrap_or(0);
        let ended = self.end_filled(game, head, out);
        crate::output::spill::filled(ended, head, out, from)
    }

    fn end_filled(
        mut self: Box<Self>,
        game: &Game,
        head: &mut String,
        out: &mut String,
    ) -> Result<(Vec<Problem>, crate::output::spill::Fills), Problem> {
        let (fields, arrangement, warnings) = sllavcco::Sheet::head(game, self.pieces)?;
        let warnings = sllavcco::ended(&mut *self, game, warnings)?;
        let mut fields = Fields {
            fields: fields
                .into_iter()
                .map(|(n, v)| {
                    let unshown = UNSHOWN.contains(&n.as_str());
                    (n, v, unshown)
                })
                .collect(),
        };
        let mut header = String::with_capacity(2048);
        write_header(&mut fields, arrangement.as_ref(), &mut header);
        // A placeholder (`EventDate "????.??.??"`) says nothing: not in the note.
        let rest: Vec<(&str, &str)> = fields
            .fields
            .iter()
            .filter(|f| !f.2 && !crate::ir::placeholder(&f.1))
            .map(|(n, v, _)| (n.as_str(), v.as_str()))
            .collect();
        let pages = self.written + 1;
        let mark = if pages > 1 {
            format!("page {pages} of {pages}")
        } else {
            String::new()
        };
        if self.written == 0 && self.whole.is_none() {
            self.page(Some((&rest, &mark)), head);
        } else {
            head.push_str(&self.first_page);
            self.page(Some((&rest, &mark)), out);
        }
        let mut title = String::new();
        escape(&game_title(game), &mut title);
        Ok((
            warnings,
            vec![(TITLE, title), (HEADER, header), (PAGES, pages.to_string())],
        ))
    }
}

/// The header part: organiser, tournament, the players with title, rating
/// and country, date and place, round, chessboard and score, and the
/// arrangement of a Fischer chess game. One table of eight columns, so
/// that every line has the grid's width.
fn write_header(fields: &mut Fields, arrangement: Option<&[char; 8]>, out: &mut String) {
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
    // A Date tag that is no `YYYY.MM.DD` is a field of its tag's name.
    let mut date = fields.take("DATE");
    if date.is_empty() {
        date = fields.take("Date");
    }
    header_cell("", &date_as_written(&date), 64.0, 3.2, out);
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
    if let Some(a) = arrangement {
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
fn write_block(grid: &str, slots: &[&[SheetRow]], from: usize, first: u32, out: &mut String) {
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
                    for c in row.cells(grid) {
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
