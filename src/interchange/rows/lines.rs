//! The rows of a game, a run at a time ([`runs`]) or whole ([`write`],
//! [`write_typed`]): its games and tags rows, and a moves row per ply,
//! each ply then its variations.

use super::*;

/// The error of a writer whose plies and move fields do not pair up (a
/// bug).
const LOST: &str = "the move fields lost their place in the game";

/// The error [`LOST`] (an internal one).
#[cold]
fn lost() -> Problem {
    Problem::whole(LOST).of_kind(crate::error::Kind::Internal)
}

/// Writes one game as `csv` container rows: its games row, its tags rows,
/// and a moves row per ply (each ply, then its variations), plus a row for
/// each variation without plies. The `move` column holds each move as the
/// format it was read from ([`WriteOptions::source`]) spells it: through
/// its spelling ([`SourceNotation::spell`]) where that is not the
/// family's canonical notation, whose spelling [`write_move_fields`]
/// gives.
pub fn write(game: &Game, opts: &WriteOptions, out: &mut String) -> Result<Vec<Problem>, Problem> {
    crate::codec::write_runs(runs(opts), game, out)
}

thread_local! {
    /// The columns of the game being written as typed rows: one a thread,
    /// its buffers kept from game to game.
    static GAME_COLUMNS: std::cell::RefCell<Columns> = std::cell::RefCell::new(Columns::default());
}

/// [`write()`] as typed rows (`Columns`, read by `typed::Typed`): the
/// rows of the `parquet` tables and of the Python package's, each table's
/// a column at a time. The game is written whole: its games and tags
/// rows, then each ply's moves row and its variations', as [`runs`]
/// writes them.
pub fn write_typed(
    game: &Game,
    opts: &WriteOptions,
    out: &mut String,
) -> Result<Vec<Problem>, Problem> {
    GAME_COLUMNS.with_borrow_mut(|cols| {
        let rows = Rows {
            fen: options(opts).fen,
        };
        cols.reset(rows.fen);
        head_rows(game, game.moves.plies.len(), cols)?;
        let mut plies = PlyRows::of(game, opts.source.as_ref(), rows)?;
        // The move fields' texts go to their columns whole, the rows
        // giving their codes.
        plies.placed = plies.plain && plies.fields.placed();
        let mut seq = 0;
        for (i, ply) in game.moves.plies.iter().enumerate() {
            plies.write(&mut seq, cols, ply, i + 1, "", &[])?;
            plies.variations(&mut seq, cols, ply, i + 1, "")?;
        }
        plies.done()?;
        if plies.placed {
            cols.place(&mut plies.fields);
        }
        cols.finish(out);
        Ok(Vec::new())
    })
}

/// The writer of a game's container rows a run at a time
/// ([`crate::codec::RunsFn`]): the moves rows as the runs come, the games
/// and tags rows (which say how many plies the main line has, and the
/// result) before them at the end. The last ply of a variation waits for
/// the next ply, the variation's end (its `comments_end`) or a variation
/// of it; a variation whose last move has a variation opened after it
/// and which ends in comments cannot be written so (its rows are
/// written), and the record is converted whole.
pub fn runs(opts: &WriteOptions) -> Box<dyn RunWriter> {
    Box::new(TableRuns {
        source: opts.source.clone(),
        rows: Rows {
            fen: options(opts).fen,
        },
        head_written: false,
        seq: 0,
        main_plies: 0,
        lines: vec![OpenLine::new(String::new(), true)],
    })
}

/// A game being written as rows a run at a time ([`runs`]).
struct TableRuns {
    source: Option<SourceNotation>,
    rows: Rows,
    /// Whether [`RunWriter::head`] wrote the games and tags rows first.
    head_written: bool,
    /// The moves rows written.
    seq: usize,
    /// The main line's plies written.
    main_plies: usize,
    /// The lines open, the main line first.
    lines: Vec<OpenLine>,
}

/// A line open in a game written a run at a time.
struct OpenLine {
    /// Its variation path (empty for the main line).
    path: String,
    main: bool,
    /// The plies written in it.
    plies: usize,
    /// The variations of its last ply so far.
    variations: usize,
    /// Its last ply's row and the rows of the variations read with it,
    /// with where the row's `comments_end` is, until it is known whether
    /// the line ends after it.
    pending: Option<(String, usize)>,
    /// Its last ply's row was written before the line's end was known (a
    /// variation of it opened).
    last_written: bool,
}

