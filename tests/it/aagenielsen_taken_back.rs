//! A move and its reply taken back on aagenielsen.dk, the mover then
//! playing another move: the site's JSON keeps both, and its counts keep
//! the reply's capture (Magpie circle 7x7 `game-65-28-1188`: the defenders'
//! `17... c7-d7` and the attackers' `18. b7-c7xc6`, then the king's `18...
//! d4-c4xc5`, c5 taken against the defender still on c6).

use crate::common::scoresheet::Rng;

use std::fs;

use kifu::family::hnefatafl::rules::{Berserk, Position, Rules};
use kifu::family::hnefatafl::{Step, ATTACKERS};
use kifu::ir::Side;

use super::aagenielsen::{
    convert_folder, first, legs, plays, quiet, record_counted, said_of, site_move, squares,
    tafl_types, taken, warnings_of, written_tafl,
};

/// A game of these rules from a seed, as the site writes it with a move
/// `a` and the other side's capturing reply `b` taken back: quiet moves,
/// then `a` and `b` (written, not played), then in their place the mover's
/// `c`, another move, the other side's quiet reply and the mover's move of
/// the piece `a` moved, from the square it left (which the record as
/// written has emptied), and two quiet moves more. The moves as written,
/// the moves as played, and the side that took back.
fn taken_back_game(rules: &Rules, seed: u64) -> Option<(Vec<String>, Vec<String>, Side)> {
    let mut rng = Rng::new(seed);
    let mut pos = Position::new(rules);
    let mut side = first(rules);
    let (mut written, mut kept) = (Vec::new(), Vec::new());
    let play = |pos: &mut Position<'_>, mv: &Step, side: Side, written: &mut Vec<String>| {
        pos.play(mv, side, true).unwrap();
        let text = site_move(mv, &[]);
        written.push(text.clone());
        text
    };
    for _ in 0..4 + rng.below(6) {
        let mv = quiet(&pos, rules, side, &mut rng, |_| true)?;
        kept.push(play(&mut pos, &mv, side, &mut written));
        side = side.other();
    }
    // The move taken back and the other side's reply that captures.
    let (a, b, taken) = (0..40).find_map(|_| {
        let a = quiet(&pos, rules, side, &mut rng, |_| true)?;
        let mut after = pos.clone();
        after.play(&a, side, true).ok()?;
        let replies: Vec<_> = squares(rules.dim)
            .filter(|&f| {
                after
                    .piece(f)
                    .is_some_and(|p| p.is_ascii_lowercase() != (side == ATTACKERS))
            })
            .flat_map(|f| legs(&after, rules, f, side.other()))
            .filter(|(_, p)| {
                !(p.captures.is_empty() || p.king_captured || p.escaped || p.edge_fort)
            })
            .collect();
        let (b, p) = replies.get(rng.below(replies.len().max(1)))?.clone();
        Some((a, b, p.captures))
    })?;
    written.push(site_move(&a, &[]));
    written.push(site_move(&b, &taken));
    let c = quiet(&pos, rules, side, &mut rng, |s| {
        s.from != a.from && (s.from, s.to) != (a.from, a.to)
    })?;
    kept.push(play(&mut pos, &c, side, &mut written));
    let d = quiet(&pos, rules, side.other(), &mut rng, |_| true)?;
    kept.push(play(&mut pos, &d, side.other(), &mut written));
    let e = quiet(&pos, rules, side, &mut rng, |s| {
        s.from == a.from && s.to != a.to
    })?;
    kept.push(play(&mut pos, &e, side, &mut written));
    let mut s = side.other();
    for _ in 0..2 {
        let mv = quiet(&pos, rules, s, &mut rng, |_| true)?;
        kept.push(play(&mut pos, &mv, s, &mut written));
        s = s.other();
    }
    Some((written, kept, side))
}

#[test]
fn a_move_and_its_capturing_reply_taken_back_are_left_out_where_the_counts_count_it() {
    // For every type without berserk moves: games with a move and the
    // other side's capturing reply taken back and another move played in
    // their place (taken_back_game), written as the site writes them, which
    // the rules refuse as written under every start position of the type.
    // With counts that are the record's lists (the reply's capture
    // counted), each replays with a `repeated-moves` warning naming the two
    // moves, written without them; with counts of the moves played (the
    // reply's capture not counted), or none, each is read unchecked.
    let dir = tempfile::tempdir().unwrap();
    let mut made = Vec::new();
    for (name, key, layouts) in tafl_types() {
        let rules = &layouts[0];
        if rules.berserk != Berserk::No {
            continue;
        }
        let mut found = 0;
        for seed in 0..12u64 {
            if found == 2 {
                break;
            }
            let Some((written, kept, side)) = taken_back_game(rules, seed * 97 + u64::from(key))
            else {
                continue;
            };
            if layouts.iter().any(|r| plays(r, &written)) {
                continue;
            }
            found += 1;
            let f = first(rules);
            for (n, given) in [Some(taken(&written, f)), Some(taken(&kept, f)), None]
                .into_iter()
                .enumerate()
            {
                let file = dir.path().join(format!("game-{key}-{seed}-{n}.json"));
                fs::write(&file, record_counted(name, key, &written, given)).unwrap();
                made.push((file, name, written.clone(), kept.clone(), side, n == 0));
            }
        }
    }
    let members = made.iter().filter(|m| m.5).count();
    assert!(members >= 250, "{members}");
    let err = convert_folder(dir.path(), made.len());
    let mut replayed = 0;
    for (file, name, written, kept, side, counted) in &made {
        let (f, said) = said_of(&err, file);
        let refused = said.iter().any(|l| l.contains("rules-refused"));
        if !counted {
            assert!(refused, "{name}: {said:?}");
            continue;
        }
        assert!(!refused, "{name}: {said:?}");
        let j = written.iter().zip(kept).take_while(|(w, k)| w == k).count();
        let warned = warnings_of(&said, "repeated-moves");
        let who = if *side == ATTACKERS {
            "attackers"
        } else {
            "defenders"
        };
        let text = format!(
            "the record writes `{} {}` and then another move of the {who} in their place",
            written[j],
            written[j + 1]
        );
        assert!(
            warned.len() == 1 && warned[0].contains(&text),
            "{name}: {text} in {said:?}"
        );
        let tafl = written_tafl(dir.path(), &f);
        let unmarked = tafl.replace("--", "").replace("++", "");
        let unmarked = unmarked.split_whitespace().collect::<Vec<_>>().join(" ");
        let up: Vec<String> = kept.iter().map(|m| m.to_uppercase()).collect();
        let line: Vec<String> = up
            .chunks(2)
            .enumerate()
            .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
            .collect();
        assert!(
            unmarked.contains(&line.join(" ")),
            "{name}: {line:?} in {tafl}"
        );
        replayed += 1;
    }
    assert_eq!(replayed, members);
}
