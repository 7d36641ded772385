//! `kifu diff`'s report: both inputs opened and paired ([`Pairs`]), each
//! pair compared ([`compare`]) and, where it differs, written as text (for
//! people) or as one JSON object a line, then a summary line; the counts
//! give the exit status ([`Counts::differ`]). The HTML page is
//! [`super::html`]'s.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::{
    compare, html, render_json, render_text, Entry, GameDiff, Games, Options, Paint, Pairs, Sided,
    Which,
};
use crate::archive::Groups;
use crate::codec::ReadOptions;
use crate::error::{Diagnostic, Error, Problem, Severity};
use crate::format::{self, Format};
use crate::input::{self, Damage};
use crate::output::STDOUT;
use crate::plan::{named, STDIN};
use crate::report::{closed_stdout, write_only};

/// One input of a diff, opened: its games, read in order as they are
/// asked for.
pub struct Input {
    /// The file as named (`-`: standard input).
    pub path: PathBuf,
    /// Its format.
    pub format: &'static Format,
    /// The format's options it is read with.
    read: crate::options::Settings,
    games: Games,
    damage: Damage,
}

/// Opens one input of a diff in its format ([`format_of`]), read with
/// `read` (the format's options, as `kifu diff` was given them).
pub fn open(path: &Path, format: &'static Format, read: ReadOptions) -> Result<Input, Error> {
    let (reader, damage) = if path.as_os_str() == STDIN {
        input::decompressed(io::stdin()).map_err(|e| Error::io(STDIN, e))?
    } else {
        input::open(path).map_err(|e| Error::io(path, e))?
    };
    Ok(Input {
        path: path.to_path_buf(),
        format,
        read: read.format.clone(),
        games: Games::new(reader, format, read),
        damage,
    })
}

/// The format of one side: as `--from-a`/`--from-b` names it, else as the
/// file's name says; one kifu reads.
pub fn format_of(path: &Path, named_as: Option<&str>) -> Result<&'static Format, Error> {
    let format = match named_as {
        Some(n) => named(n)?,
        None => format::guess(path).ok_or_else(|| {
            Error::Usage(format!(
                "cannot tell the format of {} from its name: name it with --from-a or --from-b",
                path.display()
            ))
        })?,
    };
    if format.read.is_none() {
        return Err(Error::Usage(write_only(format, true)));
    }
    Ok(format)
}

/// How a diff pairs, compares and reports.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// Pair games by these tags' values (`--match-tags`); empty: in order.
    pub match_tags: Vec<String>,
    /// How many games apart two games may be and still pair by tags.
    pub window: usize,
    /// Compare glyphs, NAGs and comments too.
    pub annotations: bool,
    /// How the report is written.
    pub style: Style,
    /// Colour the text report.
    pub paint: Paint,
    /// Write nothing: the counts alone say whether the inputs agree.
    pub quiet: bool,
}

/// How a diff's report is written (`--format`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Style {
    /// Text, for people (coloured on a terminal).
    #[default]
    Text,
    /// One JSON object a line.
    Json,
    /// One self-contained HTML page: the transcriptions side by side,
    /// the board at the first disagreement.
    Html,
}

/// What a diff found.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Pairs of games compared.
    pub pairs: usize,
    /// Pairs that agree.
    pub equal: usize,
    /// Pairs that differ.
    pub different: usize,
    /// Games of the first input only.
    pub only_a: usize,
    /// Games of the second input only.
    pub only_b: usize,
    /// Pairs that neither side could read (or replay), written alike where
    /// they were read: not compared, and no difference.
    pub unreadable: usize,
}

impl Counts {
    /// Whether the inputs differ: a pair differs or a game has no partner.
    pub fn differ(&self) -> bool {
        self.different + self.only_a + self.only_b > 0
    }

    /// The exit status of `kifu diff`: 1 where the inputs differ, else 2
    /// where a pair could be read on neither side (the inputs could not be
    /// told equal), else 0. `kifu diff F F` is never 1.
    pub fn status(&self) -> u8 {
        if self.differ() {
            1
        } else if self.unreadable > 0 {
            2
        } else {
            0
        }
    }
}

/// How a pair of games compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Equal,
    Different,
    /// Neither side could be read, or replayed (then their texts agree).
    Unreadable,
}

