//! Glyph outlines from a font on the converting machine, for a drawing
//! that must show characters a reader's machine may have no font for
//! (tenjiku's kanji): each character is written once as a path in the
//! drawing's shapes and placed where it is inscribed, as matplotlib's
//! default `svg.fonttype = 'path'` does. kifu holds no font of its own:
//! the outlines come from the font named (`--to-opt font=FILE`), else from
//! the first font in the system's font folders that has every character
//! asked for ([`font_dirs`]), looked for once per run.
//!
//! An outline is in an em square of [`EM`] units, y down, the baseline
//! [`BASELINE`] units below its top (the ideographic em box: 88% above
//! the baseline, 12% below), the glyph centred across it; coordinates are
//! whole units (a thousandth of the em).

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// The side of an outline's em square, in its units.
pub const EM: f32 = 1000.0;

/// Where the baseline lies in the em square, from its top.
pub const BASELINE: f32 = 880.0;

/// The outlines of some characters, from one face of one font file.
#[derive(Debug)]
pub struct Outlines {
    /// The font file they were taken from.
    pub file: PathBuf,
    /// The face of the file (0, or one of a collection's).
    pub face: u32,
    /// Each character's outline, as SVG path data.
    paths: BTreeMap<char, String>,
}

impl Outlines {
    /// A character's outline as SVG path data (relative commands, whole
    /// units of the em square); `None` for a character not asked for.
    pub fn path(&self, c: char) -> Option<&str> {
        self.paths.get(&c).map(String::as_str)
    }
}

/// The outlines of every character of `chars`, from the font `font` or,
/// without one, from the first font of the system's folders that has them
/// all; made once per run for each font and set of characters. An error
/// says why not: what is wrong with the font named, or where kifu looked.
pub fn outlines(font: Option<&Path>, chars: &str) -> Result<Arc<Outlines>, String> {
    type Cache = Mutex<HashMap<(Option<PathBuf>, String), Result<Arc<Outlines>, String>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let wanted: Vec<char> = {
        let mut c: Vec<char> = chars.chars().collect();
        c.sort_unstable();
        c.dedup();
        c
    };
    let key = (
        font.map(Path::to_path_buf),
        wanted.iter().collect::<String>(),
    );
    let cache = CACHE.get_or_init(Mutex::default);
    // Held while the font is looked for: one search a run, whatever the
    // threads drawing.
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .entry(key)
        .or_insert_with(|| match font {
            Some(file) => named(file, &wanted).map(Arc::new),
            None => search(&wanted).map(Arc::new),
        })
        .clone()
}

/// The outlines from the font named: its first face that has every
/// character.
fn named(file: &Path, chars: &[char]) -> Result<Outlines, String> {
    let shown = crate::error::quote(&file.display().to_string());
    let faces = faces(file).map_err(|e| format!("font {shown}: {e}"))?;
    let mut lacking: Option<Vec<char>> = None;
    for (face, cmap) in faces {
        let missing: Vec<char> = chars
            .iter()
            .copied()
            .filter(|&c| !maps(cmap.as_ref(), c))
            .collect();
        if missing.is_empty() {
            return load(file, face, chars).map_err(|e| format!("font {shown}: {e}"));
        }
        if lacking.as_ref().is_none_or(|l| missing.len() < l.len()) {
            lacking = Some(missing);
        }
    }
    let lacking: String = lacking.unwrap_or_default().into_iter().collect();
    Err(format!(
        "font {shown} lacks {} of the characters drawn: {lacking}",
        lacking.chars().count()
    ))
}

