//! The last readings of an aagenielsen.dk record, tried only where every
//! other fails: its type's last rules (`aagenielsen_types.txt`, after
//! ` ||| `: the Alea types' corner citadels of four squares, and the four
//! special men of the Alea Evangelii Berserk and dux4 types, which jump;
//! the Old Tyr-2 types' man that captured by a jump and jumps back, and
//! Old TYR! 17x17's man that captured and jumps on, `bj:l`),
//! then the lost leg that put a piece where a later move takes it, and a
//! lost leg that clears the way for another.

use crate::common::scoresheet::Rng;
use crate::common::stderr;

use std::fs;

use kifu::family::hnefatafl::aagenielsen;
use kifu::family::hnefatafl::rules::{Position, Rules};
use kifu::family::hnefatafl::{Square, Step, ATTACKERS};

use super::aagenielsen::{
    convert_by_rules, convert_folder, counted_record, first, legs, legs_read, other_rules_game,
    other_rules_games, plays, read_by_other_rules, record, said_of, site_move, squares, tafl_types,
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
    // Evangelii, which the Berserk rules' king may jump to; Berserk
    // 11x11's king jumps an enemy man anywhere (`kj:j`: `d3-b3` over c3,
    // neither square restricted). For every type
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
    let last = read_by_other_rules(dir.path(), &made, "last", false, &names_special);
    assert!(last * 2 >= refused, "{last} of {refused}");
}

/// The warning of a record read by its type's last rules names what they
/// change: the corner citadels of four squares, the king's jump anywhere
/// (Berserk 11x11), else the four special men.
fn names_special(g: &OtherGame, warned: &str) {
    let special = if g.rules.text().contains("cor:a1,a2,b1,b2") {
        "cor:a1,a2,b1,b2,a18,a19,b18,b19,r1,r2,s1,s2,r18,r19,s18,s19"
    } else if g.rules.text().contains("bj:l") {
        "`bj:l`"
    } else if g.rules.text().contains("kj:j") {
        "kj:j"
    } else {
        ":f6,n6,f14,n14"
    };
    assert!(warned.contains(special), "{warned}");
}

#[test]
fn a_dux4_record_of_the_men_its_table_start_leaves_out_replays() {
    // Alea Evangelii dux4 19x19's start position in the table is what its
    // two records show (`conformance/aagenielsen_types.py`: a square a move
    // passes over read as empty, one no move touches as empty): its men from
    // f6, n6, f14 and n14 jump as commanders do, over pieces that square by
    // square read so were left out (`game-82-7-7265`'s `15... p14-r14` over
    // q14, which `26. q14-r14` moves), and so were pieces that stand still.
    // The site set the type up as Unst Alea Evangelii (the `alea-evangelii`
    // preset's 48 attackers and 24 defenders), with its corner citadels:
    // games played so, built here apart from the table (the four men as
    // commanders, the type's other entries as the table has them), each
    // taking a move the table's rules refuse where there is one (a move of
    // a piece its start leaves out, a commander's jump), written as the
    // site writes them. Each is read by the type's last rules, the same
    // rules, none unchecked.
    let (name, key) = ("Alea Evangelii dux4 19x19", 82);
    let table = &aagenielsen::rules_of(name, Some(key))[0];
    let unst = Rules::preset("alea-evangelii").unwrap();
    let men = ["f6", "n6", "f14", "n14"];
    let cells: Vec<u8> = squares(19)
        .map(|s| match unst.start_piece(s) {
            Some(_) if men.contains(&s.to_string().as_str()) => b'C',
            p => p.unwrap_or(0),
        })
        .collect();
    let citadels = "cor:a1,a2,b1,b2,a18,a19,b18,b19,r1,r2,s1,s2,r18,r19,s18,s19";
    let site = Rules::parse(&table.text().replace("cor: ", &format!("{citadels} ")))
        .and_then(|r| r.with_start(&cells))
        .unwrap();
    let left_out: Vec<Square> = squares(19)
        .filter(|&s| site.start_piece(s).is_some() && table.start_piece(s).is_none())
        .collect();
    assert!(left_out.len() >= 12, "{left_out:?}");
    let dir = tempfile::tempdir().unwrap();
    let mut made = Vec::new();
    for seed in 0..6u64 {
        let (moves, needs) = other_rules_game(&site, table, seed * 7 + 3, 30);
        assert!(needs, "{moves:?}");
        let file = dir.path().join(format!("game-{key}-9-{seed}.json"));
        fs::write(&file, record(name, key, &moves)).unwrap();
        let plain = plays(table, &moves);
        made.push(OtherGame {
            file,
            name,
            rules: site.clone(),
            written: vec![site.clone()],
            needs,
            plain,
        });
    }
    assert!(made.iter().all(|g| !g.plain));
    // Some move from squares the table's start leaves empty.
    let from_left_out = made.iter().filter(|g| {
        let text = fs::read_to_string(&g.file).unwrap();
        left_out.iter().any(|s| text.contains(&format!("\"{s}-")))
    });
    assert!(from_left_out.count() >= 3);
    let read = read_by_other_rules(dir.path(), &made, "last", false, &names_special);
    assert_eq!(read, made.len());
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
    read_as_played(&taken_there_game, Some(3));
}

