//! Structure-aware inputs: records built from tokens (`arbitrary` decides
//! which) and rendered to text. Random byte mutation of real records rarely
//! makes the inputs that break readers: thousands of nested variations,
//! long runs of one token, unclosed comments and variations before long
//! movetext, damaged tags and results. Here a few input bytes name them:
//! [`Node::Nest`] and [`Node::Repeat`] carry 16-bit counts, so a short fuzz
//! input renders to a record of hundreds of kilobytes.
//!
//! Chess moves are legal moves of the position reached (cozy-chess picks
//! them, kifu's rules describe them), spelled in every form kifu reads, so
//! that games read past their first move; variations replay from the
//! position before the move they replace. Draughts moves walk the board's
//! diagonals from a square, or jump anywhere, in numbered or diagonal
//! coordinates.

use arbitrary::Arbitrary;
use cozy_chess as cz;
use kifu::archive::Converter;
use kifu::family::draughts::{Board, Square};
use kifu::format::by_name;
use kifu::codec::{ReadOptions, WriteOptions};

/// A rendered input stops growing past this many bytes.
pub const LIMIT: usize = 1 << 20;

/// An input: one or more games.
#[derive(Arbitrary, Debug)]
pub struct Input {
    /// The games, in order.
    pub games: Vec<Game>,
    /// Line ends as `\r\n`.
    pub crlf: bool,
}

/// One game record.
#[derive(Arbitrary, Debug)]
pub struct Game {
    /// Comments before the tags.
    pub preamble: Vec<Comment>,
    /// The tag section.
    pub tags: Vec<TagSpec>,
    /// Chess: the index of a FEN in [`FENS`] (0: no FEN tag). Draughts: the
    /// index of a GameType in [`GAME_TYPES`] (0: no GameType tag).
    pub board: u8,
    /// The movetext.
    pub body: Vec<Node>,
    /// The result token that ends the record.
    pub result: Option<u8>,
}

/// A piece of text: words, punctuation that matters to the container,
/// arbitrary strings and long runs.
#[derive(Arbitrary, Debug)]
pub enum Frag {
    /// A word of [`WORDS`].
    Word(u8),
    /// A character of [`SPECIAL`].
    Special(u8),
    /// Any string.
    Raw(String),
    /// A character of [`SPECIAL`] repeated.
    Run(u16, u8),
}

/// A tag line, well formed or damaged.
#[derive(Arbitrary, Debug)]
pub enum TagSpec {
    /// `[Name "value"]` with a name of [`TAG_NAMES`].
    Known(u8, Vec<Frag>),
    /// `[Result "r"]` with a token of [`RESULTS`].
    Result(u8),
    /// A tag with any name.
    Named(Vec<Frag>, Vec<Frag>),
    /// A damaged tag line.
    Damaged(Damage, u8, Vec<Frag>),
}

/// How a tag line is damaged.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Damage {
    /// `[Name "value` (no closing quote and bracket).
    Cut,
    /// `[Name value]`.
    Bare,
    /// `[[Name "value"]`.
    Double,
    /// A lone `[` line before the tag.
    Lone,
    /// Text after the `]`.
    Trailing,
    /// `[Name "va"lue"]`.
    Quote,
    /// `[Name]`.
    Empty,
    /// `[Name "value"` with no `]`.
    NoBracket,
}

/// A comment.
#[derive(Arbitrary, Debug)]
pub enum Comment {
    /// `{...}`.
    Brace(Vec<Frag>),
    /// `;...` to the end of the line.
    Line(Vec<Frag>),
    /// A `%...` escape line.
    Escape(Vec<Frag>),
    /// `{...` never closed.
    Open(Vec<Frag>),
}

/// How a move number is written before a move.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Number {
    /// `12.` (`12...` where Black moves after a comment or variation).
    Normal,
    /// No number.
    Omit,
    /// `12` without a dot.
    NoDot,
    /// `12.e4`, no space.
    Glued,
    /// `012.`
    Zeros,
    /// `12...` whatever the side.
    Dots,
    /// A number that is not the ply's: `4000000000.`, `0.`, `99999999999.`
    Wrong(u8),
}

/// One movetext element.
#[derive(Arbitrary, Debug)]
pub enum Node {
    /// The next move, spelled some way.
    Move(Spell),
    /// That many moves in a row (a long game).
    Moves(u16, Spell),
    /// A comment.
    Comment(Comment),
    /// `$n`.
    Nag(u16),
    /// A glyph of [`GLYPHS`] after a space.
    Glyph(u8),
    /// A variation replacing the last move.
    Variation(Vec<Node>),
    /// Variations nested this deep, each replacing the last move, with
    /// this inside the deepest.
    Nest(u16, Vec<Node>),
    /// That many `(` never closed.
    Open(u16),
    /// That many `)`.
    Close(u16),
    /// A result token of [`RESULTS`] inside the movetext.
    Result(u8),
    /// A tag line inside the movetext.
    Tag(TagSpec),
    /// Text as is.
    Junk(Frag),
    /// A line break.
    Break,
    /// A node repeated.
    Repeat(u16, Box<Node>),
}