/// The outlines from the first font of the system's folders that has
/// every character: the fonts whose names say CJK first ([`rank`]), each
/// face's character map read alone, the first face that has them all
/// loaded whole.
fn search(chars: &[char]) -> Result<Outlines, String> {
    let dirs = font_dirs();
    let mut files = Vec::new();
    for dir in &dirs {
        walk(dir, 0, &mut files);
    }
    files.sort_by_cached_key(|f| (rank(f), f.clone()));
    for file in &files {
        let Ok(faces) = faces(file) else { continue };
        for (face, cmap) in faces {
            if chars.iter().all(|&c| maps(cmap.as_ref(), c)) {
                if let Ok(outlines) = load(file, face, chars) {
                    return Ok(outlines);
                }
            }
        }
    }
    let looked: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    Err(format!(
        "no font that has them all was found in {} ({} font files looked at)",
        looked.join(", "),
        files.len()
    ))
}

/// The folders fonts are installed in, as fontconfig (and macOS and
/// Windows) keep them. In debug builds, for tests, the environment
/// variable `KIFU_TEST_FONT_DIRS` (a list of folders, as `PATH` is
/// written) replaces them.
pub fn font_dirs() -> Vec<PathBuf> {
    if cfg!(debug_assertions) {
        if let Some(dirs) = std::env::var_os("KIFU_TEST_FONT_DIRS") {
            return std::env::split_paths(&dirs).collect();
        }
    }
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    let home = var("HOME").map(PathBuf::from);
    let in_home = |sub: &str| home.as_ref().map(|h| h.join(sub));
    if cfg!(windows) {
        let windir = var("WINDIR").map_or_else(|| PathBuf::from(r"C:\Windows"), PathBuf::from);
        let mut dirs = vec![windir.join("Fonts")];
        dirs.extend(var("LOCALAPPDATA").map(|l| PathBuf::from(l).join(r"Microsoft\Windows\Fonts")));
        dirs
    } else if cfg!(target_os = "macos") {
        let mut dirs = vec![
            PathBuf::from("/System/Library/Fonts"),
            PathBuf::from("/Library/Fonts"),
        ];
        dirs.extend(in_home("Library/Fonts"));
        dirs
    } else {
        let mut dirs = vec![
            PathBuf::from("/usr/share/fonts"),
            PathBuf::from("/usr/local/share/fonts"),
        ];
        dirs.extend(
            var("XDG_DATA_HOME")
                .map(|d| PathBuf::from(d).join("fonts"))
                .or_else(|| in_home(".local/share/fonts")),
        );
        dirs.extend(in_home(".fonts"));
        dirs
    }
}

/// The most font files looked at, and how deep in a font folder.
const MOST_FILES: usize = 20_000;
const DEEPEST: usize = 8;

/// The font files (`.ttf`, `.otf`, `.ttc`, `.otc`) under a folder.
fn walk(dir: &Path, depth: usize, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if files.len() >= MOST_FILES {
            return;
        }
        let path = entry.path();
        // A link is followed (fonts are often links into a package's
        // folder); the depth bounds a loop.
        if path.is_dir() {
            if depth < DEEPEST {
                walk(&path, depth + 1, files);
            }
        } else if path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
            ["ttf", "otf", "ttc", "otc"]
                .iter()
                .any(|x| e.eq_ignore_ascii_case(x))
        }) {
            files.push(path);
        }
    }
}

/// The order fonts are looked at in, by their file's name: first those
/// that say CJK, JP, IPA, Takao, Source Han and the like, then Noto, then
/// the rest; in each, the regular weights before bold, light or italic.
fn rank(file: &Path) -> (u8, bool) {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let name: String = name.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    const CJK: &[&str] = &[
        "cjk",
        "jp",
        "ipa",
        "takao",
        "sourcehan",
        "gothic",
        "mincho",
        "meiryo",
        "yugoth",
        "msgothic",
        "hiragino",
        "droidsansfallback",
        "wqy",
        "uming",
        "ukai",
        "simsun",
        "msyh",
    ];
    const STYLES: &[&str] = &[
        "bold", "black", "heavy", "light", "thin", "italic", "oblique", "medium", "semi",
    ];
    let script = if CJK.iter().any(|k| name.contains(k)) {
        0
    } else if name.contains("noto") {
        1
    } else {
        2
    };
    (script, STYLES.iter().any(|k| name.contains(k)))
}

