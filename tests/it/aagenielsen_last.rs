//! The last readings of an aagenielsen.dk record, tried only where every
//! other fails: its type's last rules (`aagenielsen_types.txt`, after
//! ` ||| `: the Alea types' corner citadels of four squares, and the four
//! special men of the Alea Evangelii Berserk and dux4 types, which jump),
//! then the lost leg that put a piece where a later move takes it.

use crate::common::stderr;

use std::fs;

use kifu::family::hnefatafl::aagenielsen;
use kifu::family::hnefatafl::rules::Rules;
use kifu::family::hnefatafl::Square;

use super::aagenielsen::{
    convert_by_rules, legs_read, other_rules_game, other_rules_games, read_by_other_rules, record,
    tyr_start, OtherGame,
};

#[test]
fn a_record_the_last_rules_of_its_type_bear_out_replays_by_them() {
    // The Alea types' records the rules refuse under every other reading:
    // Alea Evangelii Berserk 19x19's pieces from f6, n6, f14 and n14 jump
    // over an enemy and take it (`n6-n4xn5`, `n14-l14xm14`), as the
    // Berserk rules' knight does, and the dux4 types' jump without taking
    // (`n14-p14` over o14, `s13-s15` over s14), as the commanders do; the
    // king of Alea Berserk 19x19 jumps onto b2 and r19 (`d2-b2`, `p19-r19`),
    // squares of the corner citadels of four squares of Unst Alea
    // Evangelii, which the Berserk rules' king may jump to. For every type
    // with last rules: games played by them, each with moves the type's
    // first rules refuse where there are any, written as the site writes
    // them. None is read unchecked; one the type's rules play as written
    // reads as before; one read by the last rules says so (`other-rules`,
    // naming the entries and the start squares they change) and is written
    // with them.
    let dir = tempfile::tempdir().unwrap();
    let of = |name: &str, key: u32| aagenielsen::last_rules_of(name, Some(key)).to_vec();
    let game = |last: &Rules, was: &Rules, seed: u64| other_rules_game(last, was, seed, 30);
    let made = other_rules_games(dir.path(), &of, 11, &game);
    let refused = made.iter().filter(|g| g.needs).count();
    assert!(made.len() >= 12 && refused >= 8, "{} {refused}", made.len());
    let check = |g: &OtherGame, warned: &str| {
        let special = if g.rules.text().contains("cor:a1,a2,b1,b2") {
            "cor:a1,a2,b1,b2,a18,a19,b18,b19,r1,r2,s1,s2,r18,r19,s18,s19"
        } else {
            ":f6,n6,f14,n14"
        };
        assert!(warned.contains(special), "{warned}");
    };
    let last = read_by_other_rules(dir.path(), &made, "last", false, &check);
    assert!(last * 2 >= refused, "{last} of {refused}");
}

/// A member of the class of a piece a lost leg put where a later move
/// takes it, on Tyr 11x11's rules (`ber:c`) from a start position of its
/// own, turned a quarter `sym` times (mirrored from 4 on): an attacker
/// takes a man on its way down to `(2, 7)` and goes on along rank 7 to
/// `(6, 7)`, taking the man on `(7, 7)`; a defender takes it there, landing
/// on `(6, 8)`, and goes on along rank 8 to `(9, 8)`, taking the attacker on
/// `(9, 9)`; an attacker then crosses `(6, 8)` to `(8, 8)`. The rules, the
/// moves as the site writes them, and the two capturing moves as played.
fn taken_there_game(sym: u8) -> (String, Vec<String>, [String; 2]) {
    let turn = |(file, rank): (u8, u8)| Square { file, rank }.transform(11, sym % 4, sym >= 4);
    let pieces = [
        ((5, 1), b'K'),
        ((2, 10), b't'),
        ((2, 6), b'T'),
        ((2, 5), b't'),
        ((7, 7), b'T'),
        ((8, 7), b't'),
        ((6, 10), b'T'),
        ((6, 6), b'T'),
        ((9, 9), b't'),
        ((9, 10), b'T'),
        ((0, 2), b't'),
        ((3, 8), b't'),
    ];
    let rules = tyr_start(&pieces, &turn);
    let sq = |at: (u8, u8)| turn(at).to_string();
    let written = vec![
        format!("{}-{}x{}", sq((2, 10)), sq((2, 7)), sq((2, 6))),
        format!("{}-{}", sq((5, 1)), sq((4, 1))),
        format!("{}-{}", sq((0, 2)), sq((1, 2))),
        format!("{}-{}x{}", sq((6, 10)), sq((6, 8)), sq((6, 7))),
        format!("{}-{}", sq((3, 8)), sq((8, 8))),
    ];
    let played = [
        format!(
            "{}-{}-{}x{}/{}",
            sq((2, 10)),
            sq((2, 7)),
            sq((6, 7)),
            sq((2, 6)),
            sq((7, 7))
        ),
        format!(
            "{}-{}-{}x{}/{}",
            sq((6, 10)),
            sq((6, 8)),
            sq((9, 8)),
            sq((6, 7)),
            sq((9, 9))
        ),
    ];
    (rules, written, played)
}

#[test]
fn a_piece_a_lost_leg_put_where_a_later_move_takes_it_is_read() {
    // The class: a berserk move's lost leg ends on a square where a later
    // move of the other side takes the piece (the record lists a capture on
    // an empty square), and that move's own lost leg is what a later move
    // needs (Alea Berserk 19x19 `game-102-15-24417`: the knight's `2...
    // j15-l15xk15` went on to l17, where `6. f17-k17xl17` takes it, and that
    // move went on `k17-k15xj15`, for `6... j14-j15`). Neither leg alone
    // lets the refused move through, so the search, which keeps a leg only
    // where it does, finds neither. Generated members, turned and
    // mirrored: each replays by the type's rules, both legs inferred as
    // played; with the listed capture left out (no evidence of a piece
    // there) it is read unchecked.
    let dir = tempfile::tempdir().unwrap();
    for sym in 0..8 {
        let (rules, written, played) = taken_there_game(sym);
        let file = dir.path().join(format!("game-151-{sym}-1.json"));
        fs::write(&file, record("Tyr 11x11", 151, &written)).unwrap();
        let (read, err) = legs_read(&file, &rules);
        let sorted = |m: &str| {
            let (legs, caps) = m.split_once('x').unwrap_or((m, ""));
            let mut caps: Vec<&str> = caps.split(['x', '/']).collect();
            caps.sort_unstable();
            format!("{legs} {caps:?}")
        };
        let read: Vec<String> = read.iter().map(|m| sorted(m)).collect();
        let played: Vec<String> = played.iter().map(|m| sorted(m)).collect();
        assert_eq!(read, played, "{sym}: {err}");
        // Without the listed capture on the empty square the record gives
        // no evidence of the first leg.
        let mut bare = written.clone();
        bare[3] = bare[3].split('x').next().unwrap().to_string();
        let file = dir.path().join(format!("game-151-{sym}-2.json"));
        fs::write(&file, record("Tyr 11x11", 151, &bare)).unwrap();
        let err = stderr(&convert_by_rules(&file, &rules));
        assert!(err.contains("rules-refused"), "{sym}: {err}");
    }
}
