//! Planning a conversion before anything is written: which formats the
//! flags name, what the inputs named come to (files; folders searched
//! recursively, through symbolic links; zip archives read member by
//! member; standard input), where the output of each goes (standard
//! output, `-o`, or one file per input under `--out-dir`), which inputs are
//! of another family than the output, and whether an output would be an
//! input or two outputs one file.
//!
//! Every input is found before any output is created, so that no file a
//! run writes is read by that run.
//!
//! ```no_run
//! use std::path::{Path, PathBuf};
//! use kifu::plan::{formats, plan, Outputs};
//!
//! let (from, to) = formats(None, Some("jsonl"), None)?;
//! let mut p = plan(&[PathBuf::from("archive/")], from, to, Some(Path::new("out/")))?;
//! p.set_aside(to, false)?;
//! p.check(&Outputs { out_dir: Some(Path::new("out/")), ..Outputs::default() }, to)?;
//! for job in &p.jobs {
//!     println!("{} -> {:?}", job.name(), job.out);
//! }
//! # Ok::<(), kifu::error::Error>(())
//! ```

use std::collections::HashMap;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::error::{Diagnostic, Error, Severity};
use crate::format::{self, Format, FORMATS};
use crate::input::{self, Damage, ZipMember};
use crate::output::{self, is_temporary, Planned};
use crate::report::{names, note, write_only};

/// Standard input's name in messages and on the command line.
pub const STDIN: &str = "-";

/// The format named `name` (`--from`, `--to`, `--from-a`), or the usage
/// error that lists the formats.
pub fn named(name: &str) -> Result<&'static Format, Error> {
    format::by_name(name).ok_or_else(|| {
        let names: Vec<&str> = FORMATS.iter().map(|f| f.name).collect();
        Error::Usage(format!(
            "unknown format `{name}`; known formats: {}",
            names.join(", ")
        ))
    })
}

