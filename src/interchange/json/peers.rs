//! The JSON other chess tools write, read where a record is no game of
//! kifu's own JSON: pgn-extract's `--json` (the tags as fields, a `Moves`
//! array of `{"move": ...}`) and lichess's game export (`/api/games`,
//! JSON and NDJSON: `players`, `opening`, `clock`, `moves` as one string
//! of SAN, `variant` a name). Each is told by its content; its game is
//! written as PGN, with the tags lichess's own PGN export gives (lila's
//! `PgnDump`), and read by the `pgn` reader, which replays every move.
//! What each keeps is said in docs/json.md.

use std::fmt::Write as _;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::Value;

use crate::codec::{Parsed, ReadOptions};
use crate::error::Problem;

/// A JSON object with its fields in the order written (the tags of
/// pgn-extract's games keep theirs).
struct Object(Vec<(String, Value)>);

impl<'de> Deserialize<'de> for Object {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Object, D::Error> {
        struct Fields;
        impl<'de> Visitor<'de> for Fields {
            type Value = Object;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Object, A::Error> {
                let mut fields = Vec::new();
                while let Some(field) = map.next_entry::<String, Value>()? {
                    fields.push(field);
                }
                Ok(Object(fields))
            }
        }
        d.deserialize_map(Fields)
    }
}

impl Object {
    fn get(&self, name: &str) -> Option<&Value> {
        self.0.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }
}

/// The tool that wrote a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Peer {
    PgnExtract,
    Lichess,
}

impl Peer {
    fn name(self) -> &'static str {
        match self {
            Peer::PgnExtract => "pgn-extract's JSON",
            Peer::Lichess => "lichess's game export",
        }
    }
}

/// Reads a record that is a game of pgn-extract's or lichess's JSON;
/// `None` when it is neither (the record is then kifu's JSON, and its
/// error stands).
pub fn read(text: &str, opts: &ReadOptions) -> Option<Result<Parsed, Problem>> {
    let mut de = serde_json::Deserializer::from_str(text);
    let object = Object::deserialize(&mut de).ok()?;
    de.end().ok()?;
    // pgn-extract's moves are objects with a `move`: another tool's
    // `Moves` (aagenielsen.dk's, an array of strings) is not its.
    let pgn_extract_moves = |v: &Value| {
        v.as_array().is_some_and(|moves| {
            moves
                .iter()
                .all(|m| m.get("move").is_some_and(Value::is_string))
        })
    };
    let (peer, pgn) = if object.get("Moves").is_some_and(pgn_extract_moves) {
        (Peer::PgnExtract, pgn_extract(&object))
    } else if let Some(Value::String(pgn)) = object.get("pgn") {
        (Peer::Lichess, pgn.clone())
    } else if matches!(object.get("moves"), Some(Value::String(_)))
        || (object.get("players").is_some_and(Value::is_object)
            && object.get("status").is_some_and(Value::is_string))
    {
        // (A game exported without its moves (`moves=false`), or one
        // aborted before any, has no `moves`.)
        (Peer::Lichess, lichess(&object))
    } else {
        return None;
    };
    // Places in the PGN made of the record are no places of the record.
    let unplaced =
        |p: Problem| Problem::whole(format!("{}: {}", peer.name(), p.message)).of_kind(p.kind);
    Some(
        crate::family::chess::pgn::read(&pgn, opts)
            .map(|mut parsed| {
                parsed.warnings = std::mem::take(&mut parsed.warnings)
                    .into_iter()
                    .map(unplaced)
                    .collect();
                parsed
            })
            .map_err(unplaced),
    )
}

/// A tag line, its value escaped as PGN escapes it (a line end read as a
/// space).
fn tag(out: &mut String, name: &str, value: &str) {
    let value = value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ");
    let _ = writeln!(out, "[{name} \"{value}\"]");
}

/// A field's value as a tag's text: a string as it is, a number or a
/// boolean as JSON writes it; `None` for anything else.
fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// pgn-extract's `--json` game as PGN: every field but `Moves` a tag, in
/// its order; each move of `Moves` with its NAGs (`"nags"`) and comments
/// (`"comment"`, `"comments"`); the Result tag's result at the end (the
/// JSON has no result token).
fn pgn_extract(object: &Object) -> String {
    let mut out = String::new();
    for (name, value) in &object.0 {
        if name == "Moves" {
            continue;
        }
        if let Some(v) = text_of(value) {
            tag(&mut out, name, &v);
        }
    }
    out.push('\n');
    if let Some(Value::Array(moves)) = object.get("Moves") {
        for m in moves {
            let Some(mv) = m.get("move").and_then(Value::as_str) else {
                continue;
            };
            out.push_str(mv);
            out.push(' ');
            if let Some(Value::Array(nags)) = m.get("nags") {
                for nag in nags.iter().filter_map(Value::as_str) {
                    out.push_str(nag);
                    out.push(' ');
                }
            }
            for key in ["comment", "comments"] {
                let texts: Vec<&str> = match m.get(key) {
                    Some(Value::String(s)) => vec![s.as_str()],
                    Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
                    _ => Vec::new(),
                };
                for c in texts {
                    let _ = write!(out, "{{{}}} ", c.replace('}', ")"));
                }
            }
        }
    }
    let result = object
        .get("Result")
        .and_then(Value::as_str)
        .filter(|r| matches!(*r, "1-0" | "0-1" | "1/2-1/2" | "*"))
        .unwrap_or("*");
    out.push_str(result);
    out.push('\n');
    out
}

