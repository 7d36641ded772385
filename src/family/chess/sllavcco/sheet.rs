//! Writing a scoresheet: a game laid out as the grid of
//! [`super`]'s notation ([`Sheet`]), its text, and the writer of a long
//! game a run at a time ([`runs`]).

use super::*;
use crate::codec::RunWriter;
use crate::error::Kind;
use crate::family::spell::Replay as _;

/// A game laid out as a scoresheet: what the text and HTML writers print.
#[derive(Debug, Clone)]
pub struct Sheet {
    /// Header fields in order: the field name (a scoresheet field or a PGN
    /// tag name) and its value as written.
    pub fields: Vec<(String, String)>,
    /// The pieces of files a to h of a Fischer chess initial position.
    pub arrangement: Option<[char; 8]>,
    /// The grid lines, White's and Black's in turn.
    pub rows: Vec<SheetRow>,
    /// The text of every cell of the grid, one after another.
    grid: String,
}

/// One line of the grid.
#[derive(Debug, Clone)]
pub struct SheetRow {
    /// Whose line it is.
    pub side: Side,
    /// The move number (written on White's line only).
    pub number: u32,
    /// Where the cells of files a to h start in the sheet's grid text, and
    /// where the last one ends.
    bounds: [u32; 9],
}

impl SheetRow {
    /// The row's cells, files a to h, in the text of the grid it was laid
    /// out in ([`Grid::add`]).
    pub fn cells<'s>(&self, grid: &'s str) -> impl Iterator<Item = &'s str> + use<'s> {
        let b = self.bounds;
        (0..8).map(move |i| grid.get(b[i] as usize..b[i + 1] as usize).unwrap_or(""))
    }

    /// Where its cells start in the grid's text.
    pub fn start(&self) -> usize {
        self.bounds[0] as usize
    }

    /// The same row in the grid's text with its first `cut` bytes gone
    /// (the cells of the rows before it, written).
    pub fn shift(&mut self, cut: usize) {
        let cut = u32::try_from(cut).unwrap_or(u32::MAX);
        for b in &mut self.bounds {
            *b = b.saturating_sub(cut);
        }
    }
}

impl Sheet {
    /// Lays out a chess game, with warnings about what a scoresheet cannot
    /// hold (comments, variations, NAGs).
    pub fn of(game: &Game, pieces: Pieces) -> Result<(Sheet, Vec<Problem>), Problem> {
        let (fields, arrangement, mut warnings) = Sheet::head(game, pieces)?;
        let (mut rows, mut grid) = (Vec::new(), String::new());
        let mut laid = Grid::default();
        laid.add(game, pieces, &mut rows, &mut grid)?;
        warnings.extend(laid.warning());
        let mut counts = Dropped::default();
        counts.around(game);
        counts.plies(&game.moves, true);
        warnings.extend(counts.warning());
        Ok((
            Sheet {
                fields,
                arrangement,
                rows,
                grid,
            },
            warnings,
        ))
    }

    /// What a game's sheet holds above its grid, from its head (its tags
    /// and start): the header fields, the arrangement of a Fischer chess
    /// game, and the warnings of the header.
    #[allow(clippy::type_complexity)]
    pub fn head(
        game: &Game,
        pieces: Pieces,
    ) -> Result<(Vec<(String, String)>, Option<[char; 8]>, Vec<Problem>), Problem> {
        chess_only(game)?;
        let mut warnings = Vec::new();
        let fields = header(game, &mut warnings)?;
        let chess960 = board_of(&game.variant).is_some_and(|b| b.chess960);
        let arrangement = chess960
            .then(|| arrangement(game))
            .flatten()
            .map(|roles| roles.map(|r| pieces.symbol(r, Side::White)));
        Ok((fields, arrangement, warnings))
    }

