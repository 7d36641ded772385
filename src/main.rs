//! The `kifu` command line: a thin layer over the library. The commands
//! and flags are defined once in [`kifu::cli`]; planning ([`kifu::plan`]),
//! converting ([`kifu::convert`]), diffing ([`kifu::diff::report`]) and
//! what is said ([`kifu::report`]) are the library's. What is left here is
//! the process: the worker threads, standard output, the exit status.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;

use clap::FromArgMatches;

use kifu::cli::{
    command, diff_read_options, given_options, man_shown, Cli, Command, ConvertArgs, DiffArgs,
    ManShown, PAGES,
};
use kifu::codec::ReadOptions;
use kifu::convert::{Ended, Run};
use kifu::diff::report as diff_report;
use kifu::error::Error;
use kifu::format::Format;
use kifu::options::run::resolve;
use kifu::output::STDOUT;
use kifu::plan::{self, Outputs};
use kifu::report::{self, say};

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

/// Under a limit on the address space (`ulimit -v`), the allocator keeps
/// one arena for every thread: by default glibc gives each worker thread
/// an arena of its own, which reserves address space and keeps what its
/// thread freed, so that a record whose memory claim
/// (`kifu::policy::claim_memory_at`) fits at `-j 1` could be refused at
/// `-j 2`. With one arena, what one worker freed is there for the next,
/// and which records fail does not depend on `-j`. Without a limit,
/// nothing changes.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn one_arena_under_a_memory_limit() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the limit into the struct it is given, and
    // mallopt sets a parameter of the allocator before any worker thread
    // exists.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_AS, &mut limit) == 0
            && limit.rlim_cur != libc::RLIM_INFINITY
        {
            libc::mallopt(libc::M_ARENA_MAX, 1);
        }
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn one_arena_under_a_memory_limit() {}

/// Whether standard output was closed when kifu started: every write would
/// then vanish. On a system without constructors, never said.
fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed)
}

/// The refusal of every command that writes to standard output when it
/// was closed (`kifu formats >&-`): what it writes would be lost, which
/// is exit 2, never a silent success. `hint` says how to write elsewhere.
fn stdout_open(hint: &str) -> Result<(), Error> {
    if stdout_closed() {
        return Err(Error::Usage(format!(
            "{STDOUT} is closed: what kifu writes would be lost{hint}"
        )));
    }
    Ok(())
}

/// The stack of each worker thread (address space: pages are only
/// committed as they are used).
const WORKER_STACK: usize = 16 << 20;

/// Builds the worker threads, `threads` of them (default: one per core),
/// once for the run. More than the machine's cores would only wait for
/// one another (and thousands of them could not all be made): `-j` is
/// capped at the cores, with a warning. Games are read and written on the
/// pool's threads, recursively over their variations: a stack of
/// WORKER_STACK keeps every walk of a game nested MAX_VARIATION_DEPTH deep
/// far from its end (the default 2 MiB holds it with little to spare in a
/// debug build).
fn pool(threads: Option<usize>, quiet: bool) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = threads.map(|j| match j {
        0 => 1,
        j if j > cores => {
            if !quiet {
                say(&format!(
                    "kifu: warning: -j {j} is more than the {cores} cores this machine has: {cores} worker threads"
                ));
            }
            cores
        }
        j => j,
    });
    let mut pool = rayon::ThreadPoolBuilder::new().stack_size(WORKER_STACK);
    if let Some(j) = threads {
        pool = pool.num_threads(j);
    }
    // Only fails when a pool exists already, which is harmless.
    let _ = pool.build_global();
}

fn main() -> ExitCode {
    one_arena_under_a_memory_limit();
    // What a limit on the address space leaves for the records' memory
    // claims, read before the worker threads exist: the same whatever -j.
    kifu::policy::allowance();
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
                Ok(()) => show_man(&out),
                Err(e) => failed(&e),
            }
        }
        Command::Formats => {
            let mut out = Vec::new();
            let _ = report::formats(&mut out);
            print_bytes(&out)
        }
        Command::Schema(args) if args.xsd => print_bytes(kifu::interchange::xml::xsd().as_bytes()),
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
            Err(_) if interrupt::hit() => {
                say("kifu: interrupted: the outputs not finished were not written");
                ExitCode::from(130)
            }
            Err(Error::Strict(d)) => {
                say(&d.to_string());
                say("kifu: stopped at the first error (--strict)");
                ExitCode::from(1)
            }
            Err(e) => failed(&e),
        },
    }
}