/// How to spell the next move.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct Spell {
    /// Which move: chess, the index among the legal moves; draughts, the
    /// starting square.
    pub pick: u16,
    /// Draughts: the steps (direction and length) from the starting square.
    pub steps: u16,
    /// The spelling (see `chess_move` and `draughts_move`).
    pub form: u8,
    /// The move number.
    pub number: Number,
    /// A glyph of [`GLYPHS`] glued to the move.
    pub glyph: Option<u8>,
}

/// Words for tag values and comments.
pub const WORDS: &[&str] = &[
    "a",
    "Kasparov, G.",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "2-0",
    "1-1",
    "e4",
    "32-28",
    "Nf3",
    "O-O",
    "1.",
    "12...",
    "[Event \"x\"]",
    "\u{feff}",
    "é",
    "½",
    "\\\"",
    "\\\\",
    "%",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ";",
    "\"",
    "$1",
    "!?",
    "W:W31-50:B1-20",
    "20",
    "21,B,8,8,N1,0",
    "Chess960",
    "\t",
    "\r",
    "\0",
    "\x1b[31m",
    "1 - 0",
    "1/2 - 1/2",
    "--",
    "?",
    "-",
];

/// Single characters that matter to the container.
pub const SPECIAL: &[char] = &[
    '(', ')', '{', '}', '[', ']', '"', '\\', ';', '%', '\n', '\r', ' ', '\t', '$', '!', '?', '.',
    '-', 'x', ':', '*', '0', '1', '\u{feff}', '\0', 'é',
];

/// Tag names.
pub const TAG_NAMES: &[&str] = &[
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "FEN",
    "SetUp",
    "GameType",
    "Variant",
    "ECO",
    "Annotator",
    "PlyCount",
    "ARRANGEMENT",
    "TimeControl",
    "event",
    "X",
];

/// Result tokens, of both families, and damaged ones.
pub const RESULTS: &[&str] = &[
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "2-0",
    "0-2",
    "1-1",
    "0-0",
    "1/2",
    "½-½",
    "1 - 0",
    "0 - 1",
    "1/2 - 1/2",
    "-",
    "--",
    "?",
    "",
    "2 - 0",
    "1-",
    "0:1",
    "+-",
    "1-2",
];

/// Move glyphs, and some that are not.
pub const GLYPHS: &[&str] = &[
    "!", "?", "!!", "??", "!?", "?!", "(!?)", "(!)", "!!!", "?!?", "+-", "=", "+", "#",
];

/// Chess start positions (index 0: none given).
pub const FENS: &[&str] = &[
    "",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/P6k/8/8/8/8/6Kp/8 w - - 0 70",
    "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 1",
    "r1k4r/8/8/8/8/8/8/R3K2R b KQkq - 3 40",
    "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",
];

/// Draughts GameType tags (index 0: none given).
pub const GAME_TYPES: &[&str] = &[
    "",
    "20",
    "21",
    "22",
    "23",
    "24",
    "25",
    "26",
    "27",
    "28",
    "29",
    "30",
    "31",
    "32",
    "40",
    "41",
    "20,W,10,10,N2,0",
    "20,W,14,8,N2,0",
    "20,B,8,8,N1,1",
    "21,B,8,8,A0,0",
    "20,W,26,26,N2,0",
    "20,W,12,10,N2,0",
    "20,W,2,2,N2,0",
    "20,W,11,11,N2,0",
    "0",
    "99",
];

/// Draughts positions for a FEN tag.
pub const DRAUGHTS_FENS: &[&str] = &[
    "W:W31-50:B1-20",
    "B:W21-32:B1-12",
    "W:WK10,K20:B45.",
    "?:W1:B2",
    "W:W99:B1",
    "W:W:B",
];

fn pick<'a>(list: &[&'a str], i: impl Into<usize>) -> &'a str {
    list[i.into() % list.len()]
}

/// The notation a game is rendered in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Chess, SAN and the other forms kifu reads.
    Pgn,
    /// Draughts, numbered squares.
    Num,
    /// Draughts, diagonal coordinates.
    Diag,
}

