//! The Coerceo board: where each tile and field of the notation lies, and
//! which fields touch.
//!
//! The board is a hexagon of 19 hexagonal tiles (radius 2), each cut into
//! six triangular fields that alternate white and black. Seed 000 numbers
//! the tiles 1 (the centre), 2 to 7 (the first ring) and 8 to 19 (the
//! second), and the fields of each tile `a` to `f`, but draws none of it;
//! a [`Numbering`] says where each number and letter goes, and
//! [`Geometry`] builds the neighbour tables of the fields from it. The
//! numbering kifu uses, [`NUMBERING`], is the one the seed's complete game
//! bears out (the search is the test `the_seed_game_decides_the_numbering`
//! in this file, and docs/coerceo.md says how strongly it decides):
//!
//! - tile 1's fields `a` to `f` run clockwise, and every tile's letters lie
//!   as tile 1's do (the tiles are never turned); `a`, `c`, `e` are white,
//!   `b`, `d`, `f` black;
//! - tile 2 is the first-ring tile across field `a`'s outer side from
//!   tile 1, and the ring runs the way the letters do: tile 3 across `b`,
//!   ..., tile 7 across `f`;
//! - tile 8 is the corner of the second ring straight beyond tile 2 (tiles
//!   1, 2 and 8 in a line), and that ring runs the same way: 9 touches 2
//!   and 3, 10 lies beyond 3, ..., 19 touches 7 and 2.
//!
//! Drawn with flat sides at top and bottom, `a` is the upper-left field of
//! a tile, `b` the top one; tile 2 is up and left of tile 1 and tile 3
//! straight above it.

use std::sync::OnceLock;

/// How many tiles the full board (Laurentius) has.
pub const TILES: usize = 19;
/// How many fields the full board has.
pub const FIELDS: usize = TILES * 6;
/// No neighbour (off the board) in the tables of [`Geometry`].
pub const NONE: u8 = u8::MAX;

/// Where the notation's numbers and letters lie, as the search of
/// candidates varies it. Directions count the six sides of a hexagon
/// counterclockwise from the one at 30 degrees (flat sides at top and
/// bottom); a direction `-1` runs clockwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Numbering {
    /// The first-ring position of tile 2 (0 to 5: the side of tile 1 it
    /// lies across, counterclockwise from the upper right).
    pub ring1: u8,
    /// The direction tiles 2 to 7 run: 1 counterclockwise, -1 clockwise.
    pub ring1_dir: i8,
    /// The second-ring position of tile 8 (0 to 11: even the corners,
    /// from the one beyond position 0 of the first ring; odd the tiles
    /// between them).
    pub ring2: u8,
    /// The direction tiles 8 to 19 run.
    pub ring2_dir: i8,
    /// The field of a tile that is `a` (0 to 5: the triangle between the
    /// tile's corners at 60·k and 60·(k+1) degrees).
    pub letter: u8,
    /// The direction the letters run.
    pub letter_dir: i8,
}

/// The numbering of the notation, as the seed's game decides it (see the
/// module's documentation).
pub const NUMBERING: Numbering = Numbering {
    ring1: 2,
    ring1_dir: -1,
    ring2: 4,
    ring2_dir: -1,
    letter: 2,
    letter_dir: -1,
};

/// A hexagon's neighbours in axial coordinates, counterclockwise from the
/// one at 30 degrees.
const AROUND: [(i8, i8); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];

/// A hexagon's corners, counterclockwise from 0 degrees, in the lattice
/// coordinates of [`centre`] (x in half sides, y in apothems, up: half
/// a tile's height), from its centre.
pub const CORNERS: [(i16, i16); 6] = [(2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1)];

/// A tile's centre (its place, [`Geometry::place`]) in lattice
/// coordinates ([`CORNERS`]).
pub fn centre((q, r): (i8, i8)) -> (i16, i16) {
    (3 * i16::from(q), i16::from(q) + 2 * i16::from(r))
}

