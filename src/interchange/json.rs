//! `json` and `jsonl`: the IR as JSON. Any game written and read back is the
//! same game.

use crate::error::Problem;
use crate::ir::draughts::Board;
use crate::ir::{is_glyph, Game, Line, Setup, Variant};
use crate::notation::draughts::draughts_move;
use crate::notation::{Parsed, ReadOptions, WriteOptions};

/// Reads one game (one array element or one line).
pub fn read(text: &str, _opts: &ReadOptions) -> Result<Parsed, Problem> {
    let game: Game = serde_json::from_str(text).map_err(|e| {
        let msg = e.to_string();
        let msg = match msg.find(" at line ") {
            Some(i) => msg[..i].to_string(),
            None => msg,
        };
        Problem::at(
            (e.line().max(1), e.column().max(1)),
            format!("invalid game JSON: {msg}"),
        )
    })?;
    validate(&game)?;
    Ok(Parsed {
        game,
        warnings: Vec::new(),
    })
}

/// Writes one game as one line of JSON, without a newline.
pub fn write(game: &Game, _opts: &WriteOptions, out: &mut String) -> Result<Vec<Problem>, Problem> {
    let text = serde_json::to_string(game).map_err(|e| Problem::whole(e.to_string()))?;
    out.push_str(&text);
    Ok(Vec::new())
}

/// Writes one game as one line of JSON, with its newline.
pub fn write_line(
    game: &Game,
    opts: &WriteOptions,
    out: &mut String,
) -> Result<Vec<Problem>, Problem> {
    let warnings = write(game, opts, out)?;
    out.push('\n');
    Ok(warnings)
}

/// Checks what the JSON schema cannot: that the board is one kifu can
/// handle and every move is possible on it.
fn validate(game: &Game) -> Result<(), Problem> {
    check_glyphs(&game.moves)?;
    match &game.variant {
        Variant::Draughts(board) => validate_draughts(game, board),
        Variant::Chess(_) => crate::rules::chess::check_game(game).map_err(Problem::whole),
    }
}

/// Every glyph must be one a writer can write and read back.
fn check_glyphs(line: &Line) -> Result<(), Problem> {
    for ply in &line.plies {
        if let Some(g) = ply.glyph.as_deref().filter(|g| !is_glyph(g)) {
            return Err(Problem::whole(format!(
                "{} `{g}` is not a move glyph (`!`, `?`, `!?`, `(!)`, ...)",
                ply.label()
            )));
        }
        for v in &ply.variations {
            check_glyphs(v)?;
        }
    }
    Ok(())
}

fn validate_draughts(game: &Game, board: &Board) -> Result<(), Problem> {
    let check = Board::from_game_type(&board.game_type_string());
    if check.as_ref().ok() != Some(board) {
        return Err(Problem::whole(format!(
            "board {} is not one kifu can read",
            board.game_type_string()
        )));
    }
    let bad = |n: u16| Problem::whole(format!("square {n} is not on the board"));
    if let Some(Setup::Draughts(p)) = &game.setup {
        for piece in p.white.iter().chain(&p.black) {
            if !board.contains(piece.square) {
                return Err(bad(piece.square.0));
            }
        }
    }
    fn line(l: &Line, board: &Board) -> Result<(), Problem> {
        for ply in &l.plies {
            let m = draughts_move(&ply.mv)?;
            if m.path.len() < 2 {
                return Err(Problem::whole("a draughts move needs at least two squares"));
            }
            if let Some(sq) = m.path.iter().find(|s| !board.contains(**s)) {
                return Err(Problem::whole(format!(
                    "square {} is not on the board",
                    sq.0
                )));
            }
            for v in &ply.variations {
                line(v, board)?;
            }
        }
        Ok(())
    }
    line(&game.moves, board)
}
