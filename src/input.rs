//! Inputs: files or standard input, decompressed as a stream when they are
//! compressed.
//!
//! A compressed input is recognised by its magic bytes, not its name:
//! gzip (`1f 8b`), Zstandard (`28 b5 2f fd`), bzip2 (`BZh`) and xz
//! (`fd 37 7a 58 5a 00`) are decompressed as they are read, never
//! unpacked to disk or memory whole, concatenated members, frames and
//! streams read whole. A zip archive named `.zip` is read member by member
//! ([`zip_member`]); one that is not so named is refused with a message
//! that says so. The format
//! of a compressed file is guessed from its name under the compression
//! extension (`games.pgn.gz` is pgn: [`uncompressed_name`]).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Where a decompressor that met damaged data (a truncated or corrupt
/// file) leaves its error: the stream ends there, so that the games before
/// the damage are read, and the caller reports the damage after them.
#[derive(Debug, Clone, Default)]
pub struct Damage(Arc<Mutex<Option<io::Error>>>);

impl Damage {
    /// The error the stream ended with, if it met damaged data.
    pub fn take(&self) -> Option<io::Error> {
        self.0.lock().ok()?.take()
    }

    /// Whether the stream met damaged data (the error not yet taken).
    pub fn is_damaged(&self) -> bool {
        self.0.lock().is_ok_and(|d| d.is_some())
    }
}

/// A decompressor whose error ends the stream, kept in its [`Damage`].
struct Guarded<R> {
    inner: R,
    damage: Damage,
}

impl<R: Read> Read for Guarded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.inner.read(buf) {
            Err(e) if e.kind() != io::ErrorKind::Interrupted => {
                if let Ok(mut slot) = self.damage.0.lock() {
                    *slot = Some(e);
                }
                Ok(0)
            }
            other => other,
        }
    }
}

/// The compression extensions, as file names end with them.
pub const EXTENSIONS: [&str; 4] = ["gz", "zst", "bz2", "xz"];

/// A file name without its compression extension, if it has one
/// (`games.pgn.zst` -> `games.pgn`).
pub fn uncompressed_name(name: &str) -> &str {
    let b = name.as_bytes();
    for e in EXTENSIONS {
        // In any case (`games.PGN.GZ`), as the format's own ending is read.
        let Some(dot) = b.len().checked_sub(e.len() + 1) else {
            continue;
        };
        if dot > 0 && b[dot] == b'.' && b[dot + 1..].eq_ignore_ascii_case(e.as_bytes()) {
            return &name[..dot];
        }
    }
    name
}

/// What the first bytes of a stream say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// Plain text.
    None,
    /// gzip.
    Gzip,
    /// Zstandard.
    Zstd,
    /// bzip2.
    Bzip2,
    /// xz.
    Xz,
    /// A kind kifu recognises but does not read: its name.
    Unsupported(&'static str),
}

impl Compression {
    /// The compression a file name asks for, by its extension (what kifu
    /// writes: `.gz`, `.zst`, `.bz2`, `.xz`, in any case), or none.
    pub fn named(name: &str) -> Compression {
        let lower = name.to_ascii_lowercase();
        if uncompressed_name(&lower).len() == lower.len() {
            return Compression::None;
        }
        match lower.rsplit('.').next() {
            Some("gz") => Compression::Gzip,
            Some("zst") => Compression::Zstd,
            Some("bz2") => Compression::Bzip2,
            Some("xz") => Compression::Xz,
            _ => Compression::None,
        }
    }

    /// The compression the first bytes of a stream show.
    pub fn of(head: &[u8]) -> Compression {
        if head.starts_with(&[0x1f, 0x8b]) {
            Compression::Gzip
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Compression::Zstd
        } else if head.starts_with(b"BZh") {
            Compression::Bzip2
        } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
            Compression::Xz
        } else if head.starts_with(b"PK\x03\x04") {
            Compression::Unsupported("zip")
        } else {
            Compression::None
        }
    }
}

/// A decompressor whose error ends its stream and is left in `damage`.
fn guarded<R: Read + Send + 'static>(inner: R, damage: &Damage) -> Box<dyn Read + Send> {
    Box::new(Guarded {
        inner,
        damage: damage.clone(),
    })
}

