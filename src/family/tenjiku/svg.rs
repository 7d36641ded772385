//! A tenjiku game drawn ([`crate::family::draw`]) on its 16x16 board as
//! shogi diagrams draw it: Black at the bottom (White when flipped), file
//! 16 on the left and 1 on the right, rank a at the top; each piece a
//! wedge pointing at the enemy, named by its kanji (the default) or by an
//! abbreviation set (`pieces=tsa`, `wikipedia`, `pbem`: the sets of the
//! `tenjiku` format), a promoted piece named as what it moves as, in red;
//! the squares of the last move marked and the pieces it took (captured
//! or burned) crossed out. The positions are the replay's
//! ([`rules::Board::play`], from [`rules::start_of`]).

use crate::error::Problem;
use crate::family::draw::{self, Diagram, Grid, View};
use crate::family::tenjiku::{rules, Abbreviations, Kind, Piece, Square};
use crate::ir::{Game, Side};

/// The squares, the marks of the last move, the pieces.
const BOARD: &str = "#f3d98f";
const LINE: &str = "#6b5a2a";
const MARKED: &str = "#e5b94e";
const TAKEN: &str = "#c0392b";
const WOOD: &str = "#fcebc4";

/// A kind's name in kanji, as the pieces are inscribed (the king as 玉).
fn kanji(kind: Kind) -> &'static str {
    use Kind::*;
    match kind {
        King => "玉将",
        GreatGeneral => "大将",
        ViceGeneral => "副将",
        RookGeneral => "飛将",
        BishopGeneral => "角将",
        FreeEagle => "奔鷲",
        FreeKing => "奔王",
        SoaringEagle => "飛鷲",
        HornedFalcon => "角鷹",
        WaterBuffalo => "水牛",
        ChariotSoldier => "車兵",
        FireDemon => "火鬼",
        LionHawk => "獅鷹",
        Lion => "獅子",
        DragonKing => "龍王",
        DragonHorse => "龍馬",
        Rook => "飛車",
        Bishop => "角行",
        Kirin => "麒麟",
        Phoenix => "鳳凰",
        DrunkElephant => "酔象",
        BlindTiger => "盲虎",
        FerociousLeopard => "猛豹",
        Gold => "金将",
        Silver => "銀将",
        Copper => "銅将",
        VerticalMover => "竪行",
        SideMover => "横行",
        ReverseChariot => "反車",
        VerticalSoldier => "竪兵",
        SideSoldier => "横兵",
        Lance => "香車",
        Knight => "桂馬",
        Iron => "鉄将",
        Dog => "犬",
        Pawn => "歩兵",
        CrownPrince => "太子",
        HeavenlyTetrarch => "四天",
        MultiGeneral => "雑将",
        FlyingStag => "飛鹿",
        FreeBoar => "奔猪",
        FlyingOx => "飛牛",
        Whale => "鯨鯢",
        WhiteHorse => "白駒",
    }
}

/// How the pieces are named: kanji, or an abbreviation set.
#[derive(Debug, Clone, Copy)]
enum Names {
    Kanji,
    Letters(Abbreviations),
}

/// The piece's inscription: its lines, top to bottom.
fn inscription(piece: Piece, names: Names) -> Vec<String> {
    match names {
        Names::Kanji => kanji(piece.moves_as()).chars().map(String::from).collect(),
        Names::Letters(set) => {
            let mut s = String::new();
            piece.write(set, &mut s);
            vec![s]
        }
    }
}

