//! A game's moves spelled in a given format: each ply as the notation a
//! format entry names spells it ([`crate::format::Format::spell`]), for
//! `kifu diff` (each side's moves in its own notation) and the `csv`
//! tables' `move` column. How a notation spells a ply, and each family's
//! one replay that drives it, are the family floor's
//! ([`crate::family::spell`]).

use crate::family::spell::Lines;
use crate::format::Format;
use crate::ir::Game;
use crate::options::Settings;

/// How each ply of a game's main line is spelled in `format`, with the
/// format's options of `settings` (those the game was read with); `None`
/// when the format cannot spell them.
pub fn main_line(game: &Game, format: &Format, settings: &Settings) -> Option<Vec<String>> {
    spell_in(game, format, Lines::Main, settings)
}

fn spell_in(
    game: &Game,
    format: &Format,
    lines: Lines,
    settings: &Settings,
) -> Option<Vec<String>> {
    if format.family != Some(game.family()) {
        return None;
    }
    (format.spell?)(game, lines, settings).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::ReadOptions;
    use crate::error::Problem;
    use crate::family::spell::*;
    use crate::format::by_name;
    use crate::ir::Ply;

    /// Knights out and back `n` times, with another knight's move as a
    /// variation of every ply.
    fn knights(n: usize) -> Game {
        let mut text = String::new();
        for i in 0..n {
            let (a, b) = (2 * i + 1, 2 * i + 2);
            text.push_str(&format!(
                "{a}. Nf3 ({a}. Nh3) {a}... Nf6 ({a}... Nh6) {b}. Ng1 ({b}. Nh4) {b}... Ng8 ({b}... Nh5) "
            ));
        }
        text.push('*');
        let pgn = by_name("pgn").unwrap();
        pgn.read
            .unwrap()
            .game(&text, &ReadOptions::default())
            .unwrap()
            .game
    }

    #[test]
    fn every_ply_and_variation_is_spelled_in_the_order_of_the_container() {
        let diag = by_name("draughts-diag").unwrap();
        let num = by_name("draughts-num").unwrap();
        // As the writer writes the whole game: `1. e45 (1. fe5 de6) 1... e76
        // (1... c54 2. ed5) 2. e57x e86x *`.
        let text = "1. 32-28 (1. 33-28 18-23) 1... 19-23 (1... 17-21 2. 28-22) 2. 28x19 14x23 *";
        let game = num
            .read
            .unwrap()
            .game(text, &ReadOptions::default())
            .unwrap()
            .game;
        assert_eq!(
            spell_in(&game, diag, Lines::All, &Settings::default()).unwrap(),
            ["e45", "fe5", "de6", "e76", "c54", "ed5", "e57x", "e86x"]
        );
        assert_eq!(
            spell_in(&game, num, Lines::All, &Settings::default()).unwrap(),
            ["32-28", "33-28", "18-23", "19-23", "17-21", "28-22", "28x19", "14x23"]
        );
        assert_eq!(
            main_line(&game, num, &Settings::default()).unwrap(),
            ["32-28", "19-23", "28x19", "14x23"]
        );
        // Another family's format spells nothing.
        let pgn = by_name("pgn").unwrap();
        assert_eq!(spell_in(&game, pgn, Lines::All, &Settings::default()), None);
    }

    /// A pgn spelling that counts the plies it spells.
    struct Counted;

    thread_local! {
        static SPELLED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    impl Spell for Counted {
        type Replay = crate::family::chess::hooks::Positions;
        type Options = ();
        fn spell_ply(
            options: &(),
            before: crate::family::chess::Spelling,
            ply: &Ply,
            out: &mut String,
        ) -> Result<(), Problem> {
            SPELLED.with(|n| n.set(n.get() + 1));
            crate::family::chess::pgn::San::spell_ply(options, before, ply, out)
        }
    }

    #[test]
    fn a_variation_at_every_one_of_many_plies_is_spelled_once_each() {
        let pgn = by_name("pgn").unwrap();
        let spelled = spell_in(&knights(10), pgn, Lines::All, &Settings::default()).unwrap();
        assert_eq!(spelled[..4], ["Nf3", "Nh3", "Nf6", "Nh6"]);
        assert_eq!(spelled.len(), 80);
        // 20,000 plies with a variation each: each of the 40,000 plies is
        // spelled once (writing each variation with the plies that lead
        // to it, as kifu did, wrote 200 million), in one walk.
        let game = knights(5_000);
        let started = std::time::Instant::now();
        SPELLED.with(|n| n.set(0));
        let spelled = plies::<Counted>(&game, Lines::All, &Settings::default()).unwrap();
        assert_eq!(spelled.len(), 40_000);
        assert_eq!(SPELLED.with(std::cell::Cell::get), 40_000);
        assert_eq!(spelled[39_996..], ["Ng1", "Nh4", "Ng8", "Nh5"]);
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
    }
}
