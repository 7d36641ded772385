//! What a run says: the diagnostics of `kifu convert` outside any game
//! (inputs skipped, folders with nothing to convert, inputs with no games,
//! damaged inputs, what the search for inputs found), which of them are
//! shown, the summary line that ends a conversion and its exit status, and
//! the table of `kifu formats`. The command line prints what these give;
//! `kifu diff`'s report is [`crate::diff::report`].

use std::io::{self, IsTerminal, Write};

use indicatif::{ProgressBar, ProgressStyle};

use crate::archive::Summary;
use crate::error::{Diagnostic, Error, Kind, Severity};
use crate::family::Family;
use crate::format::{Format, FORMATS};
use crate::output::STDOUT;

/// The names of the registry's formats that `which` keeps, in its order,
/// for help and messages (`pgn, draughts-num, ...`).
pub fn names(which: fn(&Format) -> bool) -> String {
    FORMATS
        .iter()
        .filter(|f| which(f))
        .map(|f| f.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The help of `--from` (`input`) or `--to`: the formats kifu reads or
/// writes.
pub fn format_help(input: bool) -> String {
    match input {
        true => format!(
            "Input format, guessed from each file's extension when omitted: {}",
            names(|f| f.read.is_some())
        ),
        false => format!(
            "Output format, guessed from -o's extension when omitted: {}",
            names(|f| f.write.is_some())
        ),
    }
}

/// The help of `--no-validate`: the families whose readers replay the
/// moves, which it turns off ([`Family::replays`]).
pub fn no_validate_help() -> String {
    let families: Vec<&str> = Family::ALL
        .iter()
        .copied()
        .filter(|f| f.replays())
        .map(Family::name)
        .collect();
    format!(
        "Read by syntax alone, without replaying the moves ({}: what could not be checked is \
         said in a warning)",
        families.join(", ")
    )
}

/// Why `f` cannot be the input (`input`) or the output it was named as,
/// and which formats can (of its family, or any family for an interchange
/// format).
pub fn write_only(f: &Format, input: bool) -> String {
    let (only, verb, can): (_, _, fn(&Format) -> bool) = if input {
        ("written", "read", |g| g.read.is_some())
    } else {
        ("read", "write", |g| g.write.is_some())
    };
    let fits = FORMATS
        .iter()
        .filter(|g| can(g) && (g.family.is_none() || f.family.is_none() || g.family == f.family))
        .map(|g| g.name)
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "{} is {only} only: kifu cannot {verb} it. Formats kifu {verb}s: {fits}",
        f.name
    )
}

/// A count and its noun: `1 game`, `2 games`.
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A diagnostic on a whole input (`file`), at no line.
fn whole(severity: Severity, file: String, message: String, kind: Kind) -> Diagnostic {
    Diagnostic {
        severity,
        file,
        line: 0,
        col: 0,
        game: 0,
        message,
        kind,
    }
}

/// A note of the search for inputs on `file` (an input, a link, an archive
/// member): a warning is of a link ([`Kind::Link`]), an error of an
/// input refused (a member refused, an archive damaged:
/// [`Kind::InputRefused`]).
pub fn note(severity: Severity, file: String, message: String) -> Diagnostic {
    let kind = match severity {
        Severity::Error => Kind::InputRefused,
        Severity::Warning => Kind::Link,
    };
    whole(severity, file, message, kind)
}

/// The warning for an input of another family than the output's, skipped
/// (`why`: [`crate::plan::family_mismatch`]).
pub fn skipped(input: String, why: &str) -> Diagnostic {
    whole(
        Severity::Warning,
        input,
        format!("skipped: {why}"),
        Kind::OtherFamily,
    )
}

/// The warning for a folder that holds nothing to convert (`why`:
/// [`crate::plan::Empty::why`]).
pub fn nothing_to_convert(folder: String, why: String) -> Diagnostic {
    whole(Severity::Warning, folder, why, Kind::NothingToConvert)
}

/// The warning for an input in which no game was found, read as `format`
/// (`named`: as `--from` named it; else as its name suggested), with what
/// its contents or name suggest it is instead (`; this looks like pgn: try --from pgn`).
pub fn no_games(input: String, format: &Format, named: bool, looks: Option<&Format>) -> Diagnostic {
    let hint = if named {
        "as --from names it"
    } else {
        "--from names another"
    };
    whole(
        Severity::Warning,
        input,
        format!(
            "no games in this input, read as {}: is that its format? ({hint}){}",
            format.name,
            looks_like(looks)
        ),
        Kind::NoGames,
    )
}

/// The warning, once for an input, that none of its `failed` games read
/// as `format` converted, and that its contents or name suggest `looks`.
pub fn every_game_failed(
    input: String,
    format: &Format,
    failed: usize,
    looks: &Format,
) -> Diagnostic {
    whole(
        Severity::Warning,
        input,
        format!(
            "every game of this input failed ({}), read as {}{}",
            counted(failed, "game", "games"),
            format.name,
            looks_like(Some(looks))
        ),
        Kind::OtherFormat,
    )
}

/// What an input's contents or name suggest it is
/// ([`crate::archive::sniff`]): `; this looks like pgn: try --from pgn`.
fn looks_like(looks: Option<&Format>) -> String {
    match looks {
        Some(f) => format!("; this looks like {0}: try --from {0}", f.name),
        None => String::new(),
    }
}

/// The error for a compressed input cut short or corrupt (`e`): the games
/// before the damage were read.
pub fn damaged(input: String, e: &io::Error) -> Diagnostic {
    whole(
        Severity::Error,
        input,
        format!(
            "damaged compressed data ({e}): the input ends there; the games before it were \
             read"
        ),
        Kind::DamagedInput,
    )
}

/// The error for an input whose output could not be written (`e`: its
/// folder or file could not be made or put in place: a name too long, a
/// file where a folder should be, no permission): that input (or its game
/// `game`, for a format of one game a file) fails alone and the run goes
/// on. `games` converted from it are not written; with none, it was not
/// converted.
pub fn output_failed(input: String, game: Option<usize>, games: usize, e: &Error) -> Diagnostic {
    let (what, others) = match (game, games) {
        (Some(n), _) => (format!("game {n} not written"), "games"),
        (None, 0) => ("not converted".to_string(), "inputs"),
        (None, n) => (
            format!("{} converted but not written", counted(n, "game", "games")),
            "inputs",
        ),
    };
    whole(
        Severity::Error,
        input,
        format!("{what}: its output cannot be written ({e}); the other {others} go on"),
        Kind::OutputFailed,
    )
}

/// How a diagnostic is shown on standard error, if it is: `--quiet` hides
/// warnings (errors are always shown); `color` paints it.
pub fn shown(d: &Diagnostic, quiet: bool, color: bool) -> Option<String> {
    (!quiet || d.severity != Severity::Warning).then(|| d.render(color))
}

/// Prints a line on standard error; a closed standard error is no reason to
/// stop (or to panic, as `eprintln!` does).
pub fn say(line: &str) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}

