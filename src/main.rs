//! The `kifu` command line: a thin layer over the library. The flags are
//! defined here (clap's derive, and the shorthand flags from
//! [`kifu::options::SHORTHANDS`]); help lists what the registry holds;
//! planning ([`kifu::plan`]), converting ([`kifu::convert`]), diffing
//! ([`kifu::diff::report`]) and what is said ([`kifu::report`]) are the
//! library's.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand};

use kifu::codec::ReadOptions;
use kifu::convert::{Ended, Run};
use kifu::diff::report as diff_report;
use kifu::error::Error;
use kifu::format::Format;
use kifu::options::run::{help as options_help, resolve, Shorthand, SHORTHANDS};
use kifu::options::{Given, Side};
use kifu::output::STDOUT;
use kifu::plan::{self, Outputs};
use kifu::report::{self, say};

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
    Diff(Box<DiffArgs>),
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
    /// (games.csv, tags.csv, moves.csv) as they are, or with --xsd the XML
    /// Schema that xml documents are valid against.
    Schema(SchemaArgs),
}

#[derive(clap::Args)]
struct SchemaArgs {
    /// The SQL dialect.
    #[arg(long, value_name = "DIALECT", default_value = "sqlite", num_args = 0..=1,
          default_missing_value = "sqlite", value_parser = kifu::interchange::csv::DIALECTS)]
    sql: String,
    /// Print the XML Schema (schema/kifu.xsd) of the xml format instead.
    #[arg(long, conflicts_with = "sql")]
    xsd: bool,
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
    /// An option of the input formats, NAME=VALUE, for each side whose
    /// format has it (repeatable; `kifu formats` lists them).
    #[arg(long = "from-opt", value_name = "NAME=VALUE")]
    from_opt: Vec<String>,
    /// An option of the first file's format only, NAME=VALUE (repeatable).
    #[arg(long = "from-a-opt", value_name = "NAME=VALUE")]
    from_a_opt: Vec<String>,
    /// An option of the second file's format only, NAME=VALUE (repeatable).
    #[arg(long = "from-b-opt", value_name = "NAME=VALUE")]
    from_b_opt: Vec<String>,
    /// The shorthand flags of the options read with (--pieces, --variant),
    /// for each side whose format has them.
    #[command(flatten)]
    shorthands: Shorthands<true>,
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
    /// How to report: text (for people), json (one object a line) or html
    /// (one page: the transcriptions side by side, the board at the first
    /// disagreement).
    #[arg(long, default_value = "text", value_parser = ["text", "json", "html"])]
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
    /// (csv, parquet: the three tables of the whole run).
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
    /// The shorthand flags (--pieces, --variant, --rotate, --mirror).
    #[command(flatten)]
    shorthands: Shorthands,
    /// Read by syntax alone, without replaying the moves (help built from
    /// the families).
    #[arg(long)]
    no_validate: bool,
    /// Read every record with the pest grammar, never the fast lexer (to
    /// compare the two).
    #[arg(long, hide = true)]
    grammar_only: bool,
    /// Append the text of every failed game to this file.
    #[arg(long)]
    rejects: Option<PathBuf>,
    /// Print no warnings or progress (errors and the summary line are still
    /// printed); twice (-qq), no summary line either.
    #[arg(long, short = 'q', action = clap::ArgAction::Count)]
    quiet: u8,
    /// Print every warning and error where it occurs, instead of one line
    /// per kind of warning and input with its count and first place, and
    /// the first 3 errors of a kind with a count of the rest.
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
    #[arg(long, value_name = "SIZE", value_parser = plan::parse_size)]
    max_record_size: Option<usize>,
}

/// The stack of each worker thread (address space: pages are only
/// committed as they are used).
const WORKER_STACK: usize = 16 << 20;

/// Builds the worker threads, `threads` of them (default: one per core).
/// Games are read and written on the pool's threads, recursively over
/// their variations: a stack of WORKER_STACK keeps every walk of a game
/// nested MAX_VARIATION_DEPTH deep far from its end (the default 2 MiB
/// holds it with little to spare in a debug build).
fn pool(threads: Option<usize>) {
    let mut pool = rayon::ThreadPoolBuilder::new().stack_size(WORKER_STACK);
    if let Some(j) = threads {
        pool = pool.num_threads(j.max(1));
    }
    // Only fails when a pool exists already, which is harmless.
    let _ = pool.build_global();
}

/// The shorthand flags, one per row of [`SHORTHANDS`] (which gives each its
/// name, help and what it sets), as the options they give, in its order.
/// `READING`: as a command that only reads takes them (`kifu diff`): on
/// the reading side, and only those that have one ([`Shorthand::reading`]).
#[derive(Debug, Default)]
struct Shorthands<const READING: bool = false>(Vec<Given>);

impl<const READING: bool> Shorthands<READING> {
    /// The flags this command takes.
    fn flags() -> impl Iterator<Item = Shorthand> {
        SHORTHANDS
            .iter()
            .filter_map(|s| if READING { s.reading() } else { Some(*s) })
    }
}