/// The formats of a conversion: the input format `--from` names, if it
/// does, and the output format, named by `--to` or guessed from the name
/// of `-o` (`output`); a format kifu cannot read named as the input, or
/// cannot write as the output, is a usage error, and so is an `-o` that
/// names a folder.
pub fn formats(
    from: Option<&str>,
    to: Option<&str>,
    output: Option<&Path>,
) -> Result<(Option<&'static Format>, &'static Format), Error> {
    // Before the format is guessed from its name: a folder has none.
    if let Some(p) = output {
        if p.is_dir() || p.as_os_str().to_string_lossy().ends_with('/') {
            return Err(Error::Usage(format!(
                "-o {} names a folder: -o takes one file for every game; --out-dir {} writes \
                 one file per input there",
                p.display(),
                p.display()
            )));
        }
    }
    let to = match (to, output) {
        (Some(name), _) => named(name)?,
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
    let from = from.map(named).transpose()?;
    if let Some(f) = from {
        if f.read.is_none() {
            return Err(Error::Usage(write_only(f, true)));
        }
    }
    Ok((from, to))
}

/// A size as `--max-record-size` takes it: bytes (`65536`), or a number
/// with a suffix K, M or G, powers of 1024 (`64K`, `64M`, `1G`, `64MiB`).
pub fn parse_size(text: &str) -> Result<usize, String> {
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

/// One input file, archive member or standard input, and where its output
/// goes.
#[derive(Debug)]
pub struct Job {
    /// The file (or folder of tables, or zip archive); `None` is standard
    /// input.
    pub input: Option<PathBuf>,
    /// The member of the zip archive `input` names, read alone.
    pub member: Option<ZipMember>,
    /// Its format.
    pub from: &'static Format,
    /// Its own output under `--out-dir`; `None` when the run has one
    /// output for every input. [`Plan::check`] settles it where two
    /// outputs would meet (the rule of `docs/cli.md`, "How `--out-dir`
    /// names outputs").
    pub out: Option<PathBuf>,
    /// What its output under `--out-dir` is named from.
    naming: Option<Naming>,
}

impl Job {
    /// A job of a file (or a folder of tables, or standard input: `None`)
    /// whose output under `out_dir` is at `rel` there (the path of the
    /// input under the folder named, or its file name), with the output
    /// format `to`'s extension.
    fn new(
        input: Option<PathBuf>,
        from: &'static Format,
        out_dir: Option<&Path>,
        rel: &Path,
        to: &Format,
    ) -> Job {
        let naming = out_dir.map(|d| Naming {
            dir: d.join(rel.parent().unwrap_or(Path::new(""))),
            archive: None,
            name: rel
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned(),
            nth: 1,
        });
        Job {
            input,
            member: None,
            from,
            out: naming.as_ref().map(|n| n.path(0, 0, to)),
            naming,
        }
    }

    /// How messages name the input: its path, `-`, or
    /// `archive.zip:member.pgn` (`#2` after the second entry of one path).
    pub fn name(&self) -> String {
        let name = self
            .input
            .as_ref()
            .map_or_else(|| STDIN.to_string(), |p| p.display().to_string());
        match &self.member {
            Some(m) => format!("{name}:{}", m.name()),
            None => name,
        }
    }

    /// Opens the input, decompressed as it is read: standard input, the
    /// archive member, the folder of a format kept in one (the csv tables),
    /// or the file. Damage to compressed data found while reading is left
    /// in the [`Damage`].
    pub fn open(&self) -> Result<(Box<dyn Read + Send>, Damage), Error> {
        match (&self.input, &self.member, self.from.split.folder()) {
            (None, _, _) => input::decompressed(io::stdin()).map_err(|e| Error::io(STDIN, e)),
            (Some(p), Some(m), _) => input::zip_member(p, m).map_err(|e| Error::io(self.name(), e)),
            // A format kept in a folder (csv) reads the folder.
            (Some(p), None, Some(folder)) => folder
                .open(p)
                .map(|r| (r, Damage::default()))
                .map_err(|e| Error::io(p, e)),
            (Some(p), None, None) => input::open(p).map_err(|e| Error::io(p, e)),
        }
    }
}

/// A folder named as an input that holds nothing to convert.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Empty {
    /// The folder, as named.
    pub folder: String,
    /// What to say of it: what was looked for.
    pub why: String,
}

/// What the inputs named come to.
#[derive(Debug, Default)]
pub struct Plan {
    /// One for each input file or archive member to convert.
    pub jobs: Vec<Job>,
    /// The inputs of another family than the output's, set aside by
    /// [`Plan::set_aside`]: each skipped with a warning.
    pub skipped: Vec<Job>,
    /// The folders that hold nothing to convert.
    pub empty: Vec<Empty>,
    /// What to say of what was found and is not converted: links not
    /// followed (warnings), archive members refused and damaged archives
    /// (errors, each a failure).
    pub notes: Vec<Diagnostic>,
    /// Whether `--from` named the input format (else each input's was
    /// guessed from its name).
    pub from_named: bool,
}

impl Plan {
    /// Why the run is a usage error, if it is: nothing to convert, and
    /// nothing failed (the notes are said first), because a folder named
    /// holds nothing to convert.
    pub fn nothing_to_convert(&self) -> Option<&str> {
        let failed = self.notes.iter().any(|n| n.severity == Severity::Error);
        if !self.jobs.is_empty() || failed {
            return None;
        }
        self.empty.first().map(|e| e.why.as_str())
    }

    /// Sets the inputs of another family than `to`'s aside, into
    /// [`Plan::skipped`], when others can be converted; a run of nothing
    /// but such inputs, or with `strict` any such input, is a usage error
    /// naming the first.
    pub fn set_aside(&mut self, to: &Format, strict: bool) -> Result<(), Error> {
        let (jobs, skipped): (Vec<Job>, Vec<Job>) = std::mem::take(&mut self.jobs)
            .into_iter()
            .partition(|j| family_mismatch(j.from, to).is_none());
        self.jobs = jobs;
        self.skipped.extend(skipped);
        if let Some(first) = self.skipped.first() {
            if self.jobs.is_empty() || strict {
                let why = family_mismatch(first.from, to).unwrap_or_default();
                return Err(Error::Usage(format!("{}: {why}", first.name())));
            }
        }
        Ok(())
    }

    /// The size of the input files to convert, in bytes (standard input
    /// counts none), for a progress bar.
    pub fn bytes(&self) -> u64 {
        self.jobs
            .iter()
            .filter_map(|j| fs::metadata(j.input.as_ref()?).ok())
            .map(|m| m.len())
            .sum()
    }

    /// Settles the jobs' outputs under `--out-dir` where two would meet
    /// (`x.pgn` and `x.sllavcco` give
    /// `x.pgn.jsonl` and `x.sllavcco.jsonl`: the rule of `docs/cli.md`,
    /// "How `--out-dir` names outputs"), then refuses an output that
    /// is an input and two outputs that are one file ([`output::check`]),
    /// for the outputs the flags (`outputs`) and the jobs name; `to` is
    /// the output format. Called after [`Plan::set_aside`], so that the
    /// inputs set aside name nothing.
    pub fn check(&mut self, outputs: &Outputs<'_>, to: &Format) -> Result<(), Error> {
        settle(&mut self.jobs, to);
        // The tables of a folder read (csv) are inputs too.
        let tables: Vec<PathBuf> = self
            .jobs
            .iter()
            .filter_map(|j| Some(j.from.split.folder()?.files(j.input.as_deref()?)))
            .flatten()
            .collect();
        let inputs: Vec<Option<&Path>> = self
            .jobs
            .iter()
            .chain(&self.skipped)
            .map(|j| j.input.as_deref())
            .chain(tables.iter().map(|p| Some(p.as_path())))
            .collect();
        let written: Vec<PathBuf> = match (outputs.out_dir, to.split.folder()) {
            (Some(dir), Some(folder)) => folder.files(dir),
            _ => Vec::new(),
        };
        let flag = |path, who: &str| Planned {
            path,
            who: who.to_string(),
            from_input: false,
        };
        let mut planned = Vec::new();
        planned.extend(outputs.output.map(|p| flag(p, "-o")));
        planned.extend(outputs.rejects.map(|p| flag(p, "--rejects")));
        planned.extend(written.iter().map(|p| flag(p, "--out-dir")));
        for job in &self.jobs {
            if let Some(out) = &job.out {
                planned.push(Planned {
                    path: out,
                    who: job.name(),
                    from_input: true,
                });
            }
        }
        output::check(&inputs, &planned, outputs.to_stdout())
    }
}

/// The outputs a conversion's flags name.
#[derive(Debug, Clone, Copy, Default)]
pub struct Outputs<'a> {
    /// `-o`: one file for every game.
    pub output: Option<&'a Path>,
    /// `--out-dir`: one file per input there (or the tables of the run).
    pub out_dir: Option<&'a Path>,
    /// `--rejects`: the text of every failed game.
    pub rejects: Option<&'a Path>,
}

impl Outputs<'_> {
    /// Whether the games go to standard output (neither `-o` nor
    /// `--out-dir`).
    pub fn to_stdout(&self) -> bool {
        self.output.is_none() && self.out_dir.is_none()
    }
}

