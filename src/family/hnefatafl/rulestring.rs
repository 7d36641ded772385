//! A tafl game's rules, as an OpenTafl rules string (what a board is
//! played by: the room's own types, below its replay in [`super::rules`]).
//!
//! A rules string (`dim:11 atkf:y ks:s sw:s efe:y start:/3ttttt3/.../`)
//! starts with the board's side and ends with the start position (`start:`
//! lists rank 1 first, `starti:` the top rank first); between them, the
//! entries of opentafl-notation-spec.txt: escape to the corners or edges
//! (`esc`), who moves first (`atkf`), the king armed (`ka`) and strong
//! (`ks`), corner and centre squares (`cor`, `cen`), whom they are hostile
//! to and who may pass or stop on them (`corh cenh cenhe corp cenp cors
//! cens`), shield walls (`sw`), edge forts (`efe`), berserk moves (`ber`)
//! and jumps (`kj nj cj`, and kifu's `tj` and `jo`). Entries kifu does not know (`name:`, `tfr:`,
//! fortresses) are kept as written; the string is written back exactly as
//! read, but for its squares when the board is seen from another side
//! ([`Rules::transformed`]).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::family::hnefatafl::{Square, MAX_DIM, MIN_DIM};

/// Where the king escapes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Escape {
    /// A corner square (`esc:c`, the default).
    Corner,
    /// Any edge square (`esc:e`).
    Edge,
}

/// Whether the king takes part in captures (`ka`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Armed {
    /// He does (`y`, the default).
    Yes,
    /// He does not (`n`).
    No,
    /// Only as the moving piece (`h`, hammer).
    Hammer,
    /// Only as the piece captured against (`a`, anvil).
    Anvil,
}

/// How the king is captured (`ks`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strength {
    /// Surrounded on four sides (`y`, `s`, the default; `m`, middleweight,
    /// is read as this).
    Strong,
    /// Sandwiched between two, like any piece (`n`, `w`).
    Weak,
    /// Four on or beside the centre, two elsewhere (`c`).
    StrongCentre,
}

/// Shield-wall captures (`sw`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shieldwall {
    /// None (`n`, the default).
    No,
    /// A corner may not close a wall (`w`).
    Weak,
    /// A corner may close a wall (`s`).
    Strong,
}

/// Berserk moves (`ber`): a piece that captured moves again, the same
/// turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Berserk {
    /// None (`n`, the default).
    No,
    /// Each further leg must capture too (`c`).
    Capture,
    /// A further leg may be any move (`m`).
    Move,
    /// Each further leg must capture too, or step onto a square the leg
    /// before captured on, taking the captured piece's place (`t`, kifu's
    /// value, not OpenTafl's: aagenielsen.dk's Old Tyr types).
    Take,
}

/// Whether a kind of piece jumps (`kj`, `nj`, `cj`, and kifu's `tj` for
/// the men): a short jump over an adjacent ordinary enemy piece (`t` or
/// `T`; one of its own side too where `jo` names the jumper) to the empty
/// square beyond.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Jump {
    /// It does not (`n`).
    No,
    /// Only from or to a corner or the centre (`r`).
    Restricted,
    /// It jumps, without capturing the piece jumped (`j`).
    Jump,
    /// It jumps and captures the piece jumped (`c`).
    Capture,
}

/// A set of piece kinds, as the rules string lists them (`tcnkTCNK`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pieces(u8);

impl Pieces {
    const ALL: Pieces = Pieces(0xff);
    const NONE: Pieces = Pieces(0);

    pub(super) fn bit(piece: u8) -> u8 {
        match piece {
            b't' => 1,
            b'c' => 2,
            b'n' => 4,
            b'k' => 8,
            b'T' => 16,
            b'C' => 32,
            b'N' => 64,
            b'K' => 128,
            _ => 0,
        }
    }

    pub(super) fn parse(text: &str) -> Result<Pieces, String> {
        let mut set = 0;
        for b in text.bytes() {
            match Pieces::bit(b) {
                0 => {
                    return Err(format!(
                        "{} is not a piece (t c n k, T C N K)",
                        crate::error::quote(&char::from(b).to_string())
                    ))
                }
                bit => set |= bit,
            }
        }
        Ok(Pieces(set))
    }