struct Out {
    text: String,
    style: Style,
    /// Chess: the position, and the one before the last move.
    pos: cz::Board,
    prev: Option<cz::Board>,
    /// Draughts: the board the squares are numbered on.
    board: Board,
    /// The move number and side (true: White, or the first mover) of the
    /// next move; and whether its number must be written.
    number: u32,
    first: bool,
    show: bool,
    /// The (number, first) before the last move.
    prev_number: (u32, bool),
}

impl Out {
    fn full(&self) -> bool {
        self.text.len() > LIMIT
    }

    fn space(&mut self) {
        if !self.text.is_empty() && !self.text.ends_with([' ', '\n']) {
            self.text.push(' ');
        }
    }

    fn frags(&mut self, frags: &[Frag]) {
        for f in frags {
            if self.full() {
                return;
            }
            match f {
                Frag::Word(i) => self.text.push_str(pick(WORDS, *i)),
                Frag::Special(i) => self.text.push(SPECIAL[usize::from(*i) % SPECIAL.len()]),
                Frag::Raw(s) => self.text.push_str(s),
                Frag::Run(n, i) => {
                    let c = SPECIAL[usize::from(*i) % SPECIAL.len()];
                    self.text.extend(std::iter::repeat_n(c, usize::from(*n)));
                }
            }
        }
    }

