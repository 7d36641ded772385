//! The rules of a tafl game, as an OpenTafl rules string, and the replay
//! that tracks every piece, checks each move and computes its captures.
//!
//! A rules string (`dim:11 atkf:y ks:s sw:s efe:y start:/3ttttt3/.../`)
//! starts with the board's side and ends with the start position (`start:`
//! lists rank 1 first, `starti:` the top rank first); between them, the
//! entries of opentafl-notation-spec.txt: escape to the corners or edges
//! (`esc`), who moves first (`atkf`), the king armed (`ka`) and strong
//! (`ks`), corner and centre squares (`cor`, `cen`), whom they are hostile
//! to and who may pass or stop on them (`corh cenh cenhe corp cenp cors
//! cens`), shield walls (`sw`), edge forts (`efe`), berserk moves (`ber`)
//! and jumps (`kj nj cj`). Entries kifu does not know (`name:`, `tfr:`,
//! fortresses) are kept as written; the string is written back exactly as
//! read, but for its squares when the board is seen from another side
//! ([`Rules::transformed`]).

use crate::ir::Tag;

mod position;
mod replay;

pub use super::rulestring::*;
pub use position::*;
pub use replay::*;

impl Rules {
    /// The rules with the start position a game's `Position` tag (otn's
    /// `position`: a position record, rank 1 first) gives, when it has
    /// one; the error says what is wrong with the tag.
    pub fn at_position(&self, tags: &[Tag]) -> Result<Rules, String> {
        let mut r = self.clone();
        if let Some(t) = tags
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case("Position"))
        {
            r.start = position(t.value.trim(), self.dim, false).map_err(|e| {
                format!("the position {}: {e}", crate::error::quote(t.value.trim()))
            })?;
            if r.start.iter().filter(|&&p| p == b'K').count() != 1 {
                return Err("the position has no king `K`, or more than one".into());
            }
        }
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::hnefatafl::{Square, Step, ATTACKERS};
    use crate::ir::Side;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn step(from: &str, to: &str) -> Step {
        Step {
            from: sq(from),
            via: Vec::new(),
            to: sq(to),
            captures: Vec::new(),
            mark: None,
        }
    }

    /// A position of the rules with `start` replaced by a position record.
    fn rules(preset: &str, start: &str) -> Rules {
        let base = Rules::preset(preset).unwrap();
        let text = base.text().split(" start:").next().unwrap().to_string();
        Rules::parse(&format!("{text} start:{start}")).unwrap()
    }

    fn captures(r: &Rules, from: &str, to: &str, side: Side) -> (Vec<String>, bool, bool) {
        let mut pos = Position::new(r);
        let p = pos.play(&step(from, to), side, true).unwrap();
        let mut c: Vec<String> = p.captures.iter().map(|s| s.to_string()).collect();
        c.sort();
        (c, p.king_captured, p.escaped)
    }

    const ATT: Side = ATTACKERS;

