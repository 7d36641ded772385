//! The format registry: every notation and interchange format kifu reads or
//! writes, with its name, file extensions, family, reader, writer and
//! description. A new format is one module and one entry in [`FORMATS`].

use std::path::Path;

use crate::codec::{Framing, Reader, RunsFn, Scan, SourceNotation, SpellFn, WriteFn};
use crate::container::scan::Scanner;
use crate::family::chess::{pgn, sllavcco, sllavcco_html};
use crate::family::coerceo::notation as coerceo;
use crate::family::draughts::{diag as draughts_diag, num as draughts_num, pdn as draughts};
use crate::family::hnefatafl::{aagenielsen, otn, tafl};
use crate::family::spell;
use crate::family::tenjiku::notation as tenjiku;
use crate::family::{self, Family};
use crate::interchange::{csv, json, parquet, rows, xml};
use crate::options::Options;
use crate::picture;

const CONTAINER: Framing = Framing {
    between: "\n",
    ..Framing::PLAIN
};

/// One format of the registry.
#[derive(Debug)]
pub struct Format {
    /// The name used by `--from` and `--to`.
    pub name: &'static str,
    /// File name endings, without the leading dot; the first is written.
    pub extensions: &'static [&'static str],
    /// Other names of the files it reads in a folder (or an archive) that
    /// `--from` names it for, beside those with its extensions: patterns
    /// with one `*` (`game-*.json`). A file of the folder that matches
    /// neither is not its (an index beside the records, say) and is left
    /// alone ([`in_folder`]).
    pub names: &'static [&'static str],
    /// The family whose games it holds; `None` for interchange formats.
    pub family: Option<Family>,
    /// One line for `kifu formats`.
    pub description: &'static str,
    /// How its records are found in a stream: the format's own scanner.
    pub split: &'static dyn Scan,
    /// The reader, if kifu reads the format: one entry point, the walk
    /// of a container notation (to the visitor that builds the game, or a
    /// run at a time) or the whole read of a format without one.
    pub read: Option<Reader>,
    /// The writer, if kifu writes the format.
    pub write: Option<WriteFn>,
    /// The writer of a game a run at a time, for what a walk reads
    /// ([`Reader::Walk`]); `None` where games are written whole.
    pub runs: Option<RunsFn>,
    /// How the notation spells each ply of a game, as its writer does
    /// ([`crate::family::spell::plies`] of the notation); `None` for a format that
    /// spells no moves of its own (an interchange format, a notation kifu
    /// only reads).
    pub spell: Option<SpellFn>,
    /// What goes around the games of one output.
    pub framing: Framing,
    /// Whether each output holds one game (a picture, `svg`): under
    /// `--out-dir` each game is a file of its own (`name.N.svg`, from 1),
    /// and `-o` or standard output take one game (a second is an error
    /// that says to use `--out-dir`).
    pub one_game: bool,
    /// The options it declares, and its typed options' builder.
    pub options: Options,
}

impl Format {
    /// The notation as an output that keeps each move as its source spelled
    /// it needs it ([`WriteOptions::source`]), read with the options `read`:
    /// `None` for a format that spells no moves of its own.
    ///
    /// [`WriteOptions::source`]: crate::codec::WriteOptions::source
    pub fn source_notation(&self, read: &crate::options::Settings) -> Option<SourceNotation> {
        Some(SourceNotation {
            name: self.name,
            family: self.family?,
            spell: self.spell?,
            read: read.clone(),
        })
    }
}