/// Generated members of a class (`game`, turned and mirrored by `sym`: the
/// rules, the moves as the site writes them, the lengthened moves as
/// played): each replays by the rules with the moves lengthened as played;
/// with the capture that move `bare_at` lists left out (where it is the
/// only evidence of the lost leg), each is read unchecked.
fn read_as_played(game: &dyn Fn(u8) -> (String, Vec<String>, [String; 2]), bare_at: Option<usize>) {
    let dir = tempfile::tempdir().unwrap();
    for sym in 0..8 {
        let (rules, written, played) = game(sym);
        let file = dir.path().join(format!("game-151-{sym}-1.json"));
        fs::write(&file, record("Tyr 11x11", 151, &written)).unwrap();
        let (read, err) = legs_read(&file, &rules);
        let sorted = |m: &str| {
            let (legs, caps) = m.split_once('x').unwrap_or((m, ""));
            let mut caps: Vec<&str> = caps.split(['x', '/']).collect();
            caps.sort_unstable();
            format!("{legs} {caps:?}")
        };
        let mut read: Vec<String> = read.iter().map(|m| sorted(m)).collect();
        let mut played: Vec<String> = played.iter().map(|m| sorted(m)).collect();
        read.sort_unstable();
        played.sort_unstable();
        assert_eq!(read, played, "{sym}: {err}");
        let Some(at) = bare_at else { continue };
        let mut bare = written.clone();
        bare[at] = bare[at].split('x').next().unwrap().to_string();
        let file = dir.path().join(format!("game-151-{sym}-2.json"));
        fs::write(&file, record("Tyr 11x11", 151, &bare)).unwrap();
        let err = stderr(&convert_by_rules(&file, &rules));
        assert!(err.contains("rules-refused"), "{sym}: {err}");
    }
}

/// The negative members of a class: each of the 8 games `game` gives,
/// turned and mirrored, is read unchecked by its rules, no leg inferred.
fn read_unchecked(game: &dyn Fn(u8) -> (String, Vec<String>, [String; 2])) {
    let dir = tempfile::tempdir().unwrap();
    for sym in 0..8 {
        let (rules, written, _) = game(sym);
        let file = dir.path().join(format!("game-151-{sym}-1.json"));
        fs::write(&file, record("Tyr 11x11", 151, &written)).unwrap();
        let err = stderr(&convert_by_rules(&file, &rules));
        assert!(err.contains("rules-refused"), "{sym}: {err}");
        assert!(!err.contains("berserk-leg"), "{sym}: {err}");
    }
}

