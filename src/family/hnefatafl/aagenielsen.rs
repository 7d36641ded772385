//! `aagenielsen-json`: the move lists of aagenielsen.dk games as JSON
//! (read only): one object a game with the players, the game type, who
//! moved first, the moves and the winner.
//!
//! The game type's name gives the board (`Copenhagen Hnefatafl 11x11`)
//! and, for the types of its table (`aagenielsen_types.txt`), the rules, by which the moves are
//! replayed and the recorded captures checked (the source leaves out the
//! king's capture, which the replay adds); other types are read on their
//! board without rules. Moves are `e1-e3`, captures repeated with
//! `x` (`e2-d2xc2xd3`; a square captured twice, as some records write it,
//! is read once, with a warning), the old dash-less form `k7h7`, Berserk
//! moves of several legs `i3-i7-i11xi5xi9`, and the closing `resigned`
//! (a resignation) or `timeout` (a Termination tag).

use serde::Deserialize;

use crate::codec::{Lines, Parsed, ReadOptions};
use crate::error::Kind;
use crate::error::Problem;
use crate::family::any::{Move, Variant};
use crate::family::hnefatafl::rules::Rules;
use crate::family::hnefatafl::tafl::{self, decode};
use crate::family::hnefatafl::{Board, Move as TMove, Square, ATTACKERS};
use crate::ir::{Game, Ply, Side, Tag};

mod as_replayed;
mod at_most;
mod berserk;
mod cleared;
mod counted_as_listed;
mod deep;
mod earlier;
mod enabled;
mod jump_on;
mod last_leg;
mod last_leg_turned;
mod last_rules;
mod later;
mod legs_over;
mod listed;
mod needs;
mod own_start;
mod partner;
mod rejudged;
mod taken_back_pair;
mod taken_there;
mod turned;
mod turned_on;

use as_replayed::as_replayed;
use at_most::at_most;
use berserk::{berserk_legs, Bounds, Turn, BOUNDS, WIDE};
use cleared::cleared;
use counted_as_listed::counted_as_listed;
use deep::deep;
use earlier::earlier;
use enabled::enabled;
use jump_on::jump_on;
use last_leg::last_leg_free;
use last_leg_turned::last_leg_turned;
use last_rules::last_rules;
use later::later_rules;
use legs_over::legs_over;
use listed::listed;
use own_start::{captured_by, own_start};
use partner::partner;
use rejudged::rejudged;
use taken_back_pair::taken_back_pair;
use taken_there::taken_there;
use turned::turned;
use turned_on::turned_on;

/// One record as the JSON holds it.
#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Record {
    white_side_player_name: Option<String>,
    black_side_player_name: Option<String>,
    aage_game_type_key: Option<serde_json::Value>,
    aage_game_type_name: String,
    who_moved_first: Option<String>,
    black_pieces_captured: Option<serde_json::Value>,
    white_pieces_captured: Option<serde_json::Value>,
    moves: Vec<String>,
    who_won: Option<String>,
}

impl Record {
    /// The capture counts the record gives: the pieces the attackers
    /// captured (`BlackPiecesCaptured`), then the defenders'.
    fn counts(&self) -> [Option<u64>; 2] {
        [&self.black_pieces_captured, &self.white_pieces_captured]
            .map(|v| v.as_ref().and_then(serde_json::Value::as_u64))
    }
}

/// The options of `aagenielsen-json`.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The rules every record is played by, instead of its game type's
    /// (one or more start positions, [`layouts`]).
    pub rules: Option<Vec<Rules>>,
}

impl crate::options::FormatOptions for Options {
    const LIST: &'static [crate::options::FormatOption] = &[crate::options::FormatOption {
        name: "rules",
        sides: crate::options::Sides::Read,
        values: crate::options::Values::Kind(
            "a preset or an OpenTafl rules string, as tafl takes them, or several joined by ` | ` (a start position each, tried in turn)",
        ),
        default: "the rules of the record's game type, where kifu knows them",
        help: "the rules every record is played by, instead of its game type's",
    }];

    fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "rules" => self.rules = Some(layouts(value)?),
            _ => return Err(crate::options::undeclared(name)),
        }
        Ok(())
    }
}

/// The board side a game type's name gives (`... 11x11 ...`).
pub fn board_of(name: &str) -> Option<u8> {
    name.split(|c: char| !c.is_ascii_alphanumeric())
        .find_map(|w| tafl::parse_board(w).ok().filter(|_| w.contains('x')))
}

/// What kifu knows of a game type of aagenielsen.dk.
#[derive(Debug, Clone)]
pub enum GameType {
    /// A tafl game, played by these rules (a preset's or a rules string's):
    /// one for each start position the site has used under the type's name,
    /// the most common first.
    Tafl(Vec<Rules>),
    /// A game of another kind (Daldøs, Sáhkku, Hex, ...): refused.
    Other,
}

/// The table of aagenielsen.dk's game types (`aagenielsen_types.txt`): a
/// line a type, its key, its name and its rules (a preset's name or an
/// OpenTafl rules string), or `not tafl`.
const TYPES: &str = include_str!("aagenielsen_types.txt");

/// A game type of [`TYPES`]: name (lower case), key, kind, its later
/// rules ([`later_rules_of`]) and its last rules ([`last_rules_of`]).
type TypeRow = (String, u32, GameType, Vec<Rules>, Vec<Rules>);