    /// The cells of a row of this sheet, files a to h.
    pub fn cells<'s>(&'s self, row: &SheetRow) -> impl Iterator<Item = &'s str> + use<'s> {
        row.cells(&self.grid)
    }

    /// Writes the sheet as text, ending with a newline.
    pub fn write_text(&self, out: &mut String) {
        write_head(&self.fields, self.arrangement.as_ref(), out);
        write_rows(&self.rows, &self.grid, out);
    }
}

/// The error for a game of another family than chess.
fn chess_only(game: &Game) -> Result<(), Problem> {
    if game.family() != Family::Chess {
        return Err(Problem::whole(format!(
            "a {} game cannot be written on a chess scoresheet",
            game.family().name()
        ))
        .of_kind(Kind::WrongFamily));
    }
    Ok(())
}

/// Writes the text above the grid: the header fields, the arrangement,
/// a blank line and the grid's heading.
fn write_head(fields: &[(String, String)], arrangement: Option<&[char; 8]>, out: &mut String) {
    for (name, value) in fields {
        out.push_str(name);
        out.push('\t');
        out.push_str(value);
        out.push('\n');
    }
    if let Some(a) = arrangement {
        out.push_str(ARRANGEMENT);
        for c in a {
            out.push('\t');
            out.push(*c);
        }
        out.push('\n');
    }
    out.push('\n');
    out.push_str(HEADING);
    out.push('\n');
}

/// Writes grid lines as text, their cells in `grid`.
fn write_rows(rows: &[SheetRow], grid: &str, out: &mut String) {
    out.reserve(grid.len() + rows.len() * 12);
    for row in rows {
        if row.side == Side::White {
            if row.number < 10 {
                out.push('0');
            }
            crate::ir::push_number(out, row.number);
        }
        // Runs of empty cells are runs of tabs.
        let b = row.bounds.map(|x| x as usize);
        let mut tabs = 0;
        for i in 0..8 {
            tabs += 1;
            if b[i] != b[i + 1] {
                out.push_str(&"\t\t\t\t\t\t\t\t"[..tabs]);
                out.push_str(grid.get(b[i]..b[i + 1]).unwrap_or(""));
                tabs = 0;
            }
        }
        out.push_str(&"\t\t\t\t\t\t\t\t\n"[8 - tabs..]);
    }
}

/// The header fields of a game's tags, in their order, and a SCORE when
/// there is no Result tag.
fn header(game: &Game, warnings: &mut Vec<Problem>) -> Result<Vec<(String, String)>, Problem> {
    let tags = super::super::tags::render(game);
    let mut fields = Vec::with_capacity(tags.len() + 1);
    for t in tags.iter() {
        if t.value.contains(['\r', '\n']) {
            return Err(Problem::whole(format!(
                "tag {} holds a line break, which a header field cannot",
                t.name
            ))
            .of_kind(Kind::CannotWrite));
        }
        let field = FIELDS
            .iter()
            .find(|(_, tag)| *tag == t.name)
            .map(|(f, _)| *f);
        let (name, value) = match field {
            Some("DATE") => match flip_date(&t.value, false) {
                Some(d) => ("DATE", d),
                None => (t.name.as_str(), t.value.clone()),
            },
            Some("SCORE") => match score_of(&t.value) {
                Some(s) => ("SCORE", s.to_string()),
                None => (t.name.as_str(), t.value.clone()),
            },
            Some(f) => (f, t.value.clone()),
            None => {
                let n = t.name.as_str();
                // The grid heading and ARRANGEMENT are read as what they
                // are, never as a tag: a tag of that name would not read back.
                let reserved = n == "NUMBER OF THE MOVE" || n == ARRANGEMENT;
                if n.is_empty() || n.starts_with(' ') || n.contains(['\t', '\r', '\n']) || reserved
                {
                    return Err(Problem::whole(format!(
                        "tag name {n} cannot be written as a header field",
                        n = crate::error::quote(n)
                    ))
                    .of_kind(Kind::CannotWrite));
                }
                if FIELDS.iter().any(|(f, _)| *f == n) {
                    warnings.push(
                        Problem::whole(format!("tag {n} has the name of a scoresheet field: it reads back as that field", n = crate::error::quote(n)))
                        .of_kind(Kind::TagNamedAsField),
                    );
                }
                (n, t.value.clone())
            }
        };
        fields.push((name.to_string(), value));
    }
    let result = game.effective_result();
    match game.tag("Result") {
        None => {
            let token = result.token();
            fields.push(match score_of(token) {
                Some(s) => ("SCORE".to_string(), s.to_string()),
                None => ("Result".to_string(), token.to_string()),
            });
        }
        Some(tag) => {
            if let Some(r) = game.result.filter(|r| GameResult::parse(tag) != Some(*r)) {
                warnings.push(
                    Problem::whole(format!(
                        "the game ends with {} but its Result tag says {}: \
                     a scoresheet keeps only the SCORE",
                        crate::error::quote(r.token()),
                        crate::error::quote(tag)
                    ))
                    .of_kind(Kind::ResultMismatch),
                );
            }
        }
    }
    Ok(fields)
}