/// lichess's names of its variants (`variant.name`) and rating categories
/// (`perf`), by their keys.
const NAMES: &[(&str, &str)] = &[
    ("standard", "Standard"),
    ("fromPosition", "From Position"),
    ("ultraBullet", "UltraBullet"),
    ("bullet", "Bullet"),
    ("blitz", "Blitz"),
    ("rapid", "Rapid"),
    ("classical", "Classical"),
    ("correspondence", "Correspondence"),
    ("chess960", "Chess960"),
    ("kingOfTheHill", "King of the Hill"),
    ("threeCheck", "Three-check"),
    ("antichess", "Antichess"),
    ("atomic", "Atomic"),
    ("horde", "Horde"),
    ("racingKings", "Racing Kings"),
    ("crazyhouse", "Crazyhouse"),
];

/// The name lichess gives a key, else the key itself.
fn named(key: &str) -> &str {
    NAMES
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(key))
        .map_or(key, |(_, name)| name)
}

/// The civil date and time (UTC) of milliseconds since 1970:
/// (`yyyy.MM.dd`, `HH:mm:ss`), as lichess's UTCDate and UTCTime tags
/// write them.
fn utc(ms: i64) -> (String, String) {
    let secs = ms.div_euclid(1000);
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        format!("{year:04}.{month:02}.{day:02}"),
        format!(
            "{:02}:{:02}:{:02}",
            rest / 3600,
            rest % 3600 / 60,
            rest % 60
        ),
    )
}

/// A clock reading of centiseconds as lichess writes it in a `%clk`
/// comment: whole seconds, rounded, `H:MM:SS`.
fn clock(centis: i64) -> String {
    let s = (centis + 50).div_euclid(100).max(0);
    format!("{}:{:02}:{:02}", s / 3600, s % 3600 / 60, s % 60)
}