/// Reads `len` bytes at `offset` of a file.
fn read_at(file: &mut File, offset: u64, len: usize) -> std::io::Result<Vec<u8>> {
    let mut buf = vec![0; len];
    file.seek(SeekFrom::Start(offset))?;
    file.read_exact(&mut buf)?;
    Ok(buf)
}

/// A big-endian number of 2 or 4 bytes at `at`.
fn be(bytes: &[u8], at: usize, len: usize) -> u64 {
    bytes
        .get(at..at + len)
        .map_or(0, |b| b.iter().fold(0, |n, &x| n << 8 | u64::from(x)))
}

/// The largest character map read (real ones are well under 1 MiB).
const LARGEST_CMAP: u64 = 16 << 20;

/// A face of a font file (its index) and its character map, if read.
type Face = (u32, Option<Vec<u8>>);

/// Each face of a font file with its character map (`cmap` table; `None`
/// where it has none, or one too large), read alone: the file's header,
/// each face's table directory and its `cmap`, not the whole file.
fn faces(file: &Path) -> Result<Vec<Face>, String> {
    let mut f = File::open(file).map_err(|e| e.to_string())?;
    let not_a_font = || "not a font kifu reads (TrueType, OpenType, or a collection)".to_string();
    let head = read_at(&mut f, 0, 12).map_err(|_| not_a_font())?;
    let starts: Vec<u64> = if &head[..4] == b"ttcf" {
        let n = be(&head, 8, 4).min(256) as usize;
        let offsets = read_at(&mut f, 12, 4 * n).map_err(|_| not_a_font())?;
        (0..n).map(|i| be(&offsets, 4 * i, 4)).collect()
    } else if [&b"\0\x01\0\0"[..], b"OTTO", b"true"].contains(&&head[..4]) {
        vec![0]
    } else {
        return Err(not_a_font());
    };
    let mut faces = Vec::new();
    for (i, start) in starts.into_iter().enumerate() {
        let Ok(dir) = read_at(&mut f, start, 12) else {
            continue;
        };
        let tables = be(&dir, 4, 2) as usize;
        let Ok(records) = read_at(&mut f, start + 12, 16 * tables) else {
            continue;
        };
        let cmap = records
            .chunks_exact(16)
            .find(|r| &r[..4] == b"cmap")
            .map(|r| (be(r, 8, 4), be(r, 12, 4)))
            .filter(|&(_, len)| len <= LARGEST_CMAP)
            .and_then(|(offset, len)| read_at(&mut f, offset, len as usize).ok());
        faces.push((i as u32, cmap));
    }
    if faces.is_empty() {
        return Err(not_a_font());
    }
    Ok(faces)
}

/// Whether a character map gives a character a glyph.
fn maps(cmap: Option<&Vec<u8>>, c: char) -> bool {
    cmap.and_then(|data| ttf_parser::cmap::Table::parse(data))
        .is_some_and(|table| {
            table
                .subtables
                .into_iter()
                .any(|s| s.is_unicode() && s.glyph_index(u32::from(c)).is_some_and(|g| g.0 != 0))
        })
}

/// The outlines of the characters from a face of a font file, read whole.
fn load(file: &Path, face: u32, chars: &[char]) -> Result<Outlines, String> {
    let data = std::fs::read(file).map_err(|e| e.to_string())?;
    let parsed = ttf_parser::Face::parse(&data, face).map_err(|e| format!("{e}"))?;
    let k = EM / f32::from(parsed.units_per_em());
    let mut paths = BTreeMap::new();
    for &c in chars {
        let glyph = parsed
            .glyph_index(c)
            .ok_or_else(|| format!("no glyph for {c}"))?;
        let advance = parsed
            .glyph_hor_advance(glyph)
            .map_or(EM, |a| f32::from(a) * k);
        let mut pen = Pen {
            k,
            dx: (EM - advance) / 2.0,
            ..Pen::default()
        };
        parsed
            .outline_glyph(glyph, &mut pen)
            .ok_or_else(|| format!("no outline for {c} (a font of bitmaps?)"))?;
        paths.insert(c, pen.d);
    }
    Ok(Outlines {
        file: file.to_path_buf(),
        face,
        paths,
    })
}