    fn tag(&mut self, t: &TagSpec) {
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.text.push('\n');
        }
        match t {
            TagSpec::Known(name, value) => {
                self.text.push('[');
                self.text.push_str(pick(TAG_NAMES, *name));
                self.text.push_str(" \"");
                self.frags(value);
                self.text.push_str("\"]");
            }
            TagSpec::Result(r) => {
                self.text.push_str("[Result \"");
                self.text.push_str(pick(RESULTS, *r));
                self.text.push_str("\"]");
            }
            TagSpec::Named(name, value) => {
                self.text.push('[');
                self.frags(name);
                self.text.push_str(" \"");
                self.frags(value);
                self.text.push_str("\"]");
            }
            TagSpec::Damaged(d, name, value) => {
                let name = pick(TAG_NAMES, *name);
                match d {
                    Damage::Cut => {
                        self.text.push_str(&format!("[{name} \""));
                        self.frags(value);
                    }
                    Damage::Bare => {
                        self.text.push_str(&format!("[{name} "));
                        self.frags(value);
                        self.text.push(']');
                    }
                    Damage::Double => {
                        self.text.push_str(&format!("[[{name} \""));
                        self.frags(value);
                        self.text.push_str("\"]");
                    }
                    Damage::Lone => {
                        self.text.push_str(&format!("[\n[{name} \""));
                        self.frags(value);
                        self.text.push_str("\"]");
                    }
                    Damage::Trailing => {
                        self.text.push_str(&format!("[{name} \"v\"]"));
                        self.frags(value);
                    }
                    Damage::Quote => {
                        self.text.push_str(&format!("[{name} \"a\""));
                        self.frags(value);
                        self.text.push_str("\"]");
                    }
                    Damage::Empty => self.text.push_str(&format!("[{name}]")),
                    Damage::NoBracket => {
                        self.text.push_str(&format!("[{name} \""));
                        self.frags(value);
                        self.text.push('"');
                    }
                }
            }
        }
        self.text.push('\n');
    }

    fn comment(&mut self, c: &Comment) {
        match c {
            Comment::Brace(t) => {
                self.space();
                self.text.push('{');
                self.frags(t);
                self.text.push('}');
            }
            Comment::Line(t) => {
                self.space();
                self.text.push(';');
                self.frags(t);
                self.text.push('\n');
            }
            Comment::Escape(t) => {
                if !self.text.is_empty() && !self.text.ends_with('\n') {
                    self.text.push('\n');
                }
                self.text.push('%');
                self.frags(t);
                self.text.push('\n');
            }
            Comment::Open(t) => {
                self.space();
                self.text.push('{');
                self.frags(t);
            }
        }
        self.show = true;
    }

    fn number(&mut self, n: Number) {
        self.space();
        let dots = if self.first { "." } else { "..." };
        match n {
            Number::Normal if self.first || self.show => {
                self.text.push_str(&format!("{}{dots} ", self.number));
            }
            Number::Normal | Number::Omit => {}
            Number::NoDot => self.text.push_str(&format!("{} ", self.number)),
            Number::Glued => self.text.push_str(&format!("{}{dots}", self.number)),
            Number::Zeros => self.text.push_str(&format!("00{}{dots} ", self.number)),
            Number::Dots => self.text.push_str(&format!("{}... ", self.number)),
            Number::Wrong(w) => {
                let n = ["0", "4294967295", "4294967296", "99999999999999999999", "1"]
                    [usize::from(w) % 5];
                self.text.push_str(&format!("{n}{dots} "));
            }
        }
        self.show = false;
    }

    fn advance(&mut self) {
        self.prev_number = (self.number, self.first);
        if !self.first {
            self.number = self.number.saturating_add(1);
        }
        self.first = !self.first;
    }

    fn mv(&mut self, s: &Spell) {
        match self.style {
            Style::Pgn => self.chess_move(s),
            Style::Num | Style::Diag => self.draughts_move(s),
        }
        if let Some(g) = s.glyph {
            self.text.push_str(pick(GLYPHS, g));
        }
        self.text.push(' ');
    }

    fn chess_move(&mut self, s: &Spell) {
        let mut moves = Vec::new();
        self.pos.generate_moves(|ms| {
            moves.extend(ms);
            false
        });
        if moves.is_empty() {
            // Mate or stalemate: a null move, or a move that is not legal.
            self.number(s.number);
            self.text
                .push_str(if s.form & 1 == 0 { "--" } else { "Qh5" });
            self.advance();
            return;
        }
        let mv = moves[usize::from(s.pick) % moves.len()];
        let before = self.pos.clone();
        let mut pos = kifu::family::chess::rules::Position::of(&self.pos);
        let (m, spelling) = kifu::family::chess::rules::play(&mut pos, mv);
        self.pos.play_unchecked(mv);
        self.prev = Some(before);
        self.number(s.number);
        let sq = |sq: kifu::family::chess::Square| sq.to_string();
        let from = sq(m.from.expect("a replayed move has its square"));
        let promo = |t: &mut String| {
            if let Some(p) = m.promotion {
                t.push('=');
                t.push(p.san_letter().unwrap_or('Q'));
            }
        };
        let check = match spelling.check {
            kifu::family::chess::Check::None => "",
            kifu::family::chess::Check::Mate => "#",
            _ => "+",
        };
        let mut t = String::new();
        let form = s.form % 8;
        if let Some(w) = m.castle {
            let long = w == kifu::family::chess::Wing::Queen;
            t.push_str(match (form % 3, long) {
                (0, false) => "O-O",
                (0, true) => "O-O-O",
                (1, false) => "0-0",
                (1, true) => "0-0-0",
                (_, false) => "o-o",
                (_, true) => "o-o-o",
            });
            t.push_str(check);
        } else {
            match form {
                // Coordinates, as UCI writes them.
                6 => {
                    t.push_str(&from);
                    t.push_str(&sq(m.to));
                    if let Some(p) = m.promotion {
                        t.push(p.san_letter().unwrap_or('Q').to_ascii_lowercase());
                    }
                }
                // Long algebraic: Ng1-f3, e2xd3.
                5 => {
                    if let Some(l) = m.role.san_letter() {
                        t.push(l);
                    }
                    t.push_str(&from);
                    t.push(if m.capture { 'x' } else { '-' });
                    t.push_str(&sq(m.to));
                    promo(&mut t);
                    t.push_str(check);
                }
                // SAN, with the variants real files have.
                _ => {
                    if let Some(l) = m.role.san_letter() {
                        t.push(l);
                    }
                    if let Some(f) = spelling.file {
                        t.push((b'a' + f) as char);
                    }
                    if let Some(r) = spelling.rank {
                        t.push((b'1' + r) as char);
                    }
                    // 4: a pawn capture without `x` (`cd5`).
                    let pawnless = form == 4 && m.role == kifu::family::chess::Role::Pawn;
                    if m.capture && !pawnless {
                        t.push(if form == 1 { ':' } else { 'x' });
                    }
                    t.push_str(&sq(m.to));
                    if form == 3 && m.en_passant {
                        t.push_str(" e.p.");
                    }
                    if form == 2 {
                        if let Some(p) = m.promotion {
                            t.push(p.san_letter().unwrap_or('Q'));
                        }
                    } else {
                        promo(&mut t);
                    }
                    t.push_str(match (form, check) {
                        (7, "+") => "++",
                        (7, _) => "",
                        _ => check,
                    });
                }
            }
        }
        self.text.push_str(&t);
        self.advance();
    }

    fn draughts_move(&mut self, s: &Spell) {
        let count = self.board.square_count().max(1);
        let start = Square(1 + s.pick % count);
        let mut path = vec![start];
        let jumps = s.form & 1 == 1;
        let mut steps = s.steps;
        // Two bits a step: the direction; the length is 1, or 2 for a jump.
        let n = if jumps { 1 + (s.steps >> 14) } else { 1 };
        for _ in 0..n {
            let at = *path.last().expect("a start");
            let Some((c, r)) = self.board.coords(at) else {
                break;
            };
            let (dc, dr) = [(1, 1), (1, -1), (-1, 1), (-1, -1)][usize::from(steps & 3)];
            steps >>= 2;
            let len = if jumps { 2 } else { 1 };
            match self
                .board
                .square_at(i32::from(c) + dc * len, i32::from(r) + dr * len)
            {
                Some(sq) => path.push(sq),
                None => break,
            }
        }
        if path.len() < 2 || s.form & 16 != 0 {
            // Anywhere: any square number, on the board or not.
            path.push(Square(steps % (count + 8)));
        }
        self.number(s.number);
        let capture = jumps || s.form & 2 != 0;
        let mut t = String::new();
        match self.style {
            Style::Num => {
                let sep = if !capture {
                    "-"
                } else if s.form & 4 != 0 {
                    ":"
                } else {
                    "x"
                };
                for (i, sq) in path.iter().enumerate() {
                    if i > 0 && (i == path.len() - 1 || s.form & 8 == 0) {
                        t.push_str(sep);
                    } else if i > 0 {
                        continue;
                    }
                    if s.form & 32 != 0 {
                        t.push('0');
                    }
                    self.board.write_square(*sq, &mut t);
                }
            }
            Style::Diag => {
                let diag = |sq: Square| -> String {
                    match self.board.diag(sq) {
                        Some((l, d)) => {
                            let digit = match d {
                                10 if s.form & 4 == 0 => "0".to_string(),
                                d => d.to_string(),
                            };
                            format!("{}{digit}", (b'a' + l.saturating_sub(1).min(25)) as char)
                        }
                        None => format!("z{}", sq.0),
                    }
                };
                let sqs: Vec<String> = path.iter().map(|s| diag(*s)).collect();
                match (s.form >> 3) % 4 {
                    // Full form: squares joined.
                    0 => t.push_str(&sqs.join(if capture { "x" } else { "-" })),
                    // Squares glued, `x` after a capture.
                    1 => {
                        t.push_str(&sqs.concat());
                        if capture {
                            t.push('x');
                        }
                    }
                    // Compact along a line when it is one.
                    _ => {
                        let (a, b) = (&sqs[0], &sqs[sqs.len() - 1]);
                        let (la, lb) = (&a[..1], &b[..1]);
                        if la == lb {
                            t.push_str(a);
                            t.push_str(&b[1..]);
                        } else if a[1..] == b[1..] {
                            t.push_str(la);
                            t.push_str(b);
                        } else {
                            t.push_str(a);
                            t.push_str(b);
                        }
                        if capture {
                            t.push('x');
                        }
                    }
                }
            }
            Style::Pgn => unreachable!("a draughts style"),
        }
        self.text.push_str(&t);
        self.advance();
    }

    fn node(&mut self, n: &Node) {
        if self.full() {
            return;
        }
        match n {
            Node::Move(s) => self.mv(s),
            Node::Moves(k, s) => {
                let mut s = *s;
                for i in 0..*k {
                    if self.full() {
                        break;
                    }
                    s.pick = s.pick.wrapping_mul(31).wrapping_add(i);
                    s.steps = s.steps.rotate_left(3) ^ i;
                    self.mv(&s);
                }
            }
            Node::Comment(c) => self.comment(c),
            Node::Nag(k) => {
                self.space();
                self.text.push_str(&format!("${k}"));
            }
            Node::Glyph(g) => {
                self.space();
                self.text.push_str(pick(GLYPHS, *g));
            }
            Node::Variation(body) => self.variation(1, body),
            Node::Nest(depth, body) => self.variation(usize::from(*depth).max(1), body),
            Node::Open(k) => {
                self.space();
                self.text.extend(std::iter::repeat_n("( ", usize::from(*k)));
                self.show = true;
            }
            Node::Close(k) => {
                self.space();
                self.text.extend(std::iter::repeat_n(") ", usize::from(*k)));
                self.show = true;
            }
            Node::Result(r) => {
                self.space();
                self.text.push_str(pick(RESULTS, *r));
                self.text.push(' ');
            }
            Node::Tag(t) => self.tag(t),
            Node::Junk(f) => self.frags(std::slice::from_ref(f)),
            Node::Break => self.text.push('\n'),
            Node::Repeat(k, node) => {
                for _ in 0..*k {
                    if self.full() {
                        break;
                    }
                    self.node(node);
                }
            }
        }
    }

    /// `depth` variations nested, each replacing the last move: every level
    /// starts from the same position, with a move other than the one it
    /// replaces where there is one.
    fn variation(&mut self, depth: usize, body: &[Node]) {
        let saved = (self.pos.clone(), self.prev.clone(), self.number, self.first);
        if let Some(p) = &self.prev {
            self.pos = p.clone();
        }
        let start = (self.pos.clone(), self.prev_number);
        for level in 0..depth {
            if self.full() {
                break;
            }
            self.space();
            self.text.push('(');
            self.show = true;
            (self.number, self.first) = start.1;
            self.pos = start.0.clone();
            if level + 1 < depth {
                let s = Spell {
                    pick: level as u16,
                    steps: level as u16,
                    form: 0,
                    number: Number::Normal,
                    glyph: None,
                };
                self.mv(&s);
            }
        }
        for n in body {
            self.node(n);
        }
        self.space();
        for _ in 0..depth {
            self.text.push_str(") ");
        }
        (self.pos, self.prev, self.number, self.first) = saved;
        self.show = true;
    }
}