/// The game types of [`TYPES`], read once.
fn types() -> &'static [TypeRow] {
    static TABLE: std::sync::OnceLock<Vec<TypeRow>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        TYPES
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .filter_map(|l| {
                let mut parts = l.split('\t');
                let key = parts.next()?.trim().parse().ok()?;
                let name = parts.next()?.trim().to_lowercase();
                let column = parts.next()?.trim();
                let (column, last) = match column.split_once(" ||| ") {
                    Some((rules, last)) => (rules, layouts(last).ok()?),
                    None => (column, Vec::new()),
                };
                let (rules, later) = match column.split_once(" || ") {
                    Some((rules, later)) => (rules, layouts(later).ok()?),
                    None => (column, Vec::new()),
                };
                let kind = match rules.trim() {
                    "not tafl" => GameType::Other,
                    rules => GameType::Tafl(layouts(rules).ok()?),
                };
                Some((name, key, kind, later, last))
            })
            .collect()
    })
}

/// The game types of the table: name (lower case) and key, tafl or not.
pub fn type_keys() -> Vec<(&'static str, u32)> {
    types()
        .iter()
        .map(|(n, k, _, _, _)| (n.as_str(), *k))
        .collect()
}

/// What kifu knows of a game type by its name (its entities decoded, in
/// any case, without the blanks around it) and, where two types share a
/// name (`Tyr 13x13`), its key: `None` where the table does not have it.
pub fn game_type(name: &str, key: Option<u32>) -> Option<&'static GameType> {
    type_row(name, key).map(|(_, _, k, _, _)| k)
}

/// The row of [`TYPES`] of a game type, as [`game_type`] finds it.
fn type_row(name: &str, key: Option<u32>) -> Option<&'static TypeRow> {
    let lower = decode_entities(name).trim().to_lowercase();
    let named = |(n, _, _, _, _): &&TypeRow| *n == lower;
    types()
        .iter()
        .filter(named)
        .find(|(_, k, _, _, _)| Some(*k) == key)
        .or_else(|| types().iter().find(named))
}

/// The later rules of a game type (by name and key, as [`game_type`]):
/// rules the table gives after ` || `, tried only where its rules refuse a
/// record under every start position and every reading of it (the mends,
/// the berserk legs, a start position of its own): none for most types.
pub fn later_rules_of(name: &str, key: Option<u32>) -> &'static [Rules] {
    type_row(name, key).map_or(&[], |(_, _, _, later, _)| later.as_slice())
}

/// The last rules of a game type (by name and key, as [`game_type`]):
/// rules the table gives after ` ||| `, tried only where every other
/// reading of a record fails, its later rules' too (near the end of the
/// read chain): none for most types.
pub fn last_rules_of(name: &str, key: Option<u32>) -> &'static [Rules] {
    type_row(name, key).map_or(&[], |(_, _, _, _, last)| last.as_slice())
}

/// The rules of a game type (by name and key, as [`game_type`]), where it
/// is a tafl game kifu knows: one for each start position the site has
/// used, the most common first (none where kifu does not know it).
pub fn rules_of(name: &str, key: Option<u32>) -> Vec<Rules> {
    match game_type(name, key) {
        Some(GameType::Tafl(r)) => r.clone(),
        _ => Vec::new(),
    }
}

/// Decodes the character entities of the site's names (`Dald&oslash;s` is
/// `Daldøs`): the five of XML, character references (`&#248;`, `&#xF8;`)
/// and the Latin-1 letters of HTML (`&aacute;`, `&Aring;`, `&szlig;`, ...);
/// another entity is left as written.
pub fn decode_entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let decoded = tail[1..]
            .find(';')
            .filter(|&j| j > 0 && j <= 10)
            .and_then(|j| entity(&tail[1..=j]).map(|c| (c, j + 2)));
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &tail[len..];
            }
            None => {
                out.push('&');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// One entity's character (`oslash` is `ø`, `#248` too).
fn entity(name: &str) -> Option<char> {
    if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => num.parse().ok()?,
        };
        return char::from_u32(code);
    }
    let fixed = [
        ("amp", '&'),
        ("lt", '<'),
        ("gt", '>'),
        ("quot", '"'),
        ("apos", '\''),
        ("nbsp", '\u{a0}'),
        ("szlig", 'ß'),
        ("aelig", 'æ'),
        ("AElig", 'Æ'),
        ("eth", 'ð'),
        ("ETH", 'Ð'),
        ("thorn", 'þ'),
        ("THORN", 'Þ'),
    ];
    if let Some((_, c)) = fixed.iter().find(|(n, _)| *n == name) {
        return Some(*c);
    }
    // A letter and its accent: the letters that take it, and the accented
    // ones, in the same order (lower case, then upper).
    let accents: [(&str, &str, &str); 8] = [
        ("acute", "aeiouyAEIOUY", "áéíóúýÁÉÍÓÚÝ"),
        ("grave", "aeiouAEIOU", "àèìòùÀÈÌÒÙ"),
        ("circ", "aeiouAEIOU", "âêîôûÂÊÎÔÛ"),
        ("uml", "aeiouyAEIOU", "äëïöüÿÄËÏÖÜ"),
        ("tilde", "anoANO", "ãñõÃÑÕ"),
        ("ring", "aA", "åÅ"),
        ("cedil", "cC", "çÇ"),
        ("slash", "oO", "øØ"),
    ];
    let mut chars = name.chars();
    let letter = chars.next()?;
    let accent = chars.as_str();
    let (_, plain, marked) = accents.iter().find(|(a, _, _)| *a == accent)?;
    let at = plain.chars().position(|c| c == letter)?;
    marked.chars().nth(at)
}

