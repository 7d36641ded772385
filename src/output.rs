//! Where a run's games go, safely: output files written beside their
//! destination and renamed into place when complete ([`OutFile`]), standard
//! output ([`Output`]), and the check, before anything is opened for
//! writing, that no output is an input and no two outputs are one file
//! ([`check`]).

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

pub mod spill;

use crate::error::Error;
use crate::input::Compression;

/// What messages call standard output.
pub const STDOUT: &str = "standard output";

/// The buffer of an output (a file's, standard output's): smaller writes
/// are gathered in it, larger ones pass it ([`crate::archive::Sink`] holds
/// its games until they fill it, and writes them so).
pub const BUFFER: usize = 1 << 16;

/// An output file. Written to a temporary file beside the destination
/// (`.NAME.kifu-tmp-PID`) and renamed into place by [`OutFile::commit`], so
/// that the destination holds either what it held before or the whole new
/// output; dropped uncommitted (an error, --strict), the temporary file is
/// removed. A destination that exists and is not a regular file (`/dev/null`,
/// `/dev/full`, a FIFO) is written directly. A symbolic link is followed,
/// to the end of its chain ([`resolve_links`]): the file it names is
/// written (created, for a link to nothing) beside that file, and the link
/// stays.
pub struct OutFile {
    /// The path as the user named it, for messages.
    dest: PathBuf,
    /// Where the temporary file is renamed to.
    target: PathBuf,
    /// The temporary file, until it is renamed.
    tmp: Option<PathBuf>,
    /// Whether the rename replaces a file.
    replaces: bool,
    file: Encoded,
}

/// An output file's bytes, compressed as its name asks (`.gz`, `.zst`,
/// `.bz2`, `.xz`: [`Compression::named`]).
enum Encoded {
    /// Plain text.
    Plain(BufWriter<File>),
    /// gzip.
    Gzip(Box<flate2::write::GzEncoder<BufWriter<File>>>),
    /// Zstandard.
    Zstd(Box<zstd::stream::write::Encoder<'static, BufWriter<File>>>),
    /// bzip2.
    Bzip2(Box<bzip2::write::BzEncoder<BufWriter<File>>>),
    /// xz.
    Xz(Box<liblzma::write::XzEncoder<BufWriter<File>>>),
}

impl Encoded {
    /// The encoding the destination's name asks for, at the level the
    /// command-line tool of each uses by default (gzip 6, zstd 3, bzip2 9,
    /// xz 6).
    fn new(dest: &Path, file: File) -> io::Result<Encoded> {
        let file = BufWriter::with_capacity(BUFFER, file);
        let name = dest.file_name().map(|n| n.to_string_lossy());
        Ok(match Compression::named(name.as_deref().unwrap_or("")) {
            Compression::Gzip => Encoded::Gzip(Box::new(flate2::write::GzEncoder::new(
                file,
                flate2::Compression::default(),
            ))),
            Compression::Zstd => {
                Encoded::Zstd(Box::new(zstd::stream::write::Encoder::new(file, 3)?))
            }
            Compression::Bzip2 => Encoded::Bzip2(Box::new(bzip2::write::BzEncoder::new(
                file,
                bzip2::Compression::best(),
            ))),
            Compression::Xz => Encoded::Xz(Box::new(liblzma::write::XzEncoder::new(file, 6))),
            Compression::None | Compression::Unsupported(_) => Encoded::Plain(file),
        })
    }

    /// Ends the compressed stream (its trailer written) and gives the
    /// file's writer.
    fn end(&mut self) -> io::Result<&mut BufWriter<File>> {
        match self {
            Encoded::Plain(w) => Ok(w),
            Encoded::Gzip(e) => {
                e.try_finish()?;
                Ok(e.get_mut())
            }
            Encoded::Zstd(e) => {
                e.do_finish()?;
                Ok(e.get_mut())
            }
            Encoded::Bzip2(e) => {
                e.try_finish()?;
                Ok(e.get_mut())
            }
            Encoded::Xz(e) => {
                e.try_finish()?;
                Ok(e.get_mut())
            }
        }
    }