    /// Whether the set holds this piece.
    pub fn has(self, piece: u8) -> bool {
        self.0 & Pieces::bit(piece) != 0
    }
}

/// The rules of a game, read from an OpenTafl rules string, which they
/// keep as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    text: String,
    /// The board's side.
    pub dim: u8,
    /// Where the king escapes to.
    pub escape: Escape,
    /// Whether the attackers move first.
    pub attackers_first: bool,
    /// Whether the king captures.
    pub armed: Armed,
    /// How the king is captured.
    pub strength: Strength,
    /// The corner squares.
    pub corners: Vec<Square>,
    /// The centre squares (the throne).
    pub centres: Vec<Square>,
    pub(super) corner_hostile: Pieces,
    pub(super) centre_hostile: Pieces,
    pub(super) centre_hostile_empty: Pieces,
    pub(super) corner_pass: Pieces,
    pub(super) centre_pass: Pieces,
    pub(super) corner_stop: Pieces,
    pub(super) centre_stop: Pieces,
    /// Shield-wall captures.
    pub shieldwall: Shieldwall,
    /// Whether the king wins in an edge fort ([`super::rules::Position::edge_fort`]): a
    /// defenders' move that leaves him in one ends the game.
    pub edge_forts: bool,
    /// Berserk moves (`ber`): a move of several legs.
    pub berserk: Berserk,
    /// How the king, the knights, the commanders and the men jump (`kj`,
    /// `nj`, `cj`; by default `n`, `c` and `j`; the men's `tj`, kifu's key,
    /// not OpenTafl's, by default `n`).
    pub jumps: [Jump; 4],
    /// The pieces that may jump over an ordinary piece of their own side
    /// too, not only over an enemy (`jo:`, a set as `corh` takes one: a
    /// kifu key, not OpenTafl's; by default none).
    pub(super) jump_own: Pieces,
    /// Whether a piece that jumped may move on in the same turn, as one
    /// that captured may under berserk rules (`bj:y`, a kifu key, not
    /// OpenTafl's; by default `n`): the leg after a jump is checked as a
    /// berserk leg after a capture is (under `ber:c`, it must capture).
    pub jump_on: bool,
    /// Whether a berserk leg may be a jump that captures nothing (`bj:l`,
    /// a kifu key value, not OpenTafl's): a piece that captured may go on
    /// by jumping over a piece as its rules let it, even back to where it
    /// came from, where `ber:c` or `ber:t` would have the leg capture; no
    /// leg follows it (aagenielsen.dk's Old Tyr-2 records, whose men
    /// capture by a jump and jump back).
    pub jump_leg: bool,
    /// The start squares of the pieces captured from three sides instead
    /// of two (`three:`, a kifu key, not OpenTafl's: the four special
    /// defenders of Unst Alea Evangelii); their start squares, empty, are
    /// hostile to them.
    pub tough: Vec<Square>,
    /// The start squares of the pieces that change sides when captured
    /// instead of leaving the board (`flip:`, a kifu key, not OpenTafl's:
    /// the four variegated men of aagenielsen.dk's Alea Berserk types,
    /// turned over like Othello counters by the side that captures them).
    pub turncoats: Vec<Square>,
    /// The start position, rank 1 first, a piece letter or 0 a square.
    pub(super) start: Vec<u8>,
}