/// Rules for each start position a game type has had: presets or rules
/// strings joined by ` | `, tried in turn.
pub fn layouts(text: &str) -> Result<Vec<Rules>, String> {
    text.split(" | ").map(Rules::named).collect()
}

/// How a Rules tag names the rules: the preset's name, else the string.
fn rule_name(r: &Rules) -> String {
    r.preset_name()
        .map_or_else(|| r.text().to_string(), str::to_string)
}

fn value_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Reads one record (a JSON object).
pub fn read(text: &str, opts: &ReadOptions) -> Result<Parsed, Problem> {
    let record: Record = serde_json::from_str(text).map_err(|e| {
        Problem::at(
            (e.line(), e.column()),
            format!("not an aagenielsen game record: {e}"),
        )
        .of_kind(Kind::Document)
    })?;
    let lines = Lines::new(text);
    let at = |needle: &str| text.find(needle).map_or((1, 1), |i| lines.at(i + 1));
    let decoded = decode_entities(&record.aage_game_type_name);
    let name = decoded.trim();
    let key = record.aage_game_type_key.as_ref().and_then(|k| match k {
        serde_json::Value::String(s) => s.trim().parse().ok(),
        other => other.as_u64().and_then(|k| u32::try_from(k).ok()),
    });
    let kind = game_type(name, key);
    if let Some(GameType::Other) = kind {
        return Err(Problem::at(
            at("AageGameTypeName"),
            format!(
                "the game type {name} is not a tafl game: kifu reads aagenielsen.dk's tafl games alone",
                name = crate::error::quote(name)
            ),
        ).of_kind(Kind::VariantUnplayed));
    }
    let options = opts.format.get::<Options>().cloned().unwrap_or_default();
    let mut warnings = Vec::new();
    let layouts = options.rules.clone().unwrap_or_else(|| rules_of(name, key));
    let mut rules = layouts.first().cloned();
    let dim = match &rules {
        Some(r) => r.dim,
        None => board_of(name).ok_or_else(|| {
            Problem::at(
                at("AageGameTypeName"),
                format!(
                    "the game type {name} names no board (`11x11`)",
                    name = crate::error::quote(name)
                ),
            )
            .of_kind(Kind::TagValue)
        })?,
    };
    if rules.is_none() {
        warnings.push(
            Problem::at(
                at("AageGameTypeName"),
                format!(
                    "kifu does not know the game type {name}: its moves are read on a {dim}x{dim} board, not checked",
                    name = crate::error::quote(name)
                ),
            )
            .of_kind(Kind::RulesUnknown),
        );
    }
    // Who moved first: the rules' side; the records say `black` whoever
    // did (the defenders move first in the `-w` types), and `white` only
    // where the defenders did.
    let recorded = match record.who_moved_first.as_deref() {
        Some("white") => ATTACKERS.other(),
        _ => ATTACKERS,
    };
    let mut first = match &rules {
        Some(r) if !r.attackers_first => ATTACKERS.other(),
        _ => recorded,
    };
    if recorded != ATTACKERS && first == ATTACKERS && rules.is_some() {
        first = recorded;
        warnings.push(Problem::at(
            at("WhoMovedFirst"),
            "the defenders moved first, which the rules of the game type do not say: the moves are not checked",
        ).of_kind(Kind::FirstMover));
        rules = None;
    }
    let mut game = Game::new(Variant::Tafl(Board {
        dim,
        validated: rules.is_some() && !opts.no_validate,
        rules: rules.clone(),
    }));
    game.tags.push(Tag::new("Site", "aagenielsen.dk"));
    if let Some(w) = &record.white_side_player_name {
        game.tags.push(Tag::new("White", w.as_str()));
    }
    if let Some(b) = &record.black_side_player_name {
        game.tags.push(Tag::new("Black", b.as_str()));
    }
    let result = match record.who_won.as_deref() {
        Some("White") => "1-0",
        Some("Black") => "0-1",
        Some("Draw") => "1/2-1/2",
        _ => "*",
    };
    game.tags.push(Tag::new("Result", result));
    game.tags.push(Tag::new("Variant", name));
    if let Some(k) = &record.aage_game_type_key {
        game.tags.push(Tag::new("AageGameTypeKey", value_text(k)));
    }
    for (tag, v) in [
        ("BlackPiecesCaptured", &record.black_pieces_captured),
        ("WhitePiecesCaptured", &record.white_pieces_captured),
    ] {
        if let Some(v) = v {
            game.tags.push(Tag::new(tag, value_text(v)));
        }
    }
    if let Some(r) = &rules {
        game.tags.push(Tag::new("Rules", rule_name(r)));
    } else {
        game.tags.push(Tag::new("Board", format!("{dim}x{dim}")));
    }
    let mut side: Side = first;
    let mut number = 1;
    // Where each move is written, to locate errors.
    let mut cursor = text.find("\"Moves\"").unwrap_or(0);
    let mut places = Vec::with_capacity(record.moves.len());
    // Each ply's move as the record writes it, to find a run written twice.
    let mut texts: Vec<&str> = Vec::with_capacity(record.moves.len());
    for (i, m) in record.moves.iter().enumerate() {
        let found = text[cursor..]
            .find(&format!("\"{m}\""))
            .map(|j| cursor + j + 1);
        if let Some(at) = found {
            cursor = at;
        }
        let at = found.map_or((1, 1), |at| lines.at(at));
        places.push(at);
        let place = || at;
        let mv = match m.as_str() {
            "resigned" => TMove::Resign,
            "timeout" => {
                if i + 1 != record.moves.len() {
                    // The site's record plays on: its moves are kept.
                    warnings.push(
                        Problem::at(
                            place(),
                            format!(
                                "`timeout` before move {}, and the record plays on: read past",
                                i + 2
                            ),
                        )
                        .of_kind(Kind::TimeoutPlayedOn),
                    );
                    // No ply: no place of one.
                    places.pop();
                    continue;
                }
                game.tags.push(Tag::new("Termination", "time forfeit"));
                break;
            }
            _ => read_move(
                m,
                dim,
                &|_, e| Problem::at(place(), format!("move {}: {e}", i + 1)).of_kind(Kind::Syntax),
                &mut warnings,
            )?,
        };
        game.moves
            .plies
            .push(Ply::new(number, side, Move::Tafl(mv)));
        texts.push(m);
        side = side.other();
        if side == first {
            number += 1;
        }
    }
    game.result =
        crate::ir::GameResult::parse(result).map(|r| r.in_family(crate::family::any::Family::Tafl));
    // The game is replayed from each start position the site has used
    // for its type, in turn, until one bears its moves out; the error is
    // the first's.
    let rules_tag = game.tags.iter().position(|t| t.name == "Rules");
    let mut first_error = None;
    match replay_layouts(&game, &layouts, rules_tag, &places) {
        Ok((replayed, mut said)) => {
            game = replayed;
            warnings.append(&mut said);
        }
        Err(e) => {
            // The record as written is refused under every start position:
            // the readings of it the site's records call for are tried.
            let at = places.iter().position(|&p| p == (e.line, e.col));
            // The record's counts, which the readings by other rules are
            // held to.
            let counts = listed::Gate::from(record.counts());
            let tried = Reading {
                game: game.clone(),
                places: places.clone(),
                texts: texts.clone(),
                layouts: layouts.clone(),
            };
            // The record with the searches the readings with `ber:m` share.
            let searched = last_leg::Tried::new(&tried, first, rules_tag);
            // The mends and berserk legs, then a start position of the
            // record's own, then the game type's later rules, then the
            // search with wider bounds, and last the captured pieces the
            // record moves on read as turned or left ([`turned`]), the
            // berserk legs searched in positions read as the replay reads
            // them ([`as_replayed`]), a berserk leg that captures nothing
            // ([`last_leg_free`]), the turned pieces that go on
            // ([`turned_on`]), the leg that captures nothing with the other
            // readings ([`last_leg_turned`]), those readings held to the
            // captures the record lists where it counts fewer ([`listed`]),
            // a piece that jumped going on ([`jump_on`]), the legs the
            // search with `ber:m` finds judged again by the type's own rules
            // ([`rejudged`]), the readings with `ber:m` that capture no
            // more than the record counts ([`at_most`]), a leg whose own
            // move needs an earlier lost leg ([`earlier`]), the game type's
            // last rules ([`last_rules`]), the lost leg that put a piece
            // where a listed capture takes it ([`taken_there`]), the legs
            // [`earlier`] finds in a record whose counts are its
            // lists ([`counted_as_listed`]), those legs where the moves as
            // written capture no more than the counts ([`legs_over`]), and
            // the lost leg that put the partner of a listed capture the
            // rules do not make ([`partner`]), and last, in a record that
            // lists no captures, a lost leg that lets a later move's first
            // leg capture, the legs then searched again ([`enabled`]), and
            // a lost leg that clears the way for another ([`cleared`]), the
            // deepest search, held to the counts ([`deep`]), and a move and
            // its reply read as taken back ([`taken_back_pair`]; each only
            // where what comes before it finds nothing).
            let own = || {
                let base = layouts.first()?;
                let (replayed, said) =
                    own_start(&game, record.counts(), base, first, rules_tag, &places)?;
                Some((places.clone(), replayed, said))
            };
            let later_of = if options.rules.is_some() {
                &[][..]
            } else {
                later_rules_of(name, key)
            };
            let last_of = if options.rules.is_some() {
                &[][..]
            } else {
                last_rules_of(name, key)
            };
            let later = |bounds: Bounds| {
                let (mended, replayed, said) =
                    later_rules(&tried, later_of, first, rules_tag, bounds)?;
                Some((mended.places, replayed, said))
            };
            // The last search, with wider bounds: the type's rules, then
            // its later rules.
            let wide = || {
                let bounds = WIDE;
                mended(tried.clone(), at, first, rules_tag, bounds)
                    .map(|(mended, replayed, said)| (mended.places, replayed, said))
                    .or_else(|| later(bounds))
            };
            match mended(tried.clone(), at, first, rules_tag, BOUNDS)
                .map(|(mended, replayed, said)| (mended.places, replayed, said))
                .or_else(own)
                .or_else(|| later(BOUNDS))
                .or_else(wide)
            {
                Some((read_places, replayed, mut said)) => {
                    game = replayed;
                    places = read_places;
                    warnings.append(&mut said);
                }
                None => match turned(tried.clone(), rules_tag)
                    .or_else(|| as_replayed(tried.clone(), rules_tag))
                    .or_else(|| last_leg_free(&searched, &counts))
                    .or_else(|| turned_on(tried.clone(), rules_tag))
                    .or_else(|| last_leg_turned(&searched, &counts))
                    .or_else(|| listed(&searched, record.counts()))
                    .or_else(|| jump_on(&tried, record.counts(), first, rules_tag))
                    .or_else(|| rejudged(&searched, record.counts()))
                    .or_else(|| at_most(&searched, record.counts()))
                    .or_else(|| earlier(&searched, record.counts()))
                    .or_else(|| last_rules(&tried, last_of, first, rules_tag))
                    .or_else(|| taken_there(&tried, rules_tag))
                    .or_else(|| counted_as_listed(&searched, record.counts()))
                    .or_else(|| legs_over(&searched, record.counts()))
                    .or_else(|| partner(&tried, rules_tag))
                    .or_else(|| enabled(&tried, rules_tag))
                    .or_else(|| cleared(&tried, rules_tag))
                    .or_else(|| deep(&tried, at, later_of, first, rules_tag, record.counts()))
                    .or_else(|| taken_back_pair(&tried, at, record.counts(), rules_tag))
                {
                    Some((replayed, mut said)) => {
                        game = replayed;
                        warnings.append(&mut said);
                    }
                    None => first_error = Some(e),
                },
            }
        }
    }
    let locate = |i: usize| places.get(i).copied();
    // The site played the game: where the rules as kifu knows them refuse
    // a move under every start position, kifu's knowledge of the game type
    // is wanting, not the record; it is read without its moves checked,
    // and says so.
    // A game the site played off the rules as kifu knows them (a capture
    // listed that they do not make, or one they make left out, a game
    // played on past its end) keeps the record's word, so it is not a
    // game of those rules: it is kept as read, unchecked (like one the
    // rules refuse, but with its rules named), so that every interchange
    // format reads back what kifu writes.
    let off_rules = off_rules(&warnings);
    if off_rules && first_error.is_none() {
        if let Variant::Tafl(board) = &mut game.variant {
            board.validated = false;
        }
    }
    if let Some(e) = first_error {
        warnings.push(
            Problem::at(
                (e.line, e.col),
                format!(
                    "the rules of {name} as kifu knows them refuse a move ({}): the moves are read without being checked",
                    e.message,
                    name = crate::error::quote(name)
                ),
            )
            .of_kind(Kind::RulesRefused),
        );
        if let Variant::Tafl(board) = &mut game.variant {
            board.validated = false;
            board.rules = None;
        }
        if let Some(i) = rules_tag {
            game.tags[i] = Tag::new("Board", format!("{dim}x{dim}"));
        }
    }
    if layouts.is_empty() || !game.variant.as_tafl().is_some_and(|b| b.validated) {
        tafl::settle(&mut game, Some(dim), true, &mut warnings, &locate)?;
    }
    // The counts of captures the record gives (`BlackPiecesCaptured`: the
    // pieces Black, the attackers, captured, the king not counted), against
    // the replay's.
    if let Some(Board {
        validated: true,
        rules: Some(r),
        ..
    }) = game.variant.as_tafl()
    {
        let taken = captured_by(&game, r);
        let given = record.counts();
        for (i, name) in ["BlackPiecesCaptured", "WhitePiecesCaptured"]
            .into_iter()
            .enumerate()
        {
            let found = taken[i];
            if let Some(g) = given[i].filter(|&g| g != found) {
                warnings.push(
                    Problem::at(
                        at(name),
                        format!(
                            "{name} says {g}, and the moves capture {found}: both are kept",
                            name = crate::error::quote(name)
                        ),
                    )
                    .of_kind(Kind::CaptureCount),
                );
            }
        }
    }
    Ok(Parsed { game, warnings })
}