/// A member of the class of a listed capture whose partner a lost leg put
/// beyond the man, on Tyr 11x11's rules (`ber:c`) from a start position of
/// its own, turned a quarter `sym` times (mirrored from 4 on): an attacker
/// takes a man on its way from `(10, 3)` to `(3, 3)` and goes on to
/// `(5, 3)`, taking the man on `(5, 2)` against `(5, 1)`; a defender steps
/// to `(6, 3)`, and an attacker lands on `(7, 3)` listing it taken (against
/// `(5, 3)`); a second defender steps there, and the attacker takes a man
/// on its way to `(9, 3)` and goes back to `(7, 3)`, taking it; an attacker
/// then crosses `(6, 3)`. The rules, the moves as the site writes them, and
/// the two lengthened moves as played. Where not `partner`, no man stands on
/// `(5, 2)`: the first attacker's leg on to `(5, 3)` would capture nothing,
/// which `ber:c` refuses, so no lost leg can put the partner there.
fn partner_game(sym: u8, partner: bool) -> (String, Vec<String>, [String; 2]) {
    let turn = |(file, rank): (u8, u8)| Square { file, rank }.transform(11, sym % 4, sym >= 4);
    let pieces = [
        ((1, 9), b'K'),
        ((10, 3), b't'),
        ((2, 3), b'T'),
        ((1, 3), b't'),
        ((5, 2), b'T'),
        ((5, 1), b't'),
        ((6, 4), b'T'),
        ((7, 0), b't'),
        ((6, 5), b'T'),
        ((9, 4), b'T'),
        ((9, 5), b't'),
        ((6, 0), b't'),
    ];
    let pieces: Vec<((u8, u8), u8)> = pieces
        .into_iter()
        .filter(|&(at, _)| partner || at != (5, 2))
        .collect();
    let rules = tyr_start(&pieces, &turn);
    let sq = |at: (u8, u8)| turn(at).to_string();
    let written = vec![
        format!("{}-{}x{}", sq((10, 3)), sq((3, 3)), sq((2, 3))),
        format!("{}-{}", sq((6, 4)), sq((6, 3))),
        format!("{}-{}x{}", sq((7, 0)), sq((7, 3)), sq((6, 3))),
        format!("{}-{}", sq((6, 5)), sq((6, 3))),
        format!("{}-{}x{}", sq((7, 3)), sq((9, 3)), sq((9, 4))),
        format!("{}-{}", sq((1, 9)), sq((1, 8))),
        format!("{}-{}", sq((6, 0)), sq((6, 4))),
    ];
    let leg = |at: [(u8, u8); 3], took: [(u8, u8); 2]| {
        format!(
            "{}-{}-{}x{}/{}",
            sq(at[0]),
            sq(at[1]),
            sq(at[2]),
            sq(took[0]),
            sq(took[1])
        )
    };
    let played = [
        leg([(10, 3), (3, 3), (5, 3)], [(2, 3), (5, 2)]),
        leg([(7, 3), (9, 3), (7, 3)], [(9, 4), (6, 3)]),
    ];
    (rules, written, played)
}

#[test]
fn a_listed_capture_whose_partner_a_lost_leg_put_is_read() {
    // The class: a move lists a capture of a man that the rules make only
    // against a piece of the mover's side beyond it, where no move put one;
    // an earlier capturing move of that side went on there, and a later
    // lost leg captures only once that one is in (Berserk 11x11
    // `game-3-95-10467`: `6. k4-d4xc4` went on `d4-f4xf3`, so that `8.
    // h1-h4xg4` takes g4, and `10. h4-j4xj5` went back `j4-h4xg4`, taking
    // the defender `8... g6-g4` put there, for `11. g1-g5`). Neither leg
    // alone lets the refused move through. Generated members, turned and
    // mirrored: each replays by the type's rules, both legs as played (with
    // the listed capture left out, the first leg makes the capture the
    // rules take, which the later moves bear out, and the search reads it).
    read_as_played(&|sym| partner_game(sym, true), None);
    // Without the man the first attacker's lost leg takes on its way to
    // the partner's square, no leg can put the partner there (`ber:c`):
    // each is read unchecked, no leg inferred.
    read_unchecked(&|sym| partner_game(sym, false));
}