/// Why games of `from` cannot be written as `to`, if they cannot.
pub fn family_mismatch(from: &Format, to: &Format) -> Option<String> {
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

/// Expands the inputs named into jobs: folders are searched recursively
/// for files of the input format `from` (or of any readable format without
/// it), following symbolic links (`walk`); zip archives are read member
/// by member (`zip_jobs`); `-` is standard input. Under `out_dir`
/// (`--out-dir`) each job gets its own output ([`out_path`]), unless the
/// output format `to` is kept in a folder (csv: one set of tables for the
/// run).
pub fn plan(
    inputs: &[PathBuf],
    from: Option<&'static Format>,
    to: &'static Format,
    out_dir: Option<&Path>,
) -> Result<Plan, Error> {
    let mut p = Plan {
        from_named: from.is_some(),
        ..Plan::default()
    };
    let (jobs, empty, notes) = (&mut p.jobs, &mut p.empty, &mut p.notes);
    // A format kept in a folder (csv) writes one set of tables for the
    // run: no output per input.
    let out_dir = out_dir.filter(|_| to.split.folder().is_none());
    for input in inputs {
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
            jobs.push(Job::new(Some(input.clone()), from, out_dir, name, to));
            continue;
        }
        if input.as_os_str() == STDIN {
            let from = from.ok_or_else(|| {
                Error::Usage("reading standard input needs --from to name its format".to_string())
            })?;
            if out_dir.is_some() {
                return Err(Error::Usage(
                    "standard input has no file name for --out-dir: use -o".to_string(),
                ));
            }
            jobs.push(Job::new(None, from, None, Path::new(""), to));
            continue;
        }
        let meta = fs::metadata(input).map_err(|e| Error::io(input, e))?;
        if meta.is_dir() {
            let before = (jobs.len(), notes.len());
            let files = walk(input, notes)?;
            for file in files {
                let rel = file.strip_prefix(input).unwrap_or(&file).to_path_buf();
                if input::is_zip(&file) {
                    zip_jobs(out_dir, &file, &rel, from, to, jobs, notes);
                    continue;
                }
                let Some(guessed) = format::in_folder(&file, from) else {
                    continue;
                };
                jobs.push(Job::new(Some(file), guessed, out_dir, &rel, to));
            }
            // A folder of refused members or damaged archives is not empty.
            let refused = notes[before.1..]
                .iter()
                .any(|n| n.severity == Severity::Error);
            if jobs.len() == before.0 && !refused {
                let folder = input.display().to_string();
                let looked = match from {
                    Some(f) => format!("looked for {} files", format::looked_for(f)),
                    None => "no file has an extension of a format kifu reads: `kifu formats` \
                             lists them; --from names the format of files without one"
                        .to_string(),
                };
                empty.push(Empty {
                    why: format!("{folder} holds no file to convert ({looked})"),
                    folder,
                });
            }
        } else if input::is_zip(input) {
            let name = Path::new(input.file_name().unwrap_or(input.as_os_str()));
            zip_jobs(out_dir, input, name, from, to, jobs, notes);
        } else {
            let fmt = match from.or_else(|| format::guess(input)) {
                Some(f) => f,
                None => {
                    return Err(Error::Usage(match format::guess_written(input) {
                        // A table of a format kept in a folder (csv).
                        Some(w) if w.read.is_some() && w.split.folder().is_some() => format!(
                            "{} is one table of kifu's {} tables, which kifu reads as a folder: \
                             name the folder that holds them (kifu convert {} --from {})",
                            input.display(),
                            w.name,
                            input
                                .parent()
                                .filter(|p| !p.as_os_str().is_empty())
                                .map_or_else(|| ".".into(), |p| p.display().to_string()),
                            w.name
                        ),
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
                    }));
                }
            };
            let name = Path::new(input.file_name().unwrap_or(input.as_os_str()));
            jobs.push(Job::new(Some(input.clone()), fmt, out_dir, name, to));
        }
    }
    Ok(p)
}