/// A stream, decompressed if its first bytes say it is compressed, and
/// decoded from UTF-16 if it is UTF-16 ([`text_stream`]); and where a
/// decompression error will be left.
pub fn decompressed<R: Read + Send + 'static>(
    reader: R,
) -> io::Result<(Box<dyn Read + Send>, Damage)> {
    let damage = Damage::default();
    let mut reader = BufReader::with_capacity(1 << 16, reader);
    // The magic bytes: at most six, from the first read.
    let buf = reader.fill_buf()?;
    let head = buf[..buf.len().min(6)].to_vec();
    let stream: Box<dyn Read + Send> = match Compression::of(&head) {
        Compression::None => Box::new(reader),
        Compression::Gzip => guarded(flate2::bufread::MultiGzDecoder::new(reader), &damage),
        Compression::Zstd => guarded(zstd::stream::read::Decoder::with_buffer(reader)?, &damage),
        Compression::Bzip2 => guarded(bzip2::bufread::MultiBzDecoder::new(reader), &damage),
        Compression::Xz => guarded(
            liblzma::bufread::XzDecoder::new_multi_decoder(reader),
            &damage,
        ),
        Compression::Unsupported(kind) => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "compressed with {kind}, which kifu does not read yet (gzip, zstd, bzip2 and \
                     xz it does): unpack it first"
                ),
            ))
        }
    };
    Ok((text_stream(stream)?, damage))
}

/// Whether a stream's first bytes are UTF-16 ([`text_stream`]): big-endian
/// or not, and the length of its byte-order mark.
fn utf16(head: &[u8]) -> Option<(bool, usize)> {
    match head {
        [0xFF, 0xFE, ..] => Some((false, 2)),
        [0xFE, 0xFF, ..] => Some((true, 2)),
        // `[E` or `1.` in UTF-16 without a mark: printable ASCII and zero
        // bytes, in one order or the other, four characters running.
        [a, 0, b, 0, c, 0, d, 0, ..]
            if [a, b, c, d].iter().all(|&&x| (0x09..0x7F).contains(&x)) =>
        {
            Some((false, 0))
        }
        [0, a, 0, b, 0, c, 0, d, ..]
            if [a, b, c, d].iter().all(|&&x| (0x09..0x7F).contains(&x)) =>
        {
            Some((true, 0))
        }
        _ => None,
    }
}

/// Whether a stream that starts with `head` (its first 8 bytes at least,
/// or all of it) is read as it is: neither compressed nor UTF-16, so that
/// an offset in what kifu reads is the same offset in the file.
pub fn is_plain(head: &[u8]) -> bool {
    Compression::of(head) == Compression::None && utf16(head).is_none()
}

/// A stream of text as UTF-8: a UTF-16 stream (a byte-order mark `FF FE` or
/// `FE FF`, or, without one, the zero bytes of ASCII text in UTF-16) is
/// decoded as it is read; any other stream is passed on as it is (UTF-8,
/// with or without its mark, or Latin-1, which the readers tell).
pub fn text_stream(stream: Box<dyn Read + Send>) -> io::Result<Box<dyn Read + Send>> {
    let mut reader = BufReader::with_capacity(1 << 16, stream);
    let head = reader.fill_buf()?;
    let big = utf16(head);
    Ok(match big {
        None => Box::new(reader),
        Some((big, mark)) => {
            reader.consume(mark);
            Box::new(Utf16 {
                inner: reader,
                big,
                out: Vec::new(),
                at: 0,
                odd: None,
                high: None,
                done: false,
            })
        }
    })
}

/// Decodes UTF-16 into UTF-8 as it is read. A unit that is no character
/// (a lone surrogate) becomes U+FFFD, as a decoder does.
struct Utf16<R> {
    inner: R,
    big: bool,
    /// Decoded bytes not yet handed out, from `at`.
    out: Vec<u8>,
    at: usize,
    /// A byte of a unit cut by the end of a read.
    odd: Option<u8>,
    /// A high surrogate waiting for its low one.
    high: Option<u16>,
    done: bool,
}

impl<R: Read> Utf16<R> {
    fn push(&mut self, c: char) {
        let mut b = [0u8; 4];
        self.out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
    }

