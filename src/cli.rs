//! The command line's definitions, once: every command, flag and
//! shorthand of `kifu` (clap's derive, and the shorthand flags from
//! [`SHORTHANDS`], which give each its name, help and what it sets), from
//! which parsing, `--help`, the manual pages (`kifu man`) and the shell
//! completions (`kifu completions`) all follow, as ripgrep's `defs.rs`
//! does; and how the options given on the command line become the
//! options of a run. The binary (`src/main.rs`) runs what these parse.

use std::path::PathBuf;

use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::codec::ReadOptions;
use crate::error::Error;
use crate::format::Format;
use crate::options::run::{help as options_help, resolve, Shorthand, SHORTHANDS};
use crate::options::{Given, Side};
use crate::plan;
use crate::report;

#[derive(Parser)]
#[command(
    name = "kifu",
    version,
    about = "Convert board-game records between notations",
    long_about = None
)]
/// The whole command line: one command.
pub struct Cli {
    /// The command given.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands of `kifu`.
#[derive(Subcommand)]
pub enum Command {
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
    /// Show kifu's manual page, or the page of one command (`kifu man
    /// convert` is kifu-convert(1)): in man's pager on a terminal, as roff
    /// to a file or a pipe.
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

/// The flags of `kifu schema`.
#[derive(clap::Args)]
pub struct SchemaArgs {
    /// The SQL dialect.
    #[arg(long, value_name = "DIALECT", default_value = "sqlite", num_args = 0..=1,
          default_missing_value = "sqlite", value_parser = crate::interchange::csv::DIALECTS)]
    pub sql: String,
    /// Print the XML Schema (schema/kifu.xsd) of the xml format instead.
    #[arg(long, conflicts_with = "sql")]
    pub xsd: bool,
}

/// The arguments of `kifu diff`.
#[derive(clap::Args)]
pub struct DiffArgs {
    /// The first transcription.
    pub a: PathBuf,
    /// The second transcription, in any notation of the same family.
    pub b: PathBuf,
    /// The format of the first file; guessed from its name when omitted.
    #[arg(long)]
    pub from_a: Option<String>,
    /// The format of the second file; guessed from its name when omitted.
    #[arg(long)]
    pub from_b: Option<String>,
    /// An option of the input formats, NAME=VALUE, for each side whose
    /// format has it (repeatable; `kifu formats` lists them).
    #[arg(long = "from-opt", value_name = "NAME=VALUE")]
    pub from_opt: Vec<String>,
    /// An option of the first file's format only, NAME=VALUE (repeatable).
    #[arg(long = "from-a-opt", value_name = "NAME=VALUE")]
    pub from_a_opt: Vec<String>,
    /// An option of the second file's format only, NAME=VALUE (repeatable).
    #[arg(long = "from-b-opt", value_name = "NAME=VALUE")]
    pub from_b_opt: Vec<String>,
    /// The shorthand flags of the options read with (--pieces, --variant),
    /// for each side whose format has them.
    #[command(flatten)]
    pub shorthands: Shorthands<true>,
    /// Pair games by these tags (comma-separated, e.g. White,Black,Date,Round)
    /// instead of by their order.
    #[arg(long, value_delimiter = ',')]
    pub match_tags: Vec<String>,
    /// With --match-tags: how many games apart two games may be and still
    /// pair (the games waiting for a partner are held in memory).
    #[arg(long, value_name = "GAMES", default_value_t = crate::diff::MATCH_WINDOW)]
    pub match_window: usize,
    /// Compare glyphs, NAGs and comments too.
    #[arg(long)]
    pub annotations: bool,
    /// How to report: text (for people), json (one object a line) or html
    /// (one page: the transcriptions side by side, the board at the first
    /// disagreement).
    #[arg(long, default_value = "text", value_parser = ["text", "json", "html"])]
    pub format: String,
    /// Print nothing: the exit status says whether the files agree.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Colour the text report: auto (on a terminal), always, never.
    #[arg(long, default_value = "auto", value_parser = ["auto", "always", "never"])]
    pub color: String,
    /// The largest game record read (default 16M), in bytes or with a
    /// suffix K, M or G (powers of 1024): a larger one is an error of its
    /// game, skipped unread, as `kifu convert` skips it.
    #[arg(long, value_name = "SIZE", value_parser = plan::parse_size)]
    pub max_record_size: Option<usize>,
}