/// A member of the class of two dependent lost legs in a record of the
/// site's old form (no captures listed), on Tyr 11x11's rules (`ber:c`)
/// from a start position of its own, turned a quarter `sym` times
/// (mirrored from 4 on): an attacker takes a man on its way to `(3, 8)` and
/// goes on along rank 8 to `(7, 8)`, taking the man on `(8, 8)`; a second
/// attacker lands on `(7, 6)`, taking the man on `(7, 7)` against `(7, 8)`
/// (where `enabled`; else an attacker stands there), and goes on down file 7 to
/// `(7, 3)`, taking the man on `(7, 2)`; the king steps twice; an attacker
/// then moves from `(7, 3)`. The rules, the moves as the site writes them,
/// and the two lengthened moves as played (without captures: the site's
/// old form lists none).
fn enabled_game(sym: u8, enabled: bool) -> (String, Vec<String>, [String; 2]) {
    let turn = |(file, rank): (u8, u8)| Square { file, rank }.transform(11, sym % 4, sym >= 4);
    let pieces = [
        ((2, 2), b'K'),
        ((0, 8), b't'),
        ((3, 7), b'T'),
        ((3, 6), b't'),
        ((8, 8), b'T'),
        ((9, 8), b't'),
        ((10, 6), b't'),
        ((7, 2), b'T'),
        ((7, 1), b't'),
        ((7, 7), if enabled { b'T' } else { b't' }),
    ];
    let rules = tyr_start(&pieces, &turn);
    let sq = |at: (u8, u8)| turn(at).to_string();
    let step = |from: (u8, u8), to: (u8, u8)| format!("{}-{}", sq(from), sq(to));
    let written = vec![
        step((0, 8), (3, 8)),
        step((2, 2), (2, 3)),
        step((10, 6), (7, 6)),
        step((2, 3), (2, 4)),
        step((7, 3), (9, 3)),
    ];
    let played = [
        format!("{}-{}", step((0, 8), (3, 8)), sq((7, 8))),
        format!("{}-{}", step((10, 6), (7, 6)), sq((7, 3))),
    ];
    (rules, written, played)
}

#[test]
fn two_dependent_lost_legs_of_a_record_listing_no_captures_are_read() {
    // The class: in a record that lists no captures, a later move's first
    // leg captures only once an earlier move's lost leg is in, and its own
    // lost leg is what a later move needs (Berserk 11x11 `game-3-54-5953`:
    // `10. i2-k2` went on `k2-k3xj3`, so that `11... e3-h3` leaves i3 and
    // `12. g4-g3` takes h3 against it and goes on `g3-e3xe2`, for `22.
    // e3-e9`). The search tries legs only of moves whose first legs capture
    // and keeps a leg only where the refused move then replays, so it finds
    // neither. Generated members, turned and mirrored: each replays by the
    // type's rules, both legs as played.
    read_as_played(&|sym| enabled_game(sym, true), None);
    // With an attacker where the man the second attacker takes stood, its
    // move captures nothing whatever leg comes before it, and no leg is
    // kept: read unchecked.
    read_unchecked(&|sym| enabled_game(sym, false));
}

/// A member of the class of a lost leg that clears the way for another, on
/// Tyr 11x11's rules (`ber:c`) from a start position of its own, turned a
/// quarter `sym` times (mirrored from 4 on): an attacker takes a man on its
/// way to `(3, 4)` and goes on to `(3, 5)`, taking the man on `(2, 5)`, then
/// along rank 5 to `(6, 5)`, taking the man on `(6, 6)` (where `cleared`;
/// else nothing stands there, and the attacker cannot leave `(3, 5)`); an
/// attacker steps to `(1, 8)`; a second attacker takes a man on its way
/// down to `(3, 0)` and goes up file 3 past `(3, 5)` to `(3, 8)`, taking the
/// man on `(2, 8)`; a defender then moves up file 2 from `(2, 2)` to
/// `(2, 8)`. The rules, the moves as the site writes them, and the two
/// lengthened moves as played.
fn cleared_game(sym: u8, cleared: bool) -> (String, Vec<String>, [String; 2]) {
    let turn = |(file, rank): (u8, u8)| Square { file, rank }.transform(11, sym % 4, sym >= 4);
    let mut pieces = vec![
        ((9, 9), b'K'),
        ((2, 2), b'T'),
        ((2, 5), b'T'),
        ((1, 5), b't'),
        ((2, 8), b'T'),
        ((1, 10), b't'),
        ((8, 4), b't'),
        ((3, 3), b'T'),
        ((3, 2), b't'),
        ((6, 7), b't'),
        ((4, 0), b'T'),
        ((5, 0), b't'),
    ];
    if cleared {
        pieces.push(((6, 6), b'T'));
    }
    let rules = tyr_start(&pieces, &turn);
    let sq = |at: (u8, u8)| turn(at).to_string();
    let step = |from: (u8, u8), to: (u8, u8)| format!("{}-{}", sq(from), sq(to));
    let written = vec![
        format!("{}x{}", step((8, 4), (3, 4)), sq((3, 3))),
        step((9, 9), (9, 8)),
        step((1, 10), (1, 8)),
        step((9, 8), (8, 8)),
        format!("{}x{}", step((3, 2), (3, 0)), sq((4, 0))),
        step((2, 2), (2, 8)),
    ];
    let played = [
        format!(
            "{}-{}-{}x{}/{}/{}",
            step((8, 4), (3, 4)),
            sq((3, 5)),
            sq((6, 5)),
            sq((3, 3)),
            sq((2, 5)),
            sq((6, 6))
        ),
        format!(
            "{}-{}x{}/{}",
            step((3, 2), (3, 0)),
            sq((3, 8)),
            sq((4, 0)),
            sq((2, 8))
        ),
    ];
    (rules, written, played)
}