/// Whether to colour what is said on standard error, as `--color` says
/// (`always`, `never`, `auto`: on a terminal, unless `NO_COLOR` is set and
/// not empty).
pub fn color(choice: &str) -> bool {
    match choice {
        "always" => true,
        "never" => false,
        _ => {
            io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    }
}

/// What a conversion says on standard error as it runs: its diagnostics
/// ([`shown`]) and, on a terminal, for more than 8 MiB of input and unless
/// quiet, a progress bar (put aside while a line is said).
pub struct Console {
    quiet: bool,
    color: bool,
    bar: Option<ProgressBar>,
}

impl Console {
    /// Says what is not hidden by `quiet`, painted with `color`, with a bar
    /// for `total` bytes of input where there is one to show.
    pub fn new(quiet: bool, color: bool, total: u64) -> Console {
        let bar = (!quiet && io::stderr().is_terminal() && total > 8 << 20).then(|| {
            let bar = ProgressBar::new(total);
            if let Ok(style) =
                ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} {eta}")
            {
                bar.set_style(style);
            }
            bar
        });
        Console { quiet, color, bar }
    }

    /// Says a diagnostic, unless it is hidden.
    pub fn show(&self, d: &Diagnostic) {
        if let Some(line) = shown(d, self.quiet, self.color) {
            match &self.bar {
                Some(b) => b.suspend(|| say(&line)),
                None => say(&line),
            }
        }
    }

    /// Counts `n` more bytes of input done.
    pub fn progress(&self, n: usize) {
        if let Some(b) = &self.bar {
            b.inc(n as u64);
        }
    }

    /// Clears the bar, before the summary line.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

/// Whether an error is standard output closed by its reader (`kifu ... |
/// head`): the run ends there quietly, as Unix filters do.
pub fn closed_stdout(e: &Error) -> bool {
    matches!(e, Error::Io { path, source }
        if path.as_os_str() == STDOUT && source.kind() == io::ErrorKind::BrokenPipe)
}

/// What a conversion came to: the games' counts, the folders that held
/// nothing to convert and the inputs skipped (of another family).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Totals {
    /// The counts of the inputs converted (the search's notes included).
    pub summary: Summary,
    /// Folders that held nothing to convert (each a warning).
    pub empty: usize,
    /// Inputs skipped (each counted as a failure for the exit status).
    pub skipped: usize,
}