/// Where the rules refuse a record's moves under every start position, the
/// readings of it the site's records call for ([`mend`]), then the
/// berserk legs ([`berserk_legs`]), looked for in the reading the mends
/// made, where they made one and the rules still refuse a later move, then
/// in the record as written.
fn mended<'a>(
    tried: Reading<'a>,
    at: Option<usize>,
    first: Side,
    rules_tag: Option<usize>,
    bounds: Bounds,
) -> Option<(Reading<'a>, Game, Vec<Problem>)> {
    match mend(tried.clone(), at, first, rules_tag, 0) {
        Ok(done) => Some(done),
        Err(partial) => partial
            .and_then(|partial| {
                let (reading, said) = *partial;
                let (reading, game, more) = berserk_legs(reading, rules_tag, bounds, Turn::No)?;
                Some((reading, game, said.into_iter().chain(more).collect()))
            })
            .or_else(|| berserk_legs(tried, rules_tag, bounds, Turn::No)),
    }
}

/// Whether a replay's warnings say the site played off the rules as kifu
/// knows them: a capture listed that they do not make, one they make left
/// out, a piece taken read as turned or left, a game played on past its
/// end.
fn off_rules(said: &[Problem]) -> bool {
    said.iter().any(|w| {
        matches!(
            w.kind,
            Kind::CaptureUnruled
                | Kind::CaptureUnlisted
                | Kind::CaptureTurned
                | Kind::CaptureLeft
                | Kind::PlayedOn
                | Kind::TimeoutPlayedOn
        )
    })
}