impl Input {
    /// The input as text in a notation.
    pub fn render(&self, style: Style) -> String {
        let mut text = String::new();
        for g in &self.games {
            if text.len() > LIMIT {
                break;
            }
            text.push_str(&g.render(style));
            text.push('\n');
        }
        if self.crlf {
            text = text.replace('\n', "\r\n");
        }
        text
    }
}

impl Game {
    /// The game as text in a notation.
    pub fn render(&self, style: Style) -> String {
        let international = Board::from_game_type("20").expect("international");
        let (board, setup) = match style {
            Style::Pgn => (international, pick(FENS, self.board)),
            _ => {
                let gt = pick(GAME_TYPES, self.board);
                (Board::from_game_type(gt).unwrap_or(international), gt)
            }
        };
        let pos = match style {
            Style::Pgn if !setup.is_empty() => {
                kifu::family::chess::rules::parse_fen(setup).unwrap_or_default()
            }
            _ => cz::Board::default(),
        };
        let white_first = match style {
            Style::Pgn => pos.side_to_move() == cz::Color::White,
            _ => true,
        };
        let mut out = Out {
            text: String::new(),
            style,
            pos,
            prev: None,
            board,
            number: 1,
            first: white_first,
            show: true,
            prev_number: (1, white_first),
        };
        for c in &self.preamble {
            out.comment(c);
        }
        if !setup.is_empty() {
            let tag = match style {
                Style::Pgn => format!("[SetUp \"1\"]\n[FEN \"{setup}\"]\n"),
                _ => format!("[GameType \"{setup}\"]\n"),
            };
            if !out.text.is_empty() && !out.text.ends_with('\n') {
                out.text.push('\n');
            }
            out.text.push_str(&tag);
        }
        for t in &self.tags {
            out.tag(t);
        }
        if style != Style::Pgn && self.board % 7 == 3 {
            out.text.push_str(&format!(
                "[FEN \"{}\"]\n",
                pick(DRAUGHTS_FENS, self.board / 7)
            ));
        }
        if !self.tags.is_empty() || !setup.is_empty() {
            out.text.push('\n');
        }
        out.show = true;
        for n in &self.body {
            out.node(n);
        }
        if let Some(r) = self.result {
            out.space();
            out.text.push_str(pick(RESULTS, r));
        }
        out.text.push('\n');
        out.text
    }
}