/// The named presets: each a rules string.
pub const PRESETS: &[(&str, &str)] = &[
    (
        "copenhagen",
        "dim:11 name:Copenhagen atkf:y ka:y ks:s sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    ),
    (
        "fetlar",
        "dim:11 name:Fetlar atkf:y ka:y ks:s start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    ),
    (
        "brandubh",
        "dim:7 name:Brandubh atkf:y ka:y ks:c start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
    ),
    (
        "tablut",
        "dim:9 name:Tablut esc:e atkf:y ka:y ks:c cor: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    ),
    (
        "brandubh-walker",
        "dim:7 name:Brandubh_Walker atkf:y ks:n cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
    ),
    (
        "sea-battle",
        "dim:9 name:Sea_Battle esc:e atkf:y ka:n cen: cor: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    ),
    (
        "berserk",
        "dim:11 name:Berserk surf:n atkf:y kj:r ber:c start:/3ttttt3/5c5/11/t4T4t/t3TTT3t/tc1TTKTT1ct/t3NTT3t/t4T4t/11/5c5/3ttttt3/",
    ),
    // Welsh Tawlbwrdd as aagenielsen.dk plays it ("Historical Hnefatafl
    // 11x11 (Welsh Tawlbwrdd)"; its summary of the game: "the Tawlbwrdd
    // king is armed, is captured from two sides and wins on the edge", the
    // board with a throne and no corner squares).
    (
        "tawlbwrdd",
        "dim:11 name:Tawlbwrdd esc:e atkf:y ka:y ks:w cor: start:/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/",
    ),
    (
        "hnefatafl-13",
        "dim:13 name:Hnefatafl_13 esc:e atkf:y cor: start:/4ttttt4/5t1t5/6t6/6T6/t3T3T3t/tt3TTT3tt/t1tT1TKT1Tt1t/tt3TTT3tt/t3T3T3t/6T6/6t6/5t1t5/4ttttt4/",
    ),
    // Old Tyr-1 17x17 (aagenielsen.dk): no text source was found; the start
    // position is what the corpus's two games show (58 of its 73 squares are
    // where a piece first moves from or is captured, the rest by the board's
    // eightfold symmetry), the rules OpenTafl's defaults, which the games
    // bear out (corner escape, corners and throne hostile, king armed and
    // captured on four sides).
    (
        "old-tyr-17",
        "dim:17 name:Old_Tyr-1 atkf:y start:/2t1t1t3t1t1t2/17/t3t7t3t/6t1T1t6/t1t4t1t4t1t/5T2T2T5/t2t3T1T3t2t/4t1T1T1T1t4/3T1T1TKT1T1T3/4t1T1T1T1t4/t2t3T1T3t2t/5T2T2T5/t1t4t1t4t1t/6t1T1t6/t3t7t3t/17/2t1t1t3t1t1t2/",
    ),
    // Unst Alea Evangelii 19x19 (aagenielsen.dk): the standard start (48
    // attackers, 24 defenders, the king on j10), the four corner citadels
    // of four squares each as corners (hostile, the king's escape), and
    // the four special defenders that start on f6, n6, f14 and n14
    // captured from three sides (`three:`, kifu's key), as aagenielsen's
    // forum gives the Unst rules and the corpus's four games bear out.
    (
        "alea-evangelii",
        "dim:19 name:Unst_Alea_Evangelii atkf:y cor:a1,a2,b1,b2,a18,a19,b18,b19,r1,r2,s1,s2,r18,r19,s18,s19 three:f6,n6,f14,n14 start:/2t2t7t2t2/19/t4t7t4t/7t1T1t7/6t1t1t1t6/t1t2T7T2t1t/4t4T4t4/3t4T1T4t3/4t2T1T1T2t4/3T2T1TKT1T2T3/4t2T1T1T2t4/3t4T1T4t3/4t4T4t4/t1t2T7T2t1t/6t1t1t1t6/7t1T1t7/t4t7t4t/19/2t2t7t2t2/",
    ),
    (
        "tyr-15",
        "dim:15 name:Tyr atkf:y cenhe: start:/3t3t3t3/15/2t2t3t2t2/t2t2t1t2t2t/4T2T2T4/2t3T1T3t2/3t1T1T1T1t3/t3T1TKT1T3t/3t1T1T1T1t3/2t3T1T3t2/4T2T2T4/t2t2t1t2t2t/2t2t3t2t2/15/3t3t3t3/",
    ),
];

impl Rules {
    /// The rules of a preset by name (`copenhagen`, any case, `-`, `_` or
    /// a space between words).
    pub fn preset(name: &str) -> Option<Rules> {
        let key: String = name
            .trim()
            .chars()
            .map(|c| match c {
                '_' | ' ' => '-',
                c => c.to_ascii_lowercase(),
            })
            .collect();
        PRESETS
            .iter()
            .find(|(n, _)| *n == key)
            .and_then(|(_, text)| Rules::parse(text).ok())
    }

    /// The preset whose rules string this is, if one is.
    pub fn preset_name(&self) -> Option<&'static str> {
        PRESETS
            .iter()
            .find(|(_, text)| *text == self.text)
            .map(|(n, _)| *n)
    }

    /// The preset a board of this side gets when the record names no
    /// rules.
    pub fn for_board(dim: u8) -> Option<(&'static str, Rules)> {
        let name = match dim {
            7 => "brandubh",
            9 => "tablut",
            11 => "copenhagen",
            _ => return None,
        };
        Rules::preset(name).map(|r| (name, r))
    }

    /// The rules named in a tag: a preset's name or a rules string.
    pub fn named(text: &str) -> Result<Rules, String> {
        if let Some(r) = Rules::preset(text) {
            return Ok(r);
        }
        if text.trim_start().starts_with("dim:") {
            return Rules::parse(text);
        }
        let names: Vec<&str> = PRESETS.iter().map(|(n, _)| *n).collect();
        Err(format!(
            "rules {} are neither a preset ({}) nor an OpenTafl rules string (`dim:11 ... start:/.../`)",
            crate::error::quote(text),
            names.join(", ")
        ))
    }

    /// The rules string as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Reads a rules string; the error names the entry that is wrong.
    pub fn parse(text: &str) -> Result<Rules, String> {
        let mut entries = text.split_ascii_whitespace();
        let dim = match entries.next().and_then(|e| e.strip_prefix("dim:")) {
            Some(d) => d
                .parse::<u8>()
                .ok()
                .filter(|d| (MIN_DIM..=MAX_DIM).contains(d))
                .ok_or_else(|| format!("`dim:{d}`: a board is 5 to 19 squares a side"))?,
            None => return Err("a rules string starts with `dim:` (the board's side)".into()),
        };
        let n = dim - 1;
        let corners_default = vec![
            Square { file: 0, rank: 0 },
            Square { file: n, rank: 0 },
            Square { file: 0, rank: n },
            Square { file: n, rank: n },
        ];
        let mut r = Rules {
            text: text.to_string(),
            dim,
            escape: Escape::Corner,
            attackers_first: true,
            armed: Armed::Yes,
            strength: Strength::Strong,
            corners: corners_default,
            centres: vec![Square {
                file: dim / 2,
                rank: dim / 2,
            }],
            corner_hostile: Pieces::ALL,
            centre_hostile: Pieces::parse("tcnk").unwrap_or(Pieces::NONE),
            centre_hostile_empty: Pieces::ALL,
            corner_pass: Pieces::parse("K").unwrap_or(Pieces::NONE),
            centre_pass: Pieces::ALL,
            corner_stop: Pieces::parse("K").unwrap_or(Pieces::NONE),
            centre_stop: Pieces::parse("K").unwrap_or(Pieces::NONE),
            shieldwall: Shieldwall::No,
            edge_forts: false,
            berserk: Berserk::No,
            jumps: [Jump::No, Jump::Capture, Jump::Jump, Jump::No],
            jump_own: Pieces::NONE,
            jump_on: false,
            jump_leg: false,
            tough: Vec::new(),
            turncoats: Vec::new(),
            start: Vec::new(),
        };
        let mut start = None;
        for entry in entries {
            if start.is_some() {
                return Err(format!(
                    "{entry} follows the start position, which ends a rules string",
                    entry = crate::error::quote(entry)
                ));
            }
            let (key, value) = entry.split_once(':').ok_or_else(|| {
                format!(
                    "{entry} is not a rules entry (`key:value`)",
                    entry = crate::error::quote(entry)
                )
            })?;
            let yes = |v: &str| match v {
                "y" => Ok(true),
                "n" => Ok(false),
                _ => Err(format!(
                    "{entry}: give y or n",
                    entry = crate::error::quote(entry)
                )),
            };
            let bad = || {
                format!(
                    "{entry} is not a value kifu knows for {key}",
                    entry = crate::error::quote(entry),
                    key = crate::error::quote(key)
                )
            };
            match key {
                "esc" => {
                    r.escape = match value {
                        "c" => Escape::Corner,
                        "e" => Escape::Edge,
                        _ => return Err(bad()),
                    }
                }
                "atkf" => r.attackers_first = yes(value)?,
                "ka" => {
                    r.armed = match value {
                        "y" => Armed::Yes,
                        "n" => Armed::No,
                        "h" => Armed::Hammer,
                        "a" => Armed::Anvil,
                        _ => return Err(bad()),
                    }
                }
                "ks" => {
                    r.strength = match value {
                        "y" | "s" | "m" => Strength::Strong,
                        "n" | "w" => Strength::Weak,
                        "c" => Strength::StrongCentre,
                        _ => return Err(bad()),
                    }
                }
                "cor" => {
                    r.corners = squares(value, dim)
                        .map_err(|e| format!("{entry}: {e}", entry = crate::error::quote(entry)))?
                }
                "cen" => {
                    r.centres = squares(value, dim)
                        .map_err(|e| format!("{entry}: {e}", entry = crate::error::quote(entry)))?
                }
                "three" | "flip" => {
                    *if key == "three" {
                        &mut r.tough
                    } else {
                        &mut r.turncoats
                    } = squares(value, dim)
                        .map_err(|e| format!("{entry}: {e}", entry = crate::error::quote(entry)))?
                }
                "corh" | "cenh" | "cenhe" | "corp" | "cenp" | "cors" | "cens" | "jo" => {
                    let set = Pieces::parse(value)
                        .map_err(|e| format!("{entry}: {e}", entry = crate::error::quote(entry)))?;
                    *match key {
                        "corh" => &mut r.corner_hostile,
                        "cenh" => &mut r.centre_hostile,
                        "cenhe" => &mut r.centre_hostile_empty,
                        "corp" => &mut r.corner_pass,
                        "cenp" => &mut r.centre_pass,
                        "cors" => &mut r.corner_stop,
                        "jo" => &mut r.jump_own,
                        _ => &mut r.centre_stop,
                    } = set;
                }
                "sw" => {
                    r.shieldwall = match value {
                        "n" => Shieldwall::No,
                        "w" => Shieldwall::Weak,
                        "s" => Shieldwall::Strong,
                        _ => return Err(bad()),
                    }
                }
                "efe" => r.edge_forts = yes(value)?,
                "bj" => match value {
                    "l" => r.jump_leg = true,
                    _ => r.jump_on = yes(value)?,
                },
                "ber" => {
                    r.berserk = match value {
                        "n" => Berserk::No,
                        "c" => Berserk::Capture,
                        "m" => Berserk::Move,
                        "t" => Berserk::Take,
                        _ => return Err(bad()),
                    }
                }
                "kj" | "nj" | "cj" | "tj" => {
                    r.jumps[match key {
                        "kj" => 0,
                        "nj" => 1,
                        "cj" => 2,
                        _ => 3,
                    }] = match value {
                        "n" => Jump::No,
                        "r" => Jump::Restricted,
                        "j" => Jump::Jump,
                        "c" => Jump::Capture,
                        _ => return Err(bad()),
                    }
                }
                "start" | "starti" => {
                    start = Some(position(value, dim, key == "starti").map_err(|e| {
                        format!("{}: {e}", crate::error::quote(&format!("{key}:")))
                    })?);
                }
                // Kept as written: the variant's name, threefold repetition,
                // surrounding, fortresses and what else OpenTafl adds.
                _ => {}
            }
        }
        r.start = start.ok_or("a rules string ends with the start position (`start:/.../`)")?;
        if r.start.iter().filter(|&&p| p == b'K').count() != 1 {
            return Err("the start position has no king `K`, or more than one".into());
        }
        Ok(r)
    }

    /// The rules seen from another side of the board ([`Square::transform`]):
    /// the start position and the corner and centre lists turned with the
    /// squares, the rest of the string as written; the same rules (and
    /// text) where the turn leaves them as they were.
    pub fn transformed(&self, quarters: u8, mirror: bool) -> Rules {
        let (d, q) = (self.dim, quarters % 4);
        if q == 0 && !mirror {
            return self.clone();
        }
        let turn = |sq: Square| sq.transform(d, q, mirror);
        let start = transform_cells(&self.start, d, q, mirror);
        let same = |a: &[Square], b: &[Square]| {
            let (mut a, mut b) = (a.to_vec(), b.to_vec());
            a.sort();
            b.sort();
            a == b
        };
        let corners: Vec<Square> = self.corners.iter().map(|&s| turn(s)).collect();
        let centres: Vec<Square> = self.centres.iter().map(|&s| turn(s)).collect();
        let tough: Vec<Square> = self.tough.iter().map(|&s| turn(s)).collect();
        let turncoats: Vec<Square> = self.turncoats.iter().map(|&s| turn(s)).collect();
        if start == self.start
            && same(&corners, &self.corners)
            && same(&centres, &self.centres)
            && same(&tough, &self.tough)
            && same(&turncoats, &self.turncoats)
        {
            return self.clone();
        }
        let entries: Vec<String> = self
            .text
            .split_ascii_whitespace()
            .map(|entry| match entry.split_once(':') {
                Some((key @ ("start" | "starti"), _)) => start_entry(key, &start, d),
                Some((key @ ("cor" | "cen" | "three" | "flip"), list)) => {
                    let mut out = format!("{key}:");
                    let parts: Vec<&str> = list.split(',').filter(|p| !p.is_empty()).collect();
                    for (i, part) in parts.iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        match Square::parse(part) {
                            Ok(sq) => out.push_str(&turn(sq).to_string()),
                            Err(_) => out.push_str(part),
                        }
                    }
                    if list.ends_with(',') {
                        out.push(',');
                    }
                    out
                }
                _ => entry.to_string(),
            })
            .collect();
        Rules::parse(&entries.join(" ")).unwrap_or_else(|_| self.clone())
    }

    /// The same rules from another start position (`cells`, rank 1 first,
    /// a piece letter or 0 a square, as [`Rules::start_piece`] reads
    /// them): the start entry written anew (`start:` or `starti:` as
    /// before), the rest of the string as written; an error where the
    /// cells are not a start position (no king, or more than one).
    pub fn with_start(&self, cells: &[u8]) -> Result<Rules, String> {
        let entries: Vec<String> = self
            .text
            .split_ascii_whitespace()
            .map(|entry| match entry.split_once(':') {
                Some((key @ ("start" | "starti"), _)) => start_entry(key, cells, self.dim),
                _ => entry.to_string(),
            })
            .collect();
        Rules::parse(&entries.join(" "))
    }

    /// The piece on a square of the start position.
    pub fn start_piece(&self, sq: Square) -> Option<u8> {
        let p = self.start[self.index(sq)];
        (p != 0).then_some(p)
    }

    /// How a piece jumps: the king, a knight, a commander, a man (`tj`).
    pub fn jump_of(&self, piece: u8) -> Jump {
        match piece.to_ascii_lowercase() {
            b'k' => self.jumps[0],
            b'n' => self.jumps[1],
            b'c' => self.jumps[2],
            b't' => self.jumps[3],
            _ => Jump::No,
        }
    }

    /// Whether `jumper` may jump over `over`, an adjacent piece, as far as
    /// the pieces go: an ordinary piece (`t` or `T`, never a king, knight
    /// or commander) of the other side, or of its own where `jo` names the
    /// jumper.
    pub(super) fn jumps_over(&self, jumper: u8, over: u8) -> bool {
        matches!(over, b't' | b'T')
            && (over.is_ascii_lowercase() != jumper.is_ascii_lowercase()
                || self.jump_own.has(jumper))
    }

    pub(super) fn index(&self, sq: Square) -> usize {
        usize::from(sq.rank) * usize::from(self.dim) + usize::from(sq.file)
    }

    /// Whether the king escapes on this square: a corner, or an edge
    /// (`esc:e`).
    pub(super) fn escapes(&self, sq: Square) -> bool {
        match self.escape {
            Escape::Corner => self.is_corner(sq),
            Escape::Edge => {
                sq.file == 0 || sq.rank == 0 || sq.file == self.dim - 1 || sq.rank == self.dim - 1
            }
        }
    }

    pub(super) fn is_corner(&self, sq: Square) -> bool {
        self.corners.contains(&sq)
    }

    pub(super) fn is_centre(&self, sq: Square) -> bool {
        self.centres.contains(&sq)
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Serialize for Rules {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for Rules {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Rules, D::Error> {
        let s = String::deserialize(d)?;
        Rules::parse(&s).map_err(serde::de::Error::custom)
    }
}

/// A space list `a1,k1,` (a trailing comma tolerated; empty: none).
pub(super) fn squares(text: &str, dim: u8) -> Result<Vec<Square>, String> {
    let mut out = Vec::new();
    for part in text.split(',').filter(|p| !p.is_empty()) {
        let sq = Square::parse(part)?;
        if !sq.on(dim) {
            return Err(format!("{part} is off the {dim}x{dim} board"));
        }
        out.push(sq);
    }
    Ok(out)
}

/// A position record `/3t3/.../`: `dim` rows of `dim` squares; rank 1
/// first, or the top rank first when `inverted`.
pub(super) fn position(text: &str, dim: u8, inverted: bool) -> Result<Vec<u8>, String> {
    let d = usize::from(dim);
    let rows: Vec<&str> = text
        .strip_prefix('/')
        .and_then(|t| t.strip_suffix('/'))
        .ok_or("a position starts and ends with `/`")?
        .split('/')
        .collect();
    if rows.len() != d {
        return Err(format!("{} rows for a {dim}x{dim} board", rows.len()));
    }
    let mut cells = vec![0u8; d * d];
    for (i, row) in rows.iter().enumerate() {
        let rank = if inverted { d - 1 - i } else { i };
        let mut file = 0usize;
        let mut count = 0usize;
        for b in row.bytes() {
            match b {
                b'0'..=b'9' => {
                    count = count
                        .saturating_mul(10)
                        .saturating_add(usize::from(b - b'0'))
                }
                _ if Pieces::bit(b) != 0 => {
                    file = file.saturating_add(count);
                    count = 0;
                    if file >= d {
                        return Err(format!("row {} is longer than {dim} squares", i + 1));
                    }
                    cells[rank * d + file] = b;
                    file += 1;
                }
                _ => {
                    return Err(format!(
                        "{} is not a piece (t c n k, T C N K)",
                        crate::error::quote(&char::from(b).to_string())
                    ))
                }
            }
        }
        file = file.saturating_add(count);
        if file != d {
            return Err(format!("row {} has {file} squares, not {dim}", i + 1));
        }
    }
    Ok(cells)
}

/// A position's cells seen from another side of the board.
pub(super) fn transform_cells(cells: &[u8], dim: u8, quarters: u8, mirror: bool) -> Vec<u8> {
    let d = usize::from(dim);
    let mut out = vec![0u8; cells.len()];
    for (i, &p) in cells.iter().enumerate() {
        let sq = Square {
            file: (i % d) as u8,
            rank: (i / d) as u8,
        };
        let t = sq.transform(dim, quarters, mirror);
        out[usize::from(t.rank) * d + usize::from(t.file)] = p;
    }
    out
}

/// A rules string's start entry, `start:` (rank 1 first) or `starti:`
/// (the top rank first), of these cells.
fn start_entry(key: &str, cells: &[u8], dim: u8) -> String {
    format!("{key}:{}", write_position(cells, dim, key == "starti"))
}

/// Writes a position record (`/3t3/.../`): rank 1 first, or the top rank
/// first when `inverted`.
pub(super) fn write_position(cells: &[u8], dim: u8, inverted: bool) -> String {
    let d = usize::from(dim);
    let mut out = String::from("/");
    for i in 0..d {
        let rank = if inverted { d - 1 - i } else { i };
        let mut empty = 0;
        for &p in &cells[rank * d..rank * d + d] {
            if p == 0 {
                empty += 1;
                continue;
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
                empty = 0;
            }
            out.push(char::from(p));
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        out.push('/');
    }
    out
}

/// A position record (a `Position` tag's) seen from another side of the
/// board; `None` when it is not one.
pub fn transform_position(text: &str, dim: u8, quarters: u8, mirror: bool) -> Option<String> {
    let cells = position(text.trim(), dim, false).ok()?;
    Some(write_position(
        &transform_cells(&cells, dim, quarters % 4, mirror),
        dim,
        false,
    ))
}