/// Every format kifu knows.
pub static FORMATS: &[Format] = &[
    Format {
        name: "pgn",
        extensions: &["pgn"],
        names: &[],
        family: Some(Family::Chess),
        description: "chess games in PGN, the standard notation of chess databases (1. e4 e5 2. Nf3); every move is checked",
        split: &Scanner::new(&family::chess::DIALECT),
        read: Some(Reader::Walk(pgn::walk)),
        write: Some(pgn::write),
        runs: Some(pgn::runs),
        spell: Some(spell::plies::<pgn::San>),
        framing: CONTAINER,
        one_game: false,
        options: Options::NONE,
    },
    Format {
        name: "draughts-num",
        extensions: &["pdn"],
        names: &[],
        family: Some(Family::Draughts),
        description: "draughts games in PDN with numbered squares (32-28, 28x19x10), international, English, Italian, Russian and other boards",
        split: &Scanner::new(&family::draughts::DIALECT),
        read: Some(Reader::Walk(draughts_num::walk)),
        write: Some(draughts_num::write),
        runs: Some(draughts_num::runs),
        spell: Some(spell::plies::<draughts_num::Numbers>),
        framing: CONTAINER,
        one_game: false,
        options: Options::of::<draughts::Options>(),
    },
    Format {
        name: "draughts-diag",
        extensions: &["diag.pdn"],
        names: &[],
        family: Some(Family::Draughts),
        description: "draughts games in PDN with diagonal coordinates (f45, gf5, e8g6x)",
        split: &Scanner::new(&family::draughts::DIALECT),
        read: Some(Reader::Walk(draughts_diag::walk)),
        write: Some(draughts_diag::write),
        runs: Some(draughts_diag::runs),
        spell: Some(spell::plies::<draughts_diag::Diagonal>),
        framing: CONTAINER,
        one_game: false,
        options: Options::of::<draughts::Options>(),
    },
    Format {
        name: "sllavcco",
        extensions: &["sllavcco"],
        names: &[],
        family: Some(Family::Chess),
        description: "chess games on Sllavcco's column scoresheet, the \"new chess notation\" (Q3 written in column c is Qc3), as text",
        split: &sllavcco::SheetScan,
        read: Some(Reader::Whole(sllavcco::read)),
        write: Some(sllavcco::write),
        runs: Some(sllavcco::runs),
        spell: Some(spell::plies::<sllavcco::Cells>),
        framing: CONTAINER,
        one_game: false,
        options: Options::of::<sllavcco::Options>(),
    },
    Format {
        name: "sllavcco-html",
        extensions: &["html"],
        names: &[],
        family: Some(Family::Chess),
        description: "the same scoresheet as a web page to print, one page per 60 moves, with figurines (written only)",
        split: &sllavcco::SheetScan,
        read: None,
        write: Some(sllavcco_html::write),
        runs: Some(sllavcco_html::runs),
        spell: Some(spell::plies::<sllavcco_html::Cells>),
        framing: sllavcco_html::FRAMING,
        one_game: false,
        options: Options::of::<sllavcco_html::Options>(),
    },
    Format {
        name: "coerceo",
        extensions: &["coerceo"],
        names: &[],
        family: Some(Family::Coerceo),
        description: "Coerceo games in Coerceo game notation (1# 3c-3e 2# 4b-3d, x14a, T14, TT)",
        split: &Scanner::new(&family::coerceo::DIALECT),
        read: Some(Reader::Walk(coerceo::walk)),
        write: Some(coerceo::write),
        runs: Some(coerceo::runs),
        spell: Some(spell::plies::<coerceo::Cgn>),
        framing: CONTAINER,
        one_game: false,
        options: Options::of::<coerceo::Options>(),
    },
    Format {
        name: "tafl",
        extensions: &["tafl"],
        names: &[],
        family: Some(Family::Tafl),
        description:
            "hnefatafl (tafl) games in tafl notation: 1. E5-E8 D4-D2, captures E5-E8xD8/F8, [Rules \"copenhagen\"]",
        split: &Scanner::new(&family::hnefatafl::DIALECT),
        read: Some(Reader::Walk(tafl::walk)),
        write: Some(tafl::write),
        runs: Some(tafl::runs),
        spell: Some(spell::plies::<tafl::Tafl>),
        framing: CONTAINER,
        one_game: false,
        options: Options::of::<tafl::Options>(),
    },
    Format {
        name: "otn",
        extensions: &["otg"],
        names: &[],
        family: Some(Family::Tafl),
        description:
            "hnefatafl games as OpenTafl saves them (.otg): [rules:dim:11 ...], 1. d1-d3 Ke5-f5xf6",
        split: &otn::OtnScan,
        read: Some(Reader::Walk(otn::walk)),
        write: Some(otn::write),
        runs: Some(otn::runs),
        spell: Some(spell::plies::<otn::Otn>),
        framing: Framing::PLAIN,
        one_game: false,
        options: Options::of::<tafl::Options>(),
    },
    Format {
        name: "aagenielsen-json",
        extensions: &["aagenielsen.json"],
        names: &["game-*.json"],
        family: Some(Family::Tafl),
        description: "hnefatafl games downloaded from aagenielsen.dk, JSON move lists (read only; in a folder, its game-*.json files)",
        split: &json::ArrayScan,
        read: Some(Reader::Whole(aagenielsen::read)),
        write: None,
        runs: None,
        spell: None,
        framing: CONTAINER,
        one_game: false,
        options: Options::of::<aagenielsen::Options>(),
    },
    Format {
        name: "tenjiku",
        extensions: &["tenjiku"],
        names: &[],
        family: Some(Family::Tenjiku),
        description: "tenjiku shogi games in Hodges' English notation (P-8g, Nx7d=, FiD 6h-7e, Lnx!7d); every move is checked",
        split: &Scanner::new(&family::tenjiku::DIALECT),
        read: Some(Reader::Walk(tenjiku::walk)),
        write: Some(tenjiku::write),
        runs: Some(tenjiku::runs),
        spell: Some(spell::plies::<tenjiku::Hodges>),
        framing: CONTAINER,
        one_game: false,
        options: Options::of::<family::tenjiku::Options>(),
    },
    Format {
        name: "json",
        extensions: &["json"],
        names: &[],
        family: None,
        description: "any game as JSON, one array of games: everything kifu knows about each game, for programs",
        split: &json::ArrayScan,
        read: Some(Reader::Whole(json::read)),
        write: Some(json::write),
        runs: Some(json::runs),
        spell: None,
        framing: Framing {
            head: "[\n",
            between: ",\n",
            tail: "\n]\n",
            title: None,
        },
        one_game: false,
        options: Options::NONE,
    },
    Format {
        name: "jsonl",
        extensions: &["jsonl"],
        names: &[],
        family: None,
        description: "any game as JSON Lines, one game a line (for streaming and databases)",
        split: &json::LineScan,
        read: Some(Reader::Whole(json::read)),
        write: Some(json::write_line),
        runs: Some(json::runs_line),
        spell: None,
        framing: Framing::PLAIN,
        one_game: false,
        options: Options::NONE,
    },
    Format {
        name: "xml",
        extensions: &["xml"],
        names: &[],
        family: None,
        description: "any game as XML, one document of games valid against schema/kifu.xsd (kifu schema --xsd prints it), for exchange with other programs",
        split: &xml::GameScan,
        read: Some(Reader::Whole(xml::read)),
        write: Some(xml::write),
        runs: Some(xml::runs),
        spell: None,
        framing: xml::FRAMING,
        one_game: false,
        options: Options::NONE,
    },
    Format {
        name: "csv",
        extensions: &["csv"],
        names: &[],
        family: None,
        description: "any game as database tables games.csv, tags.csv and moves.csv in a folder (--out-dir DIR writes them, --from csv DIR reads them)",
        split: &csv::TableScan,
        read: Some(Reader::Whole(csv::read)),
        write: Some(csv::write),
        runs: Some(csv::runs),
        spell: None,
        framing: Framing::PLAIN,
        one_game: false,
        options: Options::of::<rows::Options>(),
    },
    Format {
        name: "parquet",
        extensions: &["parquet"],
        names: &[],
        family: None,
        description: "any game as the csv tables in Apache Parquet files games.parquet, tags.parquet and moves.parquet in a folder, typed and Zstandard-compressed (written only; --out-dir DIR)",
        split: &parquet::ParquetScan,
        read: None,
        write: Some(rows::write_typed),
        runs: None,
        spell: None,
        framing: Framing::PLAIN,
        one_game: false,
        options: Options::of::<rows::Options>(),
    },
    Format {
        name: "svg",
        extensions: &["svg"],
        names: &[],
        family: None,
        description: "a game's board as an SVG picture, the last position or the one after a ply (written only; every family; one file per game)",
        split: &json::LineScan,
        read: None,
        write: Some(picture::svg),
        runs: Some(picture::svg_runs),
        spell: None,
        framing: Framing::PLAIN,
        one_game: true,
        options: Options::of::<picture::Options>(),
    },
    Format {
        name: "html",
        extensions: &["view.html"],
        names: &[],
        family: None,
        description: "the games of an input on one self-contained web page: each board stepped through by click and arrow keys beside its moves (written only; every family)",
        split: &json::LineScan,
        read: None,
        write: Some(picture::html::write),
        runs: Some(picture::html::runs),
        spell: None,
        framing: picture::html::FRAMING,
        one_game: false,
        options: Options::of::<picture::Options>(),
    },
];