    fn unit(&mut self, u: u16) {
        match (self.high.take(), u) {
            (Some(h), 0xDC00..=0xDFFF) => {
                let c = 0x10000 + ((u32::from(h) - 0xD800) << 10) + (u32::from(u) - 0xDC00);
                self.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
            }
            (h, _) => {
                if h.is_some() {
                    self.push('\u{FFFD}');
                }
                match u {
                    0xD800..=0xDBFF => self.high = Some(u),
                    0xDC00..=0xDFFF => self.push('\u{FFFD}'),
                    _ => self.push(char::from_u32(u32::from(u)).unwrap_or('\u{FFFD}')),
                }
            }
        }
    }

    fn fill(&mut self) -> io::Result<()> {
        let mut buf = [0u8; 1 << 14];
        while self.at == self.out.len() && !self.done {
            self.out.clear();
            self.at = 0;
            let n = match self.inner.read(&mut buf) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if n == 0 {
                self.done = true;
                if self.high.take().is_some() || self.odd.take().is_some() {
                    self.push('\u{FFFD}');
                }
                break;
            }
            let mut bytes = &buf[..n];
            if let Some(first) = self.odd.take() {
                let pair = [first, bytes[0]];
                self.unit(self.decode(pair));
                bytes = &bytes[1..];
            }
            let mut pairs = bytes.chunks_exact(2);
            for p in &mut pairs {
                self.unit(self.decode([p[0], p[1]]));
            }
            self.odd = pairs.remainder().first().copied();
        }
        Ok(())
    }

    fn decode(&self, pair: [u8; 2]) -> u16 {
        if self.big {
            u16::from_be_bytes(pair)
        } else {
            u16::from_le_bytes(pair)
        }
    }
}

impl<R: Read> Read for Utf16<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.fill()?;
        let n = buf.len().min(self.out.len() - self.at);
        buf[..n].copy_from_slice(&self.out[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Opens a file for reading, decompressed as it is read if it is
/// compressed ([`decompressed`]).
pub fn open(path: &Path) -> io::Result<(Box<dyn Read + Send>, Damage)> {
    decompressed(File::open(path)?)
}

/// Whether a file name is a zip archive's (`.zip`), whose members kifu
/// reads one by one.
pub fn is_zip(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zip"))
}

/// One member of a zip archive that holds a file.
#[derive(Debug, Clone)]
pub struct ZipMember {
    /// The name the archive gives it (read as UTF-8, lossily).
    pub raw: String,
    /// Which entry of its path it is: 1 for the first, 2 for the second
    /// entry the archive holds under the same path, and so on.
    pub nth: usize,
    /// Its path made relative and normal ([`member_path`]), or why it has
    /// none that stays inside a folder.
    pub path: Result<PathBuf, String>,
    /// Where its data is, as the central directory says.
    entry: Arc<zip::read::OwnedZipFileEntry>,
}

impl ZipMember {
    /// How messages name it: its name in the archive, and `#N` for the
    /// N-th entry of one path (`g.pgn`, `g.pgn#2`).
    pub fn name(&self) -> String {
        match self.nth {
            1 => self.raw.clone(),
            n => format!("{}#{n}", self.raw),
        }
    }
}

/// What a zip archive's central directory lists: every entry that is a
/// file (directories and symbolic links are not), in the archive's order,
/// entries of one path included; and, when the directory is damaged part
/// of the way, the error that ended it (the members before it are listed).
#[derive(Debug, Default)]
pub struct ZipListing {
    /// The members that hold files.
    pub members: Vec<ZipMember>,
    /// The names of the entries that are symbolic links, which kifu does
    /// not follow inside an archive.
    pub links: Vec<String>,
    /// The damage that ended the directory, if it is damaged.
    pub damage: Option<io::Error>,
}

fn invalid(e: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e.to_string())
}

/// Lists a zip archive's members, reading its central directory once
/// (the cost is linear in the number of members). An archive whose
/// directory cannot be found at all is an error.
pub fn zip_members(path: &Path) -> io::Result<ZipListing> {
    use zip::unstable::read::ZipIterable;
    let file = BufReader::new(File::open(path)?);
    let mut archive = ZipIterable::try_new(file, zip::read::Config::default()).map_err(invalid)?;
    let mut listing = ZipListing::default();
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for entry in archive.files().map_err(invalid)? {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                listing.damage = Some(invalid(e));
                break;
            }
        };
        let raw = String::from_utf8_lossy(entry.name_raw()).into_owned();
        if entry.is_symlink() {
            listing.links.push(raw);
            continue;
        }
        if entry.is_dir() {
            continue;
        }
        let path = member_path(&raw);
        // Entries are one path's when their normal paths are one (`g.pgn`,
        // `./g.pgn`), or, without one, their names are.
        let key = match &path {
            Ok(p) => format!("/{}", p.display()),
            Err(_) => raw.clone(),
        };
        let nth = seen.entry(key).or_insert(0);
        *nth += 1;
        listing.members.push(ZipMember {
            raw,
            nth: *nth,
            path,
            entry: Arc::new(entry.into()),
        });
    }
    listing
        .members
        .sort_by(|a, b| a.raw.cmp(&b.raw).then(a.nth.cmp(&b.nth)));
    Ok(listing)
}