/// The grid of a game's main line being laid out, a run of it at a time
/// (a whole game: one run): where the next ply stands, and whether move
/// numbers were renumbered.
#[derive(Debug, Default, Clone, Copy)]
pub struct Grid {
    /// The number and side of the next ply; `None` before the first.
    next: Option<(u32, Side)>,
    /// The number of the first ply.
    first: u32,
    renumbered: bool,
}

impl Grid {
    /// Lays out the main line of `game` (a game, or a run of one: the
    /// plies after those laid out before), adding its grid lines to
    /// `rows` and the text of their cells to `text`: each ply's cells as
    /// [`Cells`] spells them where it stands, its glyph after the last.
    pub fn add(
        &mut self,
        game: &Game,
        pieces: Pieces,
        rows: &mut Vec<SheetRow>,
        text: &mut String,
    ) -> Result<(), Problem> {
        chess_only(game)?;
        let line = &game.moves;
        rows.reserve(line.plies.len() + 1);
        text.reserve(line.plies.len() * 6);
        let (mut number, mut side) = match (self.next, line.plies.first()) {
            (Some(next), _) => next,
            (None, None) => return Ok(()),
            (None, Some(p)) => {
                self.first = p.number;
                if p.side == Side::Black {
                    let at = grid_end(text)?;
                    rows.push(SheetRow {
                        side: Side::White,
                        number: p.number,
                        bounds: [at; 9],
                    });
                }
                (p.number, p.side)
            }
        };
        let renumbered = &mut self.renumbered;
        crate::family::chess::hooks::Positions::walk(game, Lines::Main, |ply, spelling| {
            if ply.side != side {
                return Err(Problem::whole(format!(
                    "move {}: two moves of one side in a row, which a scoresheet cannot hold",
                    ply.number
                ))
                .of_kind(Kind::CannotWrite));
            }
            *renumbered |= ply.number != number;
            // The cells a ply fills are one or two neighbours: the ones before
            // them are empty, and so are the ones after.
            let mut at = grid_end(text)?;
            let mut cols = cells(ply, spelling, pieces, text)?;
            // The glyph ends the last cell.
            if let (Some(g), Some(last)) = (ply.suffix().0, cols.iter_mut().flatten().last()) {
                text.push_str(g);
                last.1 = grid_end(text)?;
            }
            let mut bounds = [0; 9];
            for (i, b) in bounds.iter_mut().enumerate() {
                *b = at;
                if let Some(&(_, end)) = cols.iter().flatten().find(|(c, _)| *c == i) {
                    at = end;
                }
            }
            rows.push(SheetRow {
                side,
                number,
                bounds,
            });
            if side == Side::Black {
                number = number.checked_add(1).ok_or_else(|| {
                    Problem::whole("move number too large").of_kind(Kind::CannotWrite)
                })?;
            }
            side = side.other();
            Ok(())
        })?;
        self.next = Some((number, side));
        Ok(())
    }

