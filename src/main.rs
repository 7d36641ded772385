//! The `kifu` command line: a thin layer over the library.

use std::fs;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use kifu::archive::{convert_stream, Converter, Report, Sink, Summary};
use kifu::codec::{Games, ReadOptions, Tables, WriteOptions};
use kifu::error::{Diagnostic, Error};
use kifu::format::{self, Format, FORMATS};
use kifu::options::{self, Given, Side, Sides, Values};
use kifu::output::{self, is_temporary, OutFile, Output, Planned, STDOUT};

/// Standard input's name in messages.
const STDIN: &str = "-";

#[derive(Parser)]
#[command(
    name = "kifu",
    version,
    about = "Convert board-game records between notations"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Convert records from one notation to another.
    Convert(Box<ConvertArgs>),
    /// List every format with its extensions, family, and read/write support.
    Formats,
    /// Show where two transcriptions of the same games disagree (exit 0:
    /// equal, 1: different, 2: error).
    Diff(DiffArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish,
    /// powershell) to standard output.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print kifu's manual page (roff) to standard output, or the page of
    /// one command (`kifu man convert` is kifu-convert(1)).
    Man {
        /// The command whose page to print.
        #[arg(value_parser = PAGES.map(|(name, _)| name))]
        command: Option<String>,
    },
    /// Print the SQL CREATE TABLE statements that load the csv tables
    /// (games.csv, tags.csv, moves.csv) as they are.
    Schema(SchemaArgs),
}

#[derive(clap::Args)]
struct SchemaArgs {
    /// The SQL dialect.
    #[arg(long, value_name = "DIALECT", default_value = "sqlite", num_args = 0..=1,
          default_missing_value = "sqlite", value_parser = kifu::interchange::csv::DIALECTS)]
    sql: String,
}

#[derive(clap::Args)]
struct DiffArgs {
    /// The first transcription.
    a: PathBuf,
    /// The second transcription, in any notation of the same family.
    b: PathBuf,
    /// The format of the first file; guessed from its name when omitted.
    #[arg(long)]
    from_a: Option<String>,
    /// The format of the second file; guessed from its name when omitted.
    #[arg(long)]
    from_b: Option<String>,
    /// Pair games by these tags (comma-separated, e.g. White,Black,Date,Round)
    /// instead of by their order.
    #[arg(long, value_delimiter = ',')]
    match_tags: Vec<String>,
    /// With --match-tags: how many games apart two games may be and still
    /// pair (the games waiting for a partner are held in memory).
    #[arg(long, value_name = "GAMES", default_value_t = kifu::diff::MATCH_WINDOW)]
    match_window: usize,
    /// Compare glyphs, NAGs and comments too.
    #[arg(long)]
    annotations: bool,
    /// How to report: text (for people) or json (one object a line).
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    format: String,
    /// Print nothing: the exit status says whether the files agree.
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Colour the text report: auto (on a terminal), always, never.
    #[arg(long, default_value = "auto", value_parser = ["auto", "always", "never"])]
    color: String,
}

#[derive(clap::Args)]
struct ConvertArgs {
    /// Input format; guessed from each file's extension when omitted (help
    /// built from the registry).
    #[arg(long, short = 'f', value_name = "FORMAT")]
    from: Option<String>,
    /// Output format; guessed from -o's extension when omitted (help built
    /// from the registry).
    #[arg(long, short = 't', value_name = "FORMAT")]
    to: Option<String>,
    /// Files, directories (searched recursively) or `-` for standard input.
    #[arg(default_value = "-")]
    inputs: Vec<PathBuf>,
    /// Write everything to this file instead of standard output (csv: the
    /// moves table).
    #[arg(long, short = 'o', conflicts_with = "out_dir")]
    output: Option<PathBuf>,
    /// Write one output file per input file here, mirroring directories
    /// (csv: the three tables of the whole run).
    #[arg(long)]
    out_dir: Option<PathBuf>,
    /// Stop at the first failed game; warnings count as failures.
    #[arg(long)]
    strict: bool,
    /// An option of the input format, NAME=VALUE (repeatable; the options
    /// of each format are listed below and by `kifu formats`).
    #[arg(long = "from-opt", value_name = "NAME=VALUE")]
    from_opt: Vec<String>,
    /// An option of the output format, NAME=VALUE (repeatable).
    #[arg(long = "to-opt", value_name = "NAME=VALUE")]
    to_opt: Vec<String>,
    /// Shorthand for --from-opt board=V (help built from the registry).
    #[arg(long)]
    variant: Option<String>,
    /// Read by syntax alone, without replaying the moves (chess, draughts,
    /// tafl: what could not be checked is said in a warning).
    #[arg(long)]
    no_validate: bool,
    /// Read every record with the pest grammar, never the fast lexer (to
    /// compare the two).
    #[arg(long, hide = true)]
    grammar_only: bool,
    /// Shorthand for --from-opt pieces=P --to-opt pieces=P (help built from
    /// the registry).
    #[arg(long)]
    pieces: Option<String>,
    /// Shorthand for --to-opt rotate=DEGREES (help built from the registry).
    #[arg(long)]
    rotate: Option<String>,
    /// Shorthand for --to-opt mirror=yes: mirror every square written left
    /// to right (tafl, otn).
    #[arg(long)]
    mirror: bool,
    /// Append the text of every failed game to this file.
    #[arg(long)]
    rejects: Option<PathBuf>,
    /// Print no warnings or progress (errors and the summary line are still
    /// printed); twice (-qq), no summary line either.
    #[arg(long, short = 'q', action = clap::ArgAction::Count)]
    quiet: u8,
    /// Print every warning where it occurs, instead of one line per kind of
    /// warning and input with its count and first place.
    #[arg(long, short = 'v', conflicts_with = "quiet")]
    verbose: bool,
    /// Colour the messages: auto (on a terminal, unless NO_COLOR is set),
    /// always, never.
    #[arg(long, default_value = "auto", value_parser = ["auto", "always", "never"])]
    color: String,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// The largest game record read (default 16M), in bytes or with a
    /// suffix K, M or G (powers of 1024): a larger one fails, alone, and is
    /// skipped unread.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_record_size: Option<usize>,
}

/// A size such as `65536`, `64K`, `64M`, `1G` or `64MiB`.
fn parse_size(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(t);
    let (digits, shift) = match t.char_indices().last() {
        Some((i, 'k' | 'K')) => (&t[..i], 10),
        Some((i, 'm' | 'M')) => (&t[..i], 20),
        Some((i, 'g' | 'G')) => (&t[..i], 30),
        _ => (t, 0),
    };
    digits
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("`{text}` is no size: write bytes, or a number with K, M or G"))
}