impl OpenLine {
    fn new(path: String, main: bool) -> OpenLine {
        OpenLine {
            path,
            main,
            plies: 0,
            variations: 0,
            pending: None,
            last_written: false,
        }
    }

    /// Writes the last ply's row held, its `comments_end` `end`.
    fn flush(&mut self, end: &[Comment], rows: Rows, out: &mut String) -> Result<(), Problem> {
        if let Some((mut text, at)) = self.pending.take() {
            rows.set_end(&mut text, at, end)?;
            out.push_str(&text);
        }
        Ok(())
    }
}

/// How a game's moves rows are written: whether they have the `fen`
/// column.
#[derive(Clone, Copy)]
struct Rows {
    fen: bool,
}

impl TableRuns {
    fn line(&mut self) -> Result<&mut OpenLine, Problem> {
        self.lines.last_mut().ok_or_else(crate::codec::not_open)
    }
}

impl RunWriter for TableRuns {
    fn head(&mut self, game: &Game, out: &mut String) -> Result<(), Problem> {
        head_rows(game, game.moves.plies.len(), out)?;
        self.head_written = true;
        Ok(())
    }

    fn run(&mut self, run: &Game, out: &mut String) -> Result<(), Problem> {
        let rows = self.rows;
        // Room for the rows (a moves row is about 200 bytes): the text is
        // not copied as it grows.
        out.reserve(run.moves.plies.len() * 256);
        let mut plies = PlyRows::of(run, self.source.as_ref(), rows)?;
        let seq = &mut self.seq;
        let line = self.lines.last_mut().ok_or_else(crate::codec::not_open)?;
        for ply in &run.moves.plies {
            line.flush(&[], rows, out)?;
            line.plies += 1;
            line.variations = ply.variations.len();
            line.last_written = false;
            let (index, path) = (line.plies, line.path.as_str());
            match line.main {
                true => {
                    plies.write(seq, out, ply, index, path, &[])?;
                    plies.variations(seq, out, ply, index, path)?;
                }
                false => {
                    let mut text = String::new();
                    let at = plies.write(seq, &mut text, ply, index, path, &[])?;
                    plies.variations(seq, &mut text, ply, index, path)?;
                    line.pending = Some((text, at));
                }
            }
        }
        if line.main {
            self.main_plies += run.moves.plies.len();
        }
        plies.done()
    }

    fn open(&mut self, out: &mut String) -> Result<(), Problem> {
        let rows = self.rows;
        let line = self.line()?;
        if line.plies == 0 {
            return Err(crate::codec::opened_first());
        }
        if line.pending.is_some() {
            line.flush(&[], rows, out)?;
            line.last_written = true;
        }
        line.variations += 1;
        let path = variation_path(&line.path, line.plies, line.variations);
        self.lines.push(OpenLine::new(path, false));
        Ok(())
    }

    fn close(&mut self, trailing: &[Comment], out: &mut String) -> Result<(), Problem> {
        if self.lines.len() < 2 {
            return Err(crate::codec::not_open());
        }
        let rows = self.rows;
        let mut line = self.lines.pop().expect("checked above");
        if line.plies == 0 {
            return rows.empty_variation(&mut self.seq, &line.path, trailing, out);
        }
        if line.last_written && !trailing.is_empty() {
            return Err(Problem::whole(
                "a variation ends in comments after a variation of its last move: written whole",
            )
            .of_kind(crate::error::Kind::NotStreamed));
        }
        line.flush(trailing, rows, out)
    }

    fn end(
        mut self: Box<Self>,
        game: &Game,
        head: &mut String,
        out: &mut String,
    ) -> Result<Vec<Problem>, Problem> {
        if self.lines.len() != 1 {
            return Err(crate::codec::left_open());
        }
        let rows = self.rows;
        self.line()?.flush(&[], rows, out)?;
        if !self.head_written {
            head_rows(game, self.main_plies, head)?;
        }
        Ok(Vec::new())
    }
}