/// The neighbour tables of the board's fields and tiles under one
/// numbering. Fields are numbered `6 * (tile - 1) + letter` (`1a` is 0,
/// `19f` 113).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Geometry {
    /// Each field's fields across its sides (the other colour), [`NONE`]
    /// past the board's edge.
    pub sides: [[u8; 3]; FIELDS],
    /// Each field's fields of its own colour that share a corner with it:
    /// the fields a piece steps to ([`NONE`] past the edge).
    pub steps: [[u8; 6]; FIELDS],
    /// Each tile's neighbouring tiles, in order around it, [`NONE`] past
    /// the edge (indices from 0: tile 1 is 0).
    pub tiles: [[u8; 6]; TILES],
    /// Whether each field is white.
    pub white: [bool; FIELDS],
    /// Each tile's place, axial coordinates (the centre 0, 0).
    pub place: [(i8, i8); TILES],
    /// Each field's place on its tile: the triangle between the tile's
    /// corners at 60·k and 60·(k+1) degrees.
    pub triangle: [u8; FIELDS],
}

impl Geometry {
    /// The tables of a numbering.
    pub fn new(n: &Numbering) -> Geometry {
        let ring1 = |k: u8| AROUND[usize::from(k % 6)];
        let ring2 = |k: u8| {
            let (a, b) = (ring1(k / 2), ring1(k / 2 + 1));
            if k.is_multiple_of(2) {
                (2 * a.0, 2 * a.1)
            } else {
                (a.0 + b.0, a.1 + b.1)
            }
        };
        let step = |start: u8, dir: i8, i: u8, m: u8| -> u8 {
            let d = if dir < 0 { m - 1 } else { 1 };
            (start + d * i) % m
        };
        let mut place = [(0, 0); TILES];
        for i in 0..6u8 {
            place[1 + usize::from(i)] = ring1(step(n.ring1, n.ring1_dir, i, 6));
        }
        for i in 0..12u8 {
            place[7 + usize::from(i)] = ring2(step(n.ring2, n.ring2_dir, i, 12));
        }
        let tile_at = |p: (i8, i8)| place.iter().position(|&q| q == p);
        // Each field's triangle: the tile's centre and two corners.
        let corners = |f: usize| -> [(i16, i16); 3] {
            let (cx, cy) = centre(place[f / 6]);
            let k = usize::from(step(n.letter, n.letter_dir, (f % 6) as u8, 6));
            let (a, b) = (CORNERS[k], CORNERS[(k + 1) % 6]);
            [(cx, cy), (cx + a.0, cy + a.1), (cx + b.0, cy + b.1)]
        };
        let tri: Vec<[(i16, i16); 3]> = (0..FIELDS).map(corners).collect();
        let shared = |a: usize, b: usize| tri[a].iter().filter(|v| tri[b].contains(v)).count();
        let mut triangle = [0u8; FIELDS];
        for (f, k) in triangle.iter_mut().enumerate() {
            *k = step(n.letter, n.letter_dir, (f % 6) as u8, 6);
        }
        let mut white = [false; FIELDS];
        for (f, w) in white.iter_mut().enumerate() {
            // The triangles between corners 0-60, 120-180 and 240-300
            // degrees point the one way: white.
            *w = step(n.letter, n.letter_dir, (f % 6) as u8, 6) % 2 == 0;
        }
        let mut sides = [[NONE; 3]; FIELDS];
        let mut steps = [[NONE; 6]; FIELDS];
        for a in 0..FIELDS {
            let (mut s, mut t) = (0, 0);
            for b in (0..FIELDS).filter(|&b| b != a) {
                match shared(a, b) {
                    2 => {
                        sides[a][s] = b as u8;
                        s += 1;
                    }
                    1 if white[a] == white[b] => {
                        steps[a][t] = b as u8;
                        t += 1;
                    }
                    _ => {}
                }
            }
        }
        let mut tiles = [[NONE; 6]; TILES];
        for (t, around) in tiles.iter_mut().enumerate() {
            let (q, r) = place[t];
            for (slot, (dq, dr)) in around.iter_mut().zip(AROUND) {
                if let Some(u) = tile_at((q + dq, r + dr)) {
                    *slot = u as u8;
                }
            }
        }
        Geometry {
            sides,
            steps,
            tiles,
            white,
            place,
            triangle,
        }
    }