#[test]
fn a_lost_leg_that_clears_the_way_for_another_is_read() {
    // The class: a refused move needs lost legs of two moves, and one of
    // them reaches its square only once a further leg of the other, which
    // touches none of the refused move's squares, has left the way (Old
    // Tyr-1 15x15 `game-136-107-11642`: `11. j5-f5xf4` went on `f5-f8xe8`
    // and `f8-f11xf12`, leaving f8, so that `13. f3-f1xg1` went on
    // `f1-f11xe11`, for `13... e5-e11xf11`, which passes e8 and lands on
    // e11). The directed pass keeps only legs that touch the refused move's
    // needs, so it never tries the leg that clears the way. Generated
    // members, turned and mirrored: each replays by the type's rules, both
    // lengthened moves as played.
    read_as_played(&|sym| cleared_game(sym, true), None);
    // Without the man the first attacker takes on its way off file 3, it
    // cannot leave the way, and no leg is kept: read unchecked.
    read_unchecked(&|sym| cleared_game(sym, false));
}

/// A game of a type whose last rules let a berserk leg be a jump (`bj:l`),
/// played by them (`last`) from `seed`, moves of one leg (as the type's
/// first rules play them), until a man of the side to move can make the
/// class's first leg and, where `capture`, take a piece with it (where not,
/// take none). Where not `on`, the first leg is a jump over an enemy man and
/// the man jumps back over the same man; where `on`, the first leg is any
/// move of the man (a step or a jump) and the man goes on by a jump over an
/// enemy man to another square (Old TYR! 17x17 `game-143-97-26715`'s
/// `58... g7-g5-g3xh5`). Either further leg captures nothing, which the
/// first rules, `ber:t`, refuse after a capture, and every rules refuse
/// after a leg that captured nothing, so that where not `capture` the man
/// only made its first leg. Then a move of the other side, and the man
/// moves on from where the further leg ended (where not `on`, not to where
/// it jumped: no move written again). The moves as the site writes them
/// (the first leg and its captures alone), and the move as played, the
/// captures left out (`a-b-a`, `a-b-c`); none where no such move comes
/// within `plies`.
fn jump_back_game(
    last: &Rules,
    seed: u64,
    plies: usize,
    capture: bool,
    on: bool,
) -> Option<(Vec<String>, String)> {
    let mut rng = Rng::new(seed);
    let mut pos = Position::new(last);
    let mut side = first(last);
    let mut written = Vec::new();
    let ours = |p: u8, side| p.is_ascii_lowercase() == (side == ATTACKERS);
    let moves_of =
        |pos: &Position<'_>, side| -> Vec<(Step, kifu::family::hnefatafl::rules::Played)> {
            squares(last.dim)
                .filter(|&from| pos.piece(from).is_some_and(|p| ours(p, side)))
                .flat_map(|from| legs(pos, last, from, side))
                .filter(|(_, p)| !(p.king_captured || p.escaped || p.edge_fort))
                .collect()
        };
    // Whether `s` is a man's jump over an enemy man in `pos`.
    let jump_over_enemy = |pos: &Position<'_>, s: &Step, side| {
        let far = s.from.file.abs_diff(s.to.file) + s.from.rank.abs_diff(s.to.rank);
        let over = Square {
            file: s.from.file.midpoint(s.to.file),
            rank: s.from.rank.midpoint(s.to.rank),
        };
        far == 2
            && (s.from.file == s.to.file || s.from.rank == s.to.rank)
            && pos
                .piece(over)
                .is_some_and(|o| matches!(o, b't' | b'T') && !ours(o, side))
    };
    for _ in 0..plies {
        let moves = moves_of(&pos, side);
        // A man's first leg (a jump over an enemy man, where not `on`),
        // taking a piece or not, and the further leg it could make: back
        // over the same man, or (`on`) a jump over an enemy man to another
        // square, capturing nothing.
        let found = moves.iter().find_map(|(s, p)| {
            if !matches!(pos.piece(s.from), Some(b't' | b'T'))
                || p.captures.is_empty() == capture
                || (!on && !jump_over_enemy(&pos, s, side))
            {
                return None;
            }
            let (a, b) = (s.from, s.to);
            let mut mid = pos.clone();
            mid.play(s, side, true).ok()?;
            let c = if on {
                legs(&mid, last, b, side)
                    .into_iter()
                    .find(|(t, q)| {
                        t.to != a && q.captures.is_empty() && jump_over_enemy(&mid, t, side)
                    })?
                    .0
                    .to
            } else {
                a
            };
            let both = Step {
                from: a,
                via: vec![b],
                to: c,
                captures: Vec::new(),
                mark: None,
            };
            let mut after = pos.clone();
            if capture {
                // The further leg captures nothing (else `ber:t` plays it).
                let played = after.play(&both, side, true).ok()?;
                if played.legs.get(1) != Some(&0) || played.king_captured {
                    return None;
                }
            } else {
                after = mid;
            }
            Some((s.clone(), p.clone(), after, c))
        });
        if let Some((jump, played, mut after, c)) = found {
            let (a, b) = (jump.from, jump.to);
            written.push(site_move(&jump, &played.captures));
            let other = moves_of(&after, side.other());
            let (reply, replied) = other.get(rng.below(other.len().max(1)))?.clone();
            after.play(&reply, side.other(), true).ok()?;
            written.push(site_move(&reply, &replied.captures));
            if !capture {
                // The man stands on `b` (no leg follows a leg that captured
                // nothing); the record moves it on from `c`, one square.
                let d = [(0i8, 1i8), (0, -1), (1, 0), (-1, 0)]
                    .into_iter()
                    .filter_map(|(df, dr)| {
                        let (f, r) = (c.file as i8 + df, c.rank as i8 + dr);
                        let on_board =
                            (0..last.dim as i8).contains(&f) && (0..last.dim as i8).contains(&r);
                        on_board.then_some(Square {
                            file: f as u8,
                            rank: r as u8,
                        })
                    })
                    .find(|&d| d != b && after.piece(d).is_none())?;
                if after.piece(c).is_some() {
                    return None;
                }
                written.push(format!("{c}-{d}"));
                return Some((written, format!("{a}-{b}-{c}")));
            }
            let next = moves_of(&after, side)
                .into_iter()
                .find(|(s, _)| s.from == c && s.to != b)?;
            written.push(site_move(&next.0, &next.1.captures));
            return Some((written, format!("{a}-{b}-{c}")));
        }
        let (mv, played) = moves.get(rng.below(moves.len().max(1))).cloned()?;
        pos.play(&mv, side, true).unwrap();
        written.push(site_move(&mv, &played.captures));
        side = side.other();
    }
    None
}