    /// The warning of move numbers renumbered, if they were.
    pub fn warning(&self) -> Option<Problem> {
        self.renumbered.then(|| {
            Problem::whole(format!(
                "move numbers that do not follow on were renumbered from {}",
                self.first
            ))
            .of_kind(Kind::Renumbered)
        })
    }
}

/// The end of the grid text so far, as a cell bound.
fn grid_end(text: &str) -> Result<u32, Problem> {
    u32::try_from(text.len())
        .map_err(|_| Problem::whole("a game too long for a scoresheet").of_kind(Kind::CannotWrite))
}

/// The cells a ply fills, by column and the end of each in the grid text.
type Filled = [Option<(usize, u32)>; 2];

/// Writes the cells of one ply, in column order: none for a null move, one
/// for a move, two for castling, as the replay's step spells it. The check
/// mark ends the last one.
fn cells(
    ply: &Ply,
    spelling: Spelling,
    pieces: Pieces,
    text: &mut String,
) -> Result<Filled, Problem> {
    let (m, spelling) =
        match *ply_of(&ply.mv).map_err(|e| Problem::whole(e).of_kind(Kind::WrongFamily))? {
            CPly::Null => return Ok([None, None]),
            CPly::Move(m) => (m, spelling),
            CPly::Claimed(c) => (c.meaning(), c.spelling()),
        };
    let end = grid_end;
    let letter = |r: Role| pieces.symbol(r, ply.side);
    let (first, col) = match m.castle {
        Some(Wing::King) => {
            text.push(letter(Role::Rook));
            let rook = (5, end(text)?);
            text.push(letter(Role::King));
            (Some(rook), 6)
        }
        Some(Wing::Queen) => {
            text.push(letter(Role::King));
            let king = (2, end(text)?);
            text.push(letter(Role::Rook));
            (Some(king), 3)
        }
        None => {
            cell(&m, spelling, ply, pieces, text)?;
            (None, usize::from(m.to.file()))
        }
    };
    text.push_str(match spelling.check {
        Check::None => "",
        Check::Check => "+",
        Check::Double => "++",
        Check::Mate => "#",
    });
    let last = Some((col, end(text)?));
    Ok(match first {
        Some(f) => [Some(f), last],
        None => [last, None],
    })
}

/// Writes the text of a move that is not castling, without check mark and
/// glyph: the piece, the file and rank of departure `spelling` shows (the
/// rank as a subscript), the rank of arrival and the capture.
fn cell(
    m: &CMove,
    spelling: Spelling,
    ply: &Ply,
    pieces: Pieces,
    s: &mut String,
) -> Result<(), Problem> {
    if spelling.file.is_some_and(|f| f > 7) || spelling.rank.is_some_and(|r| r > 7) {
        return Err(Problem::whole(format!(
            "move {}: a departure file or rank off the board",
            ply.number
        ))
        .of_kind(Kind::CannotWrite));
    }
    let rank = char::from(b'1' + m.to.rank());
    if m.role != Role::Pawn {
        s.push(pieces.symbol(m.role, ply.side));
        if let Some(f) = spelling.file {
            s.push(file_char(f));
        }
        if let Some(r) = spelling.rank {
            s.push(char::from_u32(u32::from('₁') + u32::from(r)).unwrap_or('_'));
        }
        s.push(rank);
        if m.capture {
            s.push('x');
        }
        return Ok(());
    }
    // A capturing pawn: `x` on the side of the file it comes from.
    let from_left = if m.capture {
        let from = m.from.map(|f| f.file()).or(spelling.file);
        match from {
            Some(f) if f != m.to.file() => Some(f < m.to.file()),
            _ => {
                return Err(Problem::whole(format!(
                    "move {}: a pawn capture without the file it comes from",
                    ply.number
                ))
                .of_kind(Kind::CannotWrite))
            }
        }
    } else {
        None
    };
    let body = match m.promotion {
        Some(Role::Pawn | Role::King) => {
            return Err(Problem::whole(format!(
                "move {}: a pawn cannot become a pawn or a king",
                ply.number
            ))
            .of_kind(Kind::CannotWrite))
        }
        Some(p) => pieces.symbol(p, ply.side),
        None => rank,
    };
    if from_left == Some(true) {
        s.push('x');
    }
    s.push(body);
    if from_left == Some(false) {
        s.push('x');
    }
    if m.en_passant {
        s.push_str(" e.p.");
    }
    Ok(())
}

