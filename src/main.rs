//! The `kifu` command line: a thin layer over the library.

use std::fs::{self, File};
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use kifu::archive::{convert_stream, Converter, Report, Sink, Summary};
use kifu::error::{Diagnostic, Error};
use kifu::ir::draughts::Board;
use kifu::notation::sllavcco::Pieces;
use kifu::notation::{self, Format, ReadOptions, WriteOptions, FORMATS};

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
}

#[derive(clap::Args)]
struct ConvertArgs {
    /// Input format; guessed from each file's extension when omitted.
    #[arg(long, short = 'f')]
    from: Option<String>,
    /// Output format.
    #[arg(long, short = 't')]
    to: String,
    /// Files, directories (searched recursively) or `-` for standard input.
    #[arg(default_value = "-")]
    inputs: Vec<PathBuf>,
    /// Write everything to this file instead of standard output.
    #[arg(long, short = 'o', conflicts_with = "out_dir")]
    output: Option<PathBuf>,
    /// Write one output file per input file here, mirroring directories.
    #[arg(long)]
    out_dir: Option<PathBuf>,
    /// Stop at the first failed game; warnings count as failures.
    #[arg(long)]
    strict: bool,
    /// Draughts board for every game, overriding GameType tags: a name
    /// (international, english, canadian, frisian, russian, ...), a GameType
    /// number or a full GameType such as 20,W,10,10,N2,0.
    #[arg(long)]
    variant: Option<String>,
    /// Convert chess by syntax alone, without replaying the moves (what could
    /// not be checked is said in a warning).
    #[arg(long)]
    no_validate: bool,
    /// Read every record with the pest grammar, never the fast lexer (to
    /// compare the two).
    #[arg(long, hide = true)]
    grammar_only: bool,
    /// Piece letters of sllavcco scoresheets: en (K Q R B N, the default),
    /// sr, de (K D T L S), fr (R D T F C), nl (K D T L P), es, it
    /// (R D T A C), figurine, or five letters for K Q R B N.
    #[arg(long)]
    pieces: Option<String>,
    /// Append the text of every failed game to this file.
    #[arg(long)]
    rejects: Option<PathBuf>,
    /// Print no warnings, progress or summary (errors are still printed).
    #[arg(long, short = 'q')]
    quiet: bool,
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Formats => {
            print_formats();
            ExitCode::SUCCESS
        }
        Command::Convert(args) => match convert(&args) {
            Ok(summary) if summary.failed == 0 => ExitCode::SUCCESS,
            Ok(_) => ExitCode::from(1),
            Err(Error::Strict(d)) => {
                eprintln!("{d}");
                eprintln!("kifu: stopped at the first error (--strict)");
                ExitCode::from(1)
            }
            Err(e) => {
                eprintln!("kifu: {e}");
                ExitCode::from(2)
            }
        },
    }
}

fn print_formats() {
    println!(
        "{:<14} {:<11} {:<10} {:<5} description",
        "name", "extensions", "family", "r/w"
    );
    for f in FORMATS {
        let rw = format!(
            "{}{}",
            if f.read.is_some() { "r" } else { "-" },
            if f.write.is_some() { "w" } else { "-" }
        );
        let exts: Vec<String> = f.extensions.iter().map(|e| format!(".{e}")).collect();
        println!(
            "{:<14} {:<11} {:<10} {:<5} {}",
            f.name,
            exts.join(" "),
            f.family.map_or("any", |fam| fam.name()),
            rw,
            f.description
        );
    }
}

fn format_named(name: &str) -> Result<&'static Format, Error> {
    notation::by_name(name).ok_or_else(|| {
        let names: Vec<&str> = FORMATS.iter().map(|f| f.name).collect();
        Error::Usage(format!(
            "unknown format `{name}`; known formats: {}",
            names.join(", ")
        ))
    })
}

/// One input file (or standard input) and where its output goes.
struct Job {
    input: Option<PathBuf>,
    from: &'static Format,
    out: Option<PathBuf>,
}