/// The arguments of `kifu convert`.
#[derive(clap::Args)]
pub struct ConvertArgs {
    /// Input format; guessed from each file's extension when omitted (help
    /// built from the registry).
    #[arg(long, short = 'f', value_name = "FORMAT")]
    pub from: Option<String>,
    /// Output format; guessed from -o's extension when omitted (help built
    /// from the registry).
    #[arg(long, short = 't', value_name = "FORMAT")]
    pub to: Option<String>,
    /// Files, directories (searched recursively) or `-` for standard input.
    #[arg(default_value = "-")]
    pub inputs: Vec<PathBuf>,
    /// Write everything to this file instead of standard output (csv: the
    /// moves table); `-` is standard output.
    #[arg(long, short = 'o', conflicts_with = "out_dir")]
    pub output: Option<PathBuf>,
    /// Write one output file per input file here, mirroring directories
    /// (csv, parquet: the three tables of the whole run).
    #[arg(long)]
    pub out_dir: Option<PathBuf>,
    /// Stop at the first failed game; warnings count as failures.
    #[arg(long)]
    pub strict: bool,
    /// An option of the input format, NAME=VALUE (repeatable; the options
    /// of each format are listed below and by `kifu formats`).
    #[arg(long = "from-opt", value_name = "NAME=VALUE")]
    pub from_opt: Vec<String>,
    /// An option of the output format, NAME=VALUE (repeatable).
    #[arg(long = "to-opt", value_name = "NAME=VALUE")]
    pub to_opt: Vec<String>,
    /// The shorthand flags (--pieces, --variant, --rotate, --mirror).
    #[command(flatten)]
    pub shorthands: Shorthands,
    /// Read by syntax alone, without replaying the moves (help built from
    /// the families).
    #[arg(long)]
    pub no_validate: bool,
    /// Read every record with the pest grammar, never the fast lexer (to
    /// compare the two).
    #[arg(long, hide = true)]
    pub grammar_only: bool,
    /// Cut a record read a run at a time once this many bytes of it were
    /// read since the last cut (0: before every move; to test the cuts).
    #[arg(long, hide = true, value_name = "BYTES")]
    pub run_bytes: Option<usize>,
    /// Convert every record whole, never a run at a time (to compare the
    /// two ways).
    #[arg(long, hide = true)]
    pub read_whole: bool,
    /// Append the text of every failed game to this file.
    #[arg(long)]
    pub rejects: Option<PathBuf>,
    /// Print no warnings or progress (errors and the summary line are still
    /// printed); twice (-qq), no summary line either.
    #[arg(long, short = 'q', action = clap::ArgAction::Count)]
    pub quiet: u8,
    /// Print every warning and error where it occurs, instead of one line
    /// per kind of warning and input with its count and first place, and
    /// the first 3 errors of a kind with a count of the rest.
    #[arg(long, short = 'v', conflicts_with = "quiet")]
    pub verbose: bool,
    /// Colour the messages: auto (on a terminal, unless NO_COLOR is set),
    /// always, never.
    #[arg(long, default_value = "auto", value_parser = ["auto", "always", "never"])]
    pub color: String,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// The largest game record read (default 16M), in bytes or with a
    /// suffix K, M or G (powers of 1024): a larger one fails, alone, and is
    /// skipped unread.
    #[arg(long, value_name = "SIZE", value_parser = plan::parse_size)]
    pub max_record_size: Option<usize>,
}

/// The shorthand flags, one per row of [`SHORTHANDS`] (which gives each its
/// name, help and what it sets), as the options they give, in its order.
/// `READING`: as a command that only reads takes them (`kifu diff`): on
/// the reading side, and only those that have one ([`Shorthand::reading`]).
#[derive(Debug, Default)]
pub struct Shorthands<const READING: bool = false>(pub Vec<Given>);

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
pub fn command() -> clap::Command {
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
pub fn formats_of(arg: clap::Arg, read: bool) -> clap::Arg {
    arg.value_parser(FormatName { read })
        .hide_possible_values(true)
}

/// The value parser of a format argument ([`formats_of`]).
#[derive(Clone)]
pub struct FormatName {
    /// Formats that read (else: that write).
    pub read: bool,
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
            crate::format::FORMATS
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
pub const EXAMPLES: &str = "Examples:
  kifu convert --from draughts-num --to draughts-diag archive/ --out-dir out/
      every numbered-square draughts file under archive/, in diagonal coordinates
  kifu convert games.pgn -o sheets.html
      chess games as printable scoresheets (the format from -o's extension)
  kifu convert --to jsonl lichess_2024-01.pgn.zst -o games.jsonl.zst
      a compressed archive to compressed JSON Lines
  kifu convert --from pgn --to pgn --rejects bad.pgn < in.pgn > out.pgn
      check and normalise PGN, keeping the games that fail aside
  kifu formats
      every format, its extensions and its options";

/// The commands with a manual page of their own, and its name: every
/// command (`tests/it/cli_defs.rs` checks each against `kifu --help`).
pub const PAGES: [(&str, &str); 7] = [
    ("convert", "kifu-convert"),
    ("formats", "kifu-formats"),
    ("diff", "kifu-diff"),
    ("completions", "kifu-completions"),
    ("man", "kifu-man"),
    ("schema", "kifu-schema"),
    ("help", "kifu-help"),
];

/// The options each side of a diff is read with: `--from-opt` and the
/// shorthands for each side whose format has the option (one of the two
/// must), `--from-a-opt` and `--from-b-opt` for one side (whose format
/// must have it), through the resolution `convert` uses.
pub fn diff_read_options(
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
            max_record: args.max_record_size,
            ..ReadOptions::default()
        });
    }
    let b = sides.pop().unwrap_or_default();
    let a = sides.pop().unwrap_or_default();
    Ok([a, b])
}

