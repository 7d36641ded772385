//! Tiny TrueType fonts made in the tests (the test machines have no font
//! with kanji, and the repository holds no font): the tables a font needs
//! (`head`, `hhea`, `maxp`, `cmap` of format 4 or 12, `glyf`, `loca`,
//! `hmtx`, `post`), each glyph one closed contour of points on the curve
//! or off it (a quadratic's control point), and collections of such
//! fonts (`.ttc`).

/// One glyph: the character it is mapped to, its advance, and its one
/// contour as `(x, y, on_curve)` points (y up, font units).
#[derive(Debug, Clone)]
pub struct Glyph {
    /// The character mapped to it.
    pub c: char,
    /// Its advance width.
    pub advance: u16,
    /// Its contour's points; an empty glyph has none.
    pub points: Vec<(i16, i16, bool)>,
}

impl Glyph {
    /// A rectangle from `(x0, y0)` to `(x1, y1)`, the em's full advance.
    pub fn rect(c: char, em: u16, (x0, y0): (i16, i16), (x1, y1): (i16, i16)) -> Glyph {
        Glyph {
            c,
            advance: em,
            points: vec![
                (x0, y0, true),
                (x1, y0, true),
                (x1, y1, true),
                (x0, y1, true),
            ],
        }
    }
}

/// How the character map is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmap {
    /// Format 4 (segments of the Basic Multilingual Plane).
    Segments,
    /// Format 12 (groups of any plane).
    Groups,
}

/// A font's tables, by tag, in tag order.
pub type Tables = Vec<([u8; 4], Vec<u8>)>;

fn u16be(v: &mut Vec<u8>, n: u16) {
    v.extend_from_slice(&n.to_be_bytes());
}

fn i16be(v: &mut Vec<u8>, n: i16) {
    v.extend_from_slice(&n.to_be_bytes());
}

fn u32be(v: &mut Vec<u8>, n: u32) {
    v.extend_from_slice(&n.to_be_bytes());
}

/// The tables of a font of `units_per_em` whose glyphs (after `.notdef`,
/// glyph 0, empty) are `glyphs`, in that order.
pub fn tables(units_per_em: u16, glyphs: &[Glyph], cmap: Cmap) -> Tables {
    let n = glyphs.len() as u16 + 1;
    let all = || glyphs.iter().flat_map(|g| g.points.iter());
    let (x_min, x_max) = (
        all().map(|p| p.0).min().unwrap_or(0),
        all().map(|p| p.0).max().unwrap_or(0),
    );
    let (y_min, y_max) = (
        all().map(|p| p.1).min().unwrap_or(0),
        all().map(|p| p.1).max().unwrap_or(0),
    );
    // glyf and loca (long offsets).
    let (mut glyf, mut loca) = (Vec::new(), Vec::new());
    u32be(&mut loca, 0);
    u32be(&mut loca, 0); // .notdef: no outline
    for g in glyphs {
        if !g.points.is_empty() {
            let xs = g.points.iter().map(|p| p.0);
            let ys = g.points.iter().map(|p| p.1);
            i16be(&mut glyf, 1);
            i16be(&mut glyf, xs.clone().min().unwrap());
            i16be(&mut glyf, ys.clone().min().unwrap());
            i16be(&mut glyf, xs.max().unwrap());
            i16be(&mut glyf, ys.max().unwrap());
            u16be(&mut glyf, g.points.len() as u16 - 1);
            u16be(&mut glyf, 0); // no instructions
            for p in &g.points {
                glyf.push(u8::from(p.2)); // on curve; coordinates as i16 deltas
            }
            let mut last = 0;
            for p in &g.points {
                i16be(&mut glyf, p.0 - last);
                last = p.0;
            }
            last = 0;
            for p in &g.points {
                i16be(&mut glyf, p.1 - last);
                last = p.1;
            }
            while glyf.len() % 4 != 0 {
                glyf.push(0);
            }
        }
        u32be(&mut loca, glyf.len() as u32);
    }
    let mut head = Vec::new();
    u32be(&mut head, 0x0001_0000);
    u32be(&mut head, 0x0001_0000);
    u32be(&mut head, 0); // checksum adjustment
    u32be(&mut head, 0x5F0F_3CF5);
    u16be(&mut head, 0);
    u16be(&mut head, units_per_em);
    head.extend_from_slice(&[0; 16]); // created, modified
    for v in [x_min, y_min, x_max, y_max] {
        i16be(&mut head, v);
    }
    u16be(&mut head, 0); // mac style
    u16be(&mut head, 8); // lowest ppem
    i16be(&mut head, 2);
    i16be(&mut head, 1); // long loca
    i16be(&mut head, 0);
    let mut hhea = Vec::new();
    u32be(&mut hhea, 0x0001_0000);
    i16be(&mut hhea, (units_per_em as f32 * 0.88) as i16);
    i16be(&mut hhea, -((units_per_em as f32 * 0.12) as i16));
    i16be(&mut hhea, 0);
    u16be(
        &mut hhea,
        glyphs.iter().map(|g| g.advance).max().unwrap_or(0),
    );
    for v in [x_min, 0, x_max, 1, 0, 0, 0, 0, 0, 0, 0] {
        i16be(&mut hhea, v);
    }
    u16be(&mut hhea, n);
    let mut maxp = Vec::new();
    u32be(&mut maxp, 0x0001_0000);
    u16be(&mut maxp, n);
    let most = glyphs.iter().map(|g| g.points.len()).max().unwrap_or(0) as u16;
    for v in [most, 1, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0] {
        u16be(&mut maxp, v);
    }
    let mut hmtx = Vec::new();
    u16be(&mut hmtx, units_per_em / 2);
    i16be(&mut hmtx, 0);
    for g in glyphs {
        u16be(&mut hmtx, g.advance);
        i16be(&mut hmtx, g.points.iter().map(|p| p.0).min().unwrap_or(0));
    }
    let mut post = Vec::new();
    u32be(&mut post, 0x0003_0000);
    post.extend_from_slice(&[0; 28]);
    let mut tables = vec![
        (*b"cmap", character_map(glyphs, cmap)),
        (*b"glyf", glyf),
        (*b"head", head),
        (*b"hhea", hhea),
        (*b"hmtx", hmtx),
        (*b"loca", loca),
        (*b"maxp", maxp),
        (*b"post", post),
    ];
    tables.sort_by_key(|t| t.0);
    tables
}