/// Writes bytes to standard output: a closed pipe ends quietly; a closed
/// standard output, or another error, is exit 2.
fn print_bytes(bytes: &[u8]) -> ExitCode {
    if let Err(e) = stdout_open("") {
        say(&format!("kifu: {e}"));
        return ExitCode::from(2);
    }
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            say(&format!("kifu: {}", Error::io(STDOUT, e)));
            ExitCode::from(2)
        }
        _ => ExitCode::SUCCESS,
    }
}

/// Shows a manual page: on a terminal, rendered by `man -l -` in its pager
/// (as `git help` does), else (or where `man` cannot show it) its roff on
/// standard output ([`man_shown`]).
fn show_man(roff: &[u8]) -> ExitCode {
    let terminal = io::stdout().is_terminal() && !stdout_closed();
    if let ManShown::Pager(man) = man_shown(terminal, std::env::var_os("PATH").as_deref()) {
        let mut child = match std::process::Command::new(&man)
            .args(["-l", "-"])
            .stdin(std::process::Stdio::piped())
            .spawn()
        {
            Ok(child) => child,
            Err(_) => return print_bytes(roff),
        };
        if let Some(mut stdin) = child.stdin.take() {
            // A pager quit before the end reads no more: not an error.
            let _ = stdin.write_all(roff);
        }
        match child.wait() {
            Ok(status) if status.success() => return ExitCode::SUCCESS,
            _ => say(&format!(
                "kifu: {} -l - could not show the page: here is its roff",
                man.display()
            )),
        }
    }
    print_bytes(roff)
}

/// `kifu diff`: gives 0 when the files agree, 1 when they differ.
fn diff(args: &DiffArgs) -> Result<u8, Error> {
    if !args.quiet {
        stdout_open("")?;
    }
    pool(None, true);
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

/// Runs a conversion; gives the exit code (0 done, 1 games failed or inputs
/// skipped), or the error that ended the run.
fn convert(args: &ConvertArgs) -> Result<u8, Error> {
    let (output, out_dir) = (args.output(), args.out_dir.as_deref());
    let (from, to) = plan::formats(args.from.as_deref(), args.to.as_deref(), output)?;
    let given = given_options(args)?;
    pool(args.jobs, args.quiet > 0);
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
    if outputs.to_stdout() {
        stdout_open(" (use -o FILE)")?;
    }

    let console = report::Console::new(args.quiet > 0, report::color(&args.color), plan.bytes());
    let run = Run {
        to,
        options: &options,
        read: ReadOptions {
            no_validate: args.no_validate,
            grammar_only: args.grammar_only,
            max_record: args.max_record_size,
            run_bytes: args.run_bytes,
            whole: args.read_whole,
            ..ReadOptions::default()
        },
        outputs,
        strict: args.strict,
        verbose: args.verbose,
    };
    interrupt::catch();
    let ended = kifu::convert::run(&plan, &run, &mut |d| console.show(d), &mut |n| {
        console.progress(n);
        interrupt::check()
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

/// Ctrl-C during a conversion: the first stops the run at the end of the
/// batch being converted (the outputs not finished are removed, never left
/// half written or as temporary files beside their place), exit 130; a
/// second, before that, ends the process at once, as Ctrl-C does without
/// kifu's handler (a run waiting for its input to come).
mod interrupt {
    use std::io;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// Whether Ctrl-C was pressed.
    static HIT: AtomicBool = AtomicBool::new(false);

    #[cfg(unix)]
    extern "C" fn on_interrupt(_: libc::c_int) {
        if HIT.swap(true, Ordering::SeqCst) {
            // SAFETY: _exit is async-signal-safe.
            unsafe { libc::_exit(130) };
        }
    }

    /// Catches Ctrl-C (SIGINT) from now on.
    pub fn catch() {
        #[cfg(unix)]
        // SAFETY: the handler only touches an atomic and calls _exit.
        unsafe {
            libc::signal(
                libc::SIGINT,
                on_interrupt as extern "C" fn(libc::c_int) as libc::sighandler_t,
            );
        }
    }

    /// Whether Ctrl-C was pressed since [`catch`].
    pub fn hit() -> bool {
        HIT.load(Ordering::SeqCst)
    }

    /// The error that stops a run once Ctrl-C was pressed.
    pub fn check() -> io::Result<()> {
        match hit() {
            true => Err(io::Error::new(io::ErrorKind::Interrupted, "interrupted")),
            false => Ok(()),
        }
    }
}