/// The games row of a game whose main line has `plies` plies, and its
/// tags rows.
fn head_rows(game: &Game, plies: usize, out: &mut impl Out) -> Result<(), Problem> {
    let mut row = Row::start(out, 0);
    row.text(Some(game.family().name()))?;
    row.json(&game.variant)?;
    for tag in ROSTER {
        row.text(game.tag(tag))?;
    }
    row.int(plies as i64);
    row.text(game.result.map(|r| r.token()))?;
    match &game.setup {
        Some(setup) => row.json(setup)?,
        None => row.null(),
    }
    row.comments(&game.preamble)?;
    row.comments(&game.moves.trailing)?;
    row.end();
    for (i, tag) in game.tags.iter().enumerate() {
        let mut row = Row::start(out, 1);
        row.int(i as i64 + 1);
        row.text(Some(&tag.name))?;
        row.text(Some(&tag.value))?;
        row.end();
    }
    Ok(())
}

thread_local! {
    /// The move fields of the game being written ([`PlyRows`]): one a
    /// thread, its room kept from game to game (taken by
    /// [`PlyRows::of`], given back when the rows are dropped).
    static FIELDS: std::cell::Cell<Fields> = std::cell::Cell::new(Fields::default());
}

/// The move fields of each ply of a game (each ply, then its variations),
/// their `move` as the source spells it ([`source_spelling`]), written
/// into `fields` (emptied first).
fn fields_of(
    game: &Game,
    source: Option<&SourceNotation>,
    fields: &mut Fields,
) -> Result<(), Problem> {
    fields.reset(game.moves.plies.len());
    write_move_fields(game, fields)?;
    if let Some(spelled) = source_spelling(game, source) {
        if spelled.len() != fields.len() {
            return Err(lost());
        }
        for (i, text) in spelled.iter().enumerate() {
            // A move its source writes as nothing (a null move on a
            // scoresheet) keeps the family's spelling.
            if !text.is_empty() {
                fields.replace(i, Field::Written, text);
            }
        }
    }
    Ok(())
}

/// Each move of a game (in the order [`write_move_fields`] gives them) as
/// the source format spells it ([`crate::family::spell::every_ply`]),
/// where that is not what [`write_move_fields`] writes already: `None` for
/// a source of no family (an interchange format: json, xml, csv), for the
/// family's canonical notation (whose spelling [`Field::Written`] is), for
/// a format that spells no moves (one kifu only reads), and for a game it
/// cannot spell; then `move` is the family's canonical notation.
fn source_spelling(game: &Game, source: Option<&SourceNotation>) -> Option<Vec<String>> {
    let source = source.filter(|s| s.family == game.family())?;
    if source.name == game.family().canonical_notation() {
        return None;
    }
    (source.spell)(game, Lines::All, &source.read).ok()
}

/// The variation path of the `v`th variation of the `index`th ply of the
/// line at `path`.
fn variation_path(path: &str, index: usize, v: usize) -> String {
    match path {
        "" => format!("{index}.{v}"),
        _ => format!("{path}/{index}.{v}"),
    }
}

/// A move field's length as its column holds the field: `move` and
/// `canonical` are never NULL (empty where a family gives none),
/// `captured` is NULL where empty.
#[inline(always)]
fn in_column<V: Default + PartialEq>(field: Field, v: Option<V>) -> Option<V> {
    match field {
        Field::Written | Field::Canonical => Some(v.unwrap_or_default()),
        Field::Captured => v.filter(|v| *v != V::default()),
        _ => v,
    }
}

/// What one ply's moves row is written from.
struct PlyRow<'a> {
    seq: usize,
    /// The ply's place in its line, from 1.
    index: usize,
    ply: &'a Ply,
    /// The variation path (empty for the main line).
    path: &'a str,
    fields: PlyFields<'a>,
    /// Whether its game's fields hold nothing a csv field quotes, nor a
    /// NUL ([`PlyRows::plain`]).
    plain: bool,
    /// Whether its fields' texts are their columns' ([`PlyRows::placed`]).
    placed: bool,
    /// The position after it, where the `fen` column is asked for.
    fen: Option<&'a str>,
}