impl<const READING: bool> FromArgMatches for Shorthands<READING> {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let given = Self::flags().filter_map(|s| match s.switch {
            Some(value) => m.get_flag(s.flag).then(|| s.given(value)),
            None => m.get_one::<String>(s.flag).map(|v| s.given(v)),
        });
        Ok(Shorthands(given.collect()))
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl<const READING: bool> clap::Args for Shorthands<READING> {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        Self::flags().fold(cmd, |cmd, s| {
            let arg = clap::Arg::new(s.flag).long(s.flag).help(s.help());
            cmd.arg(match s.switch {
                Some(_) => arg.action(clap::ArgAction::SetTrue),
                None => arg
                    .value_name(s.flag.to_uppercase())
                    .action(clap::ArgAction::Set)
                    .value_parser(clap::value_parser!(String)),
            })
        })
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// The command line, with the help that lists the formats, their options
/// and the families --no-validate acts on built from the library (the
/// shorthand flags build their own: [`Shorthands`]).
fn command() -> clap::Command {
    Cli::command()
        .mut_subcommand("convert", |convert| {
            convert
                .mut_arg("from", |a| {
                    formats_of(a, true).help(report::format_help(true))
                })
                .mut_arg("to", |a| {
                    formats_of(a, false).help(report::format_help(false))
                })
                .mut_arg("no_validate", |a| a.help(report::no_validate_help()))
                .after_help(format!("{}\n\n{EXAMPLES}", options_help()))
        })
        .mut_subcommand("diff", |diff| {
            diff.mut_arg("from_a", |a| formats_of(a, true))
                .mut_arg("from_b", |a| formats_of(a, true))
        })
}

/// A format argument offers the names of the registry's formats that read
/// (`read`) or write, which completions offer; any name is taken, and
/// kifu's own check says what is wrong with one (a format named on the
/// wrong side is told which formats fit, `plan::formats`). The help lists
/// them with their descriptions already.
fn formats_of(arg: clap::Arg, read: bool) -> clap::Arg {
    arg.value_parser(FormatName { read })
        .hide_possible_values(true)
}

/// The value parser of a format argument ([`formats_of`]).
#[derive(Clone)]
struct FormatName {
    read: bool,
}

impl clap::builder::TypedValueParser for FormatName {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        let read = self.read;
        Some(Box::new(
            kifu::format::FORMATS
                .iter()
                .filter(move |f| {
                    if read {
                        f.read.is_some()
                    } else {
                        f.write.is_some()
                    }
                })
                .map(|f| clap::builder::PossibleValue::new(f.name)),
        ))
    }
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
    let failed = |e: &dyn std::fmt::Display| {
        say(&format!("kifu: {e}"));
        ExitCode::from(2)
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
                    // Built, so that clap's own `help` command is there.
                    let mut all = command();
                    all.build();
                    let found = all.find_subcommand(sub).cloned();
                    found
                        .unwrap_or_else(|| clap::Command::new(sub))
                        .name(page)
                        .version(env!("CARGO_PKG_VERSION"))
                }
            };
            match clap_mangen::Man::new(page).render(&mut out) {
                Ok(()) => print_bytes(&out),
                Err(e) => failed(&e),
            }
        }
        Command::Formats => {
            let mut out = Vec::new();
            let _ = report::formats(&mut out);
            print_bytes(&out)
        }
        Command::Schema(args) if args.xsd => print_bytes(kifu::interchange::xml::XSD.as_bytes()),
        Command::Schema(args) => print_bytes(
            kifu::interchange::csv::schema(&args.sql)
                .unwrap_or_default()
                .as_bytes(),
        ),
        Command::Diff(args) => match diff(&args) {
            Ok(code) => ExitCode::from(code),
            Err(e) => failed(&e),
        },
        Command::Convert(args) => match convert(&args) {
            Ok(code) => ExitCode::from(code),
            Err(Error::Strict(d)) => {
                say(&d.to_string());
                say("kifu: stopped at the first error (--strict)");
                ExitCode::from(1)
            }
            Err(e) => failed(&e),
        },
    }
}