#[test]
fn a_man_that_captured_by_a_jump_and_jumped_back_is_read_by_the_last_rules() {
    // The class: a man jumps over an enemy man, takes a piece by landing,
    // and jumps back over the same man, a berserk leg that captures
    // nothing, which the site's JSON leaves out (Old Tyr-2 17x17
    // `game-140-22-8148`: the attackers' `28. a11-a9xb9` over a10, back to
    // a11, from where `42. a11-c11xc12` moves, and `28... a10-a9` lands on
    // a9; Old Tyr-2 13x13 `game-137-110-12965`: the defenders' `9...
    // k7-k5xj5` over k6, back to k7, from where `11... k7-m7` moves, and
    // `10... i5-k5xk6` lands on k5). The type's rules (`ber:t`: a leg
    // captures or steps onto the square the leg before captured on) refuse
    // it; its last rules, `bj:l`, let the leg be a jump. Generated members,
    // for every type whose last rules have `bj:l`: games played by them, the
    // man moving on from where it started after a move of the other side,
    // written as the site writes them (8 a type): each replays by the last
    // rules with the jump back inferred as played; by the type's first
    // rules alone each is refused, the jump back never read. Negative
    // members: the same games where the man's jump captured nothing (so
    // that no leg may follow it, under any rules; 8 a type): none is read
    // by the last rules, each is read unchecked. The wider member (Old Tyr
    // round 11): a man that captured, by a step or a jump, goes on by a
    // jump over an enemy man to another square, capturing nothing (Old TYR!
    // 17x17 `game-143-97-26715`: the defenders' `58... g7-g5xh5` went on
    // over the attacker on g4 to g3, from where `59... g3-g7` moves), 8 a
    // type, with as many negative members (the first leg captured nothing).
    let dir = tempfile::tempdir().unwrap();
    let mut made = Vec::new();
    for (name, key, layouts) in tafl_types() {
        let Some(last) = aagenielsen::last_rules_of(name, Some(key))
            .iter()
            .find(|r| r.text().contains("bj:l"))
        else {
            continue;
        };
        for (capture, on) in [(true, false), (false, false), (true, true), (false, true)] {
            let mut n = 0;
            for seed in 0..400u64 {
                if n == 8 {
                    break;
                }
                let Some((written, played)) =
                    jump_back_game(last, seed * 31 + u64::from(key), 40, capture, on)
                else {
                    continue;
                };
                let file = dir.path().join(format!(
                    "game-{key}-{seed}-{}{}.json",
                    u8::from(capture),
                    u8::from(on)
                ));
                fs::write(&file, record(name, key, &written)).unwrap();
                made.push((file, layouts[0].clone(), capture, played));
                n += 1;
            }
            assert_eq!(n, 8, "{name} {capture} {on}");
        }
    }
    // Old Tyr-2 17x17 and 13x13, Old TYR! 17x17: 32 members each.
    assert!(made.len() >= 96, "{}", made.len());
    let err = convert_folder(dir.path(), made.len());
    let (mut read, mut positive, mut negative, mut refused_first) = (0, 0, 0, 0);
    for (file, rules, capture, played) in &made {
        let (_, said) = said_of(&err, file);
        let by_last = said
            .iter()
            .any(|l| l.contains("its last rules bear them out") && l.contains("`bj:l`"));
        if !capture {
            assert!(!by_last, "{said:?}");
            assert!(said.iter().any(|l| l.contains("rules-refused")), "{said:?}");
            negative += 1;
            continue;
        }
        positive += 1;
        assert!(
            !said.iter().any(|l| l.contains("rules-refused")),
            "{said:?}"
        );
        if by_last {
            let legs: Vec<&&str> = said
                .iter()
                .filter(|l| l.contains("warning[berserk-leg]"))
                .collect();
            assert!(
                legs.iter()
                    .any(|l| l.contains(&format!("read as `{played}x"))),
                "{played}: {said:?}"
            );
            read += 1;
        }
        // By the type's first rules alone (no last rules given), the jump
        // back is never read.
        let out = convert_by_rules(file, rules.text());
        let alone = stderr(&out);
        assert!(!alone.contains(&format!("read as `{played}x")), "{alone}");
        refused_first += usize::from(alone.contains("rules-refused"));
    }
    eprintln!("{positive} members: {read} read by the last rules, {refused_first} refused by the first rules alone");
    assert_eq!(
        (read, refused_first, negative),
        (positive, positive, positive)
    );
}

