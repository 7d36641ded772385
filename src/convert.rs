//! Running a planned conversion ([`crate::plan`]): every job read and
//! converted by the pipeline ([`crate::archive::convert_input`]) into its output (one
//! stream for the run, standard output or `-o`; one file per input under
//! `--out-dir`; or the tables of a format kept in a folder), the failed
//! games' text kept aside (`--rejects`), and what happened said as it
//! happens and counted ([`Totals`]).

use std::fs;
use std::io::{self, BufWriter, Write};

use crate::archive::{convert_input, Converter, Report, Sink, Summary};
use crate::codec::{Games, Origin, ReadOptions, Tables, WriteOptions};
use crate::error::{Diagnostic, Error, Severity};
use crate::format::Format;
use crate::options::run::Resolved;
use crate::output::{OutFile, Output, STDOUT};
use crate::plan::{family_mismatch, game_path, Job, Outputs, Plan};
use crate::report::{self, closed_stdout, Totals};

/// How a planned conversion runs.
#[derive(Debug, Clone)]
pub struct Run<'a> {
    /// The output format.
    pub to: &'static Format,
    /// The formats' options, resolved for the run's formats.
    pub options: &'a Resolved,
    /// What every reader shares (`--no-validate`, `--max-record-size`);
    /// each input's format's own options come from `options`.
    pub read: ReadOptions,
    /// Where the games go (and the rejects).
    pub outputs: Outputs<'a>,
    /// Stop at the first failed game; warnings count as failures.
    pub strict: bool,
    /// Show every warning where it occurs, not one line per kind.
    pub verbose: bool,
}

/// How a conversion ended, when it ended as a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// Every input was converted: the counts.
    Done(Totals),
    /// Standard output was closed by its reader (`kifu ... | head`): the
    /// run ended there, quietly, as Unix filters do.
    Closed,
}

/// Where the games of a whole run go: one stream, or a format's tables.
enum Shared {
    Stream(Sink<Output>),
    One(OneGame),
    Tables(Box<dyn Tables>),
}

impl Shared {
    fn games(&mut self) -> &mut dyn Games {
        match self {
            Shared::Stream(sink) => sink,
            Shared::One(one) => one,
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
            Shared::One(one) => one.commit(),
            Shared::Tables(tables) => tables.commit(),
        }
    }
}

/// The one output (`-o`, standard output) of a format of one game an
/// output ([`Format::one_game`]): a second game is an error that says to
/// use `--out-dir`. The game is held until the run ends, so that such an
/// error leaves standard output empty too.
struct OneGame {
    sink: Sink<Output>,
    to: &'static Format,
    held: Option<String>,
}

impl OneGame {
    /// Writes the game held, ends the output and puts it in place.
    fn commit(mut self) -> Result<(), Error> {
        let name = self.sink.name().to_string();
        if let Some(text) = self.held.take() {
            self.sink.game(&text).map_err(|e| Error::io(&name, e))?;
        }
        self.sink.finish().map_err(|e| Error::io(name, e))?.commit()
    }
}

impl Games for OneGame {
    fn game(&mut self, text: &str, origin: &Origin<'_>) -> io::Result<()> {
        if self.held.is_some() {
            return Err(io::Error::other(format!(
                "{} holds one game and {} has more (game {}): convert with --out-dir DIR, \
                 which writes each game to a file of its own (NAME.N.{})",
                self.to.name, origin.source, origin.index, self.to.extensions[0]
            )));
        }
        self.held = Some(text.to_string());
        Ok(())
    }
    fn name(&self) -> &str {
        self.sink.name()
    }
}

/// The files of one input under `--out-dir` for a format of one game an
/// output: each game in a file of its own ([`game_path`], numbered as
/// messages number the input's games), put in place when it is written.
/// A game whose file cannot be written (its name too long, a file where
/// its folder should be) fails alone: it is kept in `lost`, with its
/// number, and the input's other games go on.
struct PerGame<'a> {
    base: &'a std::path::Path,
    to: &'static Format,
    lost: Vec<(usize, Error)>,
}