/// Compares two inputs of one family, writing the report to `out`
/// (standard output) and each note of the pairing, as a line, to `warn`.
/// A reader of `out` that stops reading ends the run quietly with what was
/// counted so far; a compressed input cut short is an error (it would look
/// like games missing).
pub fn run(
    a: Input,
    b: Input,
    settings: &Settings,
    out: &mut dyn Write,
    warn: &mut dyn FnMut(&str),
) -> Result<Counts, Error> {
    let (fa, fb) = (a.format, b.format);
    if let (Some(x), Some(y)) = (fa.family, fb.family) {
        if x != y {
            return Err(Error::Usage(format!(
                "{} is {} and {} is {}: diff compares notations of one family",
                fa.name,
                x.name(),
                fb.name,
                y.name()
            )));
        }
    }
    let report = Report {
        // Named as messages name an input: its controls escaped.
        names: [&a.path, &b.path]
            .map(|p| crate::error::escape_controls(&p.display().to_string()).into_owned()),
        formats: [fa, fb],
        reads: [a.read, b.read],
        settings,
    };
    let mut counts = Counts::default();
    let paths = [a.path, b.path];
    let damage = [a.damage, b.damage];
    let io_err = |e: io::Error| Error::io(STDOUT, e);
    let html = settings.style == Style::Html && !settings.quiet;
    let mut said = std::collections::HashSet::new();
    // What the readers said of each input's games (what they mended: a
    // capture mark on a move that captures nothing, castling in lower
    // case, ...), grouped by kind as `convert` groups them, so that a
    // transcription checker hears what a converter mends quietly.
    let mut mended: [Groups; 2] = Default::default();
    let compare_all = || -> Result<(), Error> {
        if html {
            out.write_all(html::HEAD.as_bytes()).map_err(io_err)?;
        }
        let mut pairs = Pairs::new(a.games, b.games, &settings.match_tags, settings.window);
        while let Some(pair) = pairs.next() {
            let (x, y) = pair.map_err(|(which, e)| match which {
                Which::A => Error::io(&paths[0], e),
                Which::B => Error::io(&paths[1], e),
            })?;
            let mut drawn = Vec::new();
            report
                .pair(&mut counts, x.as_ref(), y.as_ref(), out, &mut drawn)
                .map_err(io_err)?;
            for (side, entry) in [&x, &y].into_iter().enumerate() {
                let Some(entry) = entry else { continue };
                for w in &entry.warnings {
                    let d = Diagnostic {
                        severity: Severity::Warning,
                        file: paths[side].display().to_string(),
                        line: w.line,
                        col: w.col,
                        game: entry.number,
                        message: w.message.clone(),
                        kind: w.kind,
                    };
                    // Warnings are held to the end of the input: nothing
                    // is shown as it comes.
                    mended[side].add(d, false, &mut |_| {});
                }
            }
            for note in pairs.notes() {
                warn(&format!("kifu: warning: {note}"));
            }
            // What a board's drawing could not do (no font with tenjiku's
            // kanji) is the same for every board of the run: said once.
            for w in drawn {
                let line = format!("kifu: warning[{}]: {}", w.kind, w.message);
                if said.insert(line.clone()) {
                    warn(&crate::error::escape_controls(&line));
                }
            }
        }
        for (damage, path) in damage.iter().zip(&paths) {
            if let Some(e) = damage.take() {
                return Err(Error::io(path, e));
            }
        }
        if !settings.quiet {
            for groups in std::mem::take(&mut mended) {
                groups.report(&mut |d| warn(&d.render(false)));
            }
            report.summary(&counts, out).map_err(io_err)?;
        }
        out.flush().map_err(io_err)
    };
    match compare_all() {
        // A reader that stops reading (`kifu diff ... | head`) ends the
        // run quietly, as convert does; the counts say what was found.
        Err(e) if closed_stdout(&e) => {}
        other => other?,
    }
    Ok(counts)
}

/// What a report needs to name and compare the games of a pair.
struct Report<'s> {
    /// The inputs, as messages name them.
    names: [String; 2],
    formats: [&'static Format; 2],
    /// The formats' options the inputs are read with.
    reads: [crate::options::Settings; 2],
    settings: &'s Settings,
}