impl Rows {
    /// Writes one ply's moves row, `end` its `comments_end` (its line's
    /// comments after it where it is the line's last ply); gives where
    /// that value is in `out`, for [`Rows::set_end`]. (Inlined in
    /// [`PlyRows::write`], its one caller: the row's `PlyRow` is not
    /// put in memory and read back.)
    #[inline(always)]
    fn moves_row<O: Out>(
        &self,
        out: &mut O,
        r: &PlyRow<'_>,
        end: &[Comment],
    ) -> Result<usize, Problem> {
        let (f, ply) = (&r.fields, r.ply);
        let mut row = Row::start(out, 2);
        row.int(r.seq as i64);
        row.int(r.index as i64);
        row.int(i64::from(ply.number));
        row.word(match ply.side {
            Side::White => "white",
            Side::Black => "black",
        });
        row.text(Some(r.path).filter(|p| !p.is_empty()))?;
        // (Only the typed rows place fields: the test keeps the branch out
        // of the text rows' writer.)
        match O::ENC == Encoding::Typed && r.placed {
            // Their codes alone, from their lengths (their texts are
            // the columns' already).
            // (Written out: the compiler did not unroll a loop over the
            // fields, whose columns and `in_column`'s arms were then found
            // as it ran.)
            true => {
                row.placed(in_column(Field::Written, f.len(Field::Written)));
                row.placed(in_column(Field::Canonical, f.len(Field::Canonical)));
                row.placed(in_column(Field::From, f.len(Field::From)));
                row.placed(in_column(Field::To, f.len(Field::To)));
                row.placed(in_column(Field::Captured, f.len(Field::Captured)));
                row.placed(in_column(Field::Piece, f.len(Field::Piece)));
                row.placed(in_column(Field::Promotion, f.len(Field::Promotion)));
            }
            // (As `in_column` says, written out: a loop over the fields
            // made the text rows' writer slower.)
            false => {
                let plain = r.plain;
                row.move_field(Some(f.get(Field::Written).unwrap_or_default()), plain)?;
                row.move_field(Some(f.get(Field::Canonical).unwrap_or_default()), plain)?;
                row.move_field(f.get(Field::From), plain)?;
                row.move_field(f.get(Field::To), plain)?;
                row.move_field(f.get(Field::Captured).filter(|c| !c.is_empty()), plain)?;
                row.move_field(f.get(Field::Piece), plain)?;
                row.move_field(f.get(Field::Promotion), plain)?;
            }
        }
        row.flag(f.check());
        row.flag(f.mate());
        row.text(ply.glyph.as_deref())?;
        row.nags(&ply.nags);
        row.comments(&ply.before)?;
        row.comments(&ply.after)?;
        let at = row.out.mark();
        row.comments(end)?;
        row.ir(&ply.mv, || {
            [
                f.get(Field::Canonical).unwrap_or_default(),
                f.get(Field::Piece).unwrap_or_default(),
            ]
        })?;
        if self.fen {
            row.text(r.fen)?;
        }
        row.end();
        Ok(at)
    }

    /// Puts `end` in a moves row written without it (its `comments_end`
    /// NULL at `at` in `text`).
    fn set_end(&self, text: &mut String, at: usize, end: &[Comment]) -> Result<(), Problem> {
        if end.is_empty() {
            return Ok(());
        }
        let mut value = String::new();
        let mut row = Row {
            out: &mut value,
            table: 2,
            column: columns(2, false)
                .iter()
                .position(|c| c.0 == "comments_end")
                .unwrap_or_default(),
        };
        row.comments(end)?;
        // The NULL written there is one character, as the value's first.
        text.replace_range(at..at + 1, &value);
        Ok(())
    }

    /// The row of a variation without plies: a row of its own, with no
    /// move, numbered next.
    fn empty_variation(
        &self,
        seq: &mut usize,
        path: &str,
        end: &[Comment],
        out: &mut impl Out,
    ) -> Result<(), Problem> {
        *seq += 1;
        let mut row = Row::start(out, 2);
        row.int(*seq as i64);
        for _ in 0..3 {
            row.null();
        }
        row.text(Some(path))?;
        for _ in 0..13 {
            row.null();
        }
        row.comments(end)?;
        row.null();
        if self.fen {
            row.null();
        }
        row.end();
        Ok(())
    }
}

