//! A move spelled in a given notation: each ply of a game as a format
//! writes it, for `kifu diff` (each side's moves in its own notation) and
//! the `csv` tables' `move` column (each move in its source's notation).
//!
//! A format that writes movetext with comments is asked by writing the
//! game with a mark comment after every ply (tags, comments, glyphs and
//! variations left out) and cutting what it writes at the marks; a format
//! that holds no comments (a scoresheet) says how it spells its plies
//! itself ([`crate::format::Format::spell`]). A variation is spelled as the
//! line it is: the plies that lead to it, then its own.

use crate::codec::WriteOptions;
use crate::format::Format;
use crate::ir::{Comment, CommentKind, Game, Line, Ply};

/// Tags that the IR holds as typed fields or that restate the moves (the
/// start, the board, the result): a writer may need them to place the
/// moves, so the game that is spelled keeps them.
pub const DERIVED: [&str; 6] = ["Result", "FEN", "SetUp", "Variant", "GameType", "PlyCount"];

/// Tags besides [`DERIVED`] that say where a game starts: a writer that
/// names the pieces (otn) needs them.
const START: [&str; 1] = ["Position"];

/// The comment put after every ply to find where each move's text ends in
/// what a writer writes.
const MARK: &str = "kifu-spell-mark";

/// A game of `game`'s variant, start and [`DERIVED`] tags whose main line
/// is `plies` without their annotations, each followed by the mark when
/// `mark` says so.
fn bare(game: &Game, plies: &[&Ply], mark: bool) -> Game {
    let mut bare = Game::new(game.variant.clone());
    bare.setup = game.setup.clone();
    bare.tags = game
        .tags
        .iter()
        .filter(|t| {
            DERIVED
                .iter()
                .chain(&START)
                .any(|d| d.eq_ignore_ascii_case(&t.name))
        })
        .cloned()
        .collect();
    bare.moves.plies = plies
        .iter()
        .map(|p| {
            let mut p = Ply::new(p.number, p.side, p.mv.clone());
            if mark {
                p.after = vec![Comment {
                    kind: CommentKind::Brace,
                    text: MARK.to_string(),
                }];
            }
            p
        })
        .collect();
    bare
}

/// How each of `plies` (a line played from the game's start) is spelled
/// in `format`; `None` when the format cannot write them or what it writes
/// cannot be cut at the marks.
fn line(game: &Game, plies: &[&Ply], format: &Format) -> Option<Vec<String>> {
    if let Some(spell) = format.spell {
        return spell(&bare(game, plies, false)).filter(|s| s.len() == plies.len());
    }
    let write = format.write?;
    let mut out = String::new();
    write(&bare(game, plies, true), &WriteOptions::default(), &mut out).ok()?;
    let mark = format!("{{{MARK}}}");
    let pieces: Vec<&str> = out.split(&mark).collect();
    if pieces.len() != plies.len() + 1 {
        return None;
    }
    let spelled = pieces[..plies.len()].iter().map(|piece| {
        // The last line holds the move (tags and the line breaks of the
        // layout before it).
        let text = piece.trim();
        let text = text.rsplit("\n\n").next().unwrap_or(text);
        let words: Vec<&str> = text.split_whitespace().collect();
        // The move number: digits, then dots or the dialect's mark.
        let skip = usize::from(
            words.first().is_some_and(|w| {
                w.starts_with(|c: char| c.is_ascii_digit())
                    && w.trim_start_matches(|c: char| c.is_ascii_digit())
                        .chars()
                        .all(|c| c.is_ascii_punctuation())
            }) && words.len() > 1,
        );
        words[skip..].join(" ")
    });
    Some(spelled.collect())
}

/// How each ply of a game's main line is spelled in `format`; `None` when
/// the format cannot spell them (it writes no such game, or another
/// family's).
pub fn main_line(game: &Game, format: &Format) -> Option<Vec<String>> {
    if format.family != Some(game.family()) {
        return None;
    }
    let plies: Vec<&Ply> = game.moves.plies.iter().collect();
    line(game, &plies, format)
}

/// The most plies [`every_ply`] writes for one game: each variation is
/// written with the plies that lead to it, which a game with a variation
/// at every one of thousands of plies would make quadratic.
pub const BUDGET: usize = 200_000;

/// How every ply of a game is spelled in `format`, in the order the
/// container writes them (each ply, then its variations, as
/// [`crate::family::plies_in_order`] gives them); `None` when the format
/// cannot spell them all, or only by writing over [`BUDGET`] plies.
pub fn every_ply(game: &Game, format: &Format) -> Option<Vec<String>> {
    if format.family != Some(game.family()) {
        return None;
    }
    let mut out = Vec::new();
    // The main line is written once whatever its length.
    let mut budget = BUDGET + game.moves.plies.len();
    walk(
        game,
        &mut Vec::new(),
        &game.moves,
        format,
        &mut budget,
        &mut out,
    )?;
    Some(out)
}

/// Spells `line`, whose plies follow `lead`, and its variations, into
/// `out`, writing at most `budget` plies.
fn walk<'g>(
    game: &Game,
    lead: &mut Vec<&'g Ply>,
    line: &'g Line,
    format: &Format,
    budget: &mut usize,
    out: &mut Vec<String>,
) -> Option<()> {
    if line.plies.is_empty() {
        return Some(());
    }
    let start = lead.len();
    lead.extend(&line.plies);
    *budget = budget.checked_sub(lead.len())?;
    let spelled = self::line(game, lead, format);
    lead.truncate(start);
    let spelled = spelled?;
    for (i, (ply, text)) in line.plies.iter().zip(&spelled[start..]).enumerate() {
        out.push(text.clone());
        if ply.variations.is_empty() {
            continue;
        }
        // A variation replaces this ply: the plies before it lead to it.
        lead.extend(&line.plies[..i]);
        for v in &ply.variations {
            walk(game, lead, v, format, budget, out)?;
        }
        lead.truncate(start);
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::ReadOptions;
    use crate::format::by_name;

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
        (pgn.read.unwrap())(&text, &ReadOptions::default())
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
        let game = (num.read.unwrap())(text, &ReadOptions::default())
            .unwrap()
            .game;
        assert_eq!(
            every_ply(&game, diag).unwrap(),
            ["e45", "fe5", "de6", "e76", "c54", "ed5", "e57x", "e86x"]
        );
        assert_eq!(
            every_ply(&game, num).unwrap(),
            ["32-28", "33-28", "18-23", "19-23", "17-21", "28-22", "28x19", "14x23"]
        );
        // Another family's format spells nothing.
        assert_eq!(every_ply(&game, by_name("pgn").unwrap()), None);
    }

    #[test]
    fn a_variation_at_every_one_of_many_plies_is_not_spelled_past_the_budget() {
        let pgn = by_name("pgn").unwrap();
        let spelled = every_ply(&knights(10), pgn).unwrap();
        assert_eq!(spelled[..4], ["Nf3", "Nh3", "Nf6", "Nh6"]);
        assert_eq!(spelled.len(), 80);
        // 1,600 plies with a variation each: 1.3 million plies to write.
        assert_eq!(every_ply(&knights(400), pgn), None);
    }
}