/// Writes an outline as SVG path data: relative commands between points
/// rounded to whole units (so that rounding never drifts), a line across
/// or down as `h` or `v`, a command's letter left out where it repeats.
#[derive(Default)]
struct Pen {
    /// Em units per font unit.
    k: f32,
    /// How far the glyph is moved right to be centred.
    dx: f32,
    /// The path data so far.
    d: String,
    /// The current point and the contour's first.
    at: (i32, i32),
    start: (i32, i32),
    /// The last command written.
    last: char,
}

impl Pen {
    /// A point of the font (y up) in the em square (y down).
    fn point(&self, x: f32, y: f32) -> (i32, i32) {
        (
            (x * self.k + self.dx).round() as i32,
            (BASELINE - y * self.k).round() as i32,
        )
    }

    /// A command and its points, each relative to the current point.
    fn command(&mut self, letter: char, points: &[(f32, f32)]) {
        let points: Vec<(i32, i32)> = points.iter().map(|&(x, y)| self.point(x, y)).collect();
        let end = *points.last().expect("a point");
        if letter != 'm' && points.iter().all(|&p| p == self.at) {
            return;
        }
        let (dx, dy) = (end.0 - self.at.0, end.1 - self.at.1);
        // A line across or down: one number.
        let (letter, numbers) = match letter {
            'l' if dy == 0 => ('h', vec![dx]),
            'l' if dx == 0 => ('v', vec![dy]),
            _ => (
                letter,
                points
                    .iter()
                    .flat_map(|&(x, y)| [x - self.at.0, y - self.at.1])
                    .collect(),
            ),
        };
        if letter != self.last || letter == 'm' {
            self.d.push(letter);
            self.last = letter;
        }
        for n in numbers {
            self.number(n);
        }
        self.at = end;
        if letter == 'm' {
            self.start = end;
            // Points after a move are lines.
            self.last = 'l';
        }
    }

    /// A number, after a space where it would run into the one before.
    fn number(&mut self, n: i32) {
        if n >= 0 && self.d.ends_with(|c: char| c.is_ascii_digit()) {
            self.d.push(' ');
        }
        let _ = write!(self.d, "{n}");
    }
}

impl ttf_parser::OutlineBuilder for Pen {
    fn move_to(&mut self, x: f32, y: f32) {
        self.command('m', &[(x, y)]);
    }

    fn line_to(&mut self, x: f32, y: f32) {
        self.command('l', &[(x, y)]);
    }

    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        self.command('q', &[(x1, y1), (x, y)]);
    }

    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        self.command('c', &[(x1, y1), (x2, y2), (x, y)]);
    }

    fn close(&mut self) {
        self.d.push('z');
        self.last = 'z';
        self.at = self.start;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ttf_parser::OutlineBuilder as _;

    #[test]
    fn a_pen_writes_short_relative_commands_in_the_em_square() {
        // 2000 units an em: half a unit each; the glyph 1000 units wide,
        // moved right by a quarter em.
        let mut pen = Pen {
            k: 0.5,
            dx: 250.0,
            ..Pen::default()
        };
        pen.move_to(0.0, 0.0);
        pen.line_to(1000.0, 0.0);
        pen.line_to(1000.0, 1000.0);
        pen.line_to(1000.0, 1000.0);
        pen.quad_to(500.0, 1500.0, 0.0, 1000.0);
        pen.line_to(-101.0, 899.0);
        pen.line_to(-201.0, 799.0);
        pen.close();
        pen.move_to(400.0, 400.0);
        pen.curve_to(400.0, 600.0, 600.0, 600.0, 600.0, 400.0);
        pen.close();
        assert_eq!(
            pen.d,
            "m250 880h500v-500q-250-250-500 0l-50 51-50 50zm200-200c0-100 100-100 100 0z"
        );
    }
}
