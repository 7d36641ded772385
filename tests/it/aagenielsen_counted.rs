//! The last reading of an aagenielsen.dk record: the berserk legs found
//! back from a move a later-found leg made refused, in a record whose
//! capture counts are its own lists (the site counted what its JSON lists,
//! which leaves out the lost legs' captures).

use crate::common::{counts, no_panic, stderr, stdout};

use std::fs;

use kifu::family::hnefatafl::Square;

use super::aagenielsen::{convert_by_rules, record_counted, tyr_start};

/// A member of the class, on Tyr 11x11's rules (`ber:c`) from a start
/// position of its own, turned a quarter `sym` times (mirrored from 4 on):
/// a defender stops on `(7, 7)`, capturing nothing; an attacker takes a man
/// on its way down to `(2, 7)` and goes on along rank 7 to `(6, 7)`, taking
/// that defender against `(8, 7)`, then down to `(6, 4)`, taking the man on
/// `(6, 3)`; a defender then passes `(6, 7)`, an attacker passes `(7, 7)`,
/// and the attackers' last move takes a man. The rules, the moves as the
/// site writes them, and the lengthened move as played.
fn counted_game(sym: u8) -> (String, Vec<String>, String) {
    let turn = |(file, rank): (u8, u8)| Square { file, rank }.transform(11, sym % 4, sym >= 4);
    let pieces = [
        ((5, 1), b'K'),
        ((0, 2), b't'),
        ((7, 9), b'T'),
        ((2, 10), b't'),
        ((2, 6), b'T'),
        ((2, 5), b't'),
        ((8, 7), b't'),
        ((6, 3), b'T'),
        ((6, 2), b't'),
        ((6, 10), b'T'),
        ((7, 10), b't'),
        ((8, 3), b't'),
        ((9, 1), b'T'),
        ((10, 1), b't'),
    ];
    let rules = tyr_start(&pieces, &turn);
    let sq = |at: (u8, u8)| turn(at).to_string();
    let step = |a, b| format!("{}-{}", sq(a), sq(b));
    let taking = |a, b, x| format!("{}x{}", step(a, b), sq(x));
    let written = vec![
        step((0, 2), (1, 2)),
        step((7, 9), (7, 7)),
        taking((2, 10), (2, 7), (2, 6)),
        step((6, 10), (6, 6)),
        step((7, 10), (7, 5)),
        step((5, 1), (4, 1)),
        taking((8, 3), (8, 1), (9, 1)),
    ];
    let played = format!(
        "{}-{}-{}-{}x{}/{}/{}",
        sq((2, 10)),
        sq((2, 7)),
        sq((6, 7)),
        sq((6, 4)),
        sq((2, 6)),
        sq((7, 7)),
        sq((6, 3))
    );
    (rules, written, played)
}

#[test]
fn legs_found_back_from_a_move_a_found_leg_made_refused_are_read_where_the_counts_are_the_lists() {
    // The class (Tyr 15x15 `game-145-48-3948`, Old Tyr-1 17x17
    // `game-134-28-12570`, Old Tyr-1 13x13 `game-135-20-1888`): the legs a
    // record needs are found only by the search that goes back from a move
    // a found leg made refused (`EARLIER`), which held them to both the
    // record's counts exactly; the site's counts of these types are the
    // captures its JSON lists (or those less the last move's), which
    // leave out the lost legs' captures, so a record that needs legs never
    // met that gate. Generated members, turned and mirrored: counted as
    // the record lists (`[2, 0]`), or as it lists less the last move's
    // capture (`[1, 0]`), each replays by the type's own rules with the leg
    // as played, a `capture-count` warning keeping the count; counted as
    // the legs capture (`[4, 0]`), as before (by `earlier`, no warning);
    // counted otherwise (`[3, 0]`: one more than the list, and fewer than
    // the replay) read by the reading after (`legs_over`: the moves as
    // written capture no more than the counts, the excess the legs'), with
    // a `capture-count` warning; not counted, read unchecked, as before.
    let dir = tempfile::tempdir().unwrap();
    let (mut read, mut refused) = (0, 0);
    for sym in 0..8u8 {
        let (rules, written, played) = counted_game(sym);
        for given in [Some([2, 0]), Some([1, 0]), Some([4, 0]), Some([3, 0]), None] {
            let file = dir.path().join(format!("game-151-{sym}-1.json"));
            fs::write(&file, record_counted("Tyr 11x11", 151, &written, given)).unwrap();
            let out = convert_by_rules(&file, &rules);
            no_panic(&out);
            assert_eq!(counts(&out), (1, 0));
            let err = stderr(&out);
            if given.is_none() {
                assert!(
                    err.contains("rules-refused"),
                    "{written:?} {given:?}: {err}"
                );
                refused += 1;
                continue;
            }
            assert!(
                !err.contains("rules-refused"),
                "{written:?} {given:?}: {err}"
            );
            assert!(!err.contains("other-rules"), "{err}");
            assert_eq!(
                err.contains("capture-count"),
                given != Some([4, 0]),
                "{given:?}: {err}"
            );
            let legs: Vec<&str> = err
                .lines()
                .filter(|l| l.contains("warning[berserk-leg]"))
                .collect();
            assert_eq!(legs.len(), 1, "{err}");
            assert!(legs[0].ends_with(&format!("read as `{played}`")), "{err}");
            let tafl = stdout(&out);
            assert!(tafl.contains("ber:c") && !tafl.contains("ber:m"), "{tafl}");
            read += 1;
        }
    }
    assert_eq!((read, refused), (32, 8));
}
