//! A game type's later rules (`aagenielsen_types.txt`, after ` || `),
//! tried only where its rules refuse a record under every start position
//! and every reading of it: Alea Berserk 19x19's variegated men, which
//! change sides when captured (`flip:`, kifu's key), and its men's jumps.

use crate::common::scoresheet::Rng;
use crate::common::*;

use std::fs;

use kifu::family::hnefatafl::aagenielsen;
use kifu::family::hnefatafl::rules::{Position, Rules};
use kifu::family::hnefatafl::{Square, Step, ATTACKERS};
use kifu::ir::Side;

use super::aagenielsen::{
    convert_folder, first, legs, plays, record, said_of, squares, tafl_types, written_tafl,
};

/// A game played by `rules` (a type's later rules), written as the site
/// writes it (one leg a move, its captures): captures that turn a piece
/// over are taken where there are any, and a piece turned over is moved
/// by the side that now holds it at its next move. The moves, and how many
/// of them moved a piece turned over.
fn turncoat_game(rules: &Rules, seed: u64, plies: usize) -> (Vec<String>, usize) {
    let mut rng = Rng::new(seed);
    let mut pos = Position::new(rules);
    let mut side = first(rules);
    let mut written = Vec::new();
    // The squares of the pieces turned over, with the side now holding them.
    let mut turned: Vec<(Square, Side)> = Vec::new();
    let mut moved = 0;
    for _ in 0..plies {
        let moves: Vec<(Step, Vec<Square>, Position<'_>)> = squares(rules.dim)
            .filter(|&from| {
                pos.piece(from)
                    .is_some_and(|p| p.is_ascii_lowercase() == (side == ATTACKERS))
            })
            .flat_map(|from| legs(&pos, rules, from, side))
            .filter(|(_, p)| !(p.king_captured || p.escaped || p.edge_fort))
            .map(|(s, p)| {
                let mut after = pos.clone();
                after.play(&s, side, true).unwrap();
                (s, p.captures, after)
            })
            .collect();
        if moves.is_empty() {
            break;
        }
        let pick = |want: &dyn Fn(&(Step, Vec<Square>, Position<'_>)) -> bool| -> Vec<usize> {
            (0..moves.len()).filter(|&i| want(&moves[i])).collect()
        };
        let ours = pick(&|(s, _, _)| turned.contains(&(s.from, side)));
        let flips = pick(&|(_, c, after)| c.iter().any(|&sq| after.piece(sq).is_some()));
        let capturing = pick(&|(_, c, _)| !c.is_empty());
        let choice = if !ours.is_empty() {
            moved += 1;
            ours[rng.below(ours.len())]
        } else if !flips.is_empty() {
            flips[rng.below(flips.len())]
        } else if !capturing.is_empty() && rng.below(2) == 0 {
            capturing[rng.below(capturing.len())]
        } else {
            rng.below(moves.len())
        };
        let (mv, captures, after) = &moves[choice];
        turned.retain(|&(sq, _)| sq != mv.from && !captures.contains(&sq));
        turned.extend(
            captures
                .iter()
                .filter(|&&sq| after.piece(sq).is_some())
                .map(|&sq| (sq, side)),
        );
        let mut site = format!("{}-{}", mv.from, mv.to);
        for c in captures {
            site.push_str(&format!("x{c}"));
        }
        written.push(site);
        pos = after.clone();
        side = side.other();
    }
    (written, moved)
}

#[test]
fn a_record_the_later_rules_of_its_type_bear_out_replays_by_them() {
    // Alea Berserk 19x19's records move pieces their side lost: the four
    // variegated men (f6, n6, f14, n14) change sides when captured (`o7-n7xn6`,
    // then the attackers' `n6-l6xl5`), and its men jump (`j5-l5xl6` over an
    // attacker on k5): 39 of its 64 records read unchecked replay by its
    // later rules. For every type with later rules: games played by them,
    // each capturing a variegated man and moving it for its new side,
    // written as the site writes them. None is read unchecked; one the
    // type's rules play as written reads as before; one read by the later
    // rules says so (`other-rules`, naming the entries added) and is
    // written with them.
    let dir = tempfile::tempdir().unwrap();
    let mut made = Vec::new();
    for (name, key, layouts) in tafl_types() {
        let later = aagenielsen::later_rules_of(name, Some(key));
        for (n, rules) in later.iter().enumerate() {
            for seed in 0..4u64 {
                let (moves, moved) = turncoat_game(rules, seed * 7 + u64::from(key), 36);
                let plain = layouts.iter().any(|r| plays(r, &moves));
                let file = dir.path().join(format!("game-{key}-{n}-{seed}.json"));
                fs::write(&file, record(name, key, &moves)).unwrap();
                made.push((file, name, rules.clone(), moved, plain));
            }
        }
    }
    let turned = made.iter().filter(|m| m.3 > 0).count();
    assert!(made.len() >= 8 && turned >= 6, "{} {turned}", made.len());
    let err = convert_folder(dir.path(), made.len());
    let mut later = 0;
    for (file, name, rules, _, plain) in &made {
        let (f, said) = said_of(&err, file);
        assert!(
            !said.iter().any(|l| l.contains("rules-refused")),
            "{name}: {said:?}"
        );
        let warned: Vec<&&str> = said
            .iter()
            .filter(|l| l.contains("warning[other-rules]"))
            .collect();
        if *plain {
            assert!(said.is_empty(), "{name}: {said:?}");
            continue;
        }
        if warned.is_empty() {
            // The type's rules bear it out another way (a berserk leg).
            continue;
        }
        later += 1;
        assert_eq!(warned.len(), 1, "{name}: {said:?}");
        assert!(
            warned[0].contains(".json:1:")
                && warned[0].contains("its later rules bear them out (its rules with `tj:j flip:f6,n6,f14,n14`)"),
            "{}",
            warned[0]
        );
        let tafl = written_tafl(dir.path(), &f);
        assert!(
            tafl.contains(&format!("[Rules \"{}\"]", rules.text())),
            "{name}: {tafl}"
        );
    }
    assert!(later * 2 >= turned, "{later} of {turned}");
}