/// A member of the class of a commander's ring of jumps, on Alea Berserk
/// 19x19's rules (`ber:m`, commanders capture by jumping, `cj:c`) from a
/// start position of its own, turned a quarter `sym` times (mirrored from
/// 4 on): an attacker steps; the king crosses `(17, 8)` along rank 8; the
/// attackers' commander on `(1, 4)` jumps the defenders' men on rank 4
/// (files 2 to 16) and up file 17 (ranks 5 and 7), ten jumps, each taking
/// the man jumped, and ends on `(17, 8)`; the king steps; the commander
/// moves on from `(17, 8)` (the king's crossing leaves the square empty at
/// the start, so that no start position of the record's own bears the
/// moves out). The rules, the moves as the site writes them (the first
/// jump alone), and the ring as played.
fn ring_game(sym: u8) -> (String, Vec<String>, String) {
    let turn = |(file, rank): (u8, u8)| Square { file, rank }.transform(19, sym % 4, sym >= 4);
    let sq = |at: (u8, u8)| turn(at).to_string();
    let jumped: Vec<(u8, u8)> = (1..=8)
        .map(|k| (2 * k, 4))
        .chain([(17, 5), (17, 7)])
        .collect();
    let mut cells = vec![0u8; 19 * 19];
    let mut put = |at: (u8, u8), p: u8| {
        let s = turn(at);
        cells[usize::from(s.rank) * 19 + usize::from(s.file)] = p;
    };
    put((18, 8), b'K');
    put((0, 18), b't');
    put((1, 4), b'c');
    for &at in &jumped {
        put(at, b'T');
    }
    let alea = &aagenielsen::rules_of("Alea Berserk 19x19 (Bartley)", Some(102))[0];
    let rules = alea.with_start(&cells).unwrap().text().to_string();
    let written = vec![
        format!("{}-{}", sq((0, 18)), sq((1, 18))),
        format!("{}-{}", sq((18, 8)), sq((12, 8))),
        format!("{}-{}x{}", sq((1, 4)), sq((3, 4)), sq((2, 4))),
        format!("{}-{}", sq((12, 8)), sq((12, 9))),
        format!("{}-{}", sq((17, 8)), sq((17, 12))),
    ];
    let path: Vec<String> = [(1, 4)]
        .into_iter()
        .chain((1..=8).map(|k| (2 * k + 1, 4)))
        .chain([(17, 6), (17, 8)])
        .map(sq)
        .collect();
    let taken: Vec<String> = jumped.iter().map(|&at| sq(at)).collect();
    let played = format!("{}x{}", path.join("-"), taken.join("/"));
    (rules, written, played)
}