impl Totals {
    /// The line that ends a conversion:
    /// `converted 3 games, 1 failed, 1 damaged input, 2 warnings, 1 skipped`
    /// (the last three only when there are some).
    pub fn line(&self) -> String {
        let s = &self.summary;
        let mut line = format!(
            "converted {}, {} failed",
            counted(s.converted, "game", "games"),
            s.failed
        );
        if s.damaged > 0 {
            line.push_str(&format!(
                ", {} damaged",
                counted(s.damaged, "input", "inputs")
            ));
        }
        // The folders that held nothing to convert warned too.
        let warnings = s.warnings + self.empty;
        if warnings > 0 {
            line.push_str(&format!(", {}", counted(warnings, "warning", "warnings")));
        }
        if self.skipped > 0 {
            line.push_str(&format!(
                ", {} skipped",
                counted(self.skipped, "input", "inputs")
            ));
        }
        line
    }

    /// The exit status: 0 when everything converted, 1 when a game failed,
    /// an input was damaged or one was skipped.
    pub fn code(&self) -> u8 {
        u8::from(self.summary.failed > 0 || self.summary.damaged > 0 || self.skipped > 0)
    }
}

/// Writes `kifu formats`: every format with its extensions, family,
/// whether kifu reads and writes it and what it is, each followed by its
/// options.
pub fn formats(out: &mut dyn Write) -> io::Result<()> {
    let exts = |f: &Format| {
        f.extensions
            .iter()
            .map(|e| format!(".{e}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let name_w = FORMATS.iter().map(|f| f.name.len()).max().unwrap_or(4);
    let ext_w = FORMATS.iter().map(|f| exts(f).len()).max().unwrap_or(10);
    writeln!(
        out,
        "{:<name_w$}  {:<ext_w$}  {:<8}  {:<4}  what it is",
        "name", "extensions", "family", "r/w"
    )?;
    for f in FORMATS {
        let rw = format!(
            "{}{}",
            if f.read.is_some() { "r" } else { "-" },
            if f.write.is_some() { "w" } else { "-" }
        );
        writeln!(
            out,
            "{:<name_w$}  {:<ext_w$}  {:<8}  {:<4}  {}",
            f.name,
            exts(f),
            f.family.map_or("any", |fam| fam.name()),
            rw,
            f.description
        )?;
        for o in f.options.list {
            writeln!(out, "{:<name_w$}  option {}", "", o.describe())?;
        }
    }
    writeln!(
        out,
        "\nr: kifu reads it, w: kifu writes it. Games convert between formats of one family,\n\
         and from and to json and jsonl. Set an option with --from-opt or --to-opt NAME=VALUE."
    )?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_line_names_only_what_there_is() {
        let mut t = Totals::default();
        assert_eq!(t.line(), "converted 0 games, 0 failed");
        assert_eq!(t.code(), 0);
        t.summary.converted = 1;
        t.summary.warnings = 1;
        t.empty = 1;
        assert_eq!(t.line(), "converted 1 game, 0 failed, 2 warnings");
        assert_eq!(t.code(), 0);
        t.summary.damaged = 1;
        t.skipped = 2;
        assert_eq!(
            t.line(),
            "converted 1 game, 0 failed, 1 input damaged, 2 warnings, 2 inputs skipped"
        );
        assert_eq!(t.code(), 1);
    }

    #[test]
    fn quiet_hides_warnings_never_errors() {
        let w = nothing_to_convert("d".into(), "why".into());
        let e = damaged("x.gz".into(), &io::Error::other("cut"));
        assert!(shown(&w, true, false).is_none());
        assert!(shown(&w, false, false).is_some());
        assert!(shown(&e, true, false)
            .unwrap()
            .contains("damaged compressed data (cut)"));
    }

    #[test]
    fn no_validate_lists_the_families_that_replay() {
        assert_eq!(
            no_validate_help(),
            "Read by syntax alone, without replaying the moves (chess, draughts, coerceo, tafl, tenjiku: \
             what could not be checked is said in a warning)"
        );
    }

    #[test]
    fn a_write_only_format_names_the_formats_of_its_family() {
        let html = crate::format::by_name("sllavcco-html").unwrap();
        let text = write_only(html, true);
        assert!(text.starts_with("sllavcco-html is written only: kifu cannot read it."));
        assert!(
            text.contains("pgn") && !text.contains("draughts-num"),
            "{text}"
        );
    }
}