/// The jobs of a zip archive's members: each member of the input format
/// (or of any readable format without `from`) is an input of its own,
/// named `archive.zip:member.pgn` (`archive.zip:member.pgn#2` for the
/// second entry of one path); under `out_dir` its output goes to a folder
/// named after the archive (`rel` without its extension:
/// `out/archive/member.jsonl`, `member#2.jsonl`), at the member's path made
/// relative and normal: a member without one (`../x.pgn`, `nul.pgn`, an
/// empty name) is refused there, an error. An archive that cannot be read,
/// or whose directory is damaged, is an error too (the members listed
/// before the damage are read). Symbolic links inside are warned of and
/// not followed.
fn zip_jobs(
    out_dir: Option<&Path>,
    zip: &Path,
    rel: &Path,
    from: Option<&'static Format>,
    to: &'static Format,
    jobs: &mut Vec<Job>,
    notes: &mut Vec<Diagnostic>,
) {
    let listing = match input::zip_members(zip) {
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
        let naming = match (out_dir, &member.path) {
            (None, _) => None,
            (Some(d), Ok(path)) => Some(Naming {
                dir: d.join(rel.parent().unwrap_or(Path::new(""))),
                archive: Some((
                    rel.file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into_owned(),
                    path.parent().unwrap_or(Path::new("")).to_path_buf(),
                )),
                name: path
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned(),
                nth: member.nth,
            }),
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
            out: naming.as_ref().map(|n| n.path(0, 0, to)),
            naming,
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

/// What identifies `path`, whose metadata (links followed) is `meta`.
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

/// Where the output of an input goes under `--out-dir` (`dir`) before it
/// meets another ([`Plan::check`] settles that): its path relative to what
/// was named (`rel`), with the output format's extension instead of its
/// own, compressed as the input was (`.gz`, `.zst`, `.bz2`, `.xz` kept),
/// and `#N` after the stem for the N-th entry of one path in an archive
/// (`nth`, from 1).
pub fn out_path(dir: &Path, rel: &Path, nth: usize, to: &Format) -> PathBuf {
    let name = rel.file_name().unwrap_or_default().to_string_lossy();
    dir.join(rel.parent().unwrap_or(Path::new("")))
        .join(out_name(&name, nth, 0, to))
}

/// The file name of the output of the input file `name` (the `nth` entry
/// of its path in an archive), at a `level` of the rule that keeps outputs
/// apart ([`Naming`]): 0, the stem with the output format's extension
/// (`g.pgn` -> `g.jsonl`); 1, the input's extension kept (`g.pgn.jsonl`);
/// 2 and up, numbered too (`g.pgn#2.jsonl`). A compressed input's
/// compression stays last (`g.pgn.gz` -> `g.jsonl.gz`, `g.pgn.jsonl.gz`).
fn out_name(name: &str, nth: usize, level: usize, to: &Format) -> String {
    let lower = name.to_ascii_lowercase();
    let plain = input::uncompressed_name(&lower).len();
    let compressed = &lower[plain..];
    let base = match level {
        0 => format::stem(Path::new(name)),
        _ => name[..plain].to_string(),
    };
    // The second entry of one path in an archive: `g#2.jsonl`.
    let nth = if nth > 1 {
        format!("#{nth}")
    } else {
        String::new()
    };
    let numbered = if level > 1 {
        format!("#{level}")
    } else {
        String::new()
    };
    format!("{base}{nth}{numbered}.{}{compressed}", to.extensions[0])
}

/// What the output of a job under `--out-dir` is named from, and the rule
/// that keeps outputs apart. Each input's output is first named at level 0
/// ([`out_path`]: `x.pgn` -> `x.jsonl`). Where two would meet (one path,
/// compared without regard to case, as some file systems compare them), or
/// an output file would be a folder other outputs go in, every output
/// there at the lowest level of those meeting goes one level up: a file
/// keeps its input's extension (`x.pgn.jsonl`, `x.sllavcco.jsonl`), an
/// archive's folder its `.zip` (`games.zip/`, beside a folder `games/`);
/// where one meets names that have gone up already, it keeps its name and
/// they go on; where names that have gone up meet each other, the first in
/// the run's order keeps its name and the others are numbered
/// (`x.pgn#2.jsonl`, `games.zip#2/`), until no two meet. The names depend
/// on the run's inputs alone, never on what the output folder holds, and
/// an output whose first name meets no other's keeps it.
#[derive(Debug, Clone)]
struct Naming {
    /// `--out-dir` with the input's (or its archive's) folders under what
    /// was named.
    dir: PathBuf,
    /// For an archive's member: the archive's file name, and the member's
    /// folders inside it.
    archive: Option<(String, PathBuf)>,
    /// The input's file name (a member's last part).
    name: String,
    /// The entry's number among those of its path in an archive (from 1).
    nth: usize,
}

impl Naming {
    /// The folder its archive's members go in, with that folder at
    /// `folder` level; `None` for a file that is not an archive's member.
    fn folder(&self, folder: usize) -> Option<PathBuf> {
        let (archive, _) = self.archive.as_ref()?;
        Some(
            self.dir.join(match folder {
                0 => Path::new(archive)
                    .file_stem()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned(),
                1 => archive.clone(),
                n => format!("{archive}#{n}"),
            }),
        )
    }

    /// The output's path with its archive's folder at `folder` level and
    /// its own name at `level`.
    fn path(&self, folder: usize, level: usize, to: &Format) -> PathBuf {
        let name = out_name(&self.name, self.nth, level, to);
        match (self.folder(folder), &self.archive) {
            (Some(top), Some((_, inner))) => top.join(inner).join(name),
            _ => self.dir.join(name),
        }
    }
}

/// A path as two outputs meet: without regard to case.
fn meeting(path: &Path) -> String {
    path.to_string_lossy().to_lowercase()
}

/// Settles the outputs of `jobs` under `--out-dir` by the rule of
/// [`Naming`], to the output format `to`.
fn settle(jobs: &mut [Job], to: &Format) {
    /// A name that may have to change: a job's file, an archive's folder.
    #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
    enum Item {
        File(usize),
        Folder(usize),
    }
    // Each archive's folder is one for all its members; the first member
    // gives its place in the run's order.
    let mut archives: HashMap<&Path, usize> = HashMap::new();
    let mut archive_of: Vec<Option<usize>> = Vec::with_capacity(jobs.len());
    let mut first: Vec<usize> = Vec::new();
    for (i, job) in jobs.iter().enumerate() {
        let zip = match (&job.naming, &job.input) {
            (
                Some(Naming {
                    archive: Some(_), ..
                }),
                Some(input),
            ) => {
                let next = archives.len();
                let a = *archives.entry(input.as_path()).or_insert(next);
                if a == first.len() {
                    first.push(i);
                }
                Some(a)
            }
            _ => None,
        };
        archive_of.push(zip);
    }
    let mut level = vec![0usize; jobs.len()];
    let mut folder_level = vec![0usize; first.len()];
    loop {
        // Every output by its path, and every folder outputs go in: the
        // archives whose own folder it is, and whether it is any other
        // folder (one of the inputs' folders, or inside an archive), whose
        // name cannot change.
        let mut files: HashMap<String, Vec<Item>> = HashMap::new();
        let mut folders: HashMap<String, (Vec<Item>, bool)> = HashMap::new();
        for (i, job) in jobs.iter().enumerate() {
            let Some(naming) = &job.naming else { continue };
            let folder = archive_of[i].map_or(0, |a| folder_level[a]);
            let path = naming.path(folder, level[i], to);
            let top = naming.folder(folder).map(|f| meeting(&f));
            for above in path.ancestors().skip(1) {
                if above.as_os_str().is_empty() {
                    break;
                }
                let key = meeting(above);
                let entry = folders.entry(key.clone()).or_default();
                match (archive_of[i], &top) {
                    (Some(a), Some(top)) if *top == key => {
                        if !entry.0.contains(&Item::Folder(a)) {
                            entry.0.push(Item::Folder(a));
                        }
                    }
                    _ => entry.1 = true,
                }
            }
            files.entry(meeting(&path)).or_default().push(Item::File(i));
        }
        let at = |item: &Item| match item {
            Item::File(i) => level[*i],
            Item::Folder(a) => folder_level[*a],
        };
        let order = |item: &Item| match item {
            Item::File(i) => *i,
            Item::Folder(a) => first[*a],
        };
        // Those that meet where a name that cannot change is (`fixed`) all
        // go up. Else one alone at the lowest level keeps its name; several
        // there all go up from level 0, and all but the first in the run's
        // order from above; those above the lowest go up.
        let climb = |mut met: Vec<Item>, fixed: bool| -> Vec<Item> {
            met.sort_by_key(order);
            let lowest = met.iter().map(at).min().unwrap_or(0);
            let low: Vec<usize> = (0..met.len()).filter(|&k| at(&met[k]) == lowest).collect();
            let keep = match (fixed, low.len(), lowest) {
                (true, _, _) | (false, 2.., 0) => None,
                (false, _, _) => Some(low[0]),
            };
            met.into_iter()
                .enumerate()
                .filter(|(k, _)| Some(*k) != keep)
                .map(|(_, m)| m)
                .collect()
        };
        // An archive's folder first: its members' names may then meet no
        // more.
        let mut up: Vec<Item> = Vec::new();
        for (key, (tops, fixed)) in &folders {
            if !files.contains_key(key) && !tops.is_empty() && (tops.len() > 1 || *fixed) {
                up.extend(climb(tops.clone(), *fixed));
            }
        }
        if up.is_empty() {
            for (key, met) in &files {
                match folders.get(key) {
                    // An output file where outputs go in a folder.
                    Some((tops, fixed)) => {
                        let mut met = met.clone();
                        met.extend(tops);
                        up.extend(climb(met, *fixed));
                    }
                    None if met.len() > 1 => up.extend(climb(met.clone(), false)),
                    None => {}
                }
            }
        }
        if up.is_empty() {
            break;
        }
        up.sort();
        up.dedup();
        for item in up {
            match item {
                Item::File(i) => level[i] += 1,
                Item::Folder(a) => folder_level[a] += 1,
            }
        }
    }
    for (i, job) in jobs.iter_mut().enumerate() {
        if let Some(naming) = &job.naming {
            let folder = archive_of[i].map_or(0, |a| folder_level[a]);
            job.out = Some(naming.path(folder, level[i], to));
        }
    }
}

/// Where the `n`-th game (from 1) of an input goes for a format whose
/// outputs hold one game each ([`Format::one_game`]): the input's output
/// path ([`out_path`]) with `.N` before the format's extension
/// (`out/g.svg` -> `out/g.3.svg`, `out/g.svg.gz` -> `out/g.3.svg.gz`).
pub fn game_path(base: &Path, n: usize, to: &Format) -> PathBuf {
    let name = base
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ending = format!(".{}", to.extensions[0]);
    let at = name
        .to_ascii_lowercase()
        .rfind(&ending)
        .unwrap_or(name.len());
    base.with_file_name(format!("{}.{n}{}", &name[..at], &name[at..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn fmt(name: &str) -> &'static Format {
        format::by_name(name).unwrap()
    }

    fn write(path: &Path, text: &str) {
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).unwrap();
        }
        fs::write(path, text).unwrap();
    }

    /// A zip archive of `(name, text)` members.
    fn zip(path: &Path, members: &[(&str, &str)]) {
        let mut w = zip::ZipWriter::new(fs::File::create(path).unwrap());
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored);
        for (name, text) in members {
            w.start_file(*name, opts).unwrap();
            w.write_all(text.as_bytes()).unwrap();
        }
        w.finish().unwrap();
    }

    fn usage(e: Error) -> String {
        match e {
            Error::Usage(m) => m,
            other => panic!("not a usage error: {other}"),
        }
    }

    #[test]
    fn output_names_keep_the_relative_path_compression_and_entry_number() {
        let (d, jsonl) = (Path::new("out"), fmt("jsonl"));
        for (rel, nth, to, out) in [
            ("a/b/g.pgn", 1, jsonl, "out/a/b/g.jsonl"),
            ("g.pgn.gz", 1, jsonl, "out/g.jsonl.gz"),
            ("g.pgn.bz2", 1, jsonl, "out/g.jsonl.bz2"),
            // Endings in any case, the compression's as the format's.
            ("g.PGN.ZST", 1, jsonl, "out/g.jsonl.zst"),
            ("g.Pgn.Gz", 1, jsonl, "out/g.jsonl.gz"),
            ("x/g.pgn", 2, jsonl, "out/x/g#2.jsonl"),
            // The longest ending is the format's: `.diag.pdn` goes whole.
            ("g.diag.pdn", 1, fmt("draughts-num"), "out/g.pdn"),
        ] {
            assert_eq!(
                out_path(d, Path::new(rel), nth, to),
                Path::new(out),
                "{rel}"
            );
        }
    }

    #[test]
    fn a_game_of_its_own_is_numbered_before_the_extension() {
        let svg = fmt("svg");
        assert_eq!(
            game_path(Path::new("out/d/g.svg"), 3, svg),
            Path::new("out/d/g.3.svg")
        );
        assert_eq!(
            game_path(Path::new("out/g.svg.gz"), 12, svg),
            Path::new("out/g.12.svg.gz")
        );
    }

    #[test]
    fn sizes_are_bytes_or_powers_of_1024() {
        assert_eq!(parse_size("65536"), Ok(65536));
        assert_eq!(parse_size(" 64k "), Ok(64 << 10));
        assert_eq!(parse_size("64MiB"), Ok(64 << 20));
        assert_eq!(parse_size("1GB"), Ok(1 << 30));
        for bad in ["0", "", "M", "-1", "1T", "99999999999999999999G"] {
            assert!(parse_size(bad).unwrap_err().contains("is no size"), "{bad}");
        }
    }

    #[test]
    fn the_flags_name_the_formats() {
        let (from, to) = formats(None, None, Some(Path::new("x.jsonl"))).unwrap();
        assert!(from.is_none());
        assert_eq!(to.name, "jsonl");
        let (from, to) = formats(Some("pgn"), Some("PGN"), None).unwrap();
        assert_eq!((from.unwrap().name, to.name), ("pgn", "pgn"));
        let e = usage(formats(None, None, None).unwrap_err());
        assert!(
            e.starts_with("name the output format with --to (pgn, "),
            "{e}"
        );
        let e = usage(formats(None, Some("nope"), None).unwrap_err());
        assert!(
            e.starts_with("unknown format `nope`; known formats: pgn, "),
            "{e}"
        );
        let e = usage(formats(Some("sllavcco-html"), Some("pgn"), None).unwrap_err());
        assert!(e.contains("is written only"), "{e}");
        let e = usage(formats(None, Some("pgn"), Some(Path::new("dir/"))).unwrap_err());
        assert!(e.starts_with("-o dir/ names a folder"), "{e}");
    }

    #[test]
    fn a_folder_is_searched_in_order_and_mirrored_under_out_dir() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("in");
        write(&dir.join("b/2.pgn"), "1. e4 *\n");
        write(&dir.join("a.pgn.gz"), "");
        write(&dir.join("notes.txt"), "");
        write(&dir.join("x.kifu-tmp-1.pgn"), "");
        let out = t.path().join("out");
        let p = plan(std::slice::from_ref(&dir), None, fmt("jsonl"), Some(&out)).unwrap();
        let got: Vec<(String, PathBuf)> = p
            .jobs
            .iter()
            .map(|j| (j.name(), j.out.clone().unwrap()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    dir.join("a.pgn.gz").display().to_string(),
                    out.join("a.jsonl.gz")
                ),
                (
                    dir.join("b/2.pgn").display().to_string(),
                    out.join("b/2.jsonl")
                ),
            ]
        );
        assert!(p.empty.is_empty() && p.notes.is_empty());
        assert!(p.nothing_to_convert().is_none());
    }

    #[test]
    fn a_folder_with_nothing_to_convert_says_what_was_looked_for() {
        let t = tempfile::tempdir().unwrap();
        write(&t.path().join("notes.txt"), "");
        let p = plan(&[t.path().to_path_buf()], None, fmt("pgn"), None).unwrap();
        let why = p.nothing_to_convert().unwrap();
        assert!(
            why.contains("holds no file to convert (no file has an extension"),
            "{why}"
        );
        let p = plan(
            &[t.path().to_path_buf()],
            Some(fmt("pgn")),
            fmt("pgn"),
            None,
        )
        .unwrap();
        assert!(
            p.empty[0].why.ends_with("(looked for .pgn files)"),
            "{:?}",
            p.empty
        );
    }

    #[test]
    fn zip_members_are_jobs_of_their_own_with_outputs_in_a_folder_of_the_archive() {
        let t = tempfile::tempdir().unwrap();
        let archive = t.path().join("games.zip");
        zip(
            &archive,
            &[
                ("x/g.pgn", "1. e4 *\n"),
                ("./x/g.pgn", "1. d4 *\n"),
                ("readme.txt", "not a game"),
                ("../out.pgn", "1. c4 *\n"),
            ],
        );
        let out = t.path().join("out");
        let p = plan(
            std::slice::from_ref(&archive),
            None,
            fmt("jsonl"),
            Some(&out),
        )
        .unwrap();
        let z = archive.display().to_string();
        let got: Vec<(String, Option<PathBuf>)> =
            p.jobs.iter().map(|j| (j.name(), j.out.clone())).collect();
        assert_eq!(
            got,
            [
                // Listed by name; numbered in the archive's order.
                (
                    format!("{z}:./x/g.pgn#2"),
                    Some(out.join("games/x/g#2.jsonl"))
                ),
                (format!("{z}:x/g.pgn"), Some(out.join("games/x/g.jsonl"))),
            ]
        );
        // The member that leads out of the folder is refused, an error.
        assert_eq!(p.notes.len(), 1, "{:?}", p.notes);
        assert_eq!(p.notes[0].severity, Severity::Error);
        assert_eq!(p.notes[0].file, format!("{z}:../out.pgn"));
        assert!(p.notes[0]
            .message
            .starts_with("refused: its name leads out"));
        // Without --out-dir, it is converted like the others.
        let p = plan(&[archive], None, fmt("jsonl"), None).unwrap();
        assert_eq!(p.jobs.len(), 3);
        assert!(p.jobs.iter().all(|j| j.out.is_none()) && p.notes.is_empty());
        // A member is read alone.
        let mut text = String::new();
        p.jobs[2]
            .open()
            .unwrap()
            .0
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "1. e4 *\n");
    }

    #[test]
    fn a_damaged_archive_is_an_error_and_the_folder_holding_it_is_not_empty() {
        let t = tempfile::tempdir().unwrap();
        write(&t.path().join("bad.zip"), "not a zip archive");
        let p = plan(&[t.path().to_path_buf()], None, fmt("pgn"), None).unwrap();
        assert!(p.jobs.is_empty() && p.empty.is_empty());
        assert!(p.notes[0]
            .message
            .starts_with("cannot read this zip archive"));
        assert!(p.nothing_to_convert().is_none());
    }

    #[cfg(unix)]
    #[test]
    fn each_file_is_read_once_by_its_path_without_a_link() {
        use std::os::unix::fs::symlink;
        let t = tempfile::tempdir().unwrap();
        let dir = t.path();
        write(&dir.join("z/g.pgn"), "1. e4 *\n");
        symlink(dir.join("z/g.pgn"), dir.join("a.pgn")).unwrap();
        symlink(dir, dir.join("z/loop")).unwrap();
        symlink(dir.join("missing"), dir.join("b.pgn")).unwrap();
        let mut notes = Vec::new();
        let files = walk(dir, &mut notes).unwrap();
        assert_eq!(files, [dir.join("z/g.pgn")]);
        let said: Vec<&str> = notes.iter().map(|n| n.message.as_str()).collect();
        assert_eq!(said.len(), 3, "{said:?}");
        assert!(said.iter().any(|m| m.contains("(a loop)")), "{said:?}");
        assert!(
            said.iter().any(|m| m.contains("which cannot be read")),
            "{said:?}"
        );
        assert!(
            said.iter().any(|m| m.starts_with("the same file as")),
            "{said:?}"
        );
        assert!(notes.iter().all(|n| n.kind == crate::error::Kind::Link));
    }

    #[test]
    fn an_input_that_is_also_an_output_is_refused() {
        let t = tempfile::tempdir().unwrap();
        let game = t.path().join("g.pgn");
        write(&game, "1. e4 *\n");
        let pgn = fmt("pgn");
        let mut p = plan(std::slice::from_ref(&game), None, pgn, None).unwrap();
        let outputs = Outputs {
            output: Some(&game),
            ..Outputs::default()
        };
        let e = usage(p.check(&outputs, pgn).unwrap_err());
        assert!(e.ends_with("kifu never writes over an input"), "{e}");
        assert!(e.starts_with(&format!("-o {}", game.display())), "{e}");
        let rejects = Outputs {
            output: Some(&t.path().join("out.pgn")),
            rejects: Some(&game),
            ..Outputs::default()
        };
        let e = usage(p.check(&rejects, pgn).unwrap_err());
        assert!(e.starts_with("--rejects "), "{e}");
        // Under --out-dir, the output of an input can be itself.
        let (o, other) = (t.path().join("o"), t.path().join("o/g.pgn"));
        write(&other, "1. d4 *\n");
        let mut p = plan(std::slice::from_ref(&other), None, pgn, Some(&o)).unwrap();
        let outputs = Outputs {
            out_dir: Some(&o),
            ..Outputs::default()
        };
        let e = usage(p.check(&outputs, pgn).unwrap_err());
        assert_eq!(
            e,
            format!(
                "the output {} of {} is the input {}: kifu never writes over an input",
                other.display(),
                other.display(),
                other.display()
            )
        );
        // Beside another input, the two meet and keep their extension.
        let mut p = plan(&[game.clone(), other.clone()], None, pgn, Some(&o)).unwrap();
        p.check(&outputs, pgn).unwrap();
        let outs: Vec<PathBuf> = p.jobs.iter().map(|j| j.out.clone().unwrap()).collect();
        assert_eq!(outs, [o.join("g.pgn.pgn"), o.join("g.pgn#2.pgn")]);
    }

    #[test]
    fn two_inputs_that_would_write_one_file_keep_their_extensions() {
        let t = tempfile::tempdir().unwrap();
        let (a, b) = (t.path().join("a/g.pgn"), t.path().join("b/g.pdn"));
        write(&a, "1. e4 *\n");
        write(&b, "1. 32-28 *\n");
        let jsonl = fmt("jsonl");
        let out = t.path().join("out");
        let mut p = plan(&[a.clone(), b.clone()], None, jsonl, Some(&out)).unwrap();
        let outputs = Outputs {
            out_dir: Some(&out),
            ..Outputs::default()
        };
        p.check(&outputs, jsonl).unwrap();
        let outs: Vec<PathBuf> = p.jobs.iter().map(|j| j.out.clone().unwrap()).collect();
        assert_eq!(outs, [out.join("g.pgn.jsonl"), out.join("g.pdn.jsonl")]);
        // -o and --rejects naming one file collide.
        let mut p = plan(&[a], None, jsonl, None).unwrap();
        let same = t.path().join("x.jsonl");
        let outputs = Outputs {
            output: Some(&same),
            rejects: Some(&same),
            ..Outputs::default()
        };
        let e = usage(p.check(&outputs, jsonl).unwrap_err());
        assert!(e.contains("is the same file as -o"), "{e}");
    }

    /// The outputs of the files `names` (and archives: `name.zip` holding
    /// `member`s, as `name.zip:member`) in one folder, settled.
    fn settled(names: &[&str], to: &str) -> Vec<String> {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("in");
        fs::create_dir_all(&dir).unwrap();
        let mut archives: HashMap<&str, Vec<(&str, &str)>> = HashMap::new();
        for name in names {
            match name.split_once(':') {
                Some((archive, member)) => archives
                    .entry(archive)
                    .or_default()
                    .push((member, "1. e4 *\n")),
                None => write(&dir.join(name), "1. e4 *\n"),
            }
        }
        for (archive, members) in &archives {
            zip(&dir.join(archive), members);
        }
        let (out, to) = (t.path().join("out"), fmt(to));
        let mut p = plan(std::slice::from_ref(&dir), None, to, Some(&out)).unwrap();
        let outputs = Outputs {
            out_dir: Some(&out),
            ..Outputs::default()
        };
        p.check(&outputs, to).unwrap();
        let mut got: Vec<String> = p
            .jobs
            .iter()
            .map(|j| {
                let o = j.out.as_ref().unwrap().strip_prefix(&out).unwrap();
                o.to_string_lossy().replace('\\', "/")
            })
            .collect();
        got.sort();
        got
    }

    #[test]
    fn outputs_that_would_meet_keep_their_inputs_extensions() {
        for (names, to, outs) in [
            // Alone, or apart: the stem with the target's extension.
            (
                &["x.pgn", "y.sllavcco"][..],
                "jsonl",
                &["x.jsonl", "y.jsonl"][..],
            ),
            (&["x.pgn", "x.pgn.gz"], "jsonl", &["x.jsonl", "x.jsonl.gz"]),
            // Two that would meet both keep their extension.
            (
                &["x.pgn", "x.sllavcco"],
                "jsonl",
                &["x.pgn.jsonl", "x.sllavcco.jsonl"],
            ),
            (
                &["x.pdn", "x.diag.pdn"],
                "draughts-diag",
                &["x.diag.pdn.diag.pdn", "x.pdn.diag.pdn"],
            ),
            (&["x.otg", "x.tafl"], "tafl", &["x.otg.tafl", "x.tafl.tafl"]),
            (
                &["x.pgn.zst", "x.sllavcco.zst"],
                "json",
                &["x.pgn.json.zst", "x.sllavcco.json.zst"],
            ),
            // Names that differ by case alone meet, as on some file systems.
            (
                &["X.pgn", "x.pgn"],
                "jsonl",
                &["X.pgn.jsonl", "x.pgn#2.jsonl"],
            ),
            // A name already kept by an input: the input keeps its own.
            (
                &["a.pgn", "a.sllavcco", "a.pgn.jsonl"],
                "jsonl",
                &["a.pgn#2.jsonl", "a.pgn.jsonl", "a.sllavcco.jsonl"],
            ),
            // An output where a folder of outputs is.
            (
                &["x.pgn", "x.jsonl/y.pgn"],
                "jsonl",
                &["x.jsonl/y.jsonl", "x.pgn.jsonl"],
            ),
            // An archive's folder beside a folder of that name.
            (
                &["games.zip:g.pgn", "games/g.pgn"],
                "jsonl",
                &["games.zip/g.jsonl", "games/g.jsonl"],
            ),
            (
                &["g.zip:a.pgn", "g.pgn"],
                "jsonl",
                &["g.jsonl", "g/a.jsonl"],
            ),
            // Entries of one path in an archive, and one that meets them.
            (
                &["z.zip:g.pgn", "z.zip:./g.pgn", "z.zip:g#2.pgn"],
                "jsonl",
                &["z/g#2.pgn.jsonl", "z/g.jsonl", "z/g.pgn#2.jsonl"],
            ),
        ] {
            assert_eq!(settled(names, to), outs, "{names:?} --to {to}");
        }
    }

    #[test]
    fn inputs_of_another_family_are_set_aside_unless_nothing_else_is_left() {
        let t = tempfile::tempdir().unwrap();
        let (a, b) = (t.path().join("a.pgn"), t.path().join("b.pdn"));
        write(&a, "1. e4 *\n");
        write(&b, "1. 32-28 *\n");
        let pgn = fmt("pgn");
        let mut p = plan(&[a.clone(), b.clone()], None, pgn, None).unwrap();
        p.set_aside(pgn, false).unwrap();
        assert_eq!(p.jobs.len(), 1);
        assert_eq!(p.skipped[0].name(), b.display().to_string());
        let mut p = plan(&[a, b.clone()], None, pgn, None).unwrap();
        let e = usage(p.set_aside(pgn, true).unwrap_err());
        assert!(e.starts_with(&format!(
            "{}: draughts-num holds draughts games",
            b.display()
        )));
        let mut p = plan(&[b], None, pgn, None).unwrap();
        assert!(p.set_aside(pgn, false).is_err());
    }

    #[test]
    fn standard_input_needs_a_format_and_has_no_name_for_out_dir() {
        let stdin = [PathBuf::from(STDIN)];
        let pgn = fmt("pgn");
        let e = usage(plan(&stdin, None, pgn, None).unwrap_err());
        assert_eq!(e, "reading standard input needs --from to name its format");
        let e = usage(plan(&stdin, Some(pgn), pgn, Some(Path::new("o"))).unwrap_err());
        assert_eq!(e, "standard input has no file name for --out-dir: use -o");
        let p = plan(&stdin, Some(pgn), pgn, None).unwrap();
        assert_eq!(p.jobs[0].name(), "-");
        let t = tempfile::tempdir().unwrap();
        let html = t.path().join("x.html");
        write(&html, "");
        let e = usage(plan(&[html], None, pgn, None).unwrap_err());
        assert!(e.ends_with("is named as sllavcco-html (.html), which kifu writes but cannot read"));
    }
}