/// lichess's game export as PGN, with the tags of lila's `PgnDump`, in its
/// order: Event, Site, GameId, Date, Round, White, Black, Result, UTCDate,
/// UTCTime, WhiteElo, BlackElo, WhiteRatingDiff, BlackRatingDiff,
/// WhiteTitle, BlackTitle, WhiteBerserk, BlackBerserk, Variant,
/// TimeControl, ECO, Opening, Termination, then FEN and SetUp for a game from a position. The moves
/// carry their clocks (`clocks`) as `[%clk]` comments, as lichess's PGN.
fn lichess(o: &Object) -> String {
    let str_of = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
    let id = str_of(o.get("id")).unwrap_or_default();
    let variant_key = match o.get("variant") {
        Some(Value::String(k)) => k.clone(),
        Some(Value::Object(v)) => str_of(v.get("key")).unwrap_or_default(),
        _ => "standard".to_string(),
    };
    let variant = match o.get("variant") {
        Some(Value::Object(v)) => str_of(v.get("name")),
        _ => None,
    }
    .unwrap_or_else(|| named(&variant_key).to_string());
    let rated = match o.get("rated") {
        Some(Value::Bool(false)) => "Casual",
        _ => "Rated",
    };
    let perf = named(
        o.get("perf")
            .or(o.get("speed"))
            .and_then(Value::as_str)
            .unwrap_or(""),
    );
    let event = match (str_of(o.get("tournament")), str_of(o.get("source"))) {
        (Some(t), _) => format!("{rated} {perf} tournament https://lichess.org/tournament/{t}"),
        (None, Some(source)) if source == "import" => "Import".to_string(),
        (None, _) => format!("{rated} {perf} game"),
    };
    let created = o.get("createdAt").and_then(Value::as_i64);
    let (date, time) = created.map_or(("????.??.??".to_string(), String::new()), utc);
    let status = str_of(o.get("status")).unwrap_or_default();
    let winner = str_of(o.get("winner"));
    let result = match winner.as_deref() {
        Some("white") => "1-0",
        Some("black") => "0-1",
        _ if matches!(status.as_str(), "" | "created" | "started" | "aborted") => "*",
        _ => "1/2-1/2",
    };
    let termination = match status.as_str() {
        "created" | "started" => "Unterminated",
        "aborted" | "noStart" => "Abandoned",
        "timeout" | "outoftime" => "Time forfeit",
        "resign" | "draw" | "stalemate" | "mate" | "variantEnd" => "Normal",
        "insufficientMaterialClaim" => "Insufficient material",
        "cheat" => "Rules infraction",
        _ => "Unknown",
    };
    let players = o.get("players");
    let player = |side: &str| players.and_then(|p| p.get(side));
    let name = |side: &str| {
        let p = player(side);
        let user = p.and_then(|p| p.get("user"));
        str_of(user.and_then(|u| u.get("name")))
            .or_else(|| {
                p.and_then(|p| p.get("aiLevel"))
                    .and_then(Value::as_i64)
                    .map(|l| format!("lichess AI level {l}"))
            })
            .or_else(|| str_of(p.and_then(|p| p.get("name"))))
            // (The export of 2017 and before: `userId`.)
            .or_else(|| str_of(p.and_then(|p| p.get("userId"))))
            .unwrap_or_else(|| "Anonymous".to_string())
    };

    let mut out = String::new();
    tag(&mut out, "Event", &event);
    if id.is_empty() {
        tag(&mut out, "Site", "?");
    } else {
        tag(&mut out, "Site", &format!("https://lichess.org/{id}"));
        tag(&mut out, "GameId", &id);
    }
    tag(&mut out, "Date", &date);
    tag(&mut out, "Round", "-");
    tag(&mut out, "White", &name("white"));
    tag(&mut out, "Black", &name("black"));
    tag(&mut out, "Result", result);
    if created.is_some() {
        tag(&mut out, "UTCDate", &date);
        tag(&mut out, "UTCTime", &time);
    }
    for (side, elo) in [("white", "WhiteElo"), ("black", "BlackElo")] {
        let rating = player(side)
            .and_then(|p| p.get("rating"))
            .and_then(Value::as_i64);
        tag(
            &mut out,
            elo,
            &rating.map_or("?".to_string(), |r| r.to_string()),
        );
    }
    for (side, diff) in [("white", "WhiteRatingDiff"), ("black", "BlackRatingDiff")] {
        if let Some(d) = player(side)
            .and_then(|p| p.get("ratingDiff"))
            .and_then(Value::as_i64)
        {
            tag(
                &mut out,
                diff,
                &format!("{}{d}", if d >= 0 { "+" } else { "" }),
            );
        }
    }
    for (side, title) in [("white", "WhiteTitle"), ("black", "BlackTitle")] {
        let user = player(side).and_then(|p| p.get("user"));
        if let Some(t) = str_of(user.and_then(|u| u.get("title"))) {
            tag(&mut out, title, &t);
        }
    }
    for (side, berserk) in [("white", "WhiteBerserk"), ("black", "BlackBerserk")] {
        if player(side).and_then(|p| p.get("berserk")) == Some(&Value::Bool(true)) {
            tag(&mut out, berserk, "true");
        }
    }
    tag(&mut out, "Variant", &variant);
    let clock_set = o.get("clock");
    let time_control = match (
        o.get("daysPerTurn").and_then(Value::as_i64),
        clock_set
            .and_then(|c| c.get("initial"))
            .and_then(Value::as_i64),
    ) {
        (Some(d), _) => format!("{d} day{} per move", if d > 1 { "s" } else { "" }),
        (None, Some(initial)) => {
            let inc = clock_set
                .and_then(|c| c.get("increment"))
                .and_then(Value::as_i64)
                .unwrap_or(0);
            format!("{initial}+{inc}")
        }
        (None, None) => "-".to_string(),
    };
    tag(&mut out, "TimeControl", &time_control);
    let opening = o.get("opening");
    let eco = str_of(opening.and_then(|op| op.get("eco"))).unwrap_or_else(|| "?".to_string());
    tag(&mut out, "ECO", &eco);
    if let Some(op) = opening {
        let name = str_of(op.get("name")).unwrap_or_else(|| "?".to_string());
        tag(&mut out, "Opening", &name);
    }
    tag(&mut out, "Termination", termination);
    let from_position = matches!(
        variant_key.as_str(),
        "chess960" | "fromPosition" | "horde" | "racingKings"
    );
    let fen = str_of(o.get("initialFen"));
    if let (true, Some(fen)) = (from_position, &fen) {
        tag(&mut out, "FEN", fen);
        tag(&mut out, "SetUp", "1");
    }
    out.push('\n');
    let moves = str_of(o.get("moves")).unwrap_or_default();
    let clocks: Vec<i64> = match o.get("clocks") {
        Some(Value::Array(c)) => c.iter().filter_map(Value::as_i64).collect(),
        _ => Vec::new(),
    };
    for (i, mv) in moves.split_whitespace().enumerate() {
        out.push_str(mv);
        out.push(' ');
        if let Some(&c) = clocks.get(i) {
            let _ = write!(out, "{{ [%clk {}] }} ", clock(c));
        }
    }
    out.push_str(result);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_clocks_as_lichess_writes_them() {
        assert_eq!(
            utc(1_514_505_150_384),
            ("2017.12.28".to_string(), "23:52:30".to_string())
        );
        assert_eq!(utc(0), ("1970.01.01".to_string(), "00:00:00".to_string()));
        assert_eq!(clock(30_000), "0:05:00");
        assert_eq!(clock(366_049), "1:01:00");
    }
}
