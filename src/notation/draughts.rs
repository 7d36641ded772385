//! What the two draughts notations share: the board and setup a record's
//! tags give, and the result tokens that end a record.

use crate::error::Problem;
use crate::ir::draughts::{Board, SquareStyle};
use std::borrow::Cow;

use crate::ir::draughts::Move as DMove;
use crate::ir::{Game, Move, Setup, Tag, Variant};
use crate::notation::container::{self, Start, Style};
use crate::notation::ReadOptions;
use crate::rules::draughts::parse_fen;

/// Result tokens that end a draughts record (for the record splitter).
pub const RESULTS: &[&str] = &[
    "2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2", "½-½", "*",
];

/// The board a draughts record is read on, and whether it was assumed.
#[derive(Debug, Clone, Copy)]
pub struct BoardChoice {
    /// The board.
    pub board: Board,
    /// True when neither a GameType tag nor `--variant` named it.
    pub assumed: bool,
}

/// Decides the board (`--variant`, else the GameType tag, else international)
/// and reads the FEN tag against it.
pub fn start(
    tags: &[Tag],
    at: &dyn Fn(&str) -> (usize, usize),
    opts: &ReadOptions,
) -> Result<(BoardChoice, Start), Problem> {
    let mut warnings = Vec::new();
    let game_type = tags.iter().find(|t| t.name == "GameType");
    let (board, assumed) = match (opts.draughts, game_type) {
        (Some(b), _) => (b, false),
        (None, Some(t)) => {
            let b = Board::from_game_type(&t.value).map_err(|e| Problem::at(at("GameType"), e))?;
            if let Some(standard) = Board::preset(b.game_type) {
                if standard != b {
                    warnings.push(Problem::at(
                        at("GameType"),
                        format!(
                            "GameType `{}` differs from the standard `{}`; read as written (--variant overrides)",
                            t.value,
                            standard.game_type_string()
                        ),
                    ));
                }
            }
            (b, false)
        }
        (None, None) => (Board::INTERNATIONAL, true),
    };
    let setup = match tags.iter().find(|t| t.name == "FEN") {
        Some(t) => Some(parse_fen(&t.value, &board).map_err(|e| Problem::at(at("FEN"), e))?),
        None => None,
    };
    let to_move = setup.as_ref().and_then(|p| p.to_move);
    Ok((
        BoardChoice { board, assumed },
        Start {
            variant: Variant::Draughts(board),
            setup: setup.map(Setup::Draughts),
            to_move,
            number: None,
            warnings,
        },
    ))
}

/// The board an assumed international board becomes when its moves are
/// written with alphanumeric squares: a1 at the bottom left.
pub fn alpha_board(board: Board) -> Board {
    Board {
        style: SquareStyle::Alpha,
        corner: 0,
        ..board
    }
}

/// The draughts board of a game, or the error a draughts writer gives for a
/// game of another family.
pub fn board_of(game: &Game, format: &str) -> Result<Board, Problem> {
    match &game.variant {
        Variant::Draughts(b) => Ok(*b),
        other => Err(Problem::whole(format!(
            "a {} game cannot be written as {format}",
            other.family().name()
        ))),
    }
}

/// The tags to write, with a GameType tag that names the board whenever the
/// tags alone would not give it back (a board from `--variant` or guessed
/// from the squares): the short form for a standard board, else the full one.
pub fn with_board_tag(tags: &[Tag], board: Board) -> Cow<'_, [Tag]> {
    let tag = tags.iter().position(|t| t.name == "GameType");
    let named = match tag {
        Some(i) => Board::from_game_type(&tags[i].value).ok(),
        None => Some(Board::INTERNATIONAL),
    };
    if named == Some(board) {
        return Cow::Borrowed(tags);
    }
    let value = if Board::preset(board.game_type) == Some(board) {
        board.game_type.to_string()
    } else {
        board.game_type_string()
    };
    let mut tags = tags.to_vec();
    match tag {
        Some(i) => tags[i].value = value,
        None => tags.push(Tag::new("GameType", value)),
    }
    Cow::Owned(tags)
}

/// The draughts move of a ply, or the error for a move of another family.
pub fn draughts_move(mv: &Move) -> Result<&DMove, Problem> {
    match mv {
        Move::Draughts(m) => Ok(m),
        _ => Err(Problem::whole("a move of another game in a draughts game")),
    }
}

/// Writes a draughts game in the PGN-style container: the board's GameType
/// tag when needed, and every move spelled by `spell` on the game's board.
pub fn write_game(
    game: &Game,
    format: &str,
    out: &mut String,
    spell: impl Fn(&Board, &DMove, &mut String) -> Result<(), Problem>,
) -> Result<Vec<Problem>, Problem> {
    let board = board_of(game, format)?;
    container::write(
        game,
        &with_board_tag(&game.tags, board),
        out,
        Style::default(),
        |mv, buf| spell(&board, draughts_move(mv)?, buf),
    )?;
    Ok(Vec::new())
}