fn convert(args: &ConvertArgs) -> Result<Summary, Error> {
    let to = format_named(&args.to)?;
    if to.write.is_none() {
        return Err(Error::Usage(format!("kifu cannot write {}", to.name)));
    }
    let from = args.from.as_deref().map(format_named).transpose()?;
    if let Some(f) = from {
        if f.read.is_none() {
            return Err(Error::Usage(format!("kifu cannot read {}", f.name)));
        }
    }
    let pieces = args
        .pieces
        .as_deref()
        .map(Pieces::parse)
        .transpose()
        .map_err(Error::Usage)?;
    let write = WriteOptions { pieces };
    let read = ReadOptions {
        draughts: match &args.variant {
            Some(v) => Some(Board::by_name(v).map_err(Error::Usage)?),
            None => None,
        },
        no_validate: args.no_validate,
        pieces,
        grammar_only: args.grammar_only,
        max_record: args.max_record_size,
    };
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
    let jobs = plan(args, from, to)?;
    for job in &jobs {
        check_families(job.from, to)?;
    }

    let quiet = args.quiet;
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
    let mut rejects = match &args.rejects {
        Some(p) => Some(BufWriter::new(
            File::create(p).map_err(|e| Error::io(p, e))?,
        )),
        None => None,
    };
    let mut show = |d: &Diagnostic| {
        if quiet && d.severity == kifu::error::Severity::Warning {
            return;
        }
        let text = if d.line == 0 {
            format!("{}: warning: {}", d.file, d.message)
        } else {
            d.to_string()
        };
        match &bar {
            Some(b) => b.suspend(|| eprintln!("{text}")),
            None => eprintln!("{text}"),
        }
    };
    let mut progress = |n: usize| {
        if let Some(b) = &bar {
            b.inc(n as u64);
        }
    };

    let mut summary = Summary::default();
    // One sink for everything (stdout or -o), or one per input (--out-dir).
    let mut shared: Option<Sink<Box<dyn Write>>> = match (&args.out_dir, &args.output) {
        (Some(_), _) => None,
        (None, Some(p)) => {
            let f = File::create(p).map_err(|e| Error::io(p, e))?;
            Some(Sink::new(Box::new(BufWriter::new(f)), to.framing))
        }
        (None, None) => Some(Sink::new(
            Box::new(BufWriter::with_capacity(1 << 16, io::stdout().lock())),
            to.framing,
        )),
    };
    for job in &jobs {
        let conv = Converter {
            from: job.from,
            to,
            read: read.clone(),
            write: write.clone(),
        };
        let mut report = Report {
            diagnostic: &mut show,
            reject: rejects.as_mut().map(|r| r as &mut dyn Write),
            progress: &mut progress,
            strict: args.strict,
        };
        let name = job
            .input
            .as_ref()
            .map_or_else(|| "-".to_string(), |p| p.display().to_string());
        let run = |sink: &mut Sink<Box<dyn Write>>, report: &mut Report<'_>| match &job.input {
            None => convert_stream(io::stdin(), &name, &conv, sink, report),
            Some(p) => {
                let f = File::open(p).map_err(|e| Error::io(p, e))?;
                convert_stream(f, &name, &conv, sink, report)
            }
        };
        match (&mut shared, &job.out) {
            (Some(sink), _) => summary += run(sink, &mut report)?,
            (None, Some(out)) => {
                if let Some(dir) = out.parent() {
                    fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
                }
                let f = File::create(out).map_err(|e| Error::io(out, e))?;
                let mut sink: Sink<Box<dyn Write>> =
                    Sink::new(Box::new(BufWriter::new(f)), to.framing);
                summary += run(&mut sink, &mut report)?;
                sink.finish().map_err(|e| Error::io(out, e))?;
            }
            // plan() gives every input an output under --out-dir.
            (None, None) => return Err(Error::Usage("an input has no output".to_string())),
        }
    }
    if let Some(sink) = shared {
        sink.finish().map_err(|e| Error::io("output", e))?;
    }
    if let Some(r) = rejects.as_mut() {
        r.flush().map_err(|e| Error::io("rejects", e))?;
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if !quiet {
        let mut line = format!(
            "converted {} games, {} failed",
            summary.converted, summary.failed
        );
        if summary.warnings > 0 {
            line.push_str(&format!(", {} warnings", summary.warnings));
        }
        eprintln!("{line}");
    }
    Ok(summary)
}