/// A scoresheet edit: what damage does to the grid of a sllavcco record.
#[derive(Arbitrary, Debug)]
pub enum SheetEdit {
    /// Remove a line.
    Delete(u16),
    /// Repeat a line.
    Duplicate(u16, u16),
    /// Replace a tab-separated cell of a line.
    Cell(u16, u8, Vec<Frag>),
    /// Insert a line.
    Insert(u16, Vec<Frag>),
    /// Swap two lines.
    Swap(u16, u16),
    /// Cut the text after this many lines and bytes.
    Truncate(u16, u8),
}

/// A chess game written as a scoresheet by kifu, then damaged.
#[derive(Arbitrary, Debug)]
pub struct Sheet {
    /// The games.
    pub input: Input,
    /// The damage.
    pub edits: Vec<SheetEdit>,
}

/// Converts text with kifu's own converter (the games that convert).
fn convert(from: &str, to: &str, text: &str) -> Vec<String> {
    let (f, t) = (by_name(from).expect("format"), by_name(to).expect("format"));
    let conv = Converter {
        from: f,
        to: t,
        read: ReadOptions::default(),
        write: WriteOptions::default(),
    };
    let mut out = Vec::new();
    let mut records = kifu::archive::Records::new(text.as_bytes(), f.split);
    while let Ok(Some(b)) = records.next_batch(kifu::archive::BATCH_BYTES) {
        for r in b.records.iter().filter(|r| r.is_game) {
            if let Ok((g, _)) = conv.convert(&b.data[r.range.clone()]).text() {
                out.push(g);
            }
        }
    }
    out
}