/// The format with this name.
pub fn by_name(name: &str) -> Option<&'static Format> {
    FORMATS.iter().find(|f| f.name.eq_ignore_ascii_case(name))
}

/// The readable format a file name's ending names (the longest ending wins:
/// `x.diag.pdn` is draughts-diag, `x.pdn` draughts-num).
pub fn guess(path: &Path) -> Option<&'static Format> {
    // A format kept in a folder (csv) is never guessed from a file name.
    by_ending(path, |f| f.read.is_some() && f.split.folder().is_none())
}

/// The format of a file found in a folder (or an archive): with `from`
/// (`--from`), that format where the file is one it reads (by an extension
/// of its, or one of its [`Format::names`]), else none; without, the
/// format its ending names ([`guess`]).
pub fn in_folder(path: &Path, from: Option<&'static Format>) -> Option<&'static Format> {
    let guessed = guess(path);
    let Some(from) = from else {
        return guessed;
    };
    if guessed.is_some_and(|g| std::ptr::eq(g, from)) {
        return Some(from);
    }
    let name = path.file_name()?.to_str()?.to_ascii_lowercase();
    let name = crate::input::uncompressed_name(&name);
    from.names
        .iter()
        .any(|pattern| match pattern.split_once('*') {
            Some((head, tail)) => {
                name.len() >= head.len() + tail.len()
                    && name.starts_with(head)
                    && name.ends_with(tail)
            }
            None => name == *pattern,
        })
        .then_some(from)
}

/// What [`in_folder`] looks for with `--from`: the format's extensions and
/// names (`.aagenielsen.json, game-*.json`).
pub fn looked_for(from: &Format) -> String {
    from.extensions
        .iter()
        .map(|e| format!(".{e}"))
        .chain(from.names.iter().map(|n| n.to_string()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The format kifu writes for a file name (`sheet.html` is
/// sllavcco-html), for `-o` without `--to`.
pub fn guess_written(path: &Path) -> Option<&'static Format> {
    by_ending(path, |f| f.write.is_some())
}

/// The format of `which` whose extension ends the file name (the longest
/// such, so that `.diag.pdn` wins over `.pdn`), under a compression
/// extension.
fn by_ending(path: &Path, which: fn(&Format) -> bool) -> Option<&'static Format> {
    let name = path.file_name()?.to_str()?.to_ascii_lowercase();
    let name = crate::input::uncompressed_name(&name);
    FORMATS
        .iter()
        .filter(|f| which(f))
        .flat_map(|f| f.extensions.iter().map(move |e| (f, *e)))
        .filter(|(_, e)| {
            name.len() > e.len() + 1
                && name.ends_with(e)
                && name.as_bytes()[name.len() - e.len() - 1] == b'.'
        })
        .max_by_key(|(_, e)| e.len())
        .map(|(f, _)| f)
}

/// A file name without the ending of its format (or its last extension),
/// and without a compression extension before it (`games.pgn.gz` -> `games`).
pub fn stem(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = crate::input::uncompressed_name(&name).to_string();
    if let Some(f) = guess(path) {
        for e in f.extensions {
            if name.to_ascii_lowercase().ends_with(&format!(".{e}")) {
                return name[..name.len() - e.len() - 1].to_string();
            }
        }
    }
    match name.rfind('.') {
        Some(i) if i > 0 => name[..i].to_string(),
        _ => name,
    }
}
