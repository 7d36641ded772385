//! The tag section as the grammar reads it (a damaged one repaired, with
//! warnings), and the Result tag checked against the movetext.

use pest::iterators::Pair;

use super::{unescape, write_tags, ContainerRule, Kind, Repair};
use crate::codec::Lines;
use crate::error::Problem;
use crate::ir::Results;
use crate::ir::{Game, GameResult, Tag};

/// The warning of a line holding a lone `[` at `at`.
pub(super) fn lone_bracket(lines: &Lines<'_>, at: usize) -> Problem {
    Problem::at(lines.at(at), "a line holding a lone `[` was skipped")
        .of_kind(crate::error::Kind::TagRepair)
}

/// Reads a `tag` pair into its name and value, with a warning for each
/// repair of a damaged tag. `lone`: where a line holding a lone `[` came
/// just before it, not said yet.
pub(super) fn read_tag<R: ContainerRule>(
    lines: &Lines<'_>,
    pair: Pair<'_, R>,
    lone: Option<usize>,
    warnings: &mut Vec<Problem>,
) -> (String, String) {
    let start = pair.as_span().start();
    // Located only for a warning.
    let at = || lines.at(start);
    let written = pair.as_str();
    // The tag as written, without stray text after it.
    let mut end = written.find(['\r', '\n']).unwrap_or(written.len());
    let mut name = String::new();
    let mut value = String::new();
    let mut said: Option<&str> = None;
    // The tag lost its `[` to the line before: the lone `[` is said with it.
    let mut split = false;
    for part in pair.into_inner() {
        match part.as_rule().kind() {
            Kind::TagName => name.push_str(part.as_str()),
            Kind::TagBare => value = part.as_str().trim_end().to_string(),
            Kind::TagValue => value = unescape(part.into_inner().next().map_or("", |t| t.as_str())),
            Kind::Repair(Repair::NameWords) => {
                name.extend(part.as_str().split([' ', '\t']));
                said = Some("a tag name of several words was read without its spaces");
            }
            Kind::Repair(Repair::OpenQuote) => {
                value = part.as_str().trim_end().to_string();
                said = said.or(Some("a tag value without its closing quote"));
            }
            Kind::Repair(Repair::Cut) => said = Some("a tag line cut short before its `]`"),
            Kind::Repair(Repair::Unopened) => {
                split = lone.is_some();
                said = Some(if split {
                    "a tag split across lines (`[` alone on the line before)"
                } else {
                    "a tag line without its `[`"
                });
            }
            Kind::Repair(Repair::Wrapped) => {
                // The line end and the blanks around it, one blank.
                let text = part.as_str();
                let cut = text.find(['\r', '\n']).unwrap_or(text.len());
                value = format!("{} {}", text[..cut].trim_end(), text[cut..].trim_start());
                said = Some("a tag value split across lines");
                end = written.len();
            }
            Kind::Repair(Repair::Split) => {
                said = Some("a tag split across lines");
                // Quoted whole, its line end as a blank.
                end = written.len();
            }
            Kind::Repair(Repair::Reopen) => warnings.push(
                Problem::at(at(), "a doubled `[` before a tag name was skipped")
                    .of_kind(crate::error::Kind::TagRepair),
            ),
            Kind::Repair(Repair::Stray) => {
                end = end.min(part.as_span().start() - start);
                warnings.push(
                    Problem::at(
                        lines.at(part.as_span().start()),
                        "text after a tag's `]` on its line was skipped",
                    )
                    .of_kind(crate::error::Kind::TagRepair),
                );
            }
            _ => {}
        }
    }
    if let Some(at) = lone.filter(|_| !split) {
        warnings.push(lone_bracket(lines, at));
    }
    if let Some(what) = said {
        let mut quoted = String::new();
        write_tags(
            &[Tag::new(name.as_str(), value.as_str())],
            &mut quoted,
            &mut Vec::new(),
        );
        warnings.push(
            Problem::at(
                at(),
                format!(
                    "{what}: {} read as {}",
                    crate::error::quote(written[..end].trim_end()),
                    quoted.trim_end()
                ),
            )
            .of_kind(crate::error::Kind::TagRepair),
        );
    }
    (name, value)
}

/// A Result tag holding a placeholder (`?`, empty) or a spaced result
/// (`1 - 0`) is read as the result it means ([`Game::effective_result`]) and
/// kept as written, with a warning.
pub(super) fn check_result_tag(
    lines: &Lines<'_>,
    tags: &[Tag],
    tag_at: &[usize],
    result_tag: Option<usize>,
    results: &Results,
    warnings: &mut Vec<Problem>,
) {
    let Some(i) = result_tag else {
        return;
    };
    let value = tags[i].value.as_str();
    if results.parse(value).is_none() && GameResult::parse(value).is_none() {
        let damaged = results
            .parse_damaged(value)
            .or_else(|| GameResult::parse_damaged(value));
        if let Some((_, repair)) = damaged {
            warnings
                .push(Problem::at(lines.at(tag_at[i]), repair.message()).of_kind(repair.kind()));
        }
    }
}

/// A Result tag that says another result than the movetext ends with
/// (`[Result "1-0"]` and `0-1`; [`crate::ir::Outcome::agrees`]): both are
/// kept as written, with a warning (pgn-extract reports it too; `--strict`
/// fails the game).
pub(super) fn check_result_agrees(
    lines: &Lines<'_>,
    tags: &[Tag],
    tag_at: &[usize],
    result_tag: Option<usize>,
    result: Option<GameResult>,
    results: &Results,
    warnings: &mut Vec<Problem>,
) {
    let Some(ended) = result else { return };
    let Some(i) = result_tag else {
        return;
    };
    let Some(said) = results.parse(tags[i].value.trim()) else {
        return;
    };
    if !said.outcome.agrees(ended.outcome) {
        warnings.push(
            Problem::at(
                lines.at(tag_at[i]),
                format!(
                    "the Result tag says {} but the game ends with {}: both are kept as written",
                    crate::error::quote(&tags[i].value),
                    crate::error::quote(ended.token())
                ),
            )
            .of_kind(crate::error::Kind::ResultMismatch),
        );
    }
}

/// A game with no result token whose last move is spelled like its Result
/// tag (`4-6` in Delfts scoring) ends with a score kifu would otherwise take
/// for a move: refuse it rather than invent a move.
pub(super) fn check_score_as_move(
    lines: &Lines<'_>,
    game: &Game,
    last_move: Option<(&str, usize)>,
) -> Result<(), Problem> {
    if game.result.is_some() {
        return Ok(());
    }
    match (game.tag("Result"), last_move) {
        (Some(r), Some((mv, at))) if !r.is_empty() && r == mv => Err(Problem::at(
            lines.at(at),
            format!(
                "the game ends with {}, its Result tag, which is not a result this notation knows",
                crate::error::quote(mv)
            ),
        )
        .of_kind(crate::error::Kind::TagValue)),
        _ => Ok(()),
    }
}