fn frag_text(frags: &[Frag]) -> String {
    let mut o = Out {
        text: String::new(),
        style: Style::Pgn,
        pos: cz::Board::default(),
        prev: None,
        board: Board::from_game_type("20").expect("international"),
        number: 1,
        first: true,
        show: false,
        prev_number: (1, true),
    };
    o.frags(frags);
    o.text
}

impl Sheet {
    /// The scoresheets as text.
    pub fn render(&self) -> String {
        let pgn = self.input.render(Style::Pgn);
        let sheets = convert("pgn", "sllavcco", &pgn).join("\n");
        let mut lines: Vec<String> = sheets.split('\n').map(str::to_string).collect();
        for e in &self.edits {
            let n = lines.len().max(1);
            let at = |i: u16| usize::from(i) % n;
            match e {
                SheetEdit::Delete(i) if !lines.is_empty() => {
                    lines.remove(at(*i));
                }
                SheetEdit::Duplicate(i, k) if !lines.is_empty() => {
                    let i = at(*i);
                    let l = lines[i].clone();
                    let k = usize::from(*k).min(LIMIT / (l.len() + 1));
                    lines.splice(i..i, std::iter::repeat_n(l, k));
                }
                SheetEdit::Cell(i, c, f) if !lines.is_empty() => {
                    let i = at(*i);
                    let mut cells: Vec<String> = lines[i].split('\t').map(str::to_string).collect();
                    let c = usize::from(*c) % cells.len();
                    cells[c] = frag_text(f);
                    lines[i] = cells.join("\t");
                }
                SheetEdit::Insert(i, f) => {
                    let i = usize::from(*i) % (lines.len() + 1);
                    lines.insert(i, frag_text(f));
                }
                SheetEdit::Swap(i, j) if !lines.is_empty() => {
                    let (i, j) = (at(*i), at(*j));
                    lines.swap(i, j);
                }
                SheetEdit::Truncate(i, b) if !lines.is_empty() => {
                    let i = at(*i);
                    lines.truncate(i + 1);
                    let l = &mut lines[i];
                    let mut cut = usize::from(*b).min(l.len());
                    while !l.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    l.truncate(cut);
                }
                _ => {}
            }
        }
        lines.join("\n")
    }
}

/// A value put into a game's JSON.
#[derive(Arbitrary, Debug)]
pub enum Value {
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A large unsigned integer.
    Big(u64),
    /// A float.
    Float(f64),
    /// A string.
    Str(Vec<Frag>),
    /// A word of [`WORDS`] or of the IR's vocabulary.
    Word(u8),
    /// An array.
    Array(Vec<Value>),
    /// An object with keys of the IR's vocabulary.
    Object(Vec<(u8, Value)>),
    /// Arrays nested this deep.
    Deep(u16),
    /// Remove the member or element.
    Remove,
    /// A copy of another part of the same game (a variation list, say),
    /// at a path.
    Copy(Vec<u8>),
}

/// The IR's own words: keys and enumeration values.
pub const IR_WORDS: &[&str] = &[
    "variant",
    "family",
    "chess",
    "draughts",
    "preamble",
    "tags",
    "setup",
    "moves",
    "plies",
    "trailing",
    "result",
    "number",
    "side",
    "white",
    "black",
    "move",
    "glyph",
    "nags",
    "before",
    "after",
    "variations",
    "text",
    "kind",
    "brace",
    "line",
    "escape",
    "name",
    "value",
    "path",
    "capture",
    "role",
    "from",
    "to",
    "promotion",
    "castle",
    "en_passant",
    "check",
    "show_file",
    "show_rank",
    "claimed",
    "file",
    "rank",
    "null",
    "chess960",
    "validated",
    "game_type",
    "first",
    "width",
    "height",
    "style",
    "corner",
    "invert",
    "numeric",
    "alpha",
    "king",
    "queen",
    "pawn",
    "knight",
    "e4",
    "a1",
    "h8",
    "1-0",
    "2-0",
    "*",
    "to_move",
    "square",
    "mate",
    "double",
    "none",
];

/// An edit of a game's JSON.
#[derive(Arbitrary, Debug)]
pub struct JsonEdit {
    /// Where: at each level, the index of the member or element.
    pub path: Vec<u8>,
    /// What goes there.
    pub value: Value,
}

/// Games written as JSON by kifu, then edited.
#[derive(Arbitrary, Debug)]
pub struct Json {
    /// The games.
    pub input: Input,
    /// Draughts (numbered squares) rather than chess.
    pub draughts: bool,
    /// The edits, game by game.
    pub edits: Vec<JsonEdit>,
}