impl Report<'_> {
    /// Compares a pair (or a game of one input only), counts it and, when
    /// it differs and the report is not quiet, writes it.
    /// What drawing its board could not do as asked is put in `drawn`.
    fn pair(
        &self,
        counts: &mut Counts,
        ea: Option<&Entry>,
        eb: Option<&Entry>,
        out: &mut dyn Write,
        drawn: &mut Vec<Problem>,
    ) -> io::Result<()> {
        let [an, bn] = &self.names;
        let style = self.settings.style;
        let place = |e: Option<&Entry>| e.map(|e| json!({"game": e.number, "line": e.line}));
        let heading = match (ea, eb) {
            (Some(x), Some(y)) => format!(
                "game {} ({an}:{}) <> game {} ({bn}:{})",
                x.number, x.line, y.number, y.line
            ),
            (Some(x), None) => format!("game {} ({an}:{}): only in {an}", x.number, x.line),
            (None, Some(y)) => format!("game {} ({bn}:{}): only in {bn}", y.number, y.line),
            (None, None) => return Ok(()),
        };
        // The pair's place in the report, for the ids of its board.
        let n = counts.pairs + counts.only_a + counts.only_b;
        let (body, verdict) = match (ea, eb) {
            (Some(x), Some(y)) => {
                counts.pairs += 1;
                self.compared(x, y, &heading, n, drawn)
            }
            (Some(_), None) => {
                counts.only_a += 1;
                (json!({"only": "a"}), Verdict::Different)
            }
            _ => {
                counts.only_b += 1;
                (json!({"only": "b"}), Verdict::Different)
            }
        };
        if ea.is_some() && eb.is_some() {
            match verdict {
                Verdict::Different => counts.different += 1,
                Verdict::Equal => counts.equal += 1,
                Verdict::Unreadable => counts.unreadable += 1,
            }
        }
        // A pair unreadable on both sides is said, as a difference is.
        if verdict == Verdict::Equal || self.settings.quiet {
            return Ok(());
        }
        match (style, body) {
            (Style::Json, body) => {
                let line = json!({"a": place(ea), "b": place(eb), "differences": body});
                writeln!(out, "{line}")
            }
            (Style::Html, Value::String(section)) => write!(out, "{section}"),
            (Style::Html, _) => {
                let mut section = String::from("<section class=\"pair\">\n<h2>");
                crate::family::draw::escape(&heading, &mut section);
                section.push_str("</h2>\n</section>\n");
                write!(out, "{section}")
            }
            (Style::Text, body) => {
                writeln!(out, "{}", bold(&heading, self.settings.paint.on))?;
                match body {
                    Value::String(text) => write!(out, "{text}"),
                    _ => Ok(()),
                }
            }
        }
    }

    /// The differences of two games (text or an HTML section in a JSON
    /// string, or JSON), and whether there are any; `heading` and `n` name
    /// the pair in an HTML section.
    fn compared(
        &self,
        x: &Entry,
        y: &Entry,
        heading: &str,
        n: usize,
        drawn: &mut Vec<Problem>,
    ) -> (Value, Verdict) {
        let json = self.settings.style == Style::Json;
        match (&x.game, &y.game) {
            (Some(gx), Some(gy)) if gx.family() == gy.family() => {
                let (a, b) = (
                    Sided {
                        game: gx,
                        error: x.error.as_deref(),
                        format: self.formats[0],
                        read: &self.reads[0],
                    },
                    Sided {
                        game: gy,
                        error: y.error.as_deref(),
                        format: self.formats[1],
                        read: &self.reads[1],
                    },
                );
                let d = compare(
                    &a,
                    &b,
                    Options {
                        annotations: self.settings.annotations,
                    },
                );
                let [an, bn] = &self.names;
                let body = match self.settings.style {
                    Style::Json => render_json(&d),
                    Style::Text => Value::String(render_text(&d, self.settings.paint)),
                    Style::Html if d.is_empty() => Value::Null,
                    Style::Html => {
                        Value::String(html::pair(heading, n, [an, bn], &a, &b, &d, drawn))
                    }
                };
                // Both unplayable, and alike as written: not a difference.
                let alike = GameDiff {
                    illegal: (None, None),
                    ..d.clone()
                }
                .is_empty();
                let verdict = match (&d.illegal, alike) {
                    _ if d.is_empty() => Verdict::Equal,
                    ((Some(_), Some(_)), true) => Verdict::Unreadable,
                    _ => Verdict::Different,
                };
                (body, verdict)
            }
            _ => {
                let why = |e: &Entry| match (&e.game, &e.error) {
                    (Some(g), _) => format!("a {} game", g.family().name()),
                    (None, Some(err)) => format!("unreadable: {err}"),
                    (None, None) => "unreadable".to_string(),
                };
                let body = match json {
                    true => json!({"unreadable": {"a": why(x), "b": why(y)}}),
                    false => Value::String(format!("  a: {}\n  b: {}\n", why(x), why(y))),
                };
                let verdict = match (&x.game, &y.game) {
                    (None, None) => Verdict::Unreadable,
                    _ => Verdict::Different,
                };
                (body, verdict)
            }
        }
    }

    /// The summary line: the counts.
    fn summary(&self, c: &Counts, out: &mut dyn Write) -> io::Result<()> {
        let [an, bn] = &self.names;
        let unreadable = match c.unreadable {
            0 => String::new(),
            n => format!(", {n} unreadable on both sides"),
        };
        let text = format!(
            "{} of games compared: {} equal, {} different{unreadable}; {} only in {an}, {} only in {bn}",
            crate::report::counted(c.pairs, "pair", "pairs"),
            c.equal,
            c.different,
            c.only_a,
            c.only_b
        );
        match self.settings.style {
            Style::Json => {
                let line = json!({"summary": {
                    "pairs": c.pairs, "equal": c.equal, "different": c.different,
                    "unreadable": c.unreadable,
                    "only_in_a": c.only_a, "only_in_b": c.only_b,
                }});
                writeln!(out, "{line}")
            }
            Style::Text => writeln!(out, "{text}"),
            Style::Html => write!(out, "{}{}", html::summary(&text), html::TAIL),
        }
    }
}

