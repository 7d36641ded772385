//! The last readings of an aagenielsen.dk record, tried only where every
//! other fails: its type's last rules (`aagenielsen_types.txt`, after
//! ` ||| `: the Alea types' corner citadels of four squares, and the four
//! special men of the Alea Evangelii Berserk and dux4 types, which jump),
//! then the lost leg that put a piece where a later move takes it.

use crate::common::scoresheet::Rng;
use crate::common::stderr;

use std::fs;

use kifu::family::hnefatafl::aagenielsen;
use kifu::family::hnefatafl::rules::{Position, Rules};
use kifu::family::hnefatafl::{Square, Step, ATTACKERS};

use super::aagenielsen::{
    convert_by_rules, convert_folder, first, legs, legs_read, plays, record, replayed_said,
    site_move, squares, tafl_types, tyr_start, warnings_of, written_tafl,
};

/// A move tried: the step and its captures.
type Tried = (Step, Vec<Square>);

/// A game played by `last` (a type's last rules), written as the site
/// writes it (one leg a move, its captures), with the type's first rules
/// (`was`) followed alongside while they allow every move: at each ply,
/// a move that `last` allows and `was` refuses is taken where there is
/// one, else a capture half the time, else any move; no move that ends
/// the game. The moves, and whether one of them was refused by `was`.
fn last_rules_game(last: &Rules, was: &Rules, seed: u64, plies: usize) -> (Vec<String>, bool) {
    let mut rng = Rng::new(seed);
    let mut pos = Position::new(last);
    let mut old = Some(Position::new(was));
    let mut side = first(last);
    let mut written = Vec::new();
    let mut refused = false;
    for _ in 0..plies {
        let moves: Vec<Tried> = squares(last.dim)
            .filter(|&from| {
                pos.piece(from)
                    .is_some_and(|p| p.is_ascii_lowercase() == (side == ATTACKERS))
            })
            .flat_map(|from| legs(&pos, last, from, side))
            .filter(|(_, p)| !(p.king_captured || p.escaped || p.edge_fort))
            .map(|(s, p)| (s, p.captures))
            .collect();
        if moves.is_empty() {
            break;
        }
        let pick = |want: &dyn Fn(&Tried) -> bool| -> Vec<usize> {
            (0..moves.len()).filter(|&i| want(&moves[i])).collect()
        };
        let other = pick(&|(s, _)| {
            old.as_ref()
                .is_some_and(|o| o.clone().play(s, side, true).is_err())
        });
        let capturing = pick(&|(_, c)| !c.is_empty());
        let choice = if !other.is_empty() {
            refused = true;
            other[rng.below(other.len())]
        } else if !capturing.is_empty() && rng.below(2) == 0 {
            capturing[rng.below(capturing.len())]
        } else {
            rng.below(moves.len())
        };
        let (mv, captures) = &moves[choice];
        pos.play(mv, side, true).unwrap();
        // The first rules followed while they play the same game.
        old = old.and_then(|mut o| {
            let played = o.play(mv, side, true).ok()?;
            (played.captures == *captures).then_some(o)
        });
        written.push(site_move(mv, captures));
        side = side.other();
    }
    (written, refused)
}

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
    let mut made = Vec::new();
    for (name, key, layouts) in tafl_types() {
        let last = aagenielsen::last_rules_of(name, Some(key));
        for (n, rules) in last.iter().enumerate() {
            for seed in 0..4u64 {
                let (moves, refused) =
                    last_rules_game(rules, &layouts[0], seed * 11 + u64::from(key), 30);
                let plain = layouts.iter().any(|r| plays(r, &moves));
                let file = dir.path().join(format!("game-{key}-{n}-{seed}.json"));
                fs::write(&file, record(name, key, &moves)).unwrap();
                made.push((file, name, rules.clone(), refused, plain, last));
            }
        }
    }
    let refused = made.iter().filter(|m| m.3).count();
    assert!(made.len() >= 12 && refused >= 8, "{} {refused}", made.len());
    let err = convert_folder(dir.path(), made.len());
    let mut last = 0;
    for (file, name, rules, _, plain, last_of) in &made {
        let (f, said) = replayed_said(&err, file, name);
        let warned = warnings_of(&said, "other-rules");
        if *plain {
            // Read by the type's rules (from one of its start positions).
            assert!(warned.is_empty(), "{name}: {said:?}");
            continue;
        }
        let by_last: Vec<_> = warned
            .iter()
            .filter(|w| w.contains("its last rules bear them out"))
            .collect();
        if by_last.is_empty() {
            // Another reading bears it out (a berserk leg, the later rules).
            continue;
        }
        last += 1;
        assert_eq!(warned.len(), 1, "{name}: {said:?}");
        assert!(by_last[0].contains(".json:1:"), "{}", by_last[0]);
        let special = if rules.text().contains("cor:a1,a2,b1,b2") {
            "cor:a1,a2,b1,b2,a18,a19,b18,b19,r1,r2,s1,s2,r18,r19,s18,s19"
        } else if rules.text().contains("kj:j") {
            "kj:j"
        } else {
            ":f6,n6,f14,n14"
        };
        assert!(by_last[0].contains(special), "{}", by_last[0]);
        // Written with the type's last rules that bear it out first (a
        // game that moves neither piece Berserk 11x11's two start
        // positions swap replays from either).
        let tafl = written_tafl(dir.path(), &f);
        assert!(
            last_of
                .iter()
                .any(|r| tafl.contains(&format!("[Rules \"{}\"]", r.text()))),
            "{name} {}: {tafl}",
            rules.text()
        );
    }
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

/// A member of the class of a listed capture whose partner a lost leg put
/// beyond the man, on Tyr 11x11's rules (`ber:c`) from a start position of
/// its own, turned a quarter `sym` times (mirrored from 4 on): an attacker
/// takes a man on its way from `(10, 3)` to `(3, 3)` and goes on to
/// `(5, 3)`, taking the man on `(5, 2)` against `(5, 1)`; a defender steps
/// to `(6, 3)`, and an attacker lands on `(7, 3)` listing it taken (against
/// `(5, 3)`); a second defender steps there, and the attacker takes a man
/// on its way to `(9, 3)` and goes back to `(7, 3)`, taking it; an attacker
/// then crosses `(6, 3)`. The rules, the moves as the site writes them, and
/// the two lengthened moves as played.
fn partner_game(sym: u8) -> (String, Vec<String>, [String; 2]) {
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
    // rules take, which the later moves bear out, and the search reads it:
    // no negative member).
    read_as_played(&partner_game, None);
}
