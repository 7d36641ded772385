//! Tags that carry meaning (chess `Variant`, `SetUp`, `FEN`; draughts
//! `GameType`, `FEN`) have one source of truth: the typed fields the reader
//! lifts them into. A game from JSON whose typed fields and tags disagree
//! (an edited setup, a removed tag) is written with tags that say what the
//! typed fields say; tags that agree are kept as written.

use crate::common;

use common::*;
use serde_json::Value;

/// Reads `text` as `from`, dumps it as JSON, lets `edit` change the game,
/// and writes the edited JSON back as `from`.
fn through_json(from: &str, text: &str, edit: impl Fn(&mut Value)) -> String {
    let json = convert(from, "json", &[], text.as_bytes());
    assert!(json.status.success(), "{}", stderr(&json));
    let mut games: Value = serde_json::from_str(&stdout(&json)).unwrap();
    edit(&mut games[0]);
    let back = convert("json", from, &[], games.to_string().as_bytes());
    no_panic(&back);
    assert!(back.status.success(), "{}", stderr(&back));
    stdout(&back)
}

fn drop_tag(game: &mut Value, name: &str) {
    game["tags"]
        .as_array_mut()
        .unwrap()
        .retain(|t| t["name"] != name);
}

const DRAUGHTS: &str = "[GameType \"20\"]\n[FEN \"W:W31,32:B19,20\"]\n\n1. 32-28 19-23 *\n";

#[test]
fn draughts_fen_tag_follows_the_setup() {
    // Unchanged: the tags are kept as written.
    assert_eq!(through_json("draughts-num", DRAUGHTS, |_| {}), DRAUGHTS);
    // The FEN tag removed: the setup still gives it.
    assert_eq!(
        through_json("draughts-num", DRAUGHTS, |g| drop_tag(g, "FEN")),
        DRAUGHTS
    );
    // The setup edited: the FEN tag says the new position.
    let out = through_json("draughts-num", DRAUGHTS, |g| {
        g["setup"]["draughts"]["white"][0]["square"] = 33.into();
        g["setup"]["draughts"]["black"][1]["king"] = true.into();
    });
    assert!(out.contains("[FEN \"W:W33,32:B19,K20\"]"), "{out}");
    // The setup removed: no FEN tag claims one.
    let out = through_json("draughts-num", DRAUGHTS, |g| {
        g.as_object_mut().unwrap().remove("setup");
    });
    assert!(!out.contains("FEN"), "{out}");
}

const CHESS: &str = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n[SetUp \"1\"]\n\
[FEN \"4k3/8/8/8/8/8/4P3/R3K2R w KQ - 0 1\"]\n\n1. O-O *\n";

#[test]
fn chess_setup_and_variant_tags_follow_the_typed_fields() {
    assert_eq!(through_json("pgn", CHESS, |_| {}), CHESS);
    // Both tags removed: the setup gives them back, with standard castling
    // letters (the setup holds Shredder letters).
    let out = through_json("pgn", CHESS, |g| {
        drop_tag(g, "FEN");
        drop_tag(g, "SetUp");
    });
    assert_eq!(out, CHESS);
    // No setup: the FEN tag is dropped, and the game replays from the
    // standard start.
    let out = through_json(
        "pgn",
        "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n1. e4 *\n",
        |g| {
            g.as_object_mut().unwrap().remove("setup");
        },
    );
    assert!(!out.contains("FEN") && out.contains("1. e4 *"), "{out}");
    // A Chess960 game without its Variant tag gets one.
    let c960 = "[Variant \"Chess960\"]\n[FEN \"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1\"]\n\n1. e4 *\n";
    let out = through_json("pgn", c960, |g| drop_tag(g, "Variant"));
    assert!(out.contains("[Variant \"Chess960\"]"), "{out}");
}

#[test]
fn sllavcco_header_follows_the_typed_fields() {
    let json = convert("pgn", "json", &[], CHESS.as_bytes());
    let mut games: Value = serde_json::from_str(&stdout(&json)).unwrap();
    drop_tag(&mut games[0], "FEN");
    let out = convert("json", "sllavcco", &[], games.to_string().as_bytes());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("FEN\t4k3/8/8/8/8/8/4P3/R3K2R w KQ - 0 1\n"),
        "{}",
        stdout(&out)
    );
}