/// Names Windows keeps for its devices, in any folder and under any
/// extension (`nul.pgn` is the null device there).
const DEVICES: [&str; 6] = ["con", "prn", "aux", "nul", "conin$", "conout$"];

/// Why a path component names a device on some system, if it does.
fn device(part: &str) -> Option<String> {
    let base = part.split('.').next().unwrap_or("").trim_end_matches(' ');
    let lower = base.to_ascii_lowercase();
    let numbered = (lower.starts_with("com") || lower.starts_with("lpt"))
        && lower.len() == 4
        && lower.as_bytes()[3].is_ascii_digit();
    (DEVICES.contains(&lower.as_str()) || numbered)
        .then(|| format!("{} names a device on Windows", crate::error::quote(part)))
}

/// A zip member's name as a path that stays inside the folder it is
/// written under: `\` read as `/` (as Windows tools write it), a drive
/// (`C:`) and leading `/` dropped, `.` and empty parts removed, `..`
/// resolved. A name that leads out of the folder, is empty, holds a NUL or
/// `:` (a drive or a stream on Windows), or names a device, has none: the
/// reason is given.
pub fn member_path(name: &str) -> Result<PathBuf, String> {
    if name.contains('\0') {
        return Err("its name holds a NUL byte".to_string());
    }
    let name = name.replace('\\', "/");
    let bytes = name.as_bytes();
    let name = if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' {
        &name[2..]
    } else {
        &name[..]
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in name.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err("its name leads out of the folder (`..`)".to_string());
                }
            }
            _ if part.contains(':') => {
                return Err(format!(
                    "{} holds a `:` (a drive or stream on Windows)",
                    crate::error::quote(part)
                ))
            }
            _ => {
                if let Some(why) = device(part) {
                    return Err(why);
                }
                parts.push(part);
            }
        }
    }
    if parts.is_empty() {
        return Err("its name is empty".to_string());
    }
    Ok(parts.iter().collect())
}