fn check_families(from: &Format, to: &Format) -> Result<(), Error> {
    match (from.family, to.family) {
        (Some(a), Some(b)) if a != b => Err(Error::Usage(format!(
            "{} holds {} games and {} holds {} games: there is no conversion between them",
            from.name,
            a.name(),
            to.name,
            b.name()
        ))),
        _ => Ok(()),
    }
}

/// Expands the inputs into jobs: directories are searched recursively for
/// files of the input format (or of any readable format without --from).
fn plan(
    args: &ConvertArgs,
    from: Option<&'static Format>,
    to: &'static Format,
) -> Result<Vec<Job>, Error> {
    let mut jobs = Vec::new();
    for input in &args.inputs {
        if input.as_os_str() == "-" {
            let from = from.ok_or_else(|| {
                Error::Usage("reading standard input needs --from to name its format".to_string())
            })?;
            if args.out_dir.is_some() {
                return Err(Error::Usage(
                    "standard input has no file name for --out-dir: use -o".to_string(),
                ));
            }
            jobs.push(Job {
                input: None,
                from,
                out: None,
            });
            continue;
        }
        let meta = fs::metadata(input).map_err(|e| Error::io(input, e))?;
        if meta.is_dir() {
            let mut files = Vec::new();
            walk(input, &mut files)?;
            files.sort();
            for file in files {
                let Some(guessed) = notation::guess(&file) else {
                    continue;
                };
                if from.is_some_and(|f| !std::ptr::eq(f, guessed)) {
                    continue;
                }
                let rel = file.strip_prefix(input).unwrap_or(&file).to_path_buf();
                let out = args.out_dir.as_ref().map(|d| out_path(d, &rel, to));
                jobs.push(Job {
                    input: Some(file),
                    from: guessed,
                    out,
                });
            }
        } else {
            let fmt = match from.or_else(|| notation::guess(input)) {
                Some(f) => f,
                None => {
                    return Err(Error::Usage(format!(
                        "cannot tell the format of {} from its name: name it with --from",
                        input.display()
                    )))
                }
            };
            let name = Path::new(input.file_name().unwrap_or(input.as_os_str()));
            let out = args.out_dir.as_ref().map(|d| out_path(d, name, to));
            jobs.push(Job {
                input: Some(input.clone()),
                from: fmt,
                out,
            });
        }
    }
    for job in &jobs {
        if let (Some(i), Some(o)) = (&job.input, &job.out) {
            if let (Ok(a), Ok(b)) = (fs::canonicalize(i), fs::canonicalize(o)) {
                if a == b {
                    return Err(Error::Usage(format!(
                        "{} would be overwritten by its own output: choose another --out-dir",
                        i.display()
                    )));
                }
            }
        }
    }
    Ok(jobs)
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), Error> {
    for entry in fs::read_dir(dir).map_err(|e| Error::io(dir, e))? {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let path = entry.path();
        let kind = entry.file_type().map_err(|e| Error::io(&path, e))?;
        if kind.is_dir() {
            walk(&path, files)?;
        } else if kind.is_file() {
            files.push(path);
        }
    }
    Ok(())
}

/// Where the output of an input goes under --out-dir: the same relative
/// path, with the target format's extension.
fn out_path(dir: &Path, rel: &Path, to: &Format) -> PathBuf {
    let stem = notation::stem(rel);
    let parent = rel.parent().unwrap_or(Path::new(""));
    dir.join(parent)
        .join(format!("{stem}.{}", to.extensions[0]))
}