/// The stack of each worker thread (address space: pages are only
/// committed as they are used).
const WORKER_STACK: usize = 16 << 20;

/// The flags kept from before options belonged to formats: each sets one
/// format option, on its sides, of every format of the run that has it.
const SHORTHANDS: [(&str, &str, Sides); 3] = [
    ("pieces", "pieces", Sides::Both),
    ("variant", "board", Sides::Read),
    ("rotate", "rotate", Sides::Write),
];

/// The command line, with the help that lists the formats' options built
/// from the registry.
fn command() -> clap::Command {
    Cli::command().mut_subcommand("convert", |mut convert| {
        for (flag, option, sides) in SHORTHANDS {
            convert = convert.mut_arg(flag, |a| a.help(shorthand_help(option, sides)));
        }
        convert
            .mut_arg("from", |a| {
                a.help(format!(
                    "Input format, guessed from each file's extension when omitted: {}",
                    names(|f| f.read.is_some())
                ))
            })
            .mut_arg("to", |a| {
                a.help(format!(
                    "Output format, guessed from -o's extension when omitted: {}",
                    names(|f| f.write.is_some())
                ))
            })
            .after_help(format!("{}\n\n{EXAMPLES}", options_help()))
    })
}

/// The names of the formats that `which` keeps, for help and messages.
fn names(which: fn(&Format) -> bool) -> String {
    FORMATS
        .iter()
        .filter(|f| which(f))
        .map(|f| f.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The end of `kifu convert --help`.
const EXAMPLES: &str = "Examples:
  kifu convert --to draughts-diag archive/ --out-dir out/
      every numbered-square draughts file under archive/, in diagonal coordinates
  kifu convert games.pgn -o sheets.html
      chess games as printable scoresheets (the format from -o's extension)
  kifu convert --to jsonl lichess_2024-01.pgn.zst -o games.jsonl.zst
      a compressed archive to compressed JSON Lines
  kifu convert --from pgn --to pgn --rejects bad.pgn < in.pgn > out.pgn
      check and normalise PGN, keeping the games that fail aside
  kifu formats
      every format, its extensions and its options";

/// The help of a shorthand flag: the option it sets, the formats that have
/// it, and its values.
fn shorthand_help(option: &str, sides: Sides) -> String {
    let mut formats = Vec::new();
    // Each description of the values, with the formats it is theirs.
    let mut values: Vec<(String, Vec<&str>)> = Vec::new();
    for f in FORMATS {
        let declared = [Side::Read, Side::Write]
            .into_iter()
            .filter(|&s| sides.has(s))
            .find_map(|s| f.options.declared(option, s));
        if let Some(o) = declared {
            formats.push(f.name);
            let v = match o.values {
                Values::Kind(kind) => kind.to_string(),
                Values::OneOf(words) => words.join(", "),
            };
            match values.iter_mut().find(|(w, _)| *w == v) {
                Some((_, fs)) => fs.push(f.name),
                None => values.push((v, vec![f.name])),
            }
        }
    }
    let values = match values.as_slice() {
        [(v, _)] => v.clone(),
        _ => values
            .iter()
            .map(|(v, fs)| format!("{}: {v}", fs.join(", ")))
            .collect::<Vec<_>>()
            .join("; "),
    };
    let set: Vec<String> = [Side::Read, Side::Write]
        .into_iter()
        .filter(|&s| sides.has(s))
        .map(|s| format!("{} {option}=...", s.flag()))
        .collect();
    format!(
        "Shorthand for {} on the formats that have it ({}): {values}",
        set.join(" "),
        formats.join(", ")
    )
}

/// The options of every format, for `kifu convert --help`.
fn options_help() -> String {
    let mut text = String::from(
        "Format options (--from-opt NAME=VALUE sets an option of the input format, --to-opt \
         NAME=VALUE one of the output format; a later value wins over an earlier one and over \
         --pieces and --variant):",
    );
    for f in FORMATS {
        for o in f.options.list {
            text.push_str(&format!("\n  {:<14} {}", f.name, o.describe()));
        }
    }
    text
}

/// Whether standard output was closed when kifu started (`kifu ... >&-`),
/// as [`see_stdout`] found it.
static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Looks at descriptor 1 before `main`, so before the Rust runtime opens
/// `/dev/null` in the place of a closed standard stream (after which a
/// closed standard output and one on `/dev/null`, opened for reading and
/// writing as Python's `subprocess.DEVNULL`, cron and nohup do, look the
/// same). Run by the loader as a constructor where the system has them.
#[cfg(unix)]
extern "C" fn see_stdout() {
    // SAFETY: F_GETFD reads the descriptor's flags and changes nothing; it
    // fails (EBADF) only when descriptor 1 is not open.
    if unsafe { libc::fcntl(1, libc::F_GETFD) } == -1 {
        STDOUT_CLOSED.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

#[cfg(any(
    target_os = "linux",
    target_os = "android",
    target_os = "freebsd",
    target_os = "netbsd",
    target_os = "openbsd",
    target_os = "dragonfly",
    target_os = "illumos",
    target_os = "solaris"
))]
#[used]
#[link_section = ".init_array"]
static SEE_STDOUT: extern "C" fn() = see_stdout;

#[cfg(target_vendor = "apple")]
#[used]
#[link_section = "__DATA,__mod_init_func"]
static SEE_STDOUT: extern "C" fn() = see_stdout;

/// Whether standard output was closed when kifu started: every write would
/// then vanish. On a system without constructors, never said.
fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed)
}