#[test]
fn a_commanders_ring_of_jumps_beyond_the_wide_search_is_read_where_the_counts_bear_it_out() {
    // The class: a commander that captures by jumping goes on, jumping and
    // taking a man each leg, for more legs than the wide search looks for
    // (8), and a later move needs where it ended (Alea Berserk 19x19
    // `game-102-50-24435`: `12. j13-j12xj11` went on round the king,
    // taking ten, off l11 for the king's `13... p11-f11`). Generated
    // members, turned and mirrored, counted as played (10 and 0): each
    // replays by the type's rules, the ring inferred as played (a
    // `berserk-leg` warning); counted as listed (1 and 0: the site's counts
    // then leave the lost legs' captures out), the same, the counts kept
    // (`capture-count`); counted 5 and 0, fewer than the ring takes and
    // more than the lists, each is read unchecked (a capture the game did
    // not make).
    let dir = tempfile::tempdir().unwrap();
    for sym in 0..8 {
        let (rules, written, played) = ring_game(sym);
        let name = "Alea Berserk 19x19 (Bartley)";
        for (n, given) in [[10, 0], [1, 0]].into_iter().enumerate() {
            let file = dir.path().join(format!("game-102-{sym}-1{n}.json"));
            fs::write(&file, counted_record(name, 102, &written, given)).unwrap();
            let (read, err) = legs_read(&file, &rules);
            assert_eq!(read, std::slice::from_ref(&played), "{sym}: {err}");
            assert_eq!(err.contains("capture-count"), n == 1, "{sym}: {err}");
            assert!(!err.contains("other-layout"), "{sym}: {err}");
        }
        let file = dir.path().join(format!("game-102-{sym}-2.json"));
        fs::write(&file, counted_record(name, 102, &written, [5, 0])).unwrap();
        let err = stderr(&convert_by_rules(&file, &rules));
        assert!(err.contains("rules-refused"), "{sym}: {err}");
        assert!(!err.contains(&played), "{sym}: {err}");
    }
}