/// What the writer drops, counted as a game's runs come.
#[derive(Debug, Default, Clone, Copy)]
pub struct Dropped {
    comments: usize,
    variations: usize,
    nags: usize,
}

impl Dropped {
    /// Counts the comments around a game's moves: before them, and after
    /// its main line.
    pub fn around(&mut self, game: &Game) {
        self.comments += game.preamble.len() + game.moves.trailing.len();
    }

    /// Counts what a line loses; on the main line a NAG `$1`..`$6` is kept
    /// as the move's suffix, in a variation everything is lost.
    fn line(&mut self, line: &Line, main: bool) {
        self.comments += line.trailing.len();
        self.plies(line, main);
    }

    /// `Dropped::line` but its trailing comments (a run's plies).
    pub fn plies(&mut self, line: &Line, main: bool) {
        for ply in &line.plies {
            self.comments += ply.before.len() + ply.after.len();
            self.nags += if main {
                ply.suffix().1.len()
            } else {
                ply.nags.len()
            };
            self.variations += ply.variations.len();
            for v in &ply.variations {
                self.line(v, false);
            }
        }
    }

    /// The warning of what was dropped, if anything was.
    pub fn warning(&self) -> Option<Problem> {
        let parts: Vec<String> = [
            (self.comments, "comment"),
            (self.variations, "variation"),
            (self.nags, "NAG"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}{}", if *n == 1 { "" } else { "s" }))
        .collect();
        (!parts.is_empty()).then(|| {
            Problem::whole(format!(
                "a scoresheet has no place for comments, variations and NAGs: dropped {}",
                parts.join(", ")
            ))
            .of_kind(Kind::DroppedAnnotations)
        })
    }
}

/// Writes one game as a scoresheet.
pub fn write(game: &Game, opts: &WriteOptions, out: &mut String) -> Result<Vec<Problem>, Problem> {
    crate::codec::write_runs(runs(opts), game, out)
}

/// The writer of a game as a scoresheet a run at a time
/// ([`crate::codec::RunsFn`]): the grid lines of each run of the main line
/// written as it comes (variations, comments and NAGs counted, to be
/// dropped), the header put before them at the end.
pub fn runs(opts: &WriteOptions) -> Box<dyn RunWriter> {
    Box::new(SheetRuns {
        pieces: opts
            .format
            .get::<Options>()
            .copied()
            .unwrap_or_default()
            .pieces,
        grid: Grid::default(),
        dropped: Dropped::default(),
        depth: 0,
        head: None,
    })
}

/// A game being written as a scoresheet ([`runs`]).
struct SheetRuns {
    pieces: Pieces,
    grid: Grid,
    dropped: Dropped,
    /// How deep in variations the runs coming are (0: the main line).
    depth: usize,
    /// The header's warnings, where it was written first (a whole game).
    head: Option<Vec<Problem>>,
}

/// The counts of one game's runs common to the scoresheet's writers: its
/// grid laid out, what it drops, how deep in variations the next run is.
pub trait Runs {
    /// The grid, what is dropped and the depth.
    fn parts(&mut self) -> (&mut Grid, &mut Dropped, &mut usize);
}

impl Runs for SheetRuns {
    fn parts(&mut self) -> (&mut Grid, &mut Dropped, &mut usize) {
        (&mut self.grid, &mut self.dropped, &mut self.depth)
    }
}

/// Counts a run: a variation's, dropped whole (`true` when it is of the
/// main line, to lay out).
pub fn counted(runs: &mut dyn Runs, run: &Game) -> Result<bool, Problem> {
    chess_only(run)?;
    let (_, dropped, depth) = runs.parts();
    dropped.plies(&run.moves, *depth == 0);
    Ok(*depth == 0)
}

/// A variation opens: dropped.
pub fn opened(runs: &mut dyn Runs) {
    let (_, dropped, depth) = runs.parts();
    dropped.variations += 1;
    *depth += 1;
}

/// The variation open closes, after `trailing` comments.
pub fn closed(runs: &mut dyn Runs, trailing: &[crate::ir::Comment]) -> Result<(), Problem> {
    let (_, dropped, depth) = runs.parts();
    *depth = depth.checked_sub(1).ok_or_else(crate::codec::not_open)?;
    dropped.comments += trailing.len();
    Ok(())
}

/// The game's warnings at its end: its header's, then the grid's, then
/// what was dropped.
pub fn ended(
    runs: &mut dyn Runs,
    game: &Game,
    mut warnings: Vec<Problem>,
) -> Result<Vec<Problem>, Problem> {
    let (grid, dropped, depth) = runs.parts();
    if *depth > 0 {
        return Err(crate::codec::left_open());
    }
    dropped.around(game);
    warnings.extend(grid.warning());
    warnings.extend(dropped.warning());
    Ok(warnings)
}

impl RunWriter for SheetRuns {
    fn head(&mut self, game: &Game, out: &mut String) -> Result<(), Problem> {
        let (fields, arrangement, warnings) = Sheet::head(game, self.pieces)?;
        write_head(&fields, arrangement.as_ref(), out);
        self.head = Some(warnings);
        Ok(())
    }