/// Replays a game under each start position of its type in turn, until
/// one bears its moves out: the game replayed and its warnings, else the
/// first start position's error. The game comes with the first's rules.
/// A start position on a board smaller than the record's squares need is
/// not tried; one past the first that bears the moves out is a warning
/// naming it ([`other_layout`]).
fn replay_layouts(
    game: &Game,
    layouts: &[Rules],
    rules_tag: Option<usize>,
    places: &[(usize, usize)],
) -> Result<(Game, Vec<Problem>), Problem> {
    replay_layouts_by(game, layouts, rules_tag, places, false)
}

/// Replays a game as [`replay_layouts`] does, with the captured pieces
/// its later moves move for the capturing side read as turned where
/// `turn` ([`turned`]).
fn replay_layouts_by(
    game: &Game,
    layouts: &[Rules],
    rules_tag: Option<usize>,
    places: &[(usize, usize)],
    turn: bool,
) -> Result<(Game, Vec<Problem>), Problem> {
    let locate = |i: usize| places.get(i).copied();
    // The board the record's squares need, found where a later start
    // position is tried (no cost where the first replays the moves).
    let mut extent = None;
    let mut first_error = None;
    for (n, layout) in layouts.iter().enumerate() {
        if n > 0 && layout.dim < *extent.get_or_insert_with(|| tafl::extent_of(&game.moves)) {
            continue;
        }
        let mut tried = game.clone();
        if n > 0 {
            set_rules(&mut tried, layout, rules_tag);
        }
        let mut said = Vec::new();
        match tafl::settle_by(&mut tried, Some(layout.dim), true, turn, &mut said, &locate) {
            Ok(()) => {
                if n > 0 {
                    said.insert(0, other_layout(layouts, n, places));
                }
                return Ok((tried, said));
            }
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    match first_error {
        Some(e) => Err(e),
        None => Ok((game.clone(), Vec::new())),
    }
}

/// The warning that a record is played from its game type's start
/// position `n` (counted from 0), not its first, which refuses its moves:
/// at its first move, naming the start position (and its board, where
/// that differs from the first's).
fn other_layout(layouts: &[Rules], n: usize, places: &[(usize, usize)]) -> Problem {
    let layout = &layouts[n];
    let start = layout
        .text()
        .split(' ')
        .find(|e| e.starts_with("start:") || e.starts_with("starti:"))
        .map_or_else(|| rule_name(layout), str::to_string);
    let board = if layout.dim == layouts[0].dim {
        String::new()
    } else {
        format!(
            ", on a {d}x{d} board (the game type's first is {f}x{f}: every square the record names is on the smaller)",
            d = layout.dim,
            f = layouts[0].dim
        )
    };
    let message = format!(
        "the game type's first start position refuses the moves, which replay from its start \
         position {} of {} ({}{board}): read from it",
        n + 1,
        layouts.len(),
        crate::error::quote(&start),
    );
    at_first_move(places, message, Kind::OtherLayout)
}

/// A warning of `kind` at the record's first move (`places`: each move's
/// place), or of the whole record where it has none: what a reading
/// other than the type's first says of the record it reads.
fn at_first_move(places: &[(usize, usize)], message: String, kind: Kind) -> Problem {
    match places.first() {
        Some(&at) => Problem::at(at, message),
        None => Problem::whole(message),
    }
    .of_kind(kind)
}

/// Plays a game by these rules (and on their board), its Rules tag naming
/// them.
fn set_rules(game: &mut Game, rules: &Rules, rules_tag: Option<usize>) {
    if let (Variant::Tafl(board), Some(i)) = (&mut game.variant, rules_tag) {
        board.rules = Some(rules.clone());
        board.dim = rules.dim;
        game.tags[i].value = rule_name(rules);
    }
}

/// A reading of a record's moves: the game, where each ply is written, its
/// text as written, and the start positions it is replayed from.
#[derive(Clone)]
struct Reading<'a> {
    game: Game,
    places: Vec<(usize, usize)>,
    texts: Vec<&'a str>,
    layouts: Vec<Rules>,
}

/// The longest run of moves a record is taken to write twice in a row.
const LONGEST_REPEAT: usize = 8;

/// A reading the mends made that the rules still refuse somewhere, with
/// the warnings of its mends ([`mend`]).
type Partial<'a> = (Reading<'a>, Vec<Problem>);