/// One piece, its wedge pointing up, in the cell whose top left corner is
/// `(x, y)`; turned half round for the side at the top.
fn piece(out: &mut String, piece: Piece, up: bool, names: Names, x: f32, y: f32, cell: f32) {
    let (cx, cy) = (x + cell / 2.0, y + cell / 2.0);
    let p = |dx: f32, dy: f32| {
        format!(
            "{},{}",
            draw::num(cx + dx * cell),
            draw::num(cy + dy * cell)
        )
    };
    let turn = if up {
        String::new()
    } else {
        format!(
            " transform=\"rotate(180 {} {})\"",
            draw::num(cx),
            draw::num(cy)
        )
    };
    out.push_str(&format!(
        "<g{turn}><polygon points=\"{} {} {} {} {}\" fill=\"{WOOD}\" stroke=\"#5a4a20\" stroke-width=\"1\"/>",
        p(0.0, -0.45),
        p(0.34, -0.3),
        p(0.4, 0.45),
        p(-0.4, 0.45),
        p(-0.34, -0.3)
    ));
    let colour = if piece.promoted { "#c0141e" } else { "#111" };
    let lines = inscription(piece, names);
    let widest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(1) as f32;
    let size = match names {
        Names::Kanji => cell * 0.3,
        Names::Letters(_) => (cell * 0.72 / (0.62 * widest)).min(cell * 0.36),
    };
    let top = cy + 0.08 * cell - (lines.len() as f32 - 1.0) * size * 0.5;
    for (i, line) in lines.iter().enumerate() {
        let mut t = String::new();
        draw::text(
            &mut t,
            cx,
            top + i as f32 * size + size * 0.35,
            size,
            colour,
            line,
        );
        out.push_str(&t);
    }
    out.push_str("</g>\n");
}

/// Draws a tenjiku game's main line ([`crate::family::hooks::GameFamily::DRAW`]).
pub fn draw(game: &Game, view: &View<'_>) -> Result<Diagram, Problem> {
    if !rules::replayed(game) {
        return Err(draw::not_replayed());
    }
    let names = match view.pieces.and_then(Abbreviations::named) {
        Some(set) => Names::Letters(set),
        None => Names::Kanji,
    };
    let mut board = rules::start_of(game)
        .map_err(|e| Problem::whole(e).of_kind(crate::error::Kind::CannotDraw))?;
    let cell = 38.0;
    let grid = Grid {
        cols: 16,
        rows: 16,
        cell,
        margin: 18.0,
        flip: view.flip,
    };
    // Black's view: file 16 on the left, rank a (1) at the top.
    let at = |sq: Square| (16 - u32::from(sq.file()), 16 - u32::from(sq.rank()));
    let mut d = grid.diagram();
    let side = 16.0 * cell;
    draw::rect(&mut d.board, grid.margin, grid.margin, side, side, BOARD);
    for i in 0..=16 {
        let t = i as f32 * cell;
        let (x0, y0) = (grid.margin, grid.margin);
        draw::line(&mut d.board, (x0 + t, y0), (x0 + t, y0 + side), LINE, 1.0);
        draw::line(&mut d.board, (x0, y0 + t), (x0 + side, y0 + t), LINE, 1.0);
    }
    grid.labels(
        &mut d.board,
        |c| (16 - c).to_string(),
        |r| char::from(b'a' + (15 - r) as u8).to_string(),
    );
    let frame = |board: &rules::Board, last: Option<(Square, Square)>, taken: &[Square]| {
        let mut out = String::new();
        for sq in last.iter().flat_map(|&(a, b)| [a, b]) {
            let (c, r) = at(sq);
            grid.fill(&mut out, c, r, MARKED);
        }
        for (sq, man) in board.pieces() {
            let (c, r) = at(sq);
            let (x, y) = grid.corner(c, r);
            let up = (man.side == Side::Black) != view.flip;
            piece(&mut out, man.piece, up, names, x, y, cell);
        }
        for &sq in taken {
            let (cx, cy) = grid.centre(at(sq).0, at(sq).1);
            let a = cell * 0.25;
            draw::line(&mut out, (cx - a, cy - a), (cx + a, cy + a), TAKEN, 3.0);
            draw::line(&mut out, (cx - a, cy + a), (cx + a, cy - a), TAKEN, 3.0);
        }
        out
    };
    d.frames.push(frame(&board, None, &[]));
    for ply in &game.moves.plies {
        let m = ply
            .mv
            .of(
                crate::family::any::Family::Tenjiku,
                crate::family::any::Move::as_tenjiku,
            )
            .and_then(super::Ply::replayed)
            .map_err(|e| Problem::whole(e).of_kind(crate::error::Kind::WrongFamily))?;
        let fx = board.play(ply.side, m);
        // What it took, but where it now stands itself.
        let taken: Vec<Square> = fx
            .captured
            .iter()
            .chain(&fx.burned)
            .copied()
            .filter(|&s| s != m.to || fx.suicide)
            .collect();
        d.frames.push(frame(&board, Some((m.from, m.to)), &taken));
    }
    Ok(d)
}