    #[test]
    fn rules_strings_read_with_their_defaults() {
        let r = Rules::preset("Copenhagen").unwrap();
        assert_eq!(r.dim, 11);
        assert_eq!(r.preset_name(), Some("copenhagen"));
        assert_eq!(r.start_piece(sq("f6")), Some(b'K'));
        assert_eq!(r.start_piece(sq("d1")), Some(b't'));
        assert_eq!(r.shieldwall, Shieldwall::Strong);
        let puzzle = Rules::parse(
            "dim:7 name:CopenhagenPuzzle atkf:y tfr:w cor:g7, cen:b2, sw:s efe:y starti:/tt2T2/1t2K2/2tt3/6t/3TTt1/4Tt1/4Tt1/",
        )
        .unwrap();
        assert_eq!(puzzle.corners, [sq("g7")]);
        assert_eq!(puzzle.start_piece(sq("e6")), Some(b'K'));
        assert_eq!(puzzle.start_piece(sq("f3")), Some(b't'));
        for bad in [
            "dim:4 start:/4/4/4/4/",
            "start:/3/",
            "dim:7",
            "dim:7 ka:q start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
            "dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t2/",
        ] {
            assert!(Rules::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn custodial_captures_against_pieces_corners_and_the_throne() {
        // An attacker on d2 moves to d4: the defender on e4 is caught
        // against f4.
        let r = rules("copenhagen", "/11/3t7/11/4Tt5/11/5K5/11/11/11/11/11/");
        assert_eq!(captures(&r, "d2", "d4", ATT).0, ["e4"]);
        // Against a corner: a defender on b1, an attacker moving to c1.
        let r = rules("copenhagen", "/1T9/2t8/11/11/11/5K5/11/11/11/11/11/");
        assert_eq!(captures(&r, "c2", "c1", ATT).0, ["b1"]);
        // Against the empty throne: the king is away, a defender on f5.
        let r = rules("copenhagen", "/11/11/5t5/11/5T5/11/11/11/11/11/K10/");
        assert_eq!(captures(&r, "f3", "f4", ATT).0, ["f5"]);
        // Moving between two enemies is safe.
        let r = rules("copenhagen", "/11/11/11/4T1T4/11/11/11/11/11/5t5/K10/");
        assert!(captures(&r, "f10", "f4", ATT).0.is_empty());
    }

    #[test]
    fn tough_pieces_are_captured_from_three_sides() {
        let r = |start: &str| {
            Rules::parse(&format!("dim:7 atkf:y cen: three:c3 start:{start}")).unwrap()
        };
        // Between two attackers (b3, d3) the piece from c3 stands; a third
        // on c2 closes it.
        assert!(captures(&r("/3t3/7/1tT4/7/7/4K2/7/"), "d1", "d3", ATT)
            .0
            .is_empty());
        assert_eq!(
            captures(&r("/3t3/2t4/1tT4/7/7/4K2/7/"), "d1", "d3", ATT).0,
            ["c3"]
        );
        // It stays tough when it moves; its empty start square closes on it.
        let play = |start: &str, to: &str, hammer: &str| {
            let rules = r(start);
            let mut pos = Position::new(&rules);
            pos.play(&step("c3", to), ATT.other(), true).unwrap();
            let p = pos.play(&step("d1", hammer), ATT, true).unwrap();
            p.captures.iter().map(|s| s.to_string()).collect::<Vec<_>>()
        };
        assert_eq!(play("/3t3/7/2T4/1t5/7/4K2/7/", "c4", "d4"), ["c4"]);
        assert!(play("/3t3/7/2T4/7/1t5/4K2/7/", "c5", "d5").is_empty());
        // Turned with the board.
        let turned = r("/3t3/7/1tT4/7/7/4K2/7/").transformed(2, false);
        assert_eq!(turned.tough, [sq("e5")]);
        assert!(turned.text().contains("three:e5"), "{}", turned.text());
    }

    #[test]
    fn pieces_that_change_sides_when_captured() {
        // The defender from c3 (`flip:c3`) is turned over, not taken, by
        // the attackers' d1-d3 closing on it against b3; it moves for
        // them, and the defenders' capture turns it back where it stands.
        let start = "/3t3/7/1tT4/7/7/2T1K2/3t3/";
        let rules = Rules::parse(&format!("dim:7 atkf:y cen: flip:c3 start:{start}")).unwrap();
        let mut pos = Position::new(&rules);
        let p = pos.play(&step("d1", "d3"), ATT, true).unwrap();
        assert_eq!(p.captures, [sq("c3")]);
        assert_eq!(pos.piece(sq("c3")), Some(b't'));
        pos.play(&step("e6", "e4"), ATT.other(), true).unwrap();
        pos.play(&step("c3", "c5"), ATT, true).unwrap();
        assert_eq!(pos.piece(sq("c5")), Some(b't'));
        let p = pos.play(&step("e4", "c4"), ATT.other(), true).unwrap();
        assert_eq!(p.captures, [sq("c5")]);
        assert_eq!(pos.piece(sq("c5")), Some(b'T'));
        // Without `flip`, the piece is taken for good.
        let plain = Rules::parse(&format!("dim:7 atkf:y cen: start:{start}")).unwrap();
        let mut pos = Position::new(&plain);
        pos.play(&step("d1", "d3"), ATT, true).unwrap();
        assert_eq!(pos.piece(sq("c3")), None);
        // Turned with the board.
        let turned = rules.transformed(2, false);
        assert_eq!(turned.turncoats, [sq("e5")]);
        assert!(turned.text().contains("flip:e5"), "{}", turned.text());
    }

    #[test]
    fn the_king_armed_or_not() {
        // The king moves d6-d4: the attacker on e4 is caught against the
        // defender on f4 when the king is armed.
        let armed = rules("copenhagen", "/11/11/11/4tT5/11/3K7/11/11/11/11/5t5/");
        assert_eq!(captures(&armed, "d6", "d4", ATT.other()).0, ["e4"]);
        let unarmed = rules("sea-battle", "/9/9/9/4tT3/9/3K5/9/9/4t4/");
        assert!(captures(&unarmed, "d6", "d4", ATT.other()).0.is_empty());
    }

    #[test]
    fn the_king_captured_by_four_or_two() {
        // Copenhagen: the king on c9, attackers on b9, d9 and c10; one
        // comes c7-c8.
        let four = rules("copenhagen", "/11/11/11/11/11/5T5/2t8/11/1tKt7/2t8/11/");
        let (c, king, _) = captures(&four, "c7", "c8", ATT);
        assert!(king && c == ["c9"], "{c:?}");
        // Three sides only: no capture.
        let three = rules("copenhagen", "/11/11/11/11/11/5T5/2t8/11/1tK8/2t8/11/");
        assert!(!captures(&three, "c7", "c8", ATT).1);
        // On the edge the king cannot be surrounded.
        let edge = rules("copenhagen", "/11/11/11/11/11/5T5/11/11/2t8/11/1tKt7/");
        assert!(!captures(&edge, "c9", "c10", ATT).1);
        // Brandubh: two sides away from the throne.
        let two = rules("brandubh", "/7/1t1Kt2/7/3T3/7/7/7/");
        let (c, king, _) = captures(&two, "b2", "c2", ATT);
        assert!(king && c == ["d2"], "{c:?}");
        // Beside the throne, four are needed: three and the empty throne.
        let beside = rules("brandubh", "/7/t6/2tKt2/7/7/7/6T/");
        let (c, king, _) = captures(&beside, "a2", "d2", ATT);
        assert!(king && c == ["d3"], "{c:?}");
        let two_only = rules("brandubh", "/7/t6/2tK3/7/7/7/6T/");
        assert!(!captures(&two_only, "a2", "d2", ATT).1);
    }

    #[test]
    fn the_king_escapes_to_a_corner_or_an_edge() {
        let r = rules("copenhagen", "/11/11/11/11/11/t10/11/11/11/11/K10/");
        let mut pos = Position::new(&r);
        assert!(
            !pos.play(&step("a11", "e11"), ATT.other(), true)
                .unwrap()
                .escaped
        );
        assert!(
            pos.play(&step("e11", "k11"), ATT.other(), true)
                .unwrap()
                .escaped
        );
        let t = rules("tablut", "/9/9/9/9/4K4/9/9/9/t8/");
        let mut pos = Position::new(&t);
        assert!(
            pos.play(&step("e5", "e1"), ATT.other(), true)
                .unwrap()
                .escaped
        );
    }

    #[test]
    fn shield_walls_capture_along_the_edge() {
        // Defenders on c1 d1 e1, attackers in front on c2 d2 e2, one on
        // b1; an attacker comes to f1 from f3.
        let r = rules("copenhagen", "/1tTTT6/2ttt6/5t5/11/11/5K5/11/11/11/11/11/");
        let (c, _, _) = captures(&r, "f3", "f1", ATT);
        assert_eq!(c, ["c1", "d1", "e1"]);
        // The king in the wall is not captured, those beside him are.
        let r = rules("copenhagen", "/1tTKT6/2ttt6/5t5/11/11/11/11/11/11/11/11/");
        let (c, king, _) = captures(&r, "f3", "f1", ATT);
        assert_eq!(c, ["c1", "e1"]);
        assert!(!king);
        // Without shield walls (fetlar), nothing.
        let f = rules("fetlar", "/1tTTT6/2ttt6/5t5/11/11/5K5/11/11/11/11/11/");
        assert!(captures(&f, "f3", "f1", ATT).0.is_empty());
    }

    #[test]
    fn edge_forts() {
        // The king on e1 with room on e2, walled by d1 f1 d2 f2 e3, e3
        // covered by d3.
        let fort = rules("copenhagen", "/3TKT5/3T1T5/3TT6/11/11/11/11/11/11/11/t10/");
        assert!(Position::new(&fort).edge_fort());
        // Without d3, e3 can be captured: no fort.
        let open = rules("copenhagen", "/3TKT5/3T1T5/4T6/11/11/11/11/11/11/11/t10/");
        assert!(!Position::new(&open).edge_fort());
        // An attacker inside: no fort.
        let inside = rules("copenhagen", "/3TKT5/3TtT5/3TT6/11/11/11/11/11/11/11/11/");
        assert!(!Position::new(&inside).edge_fort());
        // No room to move: no fort.
        let shut = rules("copenhagen", "/3TKT5/4T6/11/11/11/11/11/11/11/11/t10/");
        assert!(!Position::new(&shut).edge_fort());
        // Off the edge: no fort.
        assert!(!Position::new(&Rules::preset("copenhagen").unwrap()).edge_fort());
    }

    #[test]
    fn men_jump_where_the_rules_say() {
        // Whether the piece on `from` may move to `to`, two squares, under
        // rules with these entries and this start.
        let ok = |extra: &str, start: &str, from: &str, to: &str, side: Side| {
            let r = Rules::parse(&format!("dim:11 {extra} start:{start}")).unwrap();
            Position::new(&r).check_step(&step(from, to), side).is_ok()
        };
        // An attacker on d2, a defender on d3; a defender on f2, an
        // attacker on f3.
        let start = "/11/3t1T5/3T1t5/11/11/5K5/11/11/11/11/11/";
        assert!(
            !ok("", start, "d2", "d4", ATT),
            "men do not jump by default"
        );
        assert!(ok("tj:j", start, "d2", "d4", ATT));
        assert!(ok("tj:j", start, "f2", "f4", ATT.other()));
        // Over a man of its own side only where `jo` names the jumper.
        let own = "/11/3t7/3t7/11/11/5K5/11/11/11/11/11/";
        assert!(!ok("tj:j", own, "d2", "d4", ATT));
        assert!(ok("tj:j jo:t", own, "d2", "d4", ATT));
        assert!(!ok("tj:j jo:T", own, "d2", "d4", ATT));
        // Never over the king.
        let king = "/11/3t7/3K7/11/11/11/11/11/11/11/11/";
        assert!(!ok("tj:j jo:tT", king, "d2", "d4", ATT));
        // A capturing jump takes an enemy, never its own man.
        let r = Rules::parse(&format!("dim:11 tj:c jo:t start:{own}")).unwrap();
        assert!(captures(&r, "d2", "d4", ATT).0.is_empty());
        let r = Rules::parse(&format!("dim:11 tj:c start:{start}")).unwrap();
        assert_eq!(captures(&r, "d2", "d4", ATT).0, ["d3"]);
        // The king jumps by `kj`, over a man of his own by `jo:K`.
        let kings = "/11/3K7/3T7/11/11/11/11/11/11/11/t10/";
        assert!(!ok("kj:j", kings, "d2", "d4", ATT.other()));
        assert!(ok("kj:j jo:K", kings, "d2", "d4", ATT.other()));
        assert!(Rules::parse(&format!("dim:11 tj:x start:{own}")).is_err());
        assert!(Rules::parse(&format!("dim:11 jo:q start:{own}")).is_err());
    }

    #[test]
    fn a_jump_lets_the_piece_go_on_under_bj_y() {
        // A commander on d2 jumps the defender on d3 (`cj:j`, no capture),
        // then goes on to d5, taking the defender on d6 against d7.
        let start = "/11/3c7/3T7/11/11/3T1K5/3t7/11/11/11/11/";
        let legs = |to: &str| Step {
            via: vec![sq("d4")],
            ..step("d2", to)
        };
        let play = |extra: &str, to: &str| {
            let r = Rules::parse(&format!("dim:11 ber:c {extra} start:{start}")).unwrap();
            let mut pos = Position::new(&r);
            pos.play(&legs(to), ATT, true)
                .map(|p| p.captures.iter().map(|s| s.to_string()).collect::<Vec<_>>())
        };
        assert!(play("", "d5").is_err(), "no leg after a jump by default");
        assert!(play("bj:n", "d5").is_err());
        assert_eq!(play("bj:y", "d5").unwrap(), ["d6"]);
        // Under `ber:c`, the leg after the jump must capture, as after a
        // capture.
        assert!(play("bj:y", "e4").is_err());
        assert!(Rules::parse(&format!("dim:11 bj:x start:{start}")).is_err());
    }

    #[test]
    fn a_berserk_leg_may_be_a_jump_under_bj_l() {
        // An attacker's man on d2 jumps the defender on d3 (`tj:j`) to d4,
        // taking the defender on d5 against d6, and jumps back to d2, a leg
        // that captures nothing (Old Tyr-2's jump back).
        let start = "/11/3t7/3T7/11/3T7/3t7/11/11/7K3/11/11/";
        let play = |extra: &str, start: &str, via: &str, to: &str| {
            let r = Rules::parse(&format!("dim:11 tj:j {extra} start:{start}")).unwrap();
            let mut pos = Position::new(&r);
            let legs = Step {
                via: vec![sq(via)],
                ..step("d2", to)
            };
            pos.play(&legs, ATT, true)
                .map(|p| p.captures.iter().map(|s| s.to_string()).collect::<Vec<_>>())
        };
        assert!(play("ber:t", start, "d4", "d2").is_err());
        assert!(play("ber:c", start, "d4", "d2").is_err());
        assert_eq!(play("ber:t bj:l", start, "d4", "d2").unwrap(), ["d5"]);
        assert_eq!(play("ber:c bj:l", start, "d4", "d2").unwrap(), ["d5"]);
        // A leg that neither jumps nor captures is still refused.
        assert!(play("ber:t bj:l", start, "d4", "e4").is_err());
        // No leg after a jump that captured nothing (no man on d6).
        let bare = "/11/3t7/3T7/11/3T7/11/11/11/7K3/11/11/";
        assert!(play("ber:t bj:l", bare, "d4", "d2").is_err());
    }

    #[test]
    fn moves_are_checked() {
        let r = Rules::preset("copenhagen").unwrap();
        let pos = Position::new(&r);
        assert!(pos.check_step(&step("d1", "d3"), ATT).is_ok());
        assert!(pos.check_step(&step("d1", "e3"), ATT).is_err());
        assert!(pos.check_step(&step("f6", "f9"), ATT.other()).is_err());
        assert!(
            pos.check_step(&step("f4", "f3"), ATT).is_err(),
            "the other side's piece"
        );
        assert!(
            pos.check_step(&step("c3", "c4"), ATT).is_err(),
            "empty square"
        );
        assert!(
            pos.check_step(&step("a6", "c6"), ATT).is_err(),
            "in the way"
        );
    }
}