impl ConvertArgs {
    /// The file named by `-o`: none for standard output, which `-o -`
    /// names too (as `-` among the inputs names standard input).
    pub fn output(&self) -> Option<&std::path::Path> {
        self.output.as_deref().filter(|p| p.as_os_str() != "-")
    }
}

/// The format options given: the shorthand flags first, then --from-opt and
/// --to-opt in order.
pub fn given_options(args: &ConvertArgs) -> Result<Vec<Given>, Error> {
    let mut given = args.shorthands.0.clone();
    for text in &args.from_opt {
        given.push(Given::parse(Side::Read, text)?);
    }
    for text in &args.to_opt {
        given.push(Given::parse(Side::Write, text)?);
    }
    Ok(given)
}

/// How `kifu man` shows a page ([`man_shown`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ManShown {
    /// Its roff source on standard output: for a file or a pipe
    /// (`kifu man > kifu.1`), and where no `man` is found.
    Roff,
    /// Rendered by this `man` (`man -l -`, the roff on its standard
    /// input), in its pager, as `man kifu` and `git help` show a page on a
    /// terminal.
    Pager(PathBuf),
}

/// How `kifu man` shows a page: rendered by `man` when standard output is
/// a terminal and a `man` is found in `path` (the `PATH` variable), else
/// as roff (what a file or a pipe gets, as before).
pub fn man_shown(terminal: bool, path: Option<&std::ffi::OsStr>) -> ManShown {
    let found = path.and_then(|path| {
        std::env::split_paths(path)
            .map(|dir| dir.join("man"))
            .find(|man| is_program(man))
    });
    match found {
        Some(man) if terminal => ManShown::Pager(man),
        _ => ManShown::Roff,
    }
}

/// Whether `path` is a file that can be run.
fn is_program(path: &std::path::Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn man_renders_on_a_terminal_where_man_is_found_and_roff_otherwise() {
        let dir = std::env::temp_dir().join(format!("kifu-man-shown-{}", std::process::id()));
        let (with, without) = (dir.join("with"), dir.join("without"));
        std::fs::create_dir_all(&with).unwrap();
        std::fs::create_dir_all(&without).unwrap();
        let man = with.join("man");
        std::fs::write(&man, "#!/bin/sh\n").unwrap();
        // A file named man that cannot be run is no man.
        std::fs::write(without.join("man"), "").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&man, std::fs::Permissions::from_mode(0o755)).unwrap();
            std::fs::set_permissions(without.join("man"), std::fs::Permissions::from_mode(0o644))
                .unwrap();
        }
        let path = |dirs: &[&PathBuf]| std::env::join_paths(dirs).unwrap();
        let both = path(&[&without, &with]);
        assert_eq!(
            man_shown(true, Some(&both)),
            ManShown::Pager(man.clone()),
            "the first man that runs, along PATH"
        );
        assert_eq!(
            man_shown(false, Some(&both)),
            ManShown::Roff,
            "not a terminal"
        );
        #[cfg(unix)]
        assert_eq!(
            man_shown(true, Some(&path(&[&without]))),
            ManShown::Roff,
            "no man that runs"
        );
        assert_eq!(man_shown(true, None), ManShown::Roff, "no PATH");
        assert_eq!(
            man_shown(true, Some(std::ffi::OsStr::new(""))),
            ManShown::Roff
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