/// The moves rows of a game (or of a run of one): its plies' fields and
/// positions, taken in the order the rows are written (each ply, then its
/// variations).
struct PlyRows {
    rows: Rows,
    fields: Fields,
    /// Whether the fields' text holds nothing a csv field quotes (a comma,
    /// a quote, a line break) nor a NUL: then each field is written as it
    /// is ([`Row::word`]), not looked at again a byte at a time.
    plain: bool,
    /// Whether the fields' texts are to be their columns' text, handed
    /// over whole once the rows are written ([`Columns::place`]), each
    /// row giving only its fields' codes: where the rows are written a
    /// column at a time, the fields are `plain` and their texts each
    /// field's values one after another ([`Fields::placed`]).
    placed: bool,
    /// The plies written.
    next: usize,
    fens: Option<Vec<Option<String>>>,
}

impl PlyRows {
    /// The rows of `game`'s plies; their positions where `rows.fen` asks.
    fn of(game: &Game, source: Option<&SourceNotation>, rows: Rows) -> Result<PlyRows, Problem> {
        // The rows hold the fields from here, giving them back when
        // dropped, whatever fails.
        let mut plies = PlyRows {
            rows,
            plain: false,
            placed: false,
            fields: FIELDS.take(),
            next: 0,
            fens: None,
        };
        fields_of(game, source, &mut plies.fields)?;
        if rows.fen {
            let fens = positions(game);
            if fens.len() != plies.fields.len() {
                return Err(lost());
            }
            plies.fens = Some(fens);
        }
        let texts = plies.fields.texts().iter();
        plies.plain = texts.fold(0, |c, t| c | classes(t.as_bytes())) == 0;
        Ok(plies)
    }

    /// Writes the row of the `index`th ply of the line at `path`, numbered
    /// next, its `comments_end` `end`; gives where that value is in `out`
    /// ([`Rows::set_end`]).
    fn write(
        &mut self,
        seq: &mut usize,
        out: &mut impl Out,
        ply: &Ply,
        index: usize,
        path: &str,
        end: &[Comment],
    ) -> Result<usize, Problem> {
        let i = self.next;
        let fields = self.fields.get(i).ok_or_else(lost)?;
        let fen = match &self.fens {
            Some(fens) => fens.get(i).ok_or_else(lost)?.as_deref(),
            None => None,
        };
        self.next += 1;
        *seq += 1;
        let row = PlyRow {
            seq: *seq,
            index,
            ply,
            path,
            fields,
            plain: self.plain,
            placed: self.placed,
            fen,
        };
        self.rows.moves_row(out, &row, end)
    }

    /// The rows of a line whose variation path is `path` (empty for the
    /// main line, whose comments after its last ply are the games row's).
    fn line(
        &mut self,
        seq: &mut usize,
        out: &mut impl Out,
        line: &crate::ir::Line,
        path: &str,
    ) -> Result<(), Problem> {
        if line.plies.is_empty() {
            return self.rows.empty_variation(seq, path, &line.trailing, out);
        }
        let last = line.plies.len();
        for (i, ply) in line.plies.iter().enumerate() {
            let end = match i + 1 == last {
                true => &line.trailing[..],
                false => &[],
            };
            self.write(seq, out, ply, i + 1, path, end)?;
            self.variations(seq, out, ply, i + 1, path)?;
        }
        Ok(())
    }

    /// The rows of the variations of the `index`th ply of the line at
    /// `path` (inlined: most plies have none, and no call is made for
    /// them).
    #[inline(always)]
    fn variations(
        &mut self,
        seq: &mut usize,
        out: &mut impl Out,
        ply: &Ply,
        index: usize,
        path: &str,
    ) -> Result<(), Problem> {
        for (v, var) in ply.variations.iter().enumerate() {
            self.line(seq, out, var, &variation_path(path, index, v + 1))?;
        }
        Ok(())
    }

    /// The error of fields left over (a bug).
    fn done(&self) -> Result<(), Problem> {
        match self.next == self.fields.len() {
            true => Ok(()),
            false => Err(lost()),
        }
    }
}

impl Drop for PlyRows {
    /// Gives the fields' room back to the thread ([`FIELDS`]).
    fn drop(&mut self) {
        FIELDS.set(std::mem::take(&mut self.fields));
    }
}