    fn writer(&mut self) -> &mut dyn Write {
        match self {
            Encoded::Plain(w) => w,
            Encoded::Gzip(e) => e.as_mut(),
            Encoded::Zstd(e) => e.as_mut(),
            Encoded::Bzip2(e) => e.as_mut(),
            Encoded::Xz(e) => e.as_mut(),
        }
    }
}

/// The part of a temporary file's name after the destination's.
pub const TMP_MARK: &str = ".kifu-tmp-";

impl OutFile {
    /// Opens the output for `dest`: a temporary file beside it, or the
    /// device or FIFO it names.
    pub fn create(dest: &Path) -> Result<OutFile, Error> {
        let err = |e| Error::io(dest, e);
        // The file a link names (created if it is not there), never the link.
        let target = resolve_links(dest).map_err(err)?;
        let meta = fs::metadata(&target).ok();
        if meta.as_ref().is_some_and(|m| !m.is_file()) {
            return Ok(OutFile {
                dest: dest.to_path_buf(),
                target: target.clone(),
                tmp: None,
                replaces: false,
                file: Encoded::new(dest, File::create(&target).map_err(err)?).map_err(err)?,
            });
        }
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let name = target.file_name().unwrap_or(target.as_os_str());
        let pid = std::process::id();
        let mut n = 0;
        loop {
            let mut tmp_name = std::ffi::OsString::from(".");
            tmp_name.push(name);
            tmp_name.push(format!("{TMP_MARK}{pid}"));
            if n > 0 {
                tmp_name.push(format!("-{n}"));
            }
            let tmp = dir.join(tmp_name);
            match fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&tmp)
            {
                Ok(f) => {
                    if let Some(m) = &meta {
                        // The new file keeps the old one's permissions.
                        let _ = f.set_permissions(m.permissions());
                    }
                    return Ok(OutFile {
                        dest: dest.to_path_buf(),
                        target,
                        tmp: Some(tmp),
                        replaces: meta.is_some(),
                        file: Encoded::new(dest, f).map_err(err)?,
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 100 => n += 1,
                // Said of the output named, never of the temporary file.
                Err(e) if e.kind() == io::ErrorKind::NotFound && !dir.is_dir() => {
                    return Err(Error::io(
                        dest,
                        io::Error::new(
                            e.kind(),
                            format!(
                                "there is no folder {} to write it in: create it first",
                                dir.display()
                            ),
                        ),
                    ))
                }
                Err(e) => return Err(Error::io(dest, e)),
            }
        }
    }

    /// Puts the complete output in place. A file that replaces another is
    /// on disk before the rename, so that even a crash of the machine leaves
    /// the old file or the new one.
    pub fn commit(mut self) -> Result<(), Error> {
        let err = |e| Error::io(&self.dest, e);
        let file = self.file.end().map_err(err)?;
        file.flush().map_err(err)?;
        if self.replaces {
            file.get_ref().sync_all().map_err(err)?;
        }
        if let Some(tmp) = self.tmp.take() {
            if let Err(e) = fs::rename(&tmp, &self.target) {
                let _ = fs::remove_file(&tmp);
                return Err(Error::io(&self.dest, e));
            }
        }
        Ok(())
    }
}

impl Drop for OutFile {
    fn drop(&mut self) {
        if let Some(tmp) = self.tmp.take() {
            let _ = fs::remove_file(tmp);
        }
    }
}

impl Write for OutFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.writer().write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.file.writer().write_all(buf)
    }
    fn write_vectored(&mut self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        self.file.writer().write_vectored(bufs)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.file.writer().flush()
    }
}

/// Where a path leads through symbolic links: the path itself when it is
/// not a link; else, link after link (each read relative to its folder),
/// the first path that is not one, whether it exists or not. A chain of
/// more than 40 links (a loop) is an error.
pub fn resolve_links(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = fs::read_link(&path)?;
                path = match path.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        "too many symbolic links (a loop of links?)",
    ))
}

/// Whether a file found in a folder is an output kifu is writing (or left
/// behind when killed): never an input.
pub fn is_temporary(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.to_string_lossy().contains(TMP_MARK))
}

/// Where games go: standard output or a file.
pub enum Output {
    /// Standard output.
    Stdout(BufWriter<io::StdoutLock<'static>>),
    /// A file, put in place by [`Output::commit`].
    File(OutFile),
}

impl Output {
    /// Puts a complete file in place (standard output needs nothing).
    pub fn commit(self) -> Result<(), Error> {
        match self {
            Output::Stdout(_) => Ok(()),
            Output::File(f) => f.commit(),
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Output::Stdout(w) => w.write(buf),
            Output::File(w) => w.write(buf),
        }
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Output::Stdout(w) => w.write_all(buf),
            Output::File(w) => w.write_all(buf),
        }
    }
    fn write_vectored(&mut self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        match self {
            Output::Stdout(w) => w.write_vectored(bufs),
            Output::File(w) => w.write_vectored(bufs),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::Stdout(w) => w.flush(),
            Output::File(w) => w.flush(),
        }
    }
}

/// What identifies a file: device and inode where the system has them, else
/// the canonical path; a file that does not exist yet, its absolute path
/// with `.`, `..` and the links of its existing folders resolved.
#[derive(PartialEq, Eq, Hash)]
enum FileKey {
    Id(u64, u64),
    Path(PathBuf),
}

fn file_key(path: &Path) -> FileKey {
    // A link to nothing is the file it would create.
    let path = &resolve_links(path).unwrap_or_else(|_| path.to_path_buf());
    match fs::metadata(path) {
        Ok(m) => meta_key(&m).unwrap_or_else(|| FileKey::Path(normalize(path))),
        Err(_) => FileKey::Path(normalize(path)),
    }
}