/// The commands with a manual page of their own, and its name: every
/// command (`tests/it/cli_defs.rs` checks each against `kifu --help`).
const PAGES: [(&str, &str); 7] = [
    ("convert", "kifu-convert"),
    ("formats", "kifu-formats"),
    ("diff", "kifu-diff"),
    ("completions", "kifu-completions"),
    ("man", "kifu-man"),
    ("schema", "kifu-schema"),
    ("help", "kifu-help"),
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

/// `kifu diff`: gives 0 when the files agree, 1 when they differ.
fn diff(args: &DiffArgs) -> Result<u8, Error> {
    pool(None);
    let fa = diff_report::format_of(&args.a, args.from_a.as_deref())?;
    let fb = diff_report::format_of(&args.b, args.from_b.as_deref())?;
    let [ra, rb] = diff_read_options(args, fa, fb)?;
    let a = diff_report::open(&args.a, fa, ra)?;
    let b = diff_report::open(&args.b, fb, rb)?;
    let style = match args.format.as_str() {
        "json" => diff_report::Style::Json,
        "html" => diff_report::Style::Html,
        _ => diff_report::Style::Text,
    };
    let color = args.color == "always" || (args.color == "auto" && io::stdout().is_terminal());
    let settings = diff_report::Settings {
        match_tags: args.match_tags.clone(),
        window: args.match_window,
        annotations: args.annotations,
        style,
        paint: kifu::diff::Paint {
            on: style == diff_report::Style::Text && color,
        },
        quiet: args.quiet,
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let counts = diff_report::run(a, b, &settings, &mut out, &mut |line| say(line))?;
    Ok(counts.status())
}

/// The options each side of a diff is read with: `--from-opt` and the
/// shorthands for each side whose format has the option (one of the two
/// must), `--from-a-opt` and `--from-b-opt` for one side (whose format
/// must have it), through the resolution `convert` uses.
fn diff_read_options(
    args: &DiffArgs,
    fa: &'static Format,
    fb: &'static Format,
) -> Result<[ReadOptions; 2], Error> {
    let mut shared = args.shorthands.0.clone();
    for text in &args.from_opt {
        shared.push(Given::parse(Side::Read, text)?);
    }
    let mut sides = Vec::new();
    for (format, own) in [(fa, &args.from_a_opt), (fb, &args.from_b_opt)] {
        let mut given = shared.clone();
        for text in own {
            // Checked against this side's format alone.
            let g = Given::parse(Side::Read, text)?;
            resolve(std::slice::from_ref(&g), &[format], format)?;
            given.push(g);
        }
        // Each option checked against both sides, applied to this one.
        let options = resolve(&given, &[fa, fb], format)?;
        sides.push(ReadOptions {
            format: options.read(format),
            ..ReadOptions::default()
        });
    }
    let b = sides.pop().unwrap_or_default();
    let a = sides.pop().unwrap_or_default();
    Ok([a, b])
}

/// Runs a conversion; gives the exit code (0 done, 1 games failed or inputs
/// skipped), or the error that ended the run.
fn convert(args: &ConvertArgs) -> Result<u8, Error> {
    let (output, out_dir) = (args.output.as_deref(), args.out_dir.as_deref());
    let (from, to) = plan::formats(args.from.as_deref(), args.to.as_deref(), output)?;
    let given = given_options(args)?;
    pool(args.jobs);
    // Every input is found before any output is created, so that no file
    // kifu writes in a run is read by that run.
    let mut plan = plan::plan(&args.inputs, from, to, out_dir)?;
    // Nothing to convert and nothing failed: a usage error, after what the
    // search said (links passed over).
    if let Some(why) = plan.nothing_to_convert() {
        for note in &plan.notes {
            say(&note.render(false));
        }
        return Err(Error::Usage(why.to_string()));
    }
    plan.set_aside(to, args.strict)?;
    // Each format parses its own options, once, before any input is opened.
    let inputs: Vec<&'static Format> = match from {
        Some(f) => vec![f],
        None => plan.jobs.iter().map(|j| j.from).collect(),
    };
    let options = resolve(&given, &inputs, to)?;
    let outputs = Outputs {
        output,
        out_dir,
        rejects: args.rejects.as_deref(),
    };
    plan.check(&outputs, to)?;
    if outputs.to_stdout() && stdout_closed() {
        return Err(Error::Usage(format!(
            "{STDOUT} is closed: what kifu writes would be lost (use -o FILE)"
        )));
    }

    let console = report::Console::new(args.quiet > 0, report::color(&args.color), plan.bytes());
    let run = Run {
        to,
        options: &options,
        read: ReadOptions {
            no_validate: args.no_validate,
            grammar_only: args.grammar_only,
            max_record: args.max_record_size,
            ..ReadOptions::default()
        },
        outputs,
        strict: args.strict,
        verbose: args.verbose,
    };
    let ended = kifu::convert::run(&plan, &run, &mut |d| console.show(d), &mut |n| {
        console.progress(n)
    });
    console.finish();
    match ended? {
        Ended::Closed => Ok(0),
        Ended::Done(totals) => {
            if args.quiet < 2 {
                say(&totals.line());
            }
            Ok(totals.code())
        }
    }
}

/// The format options given: the shorthand flags first, then --from-opt and
/// --to-opt in order.
fn given_options(args: &ConvertArgs) -> Result<Vec<Given>, Error> {
    let mut given = args.shorthands.0.clone();
    for text in &args.from_opt {
        given.push(Given::parse(Side::Read, text)?);
    }
    for text in &args.to_opt {
        given.push(Given::parse(Side::Write, text)?);
    }
    Ok(given)
}