/// The `cmap` table: one Unicode subtable mapping each glyph's character
/// to it (glyph 1 onwards).
fn character_map(glyphs: &[Glyph], cmap: Cmap) -> Vec<u8> {
    let mut mapped: Vec<(u32, u16)> = glyphs
        .iter()
        .enumerate()
        .map(|(i, g)| (u32::from(g.c), i as u16 + 1))
        .collect();
    mapped.sort_unstable();
    let mut sub = Vec::new();
    match cmap {
        Cmap::Segments => {
            let mut segments: Vec<(u16, u16, u16)> = mapped
                .iter()
                .map(|&(c, g)| (c as u16, c as u16, g.wrapping_sub(c as u16)))
                .collect();
            segments.push((0xFFFF, 0xFFFF, 1));
            let count = segments.len() as u16;
            let mut search = 1u16;
            let mut selector = 0u16;
            while search * 2 <= count {
                search *= 2;
                selector += 1;
            }
            u16be(&mut sub, 4);
            u16be(&mut sub, 16 + 8 * count);
            u16be(&mut sub, 0);
            u16be(&mut sub, count * 2);
            u16be(&mut sub, search * 2);
            u16be(&mut sub, selector);
            u16be(&mut sub, count * 2 - search * 2);
            for s in &segments {
                u16be(&mut sub, s.1);
            }
            u16be(&mut sub, 0);
            for s in &segments {
                u16be(&mut sub, s.0);
            }
            for s in &segments {
                u16be(&mut sub, s.2);
            }
            for _ in &segments {
                u16be(&mut sub, 0);
            }
        }
        Cmap::Groups => {
            u16be(&mut sub, 12);
            u16be(&mut sub, 0);
            u32be(&mut sub, 16 + 12 * mapped.len() as u32);
            u32be(&mut sub, 0);
            u32be(&mut sub, mapped.len() as u32);
            for &(c, g) in &mapped {
                u32be(&mut sub, c);
                u32be(&mut sub, c);
                u32be(&mut sub, u32::from(g));
            }
        }
    }
    let mut table = Vec::new();
    u16be(&mut table, 0);
    u16be(&mut table, 1);
    u16be(&mut table, 3); // Windows
    u16be(&mut table, if cmap == Cmap::Segments { 1 } else { 10 });
    u32be(&mut table, 12);
    table.extend_from_slice(&sub);
    table
}

/// A table's checksum.
fn checksum(data: &[u8]) -> u32 {
    data.chunks(4).fold(0u32, |sum, c| {
        let mut word = [0u8; 4];
        word[..c.len()].copy_from_slice(c);
        sum.wrapping_add(u32::from_be_bytes(word))
    })
}

/// Faces as one file: a font alone, or a collection (`ttcf`) of several.
pub fn file(faces: &[Tables]) -> Vec<u8> {
    let collection = faces.len() != 1;
    let header = if collection { 12 + 4 * faces.len() } else { 0 };
    let directories: Vec<usize> = faces.iter().map(|t| 12 + 16 * t.len()).collect();
    let mut at = header + directories.iter().sum::<usize>();
    let mut out = Vec::new();
    if collection {
        out.extend_from_slice(b"ttcf");
        u32be(&mut out, 0x0001_0000);
        u32be(&mut out, faces.len() as u32);
        let mut start = header;
        for d in &directories {
            u32be(&mut out, start as u32);
            start += d;
        }
    }
    let mut data = Vec::new();
    for tables in faces {
        u32be(&mut out, 0x0001_0000);
        let count = tables.len() as u16;
        let mut search = 1u16;
        let mut selector = 0u16;
        while search * 2 <= count {
            search *= 2;
            selector += 1;
        }
        u16be(&mut out, count);
        u16be(&mut out, search * 16);
        u16be(&mut out, selector);
        u16be(&mut out, count * 16 - search * 16);
        for (tag, table) in tables {
            out.extend_from_slice(tag);
            u32be(&mut out, checksum(table));
            u32be(&mut out, at as u32);
            u32be(&mut out, table.len() as u32);
            data.extend_from_slice(table);
            at += table.len();
            while data.len() % 4 != 0 {
                data.push(0);
                at += 1;
            }
        }
    }
    out.extend_from_slice(&data);
    out
}