#[cfg(unix)]
fn meta_key(m: &fs::Metadata) -> Option<FileKey> {
    use std::os::unix::fs::MetadataExt;
    Some(FileKey::Id(m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn meta_key(_: &fs::Metadata) -> Option<FileKey> {
    None
}

/// The absolute form of a path: its longest existing part canonicalized,
/// the rest joined with `.` and `..` resolved.
fn normalize(path: &Path) -> PathBuf {
    use std::path::Component;
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let parts: Vec<Component> = abs.components().collect();
    for k in (1..=parts.len()).rev() {
        let head: PathBuf = parts[..k].iter().collect();
        if let Ok(mut out) = fs::canonicalize(&head) {
            for part in &parts[k..] {
                match part {
                    Component::ParentDir => {
                        out.pop();
                    }
                    Component::CurDir => {}
                    other => out.push(other),
                }
            }
            return out;
        }
    }
    abs
}

/// A standard stream whose file kifu compares with its inputs.
enum Stream {
    Stdin,
    Stdout,
}

/// What identifies the file behind a standard stream, when it is a regular
/// file (`< games.pgn`, `> out.pgn`).
#[cfg(unix)]
fn stream_key(stream: Stream) -> Option<FileKey> {
    use std::os::fd::AsFd;
    let fd = match stream {
        Stream::Stdin => io::stdin().as_fd().try_clone_to_owned(),
        Stream::Stdout => io::stdout().as_fd().try_clone_to_owned(),
    };
    let meta = File::from(fd.ok()?).metadata().ok()?;
    meta.is_file().then(|| meta_key(&meta)).flatten()
}

#[cfg(not(unix))]
fn stream_key(_: Stream) -> Option<FileKey> {
    None
}

/// One output a run will write, and who writes it, for [`check`].
#[derive(Debug, Clone)]
pub struct Planned<'a> {
    /// Where it goes.
    pub path: &'a Path,
    /// The flag that names it (`-o`, `--rejects`), or the input whose
    /// output it is.
    pub who: String,
    /// Whether `who` is an input (an `--out-dir` file).
    pub from_input: bool,
}

/// Refuses, before anything is opened for writing, an output that is an
/// input (by any path, standard input and output included: `None` among
/// the inputs is standard input, and `to_stdout` says standard output is
/// written), two outputs that are one file (`-o`, `--rejects`, the
/// `--out-dir` files), and two inputs that would write one `--out-dir`
/// file.
pub fn check(
    inputs: &[Option<&Path>],
    outputs: &[Planned<'_>],
    to_stdout: bool,
) -> Result<(), Error> {
    let refuse = |m: String| Err(Error::Usage(m));
    let mut input_keys: HashMap<FileKey, String> = HashMap::new();
    for input in inputs {
        match input {
            Some(p) if fs::metadata(p).is_ok_and(|m| m.is_file()) => {
                input_keys
                    .entry(file_key(p))
                    .or_insert_with(|| p.display().to_string());
            }
            Some(_) => {}
            None => {
                if let Some(key) = stream_key(Stream::Stdin) {
                    input_keys.insert(key, "standard input".to_string());
                }
            }
        }
    }
    let inputs = input_keys;
    if let Some(input) = to_stdout
        .then(|| stream_key(Stream::Stdout))
        .flatten()
        .and_then(|key| inputs.get(&key))
    {
        return refuse(format!(
            "{STDOUT} is the input {input}: kifu never writes over an input"
        ));
    }
    let mut seen: HashMap<FileKey, (&Path, &str, bool)> = HashMap::new();
    for Planned {
        path,
        who,
        from_input,
    } in outputs
    {
        // Devices and FIFOs are written in place and are no input's file.
        if fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            continue;
        }
        let key = file_key(path);
        let what = if *from_input {
            format!("the output {} of {who}", path.display())
        } else {
            format!("{who} {}", path.display())
        };
        if let Some(input) = inputs.get(&key) {
            return refuse(format!(
                "{what} is the input {input}: kifu never writes over an input"
            ));
        }
        if let Some((other, other_who, other_from_input)) = seen.get(&key) {
            return refuse(match (from_input, other_from_input) {
                (true, true) => format!(
                    "{other_who} and {who} would both be written to {}, one file by two \
                     names (a link in the output folder, or a file system that makes two \
                     names one): write them elsewhere",
                    path.display()
                ),
                (true, false) => {
                    format!("{what} is the same file as {other_who} {}", other.display())
                }
                _ => format!(
                    "{what} is the same file as {}{}",
                    if *other_from_input {
                        format!("the output of {other_who} ")
                    } else {
                        format!("{other_who} ")
                    },
                    other.display()
                ),
            });
        }
        seen.insert(key, (path, who, *from_input));
    }
    Ok(())
}