/// Where the rules refuse a record's moves under every start position (at
/// ply `at`, where known), the mends the site's records call for, in turn
/// until the moves replay: a run of moves the record writes twice in a
/// row, whose second writing the rules refuse, is read once (the site
/// wrote some moves again after they were played: `e1-e2`, `f5-b5`,
/// `e1-e2`, `f5-b5`); a run of moves from the refused one, each written
/// before for its side a few moves back, not in a row ([`rewritten`]), is
/// read once where the moves then replay (with the mends after it: a
/// record that writes several runs again, `game-15-15-23172`); a move the rules
/// refuse that the record wrote before, for the same side, a few moves
/// back (`h1-h4`, `h6-h10`,
/// `h1-h4`, `h6-h9`: the moves between were taken back), is read with the
/// moves from its first writing to its second left out; a first move of
/// the side the rules do not start with is read with that side moving
/// first, under its rules with `atkf` turned. Each mend is a warning;
/// none is kept unless the moves then replay, but the reading the mends
/// made where the rules still refuse a later move is given back (with the
/// mends' warnings), for the berserk legs to be looked for in it.
fn mend<'a>(
    mut reading: Reading<'a>,
    mut at: Option<usize>,
    first: Side,
    rules_tag: Option<usize>,
    depth: usize,
) -> Result<(Reading<'a>, Game, Vec<Problem>), Option<Box<Partial<'a>>>> {
    let mut said = Vec::new();
    let mut turned = false;
    for _ in 0..=2 * LONGEST_REPEAT {
        let partial = |reading: Reading<'a>, said: Vec<Problem>| {
            (!said.is_empty()).then(|| Box::new((reading, said)))
        };
        let Some(k) = at else {
            return Err(partial(reading, said));
        };
        let mover = if turned { first.other() } else { first };
        if k == 0 && !turned {
            turned = true;
            let Some(mover) = reading.game.moves.plies.first().map(|p| p.side.other()) else {
                return Err(partial(reading, said));
            };
            let Some(layouts) = reading
                .layouts
                .iter()
                .map(|r| with_first(r, mover))
                .collect::<Option<Vec<Rules>>>()
            else {
                return Err(partial(reading, said));
            };
            set_rules(&mut reading.game, &layouts[0], rules_tag);
            reading.layouts = layouts;
            renumber(&mut reading.game.moves.plies, mover);
            said.push(first_mover(reading.places[0], mover));
        } else if let Some((i, n)) = repeated_run(&reading.texts, k) {
            said.push(
                Problem::at(
                    reading.places[i],
                    format!(
                        "the record writes {} twice in a row, and the rules refuse the second \
                         writing: read once",
                        crate::error::quote(&reading.texts[i..i + n].join(" "))
                    ),
                )
                .of_kind(Kind::RepeatedMoves),
            );
            drop_plies(&mut reading, i, n, mover);
        } else if let Some(n) = rewritten(&reading.texts, k).filter(|&n| {
            let mut probe = reading.clone();
            drop_plies(&mut probe, k, n, mover);
            match replay_layouts(&probe.game, &probe.layouts, rules_tag, &probe.places) {
                Ok(_) => true,
                Err(e) => {
                    let at = probe.places.iter().position(|&p| p == (e.line, e.col));
                    depth < REWRITTEN_DEPTH
                        && at.is_some_and(|i| i > k)
                        && mend(probe, at, mover, rules_tag, depth + 1).is_ok()
                }
            }
        }) {
            said.push(
                Problem::at(
                    reading.places[k],
                    format!(
                        "the record writes {} again after playing it, and the rules refuse it \
                         there: read once",
                        crate::error::quote(&reading.texts[k..k + n].join(" "))
                    ),
                )
                .of_kind(Kind::RepeatedMoves),
            );
            drop_plies(&mut reading, k, n, mover);
        } else if let Some(j) = taken_back(&reading.texts, k) {
            said.push(
                Problem::at(
                    reading.places[k],
                    format!(
                        "the record writes {} again after {}, and the rules refuse it there: the \
                         moves between are read as taken back",
                        crate::error::quote(reading.texts[k]),
                        crate::error::quote(&reading.texts[j..k].join(" "))
                    ),
                )
                .of_kind(Kind::RepeatedMoves),
            );
            drop_plies(&mut reading, j, k - j, mover);
        } else {
            return Err(partial(reading, said));
        }
        match replay_layouts(&reading.game, &reading.layouts, rules_tag, &reading.places) {
            Ok((game, mut more)) => {
                said.append(&mut more);
                return Ok((reading, game, said));
            }
            Err(e) => at = reading.places.iter().position(|&p| p == (e.line, e.col)),
        }
    }
    Err((!said.is_empty()).then(|| Box::new((reading, said))))
}