fn main() -> ExitCode {
    let cli = match Cli::from_arg_matches(&command().get_matches()) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    match cli.command {
        Command::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut command(), "kifu", &mut out);
            print_bytes(&out)
        }
        Command::Man { command: sub } => {
            let mut out = Vec::new();
            let page = match sub {
                None => command(),
                Some(name) => {
                    let (sub, page) = PAGES
                        .into_iter()
                        .find(|(n, _)| *n == name)
                        .unwrap_or(PAGES[0]);
                    let main = command();
                    let found = main.find_subcommand(sub).cloned();
                    found
                        .unwrap_or_else(|| clap::Command::new(sub))
                        .name(page)
                        .version(env!("CARGO_PKG_VERSION"))
                }
            };
            match clap_mangen::Man::new(page).render(&mut out) {
                Ok(()) => print_bytes(&out),
                Err(e) => {
                    say(&format!("kifu: {e}"));
                    ExitCode::from(2)
                }
            }
        }
        Command::Formats => match print_formats() {
            Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                say(&format!("kifu: {}", Error::io(STDOUT, e)));
                ExitCode::from(2)
            }
            _ => ExitCode::SUCCESS,
        },
        Command::Schema(args) => {
            let text = kifu::interchange::csv::schema(&args.sql).unwrap_or_default();
            match io::stdout().lock().write_all(text.as_bytes()) {
                Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                    say(&format!("kifu: {}", Error::io(STDOUT, e)));
                    ExitCode::from(2)
                }
                _ => ExitCode::SUCCESS,
            }
        }
        Command::Diff(args) => match diff(&args) {
            Ok(code) => ExitCode::from(code),
            Err(e) => {
                say(&format!("kifu: {e}"));
                ExitCode::from(2)
            }
        },
        Command::Convert(args) => match convert(&args) {
            Ok(code) => ExitCode::from(code),
            Err(Error::Strict(d)) => {
                say(&d.to_string());
                say("kifu: stopped at the first error (--strict)");
                ExitCode::from(1)
            }
            Err(e) => {
                say(&format!("kifu: {e}"));
                ExitCode::from(2)
            }
        },
    }
}

/// The commands with a manual page of their own, and its name.
const PAGES: [(&str, &str); 5] = [
    ("convert", "kifu-convert"),
    ("formats", "kifu-formats"),
    ("diff", "kifu-diff"),
    ("completions", "kifu-completions"),
    ("man", "kifu-man"),
];

/// Writes bytes to standard output: a closed pipe ends quietly, another
/// error is exit 2.
fn print_bytes(bytes: &[u8]) -> ExitCode {
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            say(&format!("kifu: {}", Error::io(STDOUT, e)));
            ExitCode::from(2)
        }
        _ => ExitCode::SUCCESS,
    }
}

/// Prints a line on standard error; a closed standard error is no reason to
/// stop (or to panic, as `eprintln!` does).
fn say(line: &str) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}

fn print_formats() -> io::Result<()> {
    let mut out = io::stdout().lock();
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

fn format_named(name: &str) -> Result<&'static Format, Error> {
    format::by_name(name).ok_or_else(|| {
        let names: Vec<&str> = FORMATS.iter().map(|f| f.name).collect();
        Error::Usage(format!(
            "unknown format `{name}`; known formats: {}",
            names.join(", ")
        ))
    })
}

/// One side of `kifu diff`: its games, read in order.
type DiffSide = kifu::diff::Games;