/// A heading, bold when painted.
fn bold(text: &str, on: bool) -> String {
    if on {
        format!("\x1b[1m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(text: &str, format: &str) -> Input {
        let format = format::by_name(format).unwrap();
        let (reader, damage) = input::decompressed(io::Cursor::new(text.to_string())).unwrap();
        Input {
            path: PathBuf::from(format!("x.{}", format.extensions[0])),
            format,
            read: Default::default(),
            games: Games::new(reader, format, ReadOptions::default()),
            damage,
        }
    }

    #[test]
    fn pairs_are_counted_and_only_differences_written() {
        let a = input("1. e4 e5 *\n\n1. d4 *\n\n1. c4 *\n", "pgn");
        let b = input("1. e4 e5 *\n\n1. d4 d5 *\n", "pgn");
        let mut out = Vec::new();
        let mut notes = Vec::new();
        let settings = Settings {
            window: 1,
            ..Settings::default()
        };
        let counts = run(a, b, &settings, &mut out, &mut |n| {
            notes.push(n.to_string())
        })
        .unwrap();
        assert_eq!(
            counts,
            Counts {
                pairs: 2,
                equal: 1,
                different: 1,
                only_a: 1,
                only_b: 0,
                unreadable: 0
            }
        );
        assert!(counts.differ() && notes.is_empty());
        let text = String::from_utf8(out).unwrap();
        let headings: Vec<&str> = text.lines().filter(|l| l.starts_with("game ")).collect();
        assert_eq!(headings.len(), 2, "{text}");
        assert!(headings[0].starts_with("game 2 (x.pgn:"), "{text}");
        assert!(headings[0].contains(") <> game 2 (x.pgn:"), "{text}");
        assert!(headings[1].starts_with("game 3 (x.pgn:"), "{text}");
        assert!(headings[1].ends_with("): only in x.pgn"), "{text}");
        assert!(text.ends_with(
            "2 pairs of games compared: 1 equal, 1 different; 1 only in x.pgn, 0 only in x.pgn\n"
        ));
    }

    #[test]
    fn json_is_one_object_a_line_and_quiet_writes_nothing() {
        let settings = Settings {
            style: Style::Json,
            ..Settings::default()
        };
        let (a, b) = (input("1. e4 *\n", "pgn"), input("1. d4 *\n", "pgn"));
        let mut out = Vec::new();
        let counts = run(a, b, &settings, &mut out, &mut |_| {}).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert_eq!(lines[0]["a"], json!({"game": 1, "line": 1}));
        assert_eq!(lines[1]["summary"]["different"], 1);
        assert!(counts.differ());
        let quiet = Settings {
            quiet: true,
            ..settings
        };
        let (a, b) = (input("1. e4 *\n", "pgn"), input("1. d4 *\n", "pgn"));
        let mut out = Vec::new();
        assert!(run(a, b, &quiet, &mut out, &mut |_| {}).unwrap().differ());
        assert!(out.is_empty());
    }

    #[test]
    fn inputs_of_two_families_are_refused() {
        let (a, b) = (
            input("1. e4 *\n", "pgn"),
            input("1. 32-28 *\n", "draughts-num"),
        );
        let e = run(a, b, &Settings::default(), &mut Vec::new(), &mut |_| {}).unwrap_err();
        assert_eq!(
            e.to_string(),
            "pgn is chess and draughts-num is draughts: diff compares notations of one family"
        );
    }
}