/// Leaves out `n` plies of a reading from ply `i`, the rest numbered anew
/// (`first` moving first).
fn drop_plies(reading: &mut Reading, i: usize, n: usize, first: Side) {
    reading.game.moves.plies.drain(i..i + n);
    reading.places.drain(i..i + n);
    reading.texts.drain(i..i + n);
    renumber(&mut reading.game.moves.plies, first);
}

/// The ply before `k`, of the same side and at most
/// [`LONGEST_REPEAT`] moves of each side back, where the record wrote the
/// move of ply `k` before (the nearest): the moves from there to `k` were
/// taken back.
fn taken_back(texts: &[&str], k: usize) -> Option<usize> {
    let back = k.saturating_sub(2 * LONGEST_REPEAT);
    (back..k)
        .rev()
        .find(|&j| (k - j).is_multiple_of(2) && texts[j] == texts[k])
}

/// How many runs written again ([`rewritten`]) are looked past, each read
/// once with the mends after it, to see whether the whole record replays.
const REWRITTEN_DEPTH: usize = 2;

/// The plies from `k` on that the record wrote before, each for the same
/// side and at most [`LONGEST_REPEAT`] moves of each side back (the site
/// wrote some moves again after they were played, not in a row: `g1-h1
/// d5-g5 a1-g1 h3-h2 a1-g1 d5-g5`): how many, where two or more, an even
/// number (the sides to move stay as they were).
fn rewritten(texts: &[&str], k: usize) -> Option<usize> {
    let before = |i: usize| {
        (i.saturating_sub(2 * LONGEST_REPEAT)..i)
            .any(|j| (i - j).is_multiple_of(2) && texts[j] == texts[i])
    };
    let n = (k..texts.len()).take_while(|&i| before(i)).count();
    let n = n - n % 2;
    (n >= 2).then_some(n)
}