impl Games for PerGame<'_> {
    fn game(&mut self, text: &str, origin: &Origin<'_>) -> io::Result<()> {
        let path = game_path(self.base, origin.index, self.to);
        let write = || -> Result<(), Error> {
            if let Some(dir) = path.parent() {
                fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
            }
            let mut sink = Sink::new(Output::File(OutFile::create(&path)?), self.to.framing);
            sink.game(text).map_err(|e| Error::io(&path, e))?;
            sink.finish().map_err(|e| Error::io(&path, e))?.commit()
        };
        if let Err(e) = write() {
            self.lost.push((origin.index, e));
        }
        Ok(())
    }
    fn name(&self) -> &str {
        "--out-dir"
    }
}

/// Runs the jobs of a plan whose outputs were checked
/// ([`Plan::check`]): first says (to `show`) the inputs skipped and the
/// folders with nothing to convert, then creates the outputs and says the
/// plan's notes, then converts each job in order, reporting each batch's
/// bytes to `progress` (an error it returns ends the run with that error,
/// as any other: `kifu.convert` stops so on Ctrl-C). Every output is put
/// in place only when the run ends as a run; the rejects too after
/// `--strict` stopped it ([`Error::Strict`]).
pub fn run(
    plan: &Plan,
    run: &Run<'_>,
    show: &mut dyn FnMut(&Diagnostic),
    progress: &mut dyn FnMut(usize) -> io::Result<()>,
) -> Result<Ended, Error> {
    let to = run.to;
    for job in &plan.skipped {
        let why = family_mismatch(job.from, to).unwrap_or_default();
        show(&report::skipped(job.name(), &why));
    }
    for empty in &plan.empty {
        show(&report::nothing_to_convert(
            empty.folder.clone(),
            empty.why.clone(),
        ));
    }
    let mut rejects = run.outputs.rejects.map(OutFile::create).transpose()?;
    let write = WriteOptions {
        format: run.options.write(),
        source: None,
    };
    // One sink for everything (stdout or -o), or one per input (--out-dir);
    // a format kept in a folder (csv) writes one set of tables for the run.
    let stream = |out: Output, name: String| match to.split.folder() {
        Some(folder) => Shared::Tables(folder.stream(out, name, &write)),
        None if to.one_game => Shared::One(OneGame {
            sink: Sink::new(out, to.framing).named(name),
            to,
            held: None,
        }),
        None => Shared::Stream(Sink::new(out, to.framing).named(name)),
    };
    let mut shared: Option<Shared> = match (run.outputs.out_dir, run.outputs.output) {
        (Some(dir), _) => match to.split.folder() {
            Some(folder) => Some(Shared::Tables(folder.create(dir, &write)?)),
            None => None,
        },
        (None, Some(p)) => Some(stream(
            Output::File(OutFile::create(p)?),
            p.display().to_string(),
        )),
        (None, None) => Some(stream(
            Output::Stdout(BufWriter::with_capacity(
                crate::output::BUFFER,
                io::stdout().lock(),
            )),
            STDOUT.to_string(),
        )),
    };
    let mut summary = Summary::default();
    // What the search for inputs found to say: links not followed, members
    // refused, archives damaged; an error counts as a failure.
    for note in &plan.notes {
        show(note);
        match note.severity {
            Severity::Error => summary.failed += 1,
            _ => summary.warnings += 1,
        }
    }
    let outcome = (|| -> Result<(), Error> {
        for job in &plan.jobs {
            let conv = Converter {
                from: job.from,
                to,
                read: ReadOptions {
                    format: run.options.read(job.from),
                    ..run.read.clone()
                },
                write: WriteOptions {
                    source: job.from.source_notation(&run.options.read(job.from)),
                    ..write.clone()
                },
            };
            let mut report = Report {
                diagnostic: &mut *show,
                reject: rejects.as_mut().map(|r| r as &mut dyn Write),
                progress: &mut *progress,
                strict: run.strict,
                verbose: run.verbose,
            };
            match (&mut shared, &job.out) {
                (Some(sink), _) => {
                    summary += convert_job(job, plan.from_named, &conv, sink.games(), &mut report)?
                }
                // A format of one game an output (svg): a file per game.
                (None, Some(out)) if to.one_game => {
                    let mut files = PerGame {
                        base: out,
                        to,
                        lost: Vec::new(),
                    };
                    let mut done =
                        convert_job(job, plan.from_named, &conv, &mut files, &mut report)?;
                    for (index, e) in files.lost {
                        done.lose(1);
                        (report.diagnostic)(&report::output_failed(job.name(), Some(index), 1, &e));
                    }
                    summary += done;
                }
                (None, Some(out)) => {
                    // This input's output alone: where it cannot be made or
                    // put in place, this input fails and the run goes on.
                    let created = out
                        .parent()
                        .map_or(Ok(()), |dir| {
                            fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))
                        })
                        .and_then(|()| OutFile::create(out));
                    let file = match created {
                        Ok(file) => file,
                        // --out-dir itself cannot be a folder: every output
                        // would fail; the run does, as before any.
                        Err(e) if out_root_fails(run.outputs.out_dir) => return Err(e),
                        Err(e) => {
                            (report.diagnostic)(&report::output_failed(job.name(), None, 0, &e));
                            summary.failed += 1;
                            continue;
                        }
                    };
                    let mut sink =
                        Sink::new(Output::File(file), to.framing).named(out.display().to_string());
                    let mut done =
                        convert_job(job, plan.from_named, &conv, &mut sink, &mut report)?;
                    let file = sink.finish().map_err(|e| Error::io(out, e))?;
                    // An input none of whose games converted leaves what
                    // is at its output path as it was.
                    if done.converted > 0 || done.failed == 0 {
                        if let Err(e) = file.commit() {
                            let games = done.converted;
                            done.lose(games.max(1));
                            (report.diagnostic)(&report::output_failed(
                                job.name(),
                                None,
                                games,
                                &e,
                            ));
                        }
                    }
                    summary += done;
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
    let closed = run.outputs.to_stdout() && outcome.as_ref().is_err_and(closed_stdout);
    // The rejects are kept whenever the run ended as a run (--strict too);
    // on any other error, like every output, they are not written.
    if let Some(r) = rejects {
        if outcome.is_ok() || closed || matches!(outcome, Err(Error::Strict(_))) {
            r.commit()?;
        }
    }
    if closed {
        return Ok(Ended::Closed);
    }
    outcome?;
    Ok(Ended::Done(Totals {
        summary,
        empty: plan.empty.len(),
        skipped: plan.skipped.len(),
    }))
}

/// Whether the folder `--out-dir` names cannot be made (a file there,
/// `/dev/null`): no output under it can be written, which fails the run,
/// not its inputs one by one.
fn out_root_fails(root: Option<&std::path::Path>) -> bool {
    root.is_some_and(|root| fs::create_dir_all(root).is_err())
}

/// Converts one job's games into `sink`: an input with no games warns
/// (unless it was damaged; `named`: its format was named by `--from`), and
/// damage to its compressed data is an error after the games before it.
fn convert_job(
    job: &Job,
    named: bool,
    conv: &Converter<'_>,
    sink: &mut dyn Games,
    report: &mut Report<'_>,
) -> Result<Summary, Error> {
    let name = job.name();
    let (input, damage) = job.open()?;
    let (mut done, head) = convert_input(input, &name, conv, sink, report)?;
    // None of its games converted: what its contents or name suggest it
    // is, said once for the input.
    if done.converted == 0 && !damage.is_damaged() {
        let looks = crate::archive::sniff(
            &head,
            std::path::Path::new(&name),
            job.from,
            done.failed > 0,
        );
        let said = match (done.failed, looks) {
            (0, looks) => Some(report::no_games(name.clone(), job.from, named, looks)),
            (failed, Some(looks)) => Some(report::every_game_failed(
                name.clone(),
                job.from,
                failed,
                looks,
            )),
            (_, None) => None,
        };
        if let Some(d) = said {
            (report.diagnostic)(&d);
            done.warnings += 1;
        }
    }
    // A compressed input cut short or corrupt: the games before the damage
    // are converted, and the damage is an error.
    if let Some(e) = damage.take() {
        (report.diagnostic)(&report::damaged(name, &e));
        done.damaged += 1;
    }
    Ok(done)
}