/// Opens one side of a diff, with its format (named, or guessed from the
/// file's name).
fn diff_side(
    path: &Path,
    named: Option<&str>,
) -> Result<(DiffSide, &'static Format, kifu::input::Damage), Error> {
    let format = match named {
        Some(n) => format_named(n)?,
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
    let (reader, damage) = if path.as_os_str() == "-" {
        kifu::input::decompressed(io::stdin()).map_err(|e| Error::io(STDIN, e))?
    } else {
        kifu::input::open(path).map_err(|e| Error::io(path, e))?
    };
    let games = kifu::diff::Games::new(reader, format, ReadOptions::default());
    Ok((games, format, damage))
}

/// `kifu diff`: gives 0 when the files agree, 1 when they differ.
fn diff(args: &DiffArgs) -> Result<u8, Error> {
    use kifu::diff::{
        compare, render_json, render_text, Entry, Options, Paint, Pairs, Sided, Which,
    };
    let _ = rayon::ThreadPoolBuilder::new()
        .stack_size(WORKER_STACK)
        .build_global();
    let (a, fa, damage_a) = diff_side(&args.a, args.from_a.as_deref())?;
    let (b, fb, damage_b) = diff_side(&args.b, args.from_b.as_deref())?;
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
    let json = args.format == "json";
    let paint = Paint {
        on: !json
            && (args.color == "always" || (args.color == "auto" && io::stdout().is_terminal())),
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let (an, bn) = (args.a.display().to_string(), args.b.display().to_string());
    let io_err = |e: io::Error| Error::io(STDOUT, e);
    let mut counts = [0usize; 5]; // pairs, equal, different, only in a, only in b
    let emit = |out: &mut BufWriter<io::StdoutLock<'_>>,
                counts: &mut [usize; 5],
                ea: Option<&Entry>,
                eb: Option<&Entry>|
     -> Result<(), Error> {
        let place =
            |e: Option<&Entry>| e.map(|e| serde_json::json!({"game": e.number, "line": e.line}));
        let heading = match (ea, eb) {
            (Some(x), Some(y)) => format!(
                "game {} ({an}:{}) <> game {} ({bn}:{})",
                x.number, x.line, y.number, y.line
            ),
            (Some(x), None) => format!("game {} ({an}:{}): only in {an}", x.number, x.line),
            (None, Some(y)) => format!("game {} ({bn}:{}): only in {bn}", y.number, y.line),
            (None, None) => return Ok(()),
        };
        let (body, differs) = match (ea, eb) {
            (Some(x), Some(y)) => {
                counts[0] += 1;
                match (&x.game, &y.game) {
                    (Some(gx), Some(gy)) if gx.family() == gy.family() => {
                        let d = compare(
                            &Sided {
                                game: gx,
                                error: x.error.as_deref(),
                                format: fa,
                            },
                            &Sided {
                                game: gy,
                                error: y.error.as_deref(),
                                format: fb,
                            },
                            Options {
                                annotations: args.annotations,
                            },
                        );
                        let differs = !d.is_empty();
                        let body = if json {
                            render_json(&d)
                        } else {
                            serde_json::Value::String(render_text(&d, paint))
                        };
                        (body, differs)
                    }
                    _ => {
                        let why = |e: &Entry| match (&e.game, &e.error) {
                            (Some(g), _) => format!("a {} game", g.family().name()),
                            (None, Some(err)) => format!("unreadable: {err}"),
                            (None, None) => "unreadable".to_string(),
                        };
                        let text = format!("  a: {}\n  b: {}\n", why(x), why(y));
                        (
                            if json {
                                serde_json::json!({"unreadable": {"a": why(x), "b": why(y)}})
                            } else {
                                serde_json::Value::String(text)
                            },
                            true,
                        )
                    }
                }
            }
            (Some(_), None) => {
                counts[3] += 1;
                (serde_json::json!({"only": "a"}), true)
            }
            _ => {
                counts[4] += 1;
                (serde_json::json!({"only": "b"}), true)
            }
        };
        if ea.is_some() && eb.is_some() {
            counts[if differs { 2 } else { 1 }] += 1;
        }
        if !differs || args.quiet {
            return Ok(());
        }
        if json {
            let line = serde_json::json!({"a": place(ea), "b": place(eb), "differences": body});
            writeln!(out, "{line}").map_err(io_err)?;
        } else {
            writeln!(out, "{}", paint_heading(&heading, paint.on)).map_err(io_err)?;
            if let serde_json::Value::String(text) = body {
                write!(out, "{text}").map_err(io_err)?;
            }
        }
        Ok(())
    };
    let run =
        |out: &mut BufWriter<io::StdoutLock<'_>>, counts: &mut [usize; 5]| -> Result<(), Error> {
            let mut pairs = Pairs::new(a, b, &args.match_tags, args.match_window);
            while let Some(pair) = pairs.next() {
                let (x, y) = pair.map_err(|(which, e)| match which {
                    Which::A => Error::io(&args.a, e),
                    Which::B => Error::io(&args.b, e),
                })?;
                emit(out, counts, x.as_ref(), y.as_ref())?;
                for note in pairs.notes() {
                    say(&format!("kifu: warning: {note}"));
                }
            }
            // A compressed input cut short would look like games missing: an
            // error.
            for (damage, path) in [(&damage_a, &args.a), (&damage_b, &args.b)] {
                if let Some(e) = damage.take() {
                    return Err(Error::io(path, e));
                }
            }
            let [pairs, equal, different, only_a, only_b] = *counts;
            if !args.quiet {
                if json {
                    let line = serde_json::json!({"summary": {
                        "pairs": pairs, "equal": equal, "different": different,
                        "only_in_a": only_a, "only_in_b": only_b,
                    }});
                    writeln!(out, "{line}").map_err(io_err)?;
                } else {
                    writeln!(
                        out,
                        "{pairs} pairs of games compared: {equal} equal, {different} different; \
                     {only_a} only in {an}, {only_b} only in {bn}"
                    )
                    .map_err(io_err)?;
                }
            }
            out.flush().map_err(io_err)
        };
    match run(&mut out, &mut counts) {
        // A reader that stops reading (`kifu diff ... | head`) ends the
        // run quietly, as convert does; the status says what was found.
        Err(e) if closed_stdout(&e) => {}
        other => other?,
    }
    let [_, _, different, only_a, only_b] = counts;
    Ok(u8::from(different + only_a + only_b > 0))
}

/// Whether an error is standard output closed by its reader (`kifu ... |
/// head`): the run ends quietly, as Unix filters do.
fn closed_stdout(e: &Error) -> bool {
    matches!(e, Error::Io { path, source }
        if path.as_os_str() == STDOUT && source.kind() == io::ErrorKind::BrokenPipe)
}

/// A diff heading, bold on a terminal.
fn paint_heading(text: &str, on: bool) -> String {
    if on {
        format!("\x1b[1m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// Where the games of a whole run go: one stream, or a format's tables.
enum Shared {
    Stream(Sink<Output>),
    Tables(Box<dyn Tables>),
}

impl Shared {
    fn games(&mut self) -> &mut dyn Games {
        match self {
            Shared::Stream(sink) => sink,
            Shared::Tables(tables) => tables.as_mut(),
        }
    }

    /// Ends the output and puts every file in place.
    fn commit(self) -> Result<(), Error> {
        match self {
            Shared::Stream(sink) => {
                let name = sink.name().to_string();
                sink.finish().map_err(|e| Error::io(name, e))?.commit()
            }
            Shared::Tables(tables) => tables.commit(),
        }
    }
}

/// One input file (or standard input) and where its output goes.
struct Job {
    input: Option<PathBuf>,
    /// The member of a zip archive `input` names, read alone.
    member: Option<kifu::input::ZipMember>,
    from: &'static Format,
    out: Option<PathBuf>,
}

/// Runs a conversion; gives the exit code (0 done, 1 games failed or inputs
/// skipped), or the error that ended the run.
fn convert(args: &ConvertArgs) -> Result<u8, Error> {
    // Before the format is guessed from its name: a folder has none.
    if let Some(p) = &args.output {
        if p.is_dir() || p.as_os_str().to_string_lossy().ends_with('/') {
            return Err(Error::Usage(format!(
                "-o {} names a folder: -o takes one file for every game; --out-dir {} writes \
                 one file per input there",
                p.display(),
                p.display()
            )));
        }
    }
    let to = match (&args.to, &args.output) {
        (Some(name), _) => format_named(name)?,
        (None, Some(path)) => format::guess_written(path).ok_or_else(|| {
            Error::Usage(format!(
                "cannot tell the output format from the name {}: name it with --to ({})",
                path.display(),
                names(|f| f.write.is_some())
            ))
        })?,
        (None, None) => {
            return Err(Error::Usage(format!(
                "name the output format with --to ({})",
                names(|f| f.write.is_some())
            )))
        }
    };
    if to.write.is_none() {
        return Err(Error::Usage(write_only(to, false)));
    }
    let from = args.from.as_deref().map(format_named).transpose()?;
    if let Some(f) = from {
        if f.read.is_none() {
            return Err(Error::Usage(write_only(f, true)));
        }
    }
    let given = given_options(args)?;
    // Games are read and written on the pool's threads, recursively over
    // their variations: a stack of WORKER_STACK keeps every walk of a game
    // nested MAX_VARIATION_DEPTH deep far from its end (the default 2 MiB
    // holds it with little to spare in a debug build).
    let mut pool = rayon::ThreadPoolBuilder::new().stack_size(WORKER_STACK);
    if let Some(j) = args.jobs {
        pool = pool.num_threads(j.max(1));
    }
    // Only fails when a pool exists already, which is harmless.
    let _ = pool.build_global();
    // Every input is found before any output is created, so that no file
    // kifu writes in a run is read by that run.
    let Plan { jobs, empty, notes } = plan(args, from, to)?;
    // Nothing to convert and nothing failed: a usage error, after what the
    // search said (links passed over).
    let failed = |n: &Diagnostic| n.severity == kifu::error::Severity::Error;
    if jobs.is_empty() && !notes.iter().any(failed) {
        if let Some((_, why)) = empty.first() {
            for note in &notes {
                say(&note.render(false));
            }
            return Err(Error::Usage(why.clone()));
        }
    }
    // Inputs of the other family are skipped (with a warning) when others
    // can be converted; a run of nothing but such inputs is a usage error.
    let (jobs, skipped): (Vec<Job>, Vec<Job>) = jobs
        .into_iter()
        .partition(|j| family_mismatch(j.from, to).is_none());
    if let Some(first) = skipped.first() {
        if jobs.is_empty() || args.strict {
            let why = family_mismatch(first.from, to).unwrap_or_default();
            return Err(Error::Usage(format!("{}: {why}", job_name(first))));
        }
    }
    // Each format parses its own options, once, before any input is opened.
    let inputs: Vec<&'static Format> = match from {
        Some(f) => vec![f],
        None => jobs.iter().map(|j| j.from).collect(),
    };
    let options = options::run::resolve(&given, &inputs, to)?;
    let write = WriteOptions {
        format: options.write(),
        source: None,
    };
    let to_stdout = args.output.is_none() && args.out_dir.is_none();
    check_outputs(args, to, &jobs, &skipped, to_stdout)?;
    if to_stdout && stdout_closed() {
        return Err(Error::Usage(format!(
            "{STDOUT} is closed: what kifu writes would be lost (use -o FILE)"
        )));
    }

    let quiet = args.quiet > 0;
    let color = match args.color.as_str() {
        "always" => true,
        "never" => false,
        _ => {
            io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    };
    let total: u64 = jobs
        .iter()
        .filter_map(|j| j.input.as_ref())
        .filter_map(|p| fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    let bar = (!quiet && io::stderr().is_terminal() && total > 8 << 20).then(|| {
        let bar = ProgressBar::new(total);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} {eta}")
        {
            bar.set_style(style);
        }
        bar
    });
    let mut show = |d: &Diagnostic| {
        if quiet && d.severity == kifu::error::Severity::Warning {
            return;
        }
        let line = d.render(color);
        match &bar {
            Some(b) => b.suspend(|| say(&line)),
            None => say(&line),
        }
    };
    let mut progress = |n: usize| {
        if let Some(b) = &bar {
            b.inc(n as u64);
        }
    };
    for job in &skipped {
        show(&Diagnostic {
            severity: kifu::error::Severity::Warning,
            file: job_name(job),
            line: 0,
            col: 0,
            game: 0,
            message: format!(
                "skipped: {}",
                family_mismatch(job.from, to).unwrap_or_default()
            ),
            kind: "other-family",
        });
    }
    for (folder, why) in &empty {
        show(&Diagnostic {
            severity: kifu::error::Severity::Warning,
            file: folder.clone(),
            line: 0,
            col: 0,
            game: 0,
            message: why.clone(),
            kind: "nothing-to-convert",
        });
    }

    let mut rejects = args.rejects.as_deref().map(OutFile::create).transpose()?;
    // One sink for everything (stdout or -o), or one per input (--out-dir);
    // a format kept in a folder (csv) writes one set of tables for the run.
    let stream = |out: Output, name: String| match to.split.folder() {
        Some(folder) => Shared::Tables(folder.stream(out, name)),
        None => Shared::Stream(Sink::new(out, to.framing).named(name)),
    };
    let mut shared: Option<Shared> = match (&args.out_dir, &args.output) {
        (Some(dir), _) => match to.split.folder() {
            Some(folder) => Some(Shared::Tables(folder.create(dir)?)),
            None => None,
        },
        (None, Some(p)) => Some(stream(
            Output::File(OutFile::create(p)?),
            p.display().to_string(),
        )),
        (None, None) => Some(stream(
            Output::Stdout(BufWriter::with_capacity(1 << 16, io::stdout().lock())),
            STDOUT.to_string(),
        )),
    };
    let mut summary = Summary::default();
    // What the search for inputs found to say: links not followed, members
    // refused, archives damaged; an error counts as a failure.
    for note in &notes {
        show(note);
        match note.severity {
            kifu::error::Severity::Error => summary.failed += 1,
            _ => summary.warnings += 1,
        }
    }
    let outcome = (|| -> Result<(), Error> {
        for job in &jobs {
            let conv = Converter {
                from: job.from,
                to,
                read: ReadOptions {
                    format: options.read(job.from),
                    no_validate: args.no_validate,
                    grammar_only: args.grammar_only,
                    max_record: args.max_record_size,
                },
                write: WriteOptions {
                    source: Some(job.from),
                    ..write.clone()
                },
            };
            let mut report = Report {
                diagnostic: &mut show,
                reject: rejects.as_mut().map(|r| r as &mut dyn Write),
                progress: &mut progress,
                strict: args.strict,
                verbose: args.verbose,
            };
            let name = job_name(job);
            let run = |sink: &mut dyn Games, report: &mut Report<'_>| {
                let folder = job.from.split.folder();
                let (input, damage) = match (&job.input, &job.member, folder) {
                    (None, _, _) => {
                        kifu::input::decompressed(io::stdin()).map_err(|e| Error::io(STDIN, e))
                    }
                    (Some(p), Some(m), _) => {
                        kifu::input::zip_member(p, m).map_err(|e| Error::io(&name, e))
                    }
                    // A format kept in a folder (csv) reads the folder.
                    (Some(p), None, Some(folder)) => folder
                        .open(p)
                        .map(|r| (r, kifu::input::Damage::default()))
                        .map_err(|e| Error::io(p, e)),
                    (Some(p), None, None) => kifu::input::open(p).map_err(|e| Error::io(p, e)),
                }?;
                let mut done = convert_stream(input, &name, &conv, sink, report)?;
                if done.converted + done.failed == 0 && !damage.is_damaged() {
                    (report.diagnostic)(&Diagnostic {
                        severity: kifu::error::Severity::Warning,
                        file: name.clone(),
                        line: 0,
                        col: 0,
                        game: 0,
                        message: format!(
                            "no games in this input, read as {}: is that its format? \
                             (--from names it)",
                            job.from.name
                        ),
                        kind: "no-games",
                    });
                    done.warnings += 1;
                }
                // A compressed input cut short or corrupt: the games before
                // the damage are converted, and the damage is an error.
                if let Some(e) = damage.take() {
                    (report.diagnostic)(&Diagnostic {
                        severity: kifu::error::Severity::Error,
                        file: name.clone(),
                        line: 0,
                        col: 0,
                        game: 0,
                        message: format!(
                            "damaged compressed data ({e}): the input ends there; the games \
                             before it were read"
                        ),
                        kind: "",
                    });
                    done.damaged += 1;
                }
                Ok(done)
            };
            match (&mut shared, &job.out) {
                (Some(sink), _) => summary += run(sink.games(), &mut report)?,
                (None, Some(out)) => {
                    if let Some(dir) = out.parent() {
                        fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
                    }
                    let mut sink = Sink::new(Output::File(OutFile::create(out)?), to.framing)
                        .named(out.display().to_string());
                    let done = run(&mut sink, &mut report)?;
                    summary += done;
                    let file = sink.finish().map_err(|e| Error::io(out, e))?;
                    // An input none of whose games converted leaves what
                    // is at its output path as it was.
                    if done.converted > 0 || done.failed == 0 {
                        file.commit()?;
                    }
                }
                // plan() gives every input an output under --out-dir.
                (None, None) => return Err(Error::Usage("an input has no output".to_string())),
            }
        }
        if let Some(sink) = shared.take() {
            sink.commit()?;
        }
        Ok(())
    })();
    // A reader that stops reading standard output (`kifu ... | head`) ends
    // the run quietly, as Unix filters do.
    let closed = to_stdout && outcome.as_ref().is_err_and(closed_stdout);
    // The rejects are kept whenever the run ended as a run (--strict too);
    // on any other error, like every output, they are not written.
    if let Some(r) = rejects {
        if outcome.is_ok() || closed || matches!(outcome, Err(Error::Strict(_))) {
            r.commit()?;
        }
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if closed {
        return Ok(0);
    }
    outcome?;
    if args.quiet < 2 {
        let mut line = format!(
            "converted {}, {} failed",
            counted(summary.converted, "game", "games"),
            summary.failed
        );
        if summary.damaged > 0 {
            line.push_str(&format!(
                ", {} damaged",
                counted(summary.damaged, "input", "inputs")
            ));
        }
        // The folders that held nothing to convert warned too.
        let warnings = summary.warnings + empty.len();
        if warnings > 0 {
            line.push_str(&format!(", {}", counted(warnings, "warning", "warnings")));
        }
        if !skipped.is_empty() {
            line.push_str(&format!(
                ", {} skipped",
                counted(skipped.len(), "input", "inputs")
            ));
        }
        say(&line);
    }
    Ok(u8::from(
        summary.failed > 0 || summary.damaged > 0 || !skipped.is_empty(),
    ))
}

/// Why a format cannot be the input (`input`) or the output it was named
/// as, and which formats can.
fn write_only(f: &Format, input: bool) -> String {
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
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The format options given: the shorthand flags first, then --from-opt and
/// --to-opt in order.
fn given_options(args: &ConvertArgs) -> Result<Vec<Given>, Error> {
    let mut given = Vec::new();
    // The values of the flags of SHORTHANDS, in its order.
    let values = [&args.pieces, &args.variant, &args.rotate];
    for ((flag, option, sides), value) in SHORTHANDS.into_iter().zip(values) {
        if let Some(v) = value {
            given.push(Given::shorthand(&format!("--{flag}"), sides, option, v));
        }
    }
    if args.mirror {
        given.push(Given::shorthand("--mirror", Sides::Write, "mirror", "yes"));
    }
    for text in &args.from_opt {
        given.push(Given::parse(Side::Read, text)?);
    }
    for text in &args.to_opt {
        given.push(Given::parse(Side::Write, text)?);
    }
    Ok(given)
}

/// How messages name a job's input.
fn job_name(job: &Job) -> String {
    let name = job
        .input
        .as_ref()
        .map_or_else(|| "-".to_string(), |p| p.display().to_string());
    match &job.member {
        Some(m) => format!("{name}:{}", m.name()),
        None => name,
    }
}

/// Why games of `from` cannot be written as `to`, if they cannot.
fn family_mismatch(from: &Format, to: &Format) -> Option<String> {
    match (from.family, to.family) {
        (Some(a), Some(b)) if a != b => Some(format!(
            "{} holds {} games and {} holds {} games: there is no conversion between them",
            from.name,
            a.name(),
            to.name,
            b.name()
        )),
        _ => None,
    }
}

/// A folder that holds nothing to convert, and what to say of it.
type Empty = (String, String);

/// What the inputs named come to.
struct Plan {
    /// One for each input file or archive member to convert.
    jobs: Vec<Job>,
    /// The folders that hold nothing to convert.
    empty: Vec<Empty>,
    /// What to say of what was found and is not converted: links not
    /// followed (warnings), archive members refused and damaged archives
    /// (errors, each a failure).
    notes: Vec<Diagnostic>,
}

/// A note of the search for inputs, on `file` (an input, a link, a
/// member).
fn note(severity: kifu::error::Severity, file: String, message: String) -> Diagnostic {
    Diagnostic {
        severity,
        file,
        line: 0,
        col: 0,
        game: 0,
        message,
        // Warnings are of links (grouped under one kind); errors are plain.
        kind: match severity {
            kifu::error::Severity::Error => "",
            kifu::error::Severity::Warning => "link",
        },
    }
}

/// Expands the inputs into jobs: directories are searched recursively for
/// files of the input format (or of any readable format without --from),
/// following symbolic links ([`walk`]), and zip archives are read member by
/// member ([`zip_jobs`]).
fn plan(
    args: &ConvertArgs,
    from: Option<&'static Format>,
    to: &'static Format,
) -> Result<Plan, Error> {
    let mut jobs = Vec::new();
    let mut empty = Vec::new();
    let mut notes = Vec::new();
    // A format kept in a folder (csv) writes one set of tables for the
    // run: no output per input.
    let out_dir = args
        .out_dir
        .as_ref()
        .filter(|_| to.split.folder().is_none());
    for input in &args.inputs {
        // A format kept in a folder (csv) reads the folder named.
        if let Some(from) = from.filter(|f| f.split.folder().is_some()) {
            if !input.is_dir() {
                return Err(Error::Usage(format!(
                    "{} reads a folder of its tables: {} is not a folder",
                    from.name,
                    input.display()
                )));
            }
            let name = Path::new(input.file_name().unwrap_or(input.as_os_str()));
            jobs.push(Job {
                input: Some(input.clone()),
                member: None,
                from,
                out: out_dir.map(|d| out_path(d, name, 1, to)),
            });
            continue;
        }
        if input.as_os_str() == "-" {
            let from = from.ok_or_else(|| {
                Error::Usage("reading standard input needs --from to name its format".to_string())
            })?;
            if out_dir.is_some() {
                return Err(Error::Usage(
                    "standard input has no file name for --out-dir: use -o".to_string(),
                ));
            }
            jobs.push(Job {
                input: None,
                member: None,
                from,
                out: None,
            });
            continue;
        }
        let meta = fs::metadata(input).map_err(|e| Error::io(input, e))?;
        if meta.is_dir() {
            let before = (jobs.len(), notes.len());
            let files = walk(input, &mut notes)?;
            for file in files {
                let rel = file.strip_prefix(input).unwrap_or(&file).to_path_buf();
                if kifu::input::is_zip(&file) {
                    zip_jobs(out_dir, &file, &rel, from, to, &mut jobs, &mut notes);
                    continue;
                }
                let Some(guessed) = format::in_folder(&file, from) else {
                    continue;
                };
                let out = out_dir.map(|d| out_path(d, &rel, 1, to));
                jobs.push(Job {
                    input: Some(file),
                    member: None,
                    from: guessed,
                    out,
                });
            }
            // A folder of refused members or damaged archives is not empty.
            let refused = notes[before.1..]
                .iter()
                .any(|n| n.severity == kifu::error::Severity::Error);
            if jobs.len() == before.0 && !refused {
                let folder = input.display().to_string();
                empty.push((
                    folder.clone(),
                    format!(
                        "{folder} holds no file to convert ({})",
                        match from {
                            Some(f) => format!("looked for {} files", format::looked_for(f)),
                            None =>
                                "no file has an extension of a format kifu reads: `kifu formats` \
                                 lists them; --from names the format of files without one"
                                    .to_string(),
                        }
                    ),
                ));
            }
        } else if kifu::input::is_zip(input) {
            let name = Path::new(input.file_name().unwrap_or(input.as_os_str())).to_path_buf();
            zip_jobs(out_dir, input, &name, from, to, &mut jobs, &mut notes);
        } else {
            let fmt = match from.or_else(|| format::guess(input)) {
                Some(f) => f,
                None => {
                    return Err(Error::Usage(match format::guess_written(input) {
                        Some(w) => format!(
                            "{} is named as {} (.{}), which kifu writes but cannot read",
                            input.display(),
                            w.name,
                            w.extensions[0]
                        ),
                        None => format!(
                            "cannot tell the format of {} from its name: name it with --from \
                             (`kifu formats` lists the formats and their extensions)",
                            input.display()
                        ),
                    }))
                }
            };
            let name = Path::new(input.file_name().unwrap_or(input.as_os_str()));
            let out = out_dir.map(|d| out_path(d, name, 1, to));
            jobs.push(Job {
                input: Some(input.clone()),
                member: None,
                from: fmt,
                out,
            });
        }
    }
    Ok(Plan { jobs, empty, notes })
}

/// The jobs of a zip archive's members: each member of the input format
/// (or of any readable format without --from) is an input of its own,
/// named `archive.zip:member.pgn` (`archive.zip:member.pgn#2` for the
/// second entry of one path); under --out-dir its output goes to a folder
/// named after the archive (`out/archive/member.jsonl`, `member#2.jsonl`),
/// at the member's path made relative and normal: a member without one
/// (`../x.pgn`, `nul.pgn`, an empty name) is refused there, an error. An
/// archive that cannot be read, or whose directory is damaged, is an error
/// too (the members listed before the damage are read).
fn zip_jobs(
    out_dir: Option<&PathBuf>,
    zip: &Path,
    rel: &Path,
    from: Option<&'static Format>,
    to: &'static Format,
    jobs: &mut Vec<Job>,
    notes: &mut Vec<Diagnostic>,
) {
    use kifu::error::Severity;
    let listing = match kifu::input::zip_members(zip) {
        Ok(listing) => listing,
        Err(e) => {
            notes.push(note(
                Severity::Error,
                zip.display().to_string(),
                format!("cannot read this zip archive ({e}): none of its members was read"),
            ));
            return;
        }
    };
    let folder = rel.with_extension("");
    for link in &listing.links {
        notes.push(note(
            Severity::Warning,
            format!("{}:{link}", zip.display()),
            "a symbolic link inside an archive: not followed".to_string(),
        ));
    }
    for member in listing.members {
        // The format is guessed from the name's last part, whatever its path.
        let last = member.raw.rsplit(['/', '\\']).next().unwrap_or("");
        let Some(guessed) = format::in_folder(Path::new(last), from) else {
            continue;
        };
        let out = match (out_dir, &member.path) {
            (None, _) => None,
            (Some(d), Ok(path)) => Some(out_path(d, &folder.join(path), member.nth, to)),
            (Some(d), Err(why)) => {
                notes.push(note(
                    Severity::Error,
                    format!("{}:{}", zip.display(), member.name()),
                    format!(
                        "refused: {why}, so it has no output under --out-dir {}; nothing is \
                         written for it (-o converts it)",
                        d.display()
                    ),
                ));
                continue;
            }
        };
        jobs.push(Job {
            input: Some(zip.to_path_buf()),
            member: Some(member),
            from: guessed,
            out,
        });
    }
    if let Some(e) = listing.damage {
        notes.push(note(
            Severity::Error,
            zip.display().to_string(),
            format!(
                "damaged zip directory ({e}): the members listed after the damage were not read"
            ),
        ));
    }
}

/// What identifies a folder or file while folders are walked: device and
/// inode where the system has them, else the canonical path.
#[derive(PartialEq, Eq, Hash, Clone)]
enum Seen {
    #[cfg(unix)]
    Id(u64, u64),
    #[cfg(not(unix))]
    Path(PathBuf),
}

fn seen(path: &Path, meta: &fs::Metadata) -> Seen {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = path;
        Seen::Id(meta.dev(), meta.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        Seen::Path(fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
    }
}

/// The files under a folder, sorted, for [`plan`]. Symbolic links are
/// followed, to files and folders, wherever they lead; each file and each
/// folder is read once however many paths lead to it (the path without a
/// link first, else the first in order): a link back to a folder being
/// walked (a loop), to a folder or file already found, or to nothing, is
/// said once as a warning naming it, and passed over. Kifu's temporary
/// files are never inputs.
fn walk(dir: &Path, notes: &mut Vec<Diagnostic>) -> Result<Vec<PathBuf>, Error> {
    use kifu::error::Severity;
    use std::collections::HashMap;
    /// A file found: its path, whether a link led to it.
    struct Found {
        path: PathBuf,
        linked: bool,
    }
    let mut files: HashMap<Seen, Found> = HashMap::new();
    let mut folders: HashMap<Seen, PathBuf> = HashMap::new();
    // Folders to walk: path, whether a link led there, the folders above it
    // and itself.
    let top = fs::metadata(dir).map_err(|e| Error::io(dir, e))?;
    folders.insert(seen(dir, &top), dir.to_path_buf());
    let mut stack: Vec<(PathBuf, bool, Vec<Seen>)> =
        vec![(dir.to_path_buf(), false, vec![seen(dir, &top)])];
    let mut linked_dirs: Vec<(PathBuf, Seen, Vec<Seen>)> = Vec::new();
    let said = |notes: &mut Vec<Diagnostic>, path: &Path, message: String| {
        notes.push(note(Severity::Warning, path.display().to_string(), message));
    };
    loop {
        let Some((folder, via_link, above)) = stack.pop() else {
            // Folders reached by links are walked after every folder
            // reached without one, so that the path without a link wins.
            let Some((path, key, above)) = linked_dirs.pop() else {
                break;
            };
            if above.contains(&key) {
                said(
                    notes,
                    &path,
                    "a symbolic link to a folder it is in (a loop): not followed".to_string(),
                );
            } else if let Some(first) = folders.get(&key) {
                said(
                    notes,
                    &path,
                    format!(
                        "a symbolic link to the folder {}, read once already: not followed",
                        first.display()
                    ),
                );
            } else {
                folders.insert(key.clone(), path.clone());
                let mut above = above;
                above.push(key);
                stack.push((path, true, above));
            }
            continue;
        };
        let mut entries: Vec<fs::DirEntry> = Vec::new();
        for entry in fs::read_dir(&folder).map_err(|e| Error::io(&folder, e))? {
            entries.push(entry.map_err(|e| Error::io(&folder, e))?);
        }
        // In reverse, so that the stack walks folders in order.
        entries.sort_by_key(|e| std::cmp::Reverse(e.file_name()));
        for entry in entries {
            let path = entry.path();
            let kind = entry.file_type().map_err(|e| Error::io(&path, e))?;
            let linked = via_link || kind.is_symlink();
            let meta = if kind.is_symlink() {
                match fs::metadata(&path) {
                    Ok(m) => m,
                    Err(e) => {
                        let to = fs::read_link(&path)
                            .map(|t| t.display().to_string())
                            .unwrap_or_default();
                        said(
                            notes,
                            &path,
                            format!(
                                "a symbolic link to {to}, which cannot be read ({e}): passed over"
                            ),
                        );
                        continue;
                    }
                }
            } else {
                entry.metadata().map_err(|e| Error::io(&path, e))?
            };
            if meta.is_dir() {
                let key = seen(&path, &meta);
                if kind.is_symlink() {
                    linked_dirs.insert(0, (path, key, above.clone()));
                } else if !folders.contains_key(&key) {
                    folders.insert(key.clone(), path.clone());
                    let mut above = above.clone();
                    above.push(key);
                    stack.push((path, via_link, above));
                }
            } else if meta.is_file() && !is_temporary(&path) {
                let key = seen(&path, &meta);
                match files.get_mut(&key) {
                    None => {
                        files.insert(key, Found { path, linked });
                    }
                    // The path without a link is kept, the other said.
                    Some(first) => {
                        let drop = if first.linked && !linked {
                            std::mem::replace(&mut first.path, path)
                        } else {
                            path
                        };
                        first.linked &= linked;
                        said(
                            notes,
                            &drop,
                            format!(
                                "the same file as {}, read once: passed over",
                                first.path.display()
                            ),
                        );
                    }
                }
            }
        }
    }
    let mut out: Vec<PathBuf> = files.into_values().map(|f| f.path).collect();
    out.sort();
    Ok(out)
}

/// Where the output of an input goes under --out-dir: the same relative
/// path, with the target format's extension (and the input's `.gz` or
/// `.zst`).
fn out_path(dir: &Path, rel: &Path, nth: usize, to: &Format) -> PathBuf {
    let stem = format::stem(rel);
    let parent = rel.parent().unwrap_or(Path::new(""));
    // The second entry of one path in an archive: `g#2.jsonl`.
    let nth = if nth > 1 {
        format!("#{nth}")
    } else {
        String::new()
    };
    // A compressed input gives an output compressed the same way.
    let name = rel.to_string_lossy().to_ascii_lowercase();
    let compressed = kifu::input::EXTENSIONS
        .into_iter()
        .find(|e| name.strip_suffix(e).is_some_and(|n| n.ends_with('.')))
        .map(|e| format!(".{e}"))
        .unwrap_or_default();
    dir.join(parent)
        .join(format!("{stem}{nth}.{}{compressed}", to.extensions[0]))
}

/// Refuses an output that is an input, and two outputs that are one file
/// ([`output::check`]), for the outputs the flags and the jobs name.
fn check_outputs(
    args: &ConvertArgs,
    to: &Format,
    jobs: &[Job],
    skipped: &[Job],
    to_stdout: bool,
) -> Result<(), Error> {
    // The tables of a folder read (csv) are inputs too.
    let tables: Vec<PathBuf> = jobs
        .iter()
        .filter_map(|j| Some(j.from.split.folder()?.files(j.input.as_deref()?)))
        .flatten()
        .collect();
    let inputs: Vec<Option<&Path>> = jobs
        .iter()
        .chain(skipped)
        .map(|j| j.input.as_deref())
        .chain(tables.iter().map(|p| Some(p.as_path())))
        .collect();
    let written: Vec<PathBuf> = match (&args.out_dir, to.split.folder()) {
        (Some(dir), Some(folder)) => folder.files(dir),
        _ => Vec::new(),
    };
    let flag = |path, who: &str| Planned {
        path,
        who: who.to_string(),
        from_input: false,
    };
    let mut outputs = Vec::new();
    outputs.extend(args.output.as_deref().map(|p| flag(p, "-o")));
    outputs.extend(args.rejects.as_deref().map(|p| flag(p, "--rejects")));
    outputs.extend(written.iter().map(|p| flag(p, "--out-dir")));
    for job in jobs {
        if let Some(out) = &job.out {
            outputs.push(Planned {
                path: out,
                who: job_name(job),
                from_input: true,
            });
        }
    }
    output::check(&inputs, &outputs, to_stdout)
}