/// The run of moves around ply `k` that repeats the run just before it
/// (`texts[i..i + n] == texts[i - n..i]`, `i <= k < i + n`), the shortest:
/// its start and length.
fn repeated_run(texts: &[&str], k: usize) -> Option<(usize, usize)> {
    (1..=LONGEST_REPEAT).find_map(|n| {
        (k.saturating_sub(n - 1)..=k)
            .find(|&i| i >= n && i + n <= texts.len() && texts[i..i + n] == texts[i - n..i])
            .map(|i| (i, n))
    })
}

/// Numbers the plies anew, `first` moving first, the sides alternating.
fn renumber(plies: &mut [Ply], first: Side) {
    let (mut number, mut side) = (1, first);
    for ply in plies {
        ply.number = number;
        ply.side = side;
        side = side.other();
        if side == first {
            number += 1;
        }
    }
}

/// The warning that a record's first move is the side's the rules do not
/// start with, `mover`, read as moving first.
fn first_mover(at: (usize, usize), mover: Side) -> Problem {
    Problem::at(
        at,
        format!(
            "the first move is the {}', which the rules of the game type do not say: the {} are \
             read as moving first",
            side_name(mover),
            side_name(mover)
        ),
    )
    .of_kind(Kind::FirstMover)
}

/// The attackers or the defenders, as messages name them.
fn side_name(side: Side) -> &'static str {
    if side == ATTACKERS {
        "attackers"
    } else {
        "defenders"
    }
}

/// The rules with `mover` moving first (`atkf` turned where it differs).
fn with_first(rules: &Rules, mover: Side) -> Option<Rules> {
    let attackers = mover == ATTACKERS;
    if rules.attackers_first == attackers {
        return Some(rules.clone());
    }
    with_entry(rules, if attackers { "atkf:y" } else { "atkf:n" })
}

/// The rules with an entry (`atkf:y`, `ber:m`) second in their string, in
/// place of the one of its key they have.
fn with_entry(rules: &Rules, entry: &str) -> Option<Rules> {
    let key = entry.split_once(':')?.0;
    let mut entries: Vec<&str> = rules
        .text()
        .split(' ')
        .filter(|e| e.split_once(':').is_none_or(|(k, _)| k != key))
        .collect();
    entries.insert(1.min(entries.len()), entry);
    Rules::parse(&entries.join(" ")).ok()
}

/// Reads one move: `e2-d2xc2xd3`, `k7h7`, `i3-i7-i11xi5xi9`.
fn read_move(
    text: &str,
    dim: u8,
    err: &dyn Fn(usize, String) -> Problem,
    warnings: &mut Vec<Problem>,
) -> Result<TMove, Problem> {
    let (legs, caps) = match text.find('x') {
        Some(i) => (&text[..i], &text[i..]),
        None => (text, ""),
    };
    // The dash-less form: a second square starts at the second letter.
    let legs = if legs.contains('-') {
        legs.to_string()
    } else {
        match legs
            .char_indices()
            .skip(1)
            .find(|(_, c)| c.is_ascii_alphabetic())
        {
            Some((i, _)) => format!("{}-{}", &legs[..i], &legs[i..]),
            None => legs.to_string(),
        }
    };
    let caps = caps.trim_start_matches('x').replace('x', "/");
    let written = if caps.is_empty() {
        legs
    } else {
        format!("{legs}x{caps}")
    };
    let mut m = decode(&written, Some(dim), '-', err)?;
    if let TMove::Step(s) = &mut m {
        let before = s.captures.len();
        let mut seen: Vec<Square> = Vec::new();
        s.captures.retain(|c| {
            let new = !seen.contains(c);
            seen.push(*c);
            new
        });
        if s.captures.len() != before {
            warnings.push(
                Problem::whole(format!(
                    "{text} names a captured square twice: read once",
                    text = crate::error::quote(text)
                ))
                .of_kind(Kind::CapturedTwice),
            );
        }
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_types_give_boards_and_rules() {
        assert_eq!(board_of("Copenhagen Hnefatafl 11x11"), Some(11));
        assert_eq!(
            board_of("Historical Hnefatafl 7x7 (Irish Brandubh 1)"),
            Some(7)
        );
        assert_eq!(board_of("Saami Cuhkka 5x5"), Some(5));
        assert_eq!(
            rules_of("Copenhagen Hnefatafl 11x11", None)[0].preset_name(),
            Some("copenhagen")
        );
        assert!(rules_of("Copenhagen Hnefatafl 11x11 (new)", None).is_empty());
        assert_eq!(
            decode_entities("Dald&oslash;s &amp; S&aacute;hkku &#229;&#xE5;&bogus; &"),
            "Daldøs & Sáhkku åå&bogus; &"
        );
    }

    #[test]
    fn move_forms() {
        let err = |_: usize, e: String| Problem::whole(e).of_kind(Kind::Syntax);
        let mut w = Vec::new();
        let m = read_move("e2-d2xc2xd3", 11, &err, &mut w).unwrap();
        assert_eq!(m.step().unwrap().captures.len(), 2);
        let m = read_move("k7h7", 11, &err, &mut w).unwrap();
        assert_eq!(m.step().unwrap().to.to_string(), "h7");
        let m = read_move("g6-a6xa7xa7", 11, &err, &mut w).unwrap();
        assert_eq!(m.step().unwrap().captures.len(), 1);
        assert_eq!(w.len(), 1);
        let m = read_move("i3-i7-i11xi5xi9", 19, &err, &mut w).unwrap();
        assert_eq!(m.step().unwrap().via.len(), 1);
    }
}