fn json_value(v: &Value, root: &serde_json::Value) -> Option<serde_json::Value> {
    use serde_json::Value as J;
    Some(match v {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Int(i) => J::from(*i),
        Value::Big(u) => J::from(*u),
        Value::Float(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
        Value::Str(f) => J::String(frag_text(f)),
        Value::Word(i) => {
            let all = WORDS.len() + IR_WORDS.len();
            let i = usize::from(*i) % all;
            J::String(if i < IR_WORDS.len() {
                IR_WORDS[i].to_string()
            } else {
                WORDS[i - IR_WORDS.len()].to_string()
            })
        }
        Value::Array(a) => J::Array(a.iter().filter_map(|v| json_value(v, root)).collect()),
        Value::Object(m) => J::Object(
            m.iter()
                .filter_map(|(k, v)| Some((pick(IR_WORDS, *k).to_string(), json_value(v, root)?)))
                .collect(),
        ),
        Value::Deep(d) => {
            let mut v = J::Array(Vec::new());
            for _ in 0..*d {
                v = J::Array(vec![v]);
            }
            v
        }
        Value::Remove => return None,
        Value::Copy(path) => {
            let mut at = root;
            for i in path {
                at = match at {
                    J::Array(a) if !a.is_empty() => &a[usize::from(*i) % a.len()],
                    J::Object(m) if !m.is_empty() => {
                        m.values().nth(usize::from(*i) % m.len()).expect("a member")
                    }
                    _ => break,
                };
            }
            at.clone()
        }
    })
}

fn edit(root: &mut serde_json::Value, e: &JsonEdit) {
    use serde_json::Value as J;
    let new = json_value(&e.value, root);
    let mut at = root;
    for (k, i) in e.path.iter().enumerate() {
        let last = k + 1 == e.path.len();
        let i = usize::from(*i);
        match at {
            J::Array(a) if !a.is_empty() => {
                let i = i % (a.len() + usize::from(last));
                if last {
                    match new {
                        Some(v) if i == a.len() => a.push(v),
                        Some(v) => a[i] = v,
                        None if i < a.len() => {
                            a.remove(i);
                        }
                        None => {}
                    }
                    return;
                }
                at = &mut a[i];
            }
            J::Object(m) => {
                let key = if last && i % 3 == 0 {
                    pick(IR_WORDS, i / 3).to_string()
                } else if m.is_empty() {
                    return;
                } else {
                    m.keys().nth(i % m.len()).expect("a key").clone()
                };
                if last {
                    match new {
                        Some(v) => {
                            m.insert(key, v);
                        }
                        None => {
                            m.remove(&key);
                        }
                    }
                    return;
                }
                match m.get_mut(&key) {
                    Some(v) => at = v,
                    None => return,
                }
            }
            _ => return,
        }
    }
}

impl Json {
    /// The games as JSON values, edited.
    pub fn games(&self) -> Vec<serde_json::Value> {
        let (style, from) = if self.draughts {
            (Style::Num, "draughts-num")
        } else {
            (Style::Pgn, "pgn")
        };
        // JSON is about ten times the size of the notation.
        let mut text = self.input.render(style);
        dump(&format!("source.{from}"), &text);
        if text.len() > LIMIT / 8 {
            text.clear();
        }
        let mut games: Vec<serde_json::Value> = convert(from, "jsonl", &text)
            .iter()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        if games.is_empty() {
            return games;
        }
        for (k, e) in self.edits.iter().enumerate() {
            let n = games.len();
            edit(&mut games[k % n], e);
        }
        games
    }

    /// The games as a JSON array (`json`) and as JSON Lines (`jsonl`).
    pub fn render(&self) -> (String, String) {
        let games = self.games();
        let lines: Vec<String> = games.iter().map(|g| g.to_string()).collect();
        let array = format!("[\n{}\n]\n", lines.join(",\n"));
        let mut jsonl = lines.join("\n");
        jsonl.push('\n');
        (array, jsonl)
    }
}

/// Writes a rendered input to the file `KIFU_FUZZ_DUMP` names, when set:
/// run a target on a finding with it set to get the text that failed. A
/// text the input is made from (`source.*`, which kifu converted to make
/// the input) goes beside it, its name suffixed.
pub fn dump(name: &str, text: &str) {
    if let Some(path) = std::env::var_os("KIFU_FUZZ_DUMP") {
        let mut path = std::path::PathBuf::from(path);
        if path.is_dir() {
            path.push(name);
        } else if name.starts_with("source.") {
            let mut p = path.into_os_string();
            p.push(format!(".{name}"));
            path = p.into();
        }
        std::fs::write(&path, text).expect("KIFU_FUZZ_DUMP is writable");
    }
}