    /// The numbering's fields across the sides of `field`.
    pub fn sides_of(&self, field: usize) -> impl Iterator<Item = usize> + '_ {
        self.sides[field]
            .iter()
            .filter(|&&f| f != NONE)
            .map(|&f| usize::from(f))
    }

    /// The fields a piece on `field` may step to, on the full board.
    pub fn steps_of(&self, field: usize) -> impl Iterator<Item = usize> + '_ {
        self.steps[field]
            .iter()
            .filter(|&&f| f != NONE)
            .map(|&f| usize::from(f))
    }
}

/// The field of `to` that lies where field `f` of `from` lies (the same
/// tile's place, the same triangle).
pub fn translate(from: &Geometry, to: &Geometry, f: usize) -> usize {
    let t = translate_tile(from, to, f / 6);
    6 * t
        + (0..6)
            .find(|&l| to.triangle[6 * t + l] == from.triangle[f])
            .unwrap_or(0)
}

/// The tile (an index) of `to` that lies where tile `t` of `from` lies.
pub fn translate_tile(from: &Geometry, to: &Geometry, t: usize) -> usize {
    to.place
        .iter()
        .position(|&p| p == from.place[t])
        .unwrap_or(0)
}

/// The board under the notation's numbering ([`NUMBERING`]).
pub fn geometry() -> &'static Geometry {
    static GEOMETRY: OnceLock<Geometry> = OnceLock::new();
    GEOMETRY.get_or_init(|| Geometry::new(&NUMBERING))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(s: &str) -> usize {
        let f = crate::family::coerceo::Field::parse(s).unwrap();
        f.index()
    }

    fn names(fs: impl Iterator<Item = usize>) -> Vec<String> {
        let mut v: Vec<String> = fs
            .map(|f| crate::family::coerceo::Field::from_index(f).to_string())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn the_board_is_drawn_as_the_module_says() {
        let g = geometry();
        // Tile 1's fields a..f border tiles 2..7.
        for (letter, tile) in ('a'..='f').zip(2..=7) {
            let f = field(&format!("1{letter}"));
            assert!(
                g.sides_of(f).any(|n| n / 6 + 1 == tile),
                "1{letter} borders {tile}"
            );
        }
        // Tiles 1, 2, 8 in a line; 9 touches 2 and 3; 19 touches 7 and 2.
        assert_eq!(g.place[1], (-1, 1));
        assert_eq!(g.place[7], (-2, 2));
        let touches = |a: usize, b: usize| g.tiles[a - 1].contains(&((b - 1) as u8));
        assert!(touches(9, 2) && touches(9, 3) && touches(19, 7) && touches(19, 2));
        assert!(touches(8, 2) && !touches(8, 3) && touches(8, 9) && touches(8, 19));
        // The seed's example: 14a is enclosed by 14b, 14f and 5d.
        assert_eq!(names(g.sides_of(field("14a"))), ["14b", "14f", "5d"]);
        // Colours: a, c, e white.
        for (l, w) in ('a'..='f').zip([true, false, true, false, true, false]) {
            assert_eq!(g.white[field(&format!("7{l}"))], w);
        }
        // A field in the middle has three sides and six steps; one on the
        // edge fewer.
        assert_eq!(g.sides_of(field("1a")).count(), 3);
        assert_eq!(g.steps_of(field("1a")).count(), 6);
        assert_eq!(
            names(g.steps_of(field("3c"))),
            ["10e", "11a", "11e", "3a", "3e", "4a"]
        );
        assert_eq!(g.sides_of(field("14d")).count(), 2);
    }

    #[test]
    fn every_field_is_its_neighbours_neighbour() {
        let g = geometry();
        for f in 0..FIELDS {
            for n in g.sides_of(f) {
                assert!(g.sides_of(n).any(|m| m == f));
                assert_ne!(g.white[n], g.white[f]);
            }
            for n in g.steps_of(f) {
                assert!(g.steps_of(n).any(|m| m == f));
                assert_eq!(g.white[n], g.white[f]);
            }
        }
        let edges: usize = (0..FIELDS).map(|f| g.sides_of(f).count()).sum();
        // 19 tiles of 6 inner sides, and 42 sides shared by two tiles.
        assert_eq!(edges / 2, 19 * 6 + 42);
    }

    /// How far the seed's game goes under a numbering: the plies replayed
    /// before the first turn the rules refuse (165: all of them), and the
    /// turns whose captures and removals the rules make as written.
    fn replay_seed(geo: &Geometry, moves: &[crate::family::coerceo::Move]) -> (usize, usize) {
        use crate::family::coerceo::rules::Position;
        use crate::family::coerceo::Kind;
        let mut pos = Position::start_on(geo, Kind::Laurentius);
        let mut agree = 0;
        for (i, m) in moves.iter().enumerate() {
            for w in m.turns().unwrap() {
                let Ok(played) = pos.play(w.turn) else {
                    return (i, agree);
                };
                let mut caps: Vec<_> = w.captures.iter().map(|c| c.1).collect();
                caps.sort();
                let mut rem: Vec<u32> = w.removals.iter().map(|r| r.1).collect();
                rem.sort_unstable();
                let found: Vec<u32> = played
                    .removed
                    .iter()
                    .map(|t| u32::from(t.number()))
                    .collect();
                agree += usize::from(caps == played.captures && rem == found);
            }
        }
        (moves.len(), agree)
    }

    /// Every numbering the seed leaves open: tile 2 at any of 6 places and
    /// the first ring either way, tile 8 at any of 12 and the second ring
    /// either way, `a` any of the 6 fields and the letters either way.
    fn candidates() -> Vec<Numbering> {
        let mut out = Vec::new();
        for ring1 in 0..6 {
            for ring1_dir in [1, -1] {
                for ring2 in 0..12 {
                    for ring2_dir in [1, -1] {
                        for letter in 0..6 {
                            for letter_dir in [1, -1] {
                                out.push(Numbering {
                                    ring1,
                                    ring1_dir,
                                    ring2,
                                    ring2_dir,
                                    letter,
                                    letter_dir,
                                });
                            }
                        }
                    }
                }
            }
        }
        out
    }

    #[test]
    fn the_seed_game_decides_the_numbering() {
        use crate::codec::ReadOptions;
        use crate::family::coerceo::rules::Position;
        use crate::family::coerceo::Kind;
        let opts = ReadOptions {
            no_validate: true,
            ..ReadOptions::default()
        };
        let seed = include_str!("../../../corpus/coerceo/european-championship-2012.coerceo");
        let game = crate::family::coerceo::notation::read(seed, &opts)
            .unwrap()
            .game;
        let moves: Vec<_> = game
            .moves
            .plies
            .iter()
            .map(|p| p.mv.as_coerceo().unwrap().clone())
            .collect();
        let all = candidates();
        assert_eq!(all.len(), 3456);
        let mut whole = Vec::new();
        let mut stops = std::collections::BTreeMap::new();
        for n in &all {
            let geo = Geometry::new(n);
            let (plies, agree) = replay_seed(&geo, &moves);
            if plies == moves.len() {
                whole.push((*n, agree, geo));
            } else {
                *stops.entry(plies + 1).or_insert(0) += 1;
            }
        }
        // Where the others stop: the ply of the first step the rules
        // refuse, and how many numberings stop there.
        assert_eq!(
            stops.into_iter().collect::<Vec<_>>(),
            [(1, 3168), (2, 144), (19, 108), (21, 12), (23, 12), (25, 6)]
        );
        // Six numberings play the whole game, each with 164 of its 167
        // turns (two of them exchanges) making the captures and removals
        // written: all but T22, T12 and T23.
        assert_eq!(whole.len(), 6);
        assert!(whole.iter().all(|w| w.1 == 164));
        assert!(whole.iter().any(|w| w.0 == NUMBERING));
        // And the six are one: each is the notation's numbering turned by
        // a third of a turn or mirrored, which maps the start onto itself,
        // so that every field of every game has the same neighbours under
        // each. No game can tell them apart.
        let ours = geometry();
        let start = Position::start(Kind::Laurentius).text();
        for (n, _, geo) in &whole {
            assert_eq!(
                Position::start_on(geo, Kind::Laurentius).text(),
                start,
                "{n:?}"
            );
            for f in 0..FIELDS {
                let set = |g: &Geometry, f: usize| {
                    let mut v: Vec<usize> = g
                        .sides_of(f)
                        .chain(g.steps_of(f).map(|s| s + 1000))
                        .collect();
                    v.sort_unstable();
                    v
                };
                assert_eq!(set(geo, f), set(ours, f), "{n:?}");
            }
        }
    }
}