    fn run(&mut self, run: &Game, out: &mut String) -> Result<(), Problem> {
        if counted(self, run)? {
            let (mut rows, mut text) = (Vec::new(), String::new());
            self.grid.add(run, self.pieces, &mut rows, &mut text)?;
            write_rows(&rows, &text, out);
        }
        Ok(())
    }

    fn open(&mut self, _out: &mut String) -> Result<(), Problem> {
        opened(self);
        Ok(())
    }

    fn close(&mut self, trailing: &[crate::ir::Comment], _out: &mut String) -> Result<(), Problem> {
        closed(self, trailing)
    }

    fn end(
        mut self: Box<Self>,
        game: &Game,
        head: &mut String,
        _out: &mut String,
    ) -> Result<Vec<Problem>, Problem> {
        let warnings = match self.head.take() {
            Some(warnings) => warnings,
            None => {
                let (fields, arrangement, warnings) = Sheet::head(game, self.pieces)?;
                write_head(&fields, arrangement.as_ref(), head);
                warnings
            }
        };
        ended(&mut *self, game, warnings)
    }
}

/// The scoresheet's cells ([`crate::spell`]): the whole of what a ply
/// writes on the sheet, each cell it fills with its column, since where a
/// cell stands is part of what it says (`N3 (f)` is Nf3, `6 (h)` is h6):
/// in column order, blank-separated (`R (f) K+ (g)` for castling king
/// side), in the pieces of the options (English letters by default); the
/// empty string for a null move, which fills none.
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
        let filled = cells(ply, spelling, options.pieces, out)?;
        // From the last cell back, so that the ends before stay in place:
        // each cell's column after it, a blank between two cells.
        let mut later = false;
        for (col, end) in filled.into_iter().flatten().rev() {
            let end = end as usize;
            if later {
                out.insert(end, ' ');
            }
            let file = [b' ', b'(', b"abcdefgh"[col & 7], b')'];
            out.insert_str(end, std::str::from_utf8(&file).unwrap_or(""));
            later = true;
        }
        Ok(())
    }
}