/// One member of a zip archive, decompressed as it is read (on a thread
/// of its own that feeds a pipe, so that no member is held whole), from
/// where the central directory says it is: no directory is read again.
/// An error of the archive (a damaged member) ends the stream and is left
/// in the [`Damage`].
pub fn zip_member(path: &Path, member: &ZipMember) -> io::Result<(Box<dyn Read + Send>, Damage)> {
    let mut file = BufReader::new(File::open(path)?);
    let (reader, mut writer) = io::pipe()?;
    let damage = Damage::default();
    let left = damage.clone();
    let entry = Arc::clone(&member.entry);
    std::thread::spawn(move || {
        let copied = (|| -> io::Result<u64> {
            let mut data = entry
                .as_ref()
                .as_ref()
                .with_reader(&mut file, zip::ZipReadOptions::new())
                .map_err(invalid)?;
            io::copy(&mut data, &mut writer)
        })();
        match copied {
            // The reader went away: nothing to report.
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
            Err(e) => {
                if let Ok(mut slot) = left.0.lock() {
                    *slot = Some(e);
                }
            }
            Ok(_) => {}
        }
    });
    Ok((text_stream(Box::new(reader))?, damage))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn read_all(bytes: Vec<u8>) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        let (mut stream, damage) = decompressed(io::Cursor::new(bytes))?;
        stream.read_to_end(&mut out)?;
        match damage.take() {
            Some(e) => Err(e),
            None => Ok(out),
        }
    }

    #[test]
    fn names_lose_their_compression_extension() {
        assert_eq!(uncompressed_name("games.pgn.zst"), "games.pgn");
        assert_eq!(uncompressed_name("a.diag.pdn.gz"), "a.diag.pdn");
        assert_eq!(uncompressed_name("games.pgn"), "games.pgn");
        assert_eq!(uncompressed_name(".gz"), ".gz");
    }

    #[test]
    fn concatenated_members_and_frames_are_read_whole() {
        let gz = |text: &[u8]| {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(text).unwrap();
            e.finish().unwrap()
        };
        let mut two = gz(b"1. e4 *\n");
        two.extend(gz(b"1. d4 *\n"));
        assert_eq!(read_all(two).unwrap(), b"1. e4 *\n1. d4 *\n");
        let mut zst = zstd::encode_all(&b"1. e4 *\n"[..], 1).unwrap();
        zst.extend(zstd::encode_all(&b"1. d4 *\n"[..], 1).unwrap());
        assert_eq!(read_all(zst).unwrap(), b"1. e4 *\n1. d4 *\n");
        let bz = |text: &[u8]| {
            let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
            e.write_all(text).unwrap();
            e.finish().unwrap()
        };
        let mut two = bz(b"1. e4 *\n");
        two.extend(bz(b"1. d4 *\n"));
        assert_eq!(read_all(two).unwrap(), b"1. e4 *\n1. d4 *\n");
        let xz = |text: &[u8]| {
            let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
            e.write_all(text).unwrap();
            e.finish().unwrap()
        };
        let mut two = xz(b"1. e4 *\n");
        two.extend(xz(b"1. d4 *\n"));
        assert_eq!(read_all(two).unwrap(), b"1. e4 *\n1. d4 *\n");
        // A member cut short: the text before the damage, and the error.
        let text: String = (0..20_000u64)
            .map(|i| format!("{i}. {} *\n", i.wrapping_mul(2_654_435_761) % 1_000_003))
            .collect();
        let cut = gz(text.as_bytes());
        let cut = cut[..cut.len() * 3 / 4].to_vec();
        let (mut stream, damage) = decompressed(io::Cursor::new(cut)).unwrap();
        let mut out = Vec::new();
        stream.read_to_end(&mut out).unwrap();
        assert!(out.len() > text.len() / 4, "{}", out.len());
        assert!(text.as_bytes().starts_with(&out));
        assert!(damage.take().is_some());
        // Plain text, short or empty, passes through.
        assert_eq!(read_all(b"1.".to_vec()).unwrap(), b"1.");
        assert_eq!(read_all(Vec::new()).unwrap(), b"");
    }

    #[test]
    fn member_paths_are_relative_normal_and_stay_inside() {
        let ok = |name: &str, want: &str| assert_eq!(member_path(name), Ok(PathBuf::from(want)));
        ok("g.pgn", "g.pgn");
        ok("./a/./b//g.pgn", "a/b/g.pgn");
        ok("a/../g.pgn", "g.pgn");
        ok("/abs/g.pgn", "abs/g.pgn");
        ok("C:\\win\\g.pgn", "win/g.pgn");
        ok("c:/g.pgn", "g.pgn");
        ok("a\\..\\g.pgn", "g.pgn");
        ok("console.pgn", "console.pgn");
        for refused in [
            "../g.pgn",
            "a/../../g.pgn",
            "..\\g.pgn",
            "/../g.pgn",
            "C:/../g.pgn",
            "",
            ".",
            "/",
            "a/..",
            "g\0.pgn",
            "nul.pgn",
            "a/CON",
            "com1.txt.pgn",
            "LPT9.pgn",
            "aux .pgn",
            "a/b:c.pgn",
        ] {
            assert!(member_path(refused).is_err(), "{refused:?}");
        }
    }

    #[test]
    fn output_names_say_their_compression() {
        assert_eq!(Compression::named("a.jsonl.gz"), Compression::Gzip);
        assert_eq!(Compression::named("a.jsonl.ZST"), Compression::Zstd);
        assert_eq!(Compression::named("a.jsonl.bz2"), Compression::Bzip2);
        assert_eq!(Compression::named("a.xz"), Compression::Xz);
        assert_eq!(Compression::named(".xz"), Compression::None);
        assert_eq!(Compression::named("a.jsonl"), Compression::None);
    }

    #[test]
    fn a_zip_is_refused_by_name() {
        let e = read_all(b"PK\x03\x04rest".to_vec()).err().unwrap();
        assert!(e.to_string().contains("compressed with zip"), "{e}");
    }
}
